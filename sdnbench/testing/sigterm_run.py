"""A CLI command stopped by SIGTERM once its store holds enough finished cells: what the
orchestration tests (``commands/test_*_orchestration.py``) check an interrupted run against."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from ..store import Store


def ok_cells(store: Path) -> int:
    """Cells stored with status ok, over every run (0 before the store exists)."""
    if not (store / "results.sqlite").exists():
        return 0
    with Store(store, create=False) as s:
        return sum(c.status == "ok" for r in s.runs() for c in s.cells(r.id))


def sigterm_after(args: list, store: Path, ok: int, within_s: float, then_s: float = 0.0) -> tuple:
    """Run ``python -m sdnbench ARGS``; once ``ok`` cells are stored (or it ended, or
    ``within_s`` passed) wait ``then_s`` and send SIGTERM. Returns (exit code, stderr)."""
    p = subprocess.Popen([sys.executable, "-m", "sdnbench", *args],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + within_s
        while time.monotonic() < deadline and p.poll() is None and ok_cells(store) < ok:
            time.sleep(0.1)
        time.sleep(then_s)
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    return p.returncode, err
