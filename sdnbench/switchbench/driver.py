"""Run ``sdnbench-switch`` and read its document (``sdnbench.switch/1``,
``crates/switchbench/SCHEMA.md``).

``Switchbench`` starts the binary, waits for its "listening on" line (so the switch is pointed
at a port that already accepts), and ``wait()`` returns the document. Exit 1 of the binary is
bad input or a switch that never connected: raised as its one line. Ctrl-C/SIGTERM
(``Interrupted``) stops the binary by its PID and keeps the partial document it wrote after
each finished test.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Optional

from .. import paths, procreg
from ..errors import CheckFailed, Interrupted, UserError
from ..lifecycle import Built

SCHEMA = "sdnbench.switch/1"
BINARY = "sdnbench-switch"


def binary() -> Path:
    return paths.built_binary(BINARY)


class SwitchbenchInterrupted(Interrupted):
    """Interrupted during a run; carries the tests finished before (or None)."""

    def __init__(self, signum: int, doc: Optional[dict]):
        super().__init__(signum)
        self.doc = doc


class Switchbench(Built):
    def __init__(self, args: list) -> None:
        self._dir = tempfile.TemporaryDirectory(prefix="sdnbench-switch-")
        self.out = Path(self._dir.name) / "switch.json"
        self.argv = [str(binary()), *args, "--json", str(self.out)]
        self.proc: Optional[subprocess.Popen] = None
        self.address: Optional[str] = None

    def __enter__(self) -> "Switchbench":
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True, start_new_session=True,
                                     preexec_fn=procreg.dies_with_us())
        return super().__enter__()

    def build(self) -> None:
        self.address = self._listening(timeout=20)

    def close(self) -> None:
        self._stop()
        self._dir.cleanup()

    def _listening(self, timeout: float) -> str:
        assert self.proc is not None and self.proc.stderr is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.proc.stderr], [], [], 0.1)
            if ready:
                line = self.proc.stderr.readline()
                if "listening on " in line:
                    return line.rsplit("listening on ", 1)[1].strip()
                if not line:
                    break
                self._first_error = line
            if self.proc.poll() is not None:
                break
        self.proc.wait(timeout=5)
        rest = (self.proc.stderr.read() or "").strip().splitlines()
        lines = [getattr(self, "_first_error", "").strip(), *rest]
        msg = next((ln for ln in reversed(lines) if ln), f"exited {self.proc.returncode}")
        raise UserError(msg.replace("sdnbench-switch: error: ", ""))

    def wait(self, timeout: Optional[float] = None) -> dict:
        """The document, once the binary exits."""
        assert self.proc is not None and self.proc.stderr is not None
        try:
            stderr = self.proc.communicate(timeout=timeout)[1]
        except Interrupted as e:
            raise self.interrupted(e.signum) from None
        except subprocess.TimeoutExpired:
            self._stop()
            raise UserError(f"sdnbench-switch did not finish within {timeout:g}s")
        lines = [ln for ln in (stderr or "").strip().splitlines() if ln.strip()]
        if self.proc.returncode in (1, 2):
            # 1: the input, refused before the switch was waited for; 2: the switch under test
            # failed the run (never connected, or its session broke): one line either way
            error = UserError if self.proc.returncode == 1 else CheckFailed
            raise error(lines[-1].replace("sdnbench-switch: error: ", "") if lines
                        else f"sdnbench-switch exited {self.proc.returncode}")
        doc = self._read()
        if doc is None or self.proc.returncode != 0:
            raise RuntimeError(f"sdnbench-switch exited {self.proc.returncode} without a document: "
                               f"{' | '.join(lines[-3:])}")
        return doc

    def interrupted(self, signum: int) -> SwitchbenchInterrupted:
        """Stop the binary; the interrupt, carrying the tests it finished before (its document)."""
        self._stop()
        return SwitchbenchInterrupted(signum, self._read())

    def _read(self) -> Optional[dict]:
        try:
            doc = json.loads(self.out.read_text())
        except (FileNotFoundError, json.JSONDecodeError):
            return None
        if doc.get("schema") != SCHEMA:
            raise RuntimeError(f"sdnbench-switch wrote schema {doc.get('schema')!r}, expected {SCHEMA!r}")
        return doc

    def _stop(self) -> None:
        p = self.proc
        if p is None or p.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(p.pid, signal.SIGTERM)
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait()
