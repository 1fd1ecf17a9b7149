"""Tests that stop a command by a signal mid-run and check what it left: the process reaped
whatever happens (``reaped``), the signal and its stderr (``signalled``), and a CLI command
stopped once its store holds enough finished cells (``sigterm_after``, the orchestration tests
``commands/test_*_orchestration.py``)."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import time
from pathlib import Path

from ..store import Store


@contextlib.contextmanager
def reaped(p: subprocess.Popen):
    """``p`` killed and reaped if it still runs when the block ends (a failed assertion, a
    timeout): a test never leaves its command behind."""
    try:
        yield p
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def signalled(p: subprocess.Popen, sig: int, timeout: float = 60) -> str:
    """Send ``sig`` to ``p`` and wait for it to end; its stderr."""
    p.send_signal(sig)
    return p.communicate(timeout=timeout)[1]


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
    with reaped(p):
        deadline = time.monotonic() + within_s
        while time.monotonic() < deadline and p.poll() is None and ok_cells(store) < ok:
            time.sleep(0.1)
        time.sleep(then_s)
        err = signalled(p, signal.SIGTERM)
    return p.returncode, err
