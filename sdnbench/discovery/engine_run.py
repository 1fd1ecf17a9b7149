"""The engine in network mode as a background process: started with a JSON config, stopped with
SIGINT when the caller has seen enough (the engine then writes its result and exits), always
reaped (SIGKILL to its process group as a last resort)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import tempfile
from pathlib import Path

from .. import procreg
from ..engine import driver
from ..errors import UserError


class EngineRun:
    def __init__(self, config: dict, live: bool = False):
        self._dir = tempfile.TemporaryDirectory(prefix="sdnbench-discovery-")
        d = Path(self._dir.name)
        (d / "config.json").write_text(json.dumps(config))
        self.out = d / "result.json"
        argv = [str(driver.binary()), "--config", str(d / "config.json"), "--json", str(self.out)]
        # live: the engine's own progress lines (switches connected, link directions probed) on
        # our stderr; otherwise its stderr is kept for the error message
        self.proc = subprocess.Popen(argv + ([] if live else ["--quiet"]), stdout=subprocess.DEVNULL,
                                     stderr=None if live else subprocess.PIPE, text=True, start_new_session=True,
                                     preexec_fn=procreg.dies_with_us())

    def running(self) -> bool:
        return self.proc.poll() is None

    def stop(self, grace_s: float = 20.0) -> dict:
        """Stop it (if still running) and return its result document (checked against the
        schema, as ``driver.run``'s)."""
        if self.running():
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGINT)
        try:
            _, err = self.proc.communicate(timeout=grace_s)
        except subprocess.TimeoutExpired:
            self.kill()
            err = ""
        doc = driver.read_document(self.out)
        if self.proc.returncode == 1 and doc is None:
            lines = (err or "").strip().splitlines()
            raise UserError(lines[-1] if lines else "sdnbench-engine rejected its configuration")
        if doc is None:
            tail = " | ".join((err or "").strip().splitlines()[-3:])
            raise RuntimeError(f"sdnbench-engine exited {self.proc.returncode} without a result: {tail}")
        return doc

    def kill(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def __enter__(self) -> "EngineRun":
        return self

    def __exit__(self, *exc) -> None:
        self.kill()
        self._dir.cleanup()
