"""The controller of one side's run, which a stimulus may kill and start again on its port
(``restart``) or stop and continue (``echo-silence``): ``launch`` as everywhere, the kill and
relaunch as ``bench/engine/restart.py`` does it (SIGKILL by PID, the first launch's block left
with its ``ControllerDied``, a second ``launch`` on the same port)."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from typing import Optional

from ..controllers import launch
from ..controllers.lifecycle import ControllerDied


class Managed:
    """``with Managed(spec, version, topo) as m``: ``m.ctl`` is the running controller."""

    def __init__(self, spec: str, version: str, topology):
        self.spec, self.version, self.topology = spec, version, topology
        self.ctl = None
        self.port: Optional[int] = None
        self._stack: Optional[contextlib.ExitStack] = None

    def _start(self) -> None:
        self._stack = contextlib.ExitStack()
        self.ctl = self._stack.enter_context(launch(self.spec, port=self.port, of_version=self.version,
                                                    topology=self.topology))
        self.port = self.ctl.port

    def __enter__(self) -> "Managed":
        self._start()
        return self

    def __exit__(self, *exc) -> Optional[bool]:
        stack, self._stack = self._stack, None
        return stack.__exit__(*exc) if stack is not None else None

    def restart(self, pause_s: float) -> float:
        """SIGKILL the controller (by its PID), wait ``pause_s``, launch it again on the same port
        (returns when it answers HELLO). Returns the wall-clock time of the kill."""
        t_kill = time.time()
        os.kill(self.ctl.pid, signal.SIGKILL)
        stack, self._stack = self._stack, None
        with contextlib.suppress(ControllerDied):      # killed here, on purpose
            stack.close()
        time.sleep(pause_s)
        self._start()
        return t_kill

    def silence(self, seconds: float) -> float:
        """SIGSTOP the controller's process group for ``seconds``, then SIGCONT (always).
        Returns the wall-clock time just before the SIGCONT (the controller answers what waited
        within microseconds of it)."""
        pgid = os.getpgid(self.ctl.pid)
        os.killpg(pgid, signal.SIGSTOP)
        try:
            time.sleep(seconds)
        finally:
            t_cont = time.time()
            os.killpg(pgid, signal.SIGCONT)
        return t_cont
