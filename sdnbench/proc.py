"""Processes that sdnbench starts, and the signals that must not skip their clean-up.

Invariants:
- Every long-lived child is started in its own session (``start_new_session=True``), so it and
  everything it forks form one process group that ``Tracked.stop`` ends as a whole.
- Every such child dies with sdnbench (``PR_SET_PDEATHSIG``) and is recorded with its start time
  (``sdnbench.procreg``) until it is stopped, so ``net clean`` can end it after a kill -9.
- Nothing here ever signals a process that sdnbench did not start: stops go by PID or by the
  process group of a child we spawned. No ``pkill``, no ``killall``, no ``mn -c``.
- ``signals_as_exceptions`` turns SIGTERM and SIGHUP (and SIGINT) into ``Interrupted``, because a
  plain ``timeout`` sends SIGTERM, and Python's default handler would skip every ``finally``.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Optional, Sequence

from . import procreg
from .errors import Interrupted, UserError

_HANDLED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _raise_interrupted(signum, _frame):
    # Ignore repeats while clean-up runs: a second Ctrl-C must not abort the clean-up itself.
    for s in _HANDLED:
        signal.signal(s, signal.SIG_IGN)
    raise Interrupted(signum)


# A signal that landed in a finalizer (a ``__del__``, a weakref callback such as logging's): Python
# drops the exception there ("Exception ignored in ..."), so it is kept here and raised again by
# ``raise_if_swallowed`` at the next check: the run still ends as interrupted, never as complete.
_swallowed: list = []


def _keep_swallowed(unraisable, previous) -> None:
    if isinstance(unraisable.exc_value, Interrupted):
        _swallowed.append(unraisable.exc_value.signum)
    else:
        previous(unraisable)


def raise_if_swallowed() -> None:
    """Raise ``Interrupted`` for a signal whose exception a finalizer swallowed (see above)."""
    if _swallowed:
        signum = _swallowed[0]
        _swallowed.clear()
        raise Interrupted(signum)


@contextlib.contextmanager
def signals_as_exceptions() -> Iterator[None]:
    """Within the block, SIGINT/SIGTERM/SIGHUP raise ``Interrupted`` in the main thread; one
    that a finalizer swallowed is raised at the next ``raise_if_swallowed`` or, at the latest,
    when the block ends."""
    previous = {s: signal.getsignal(s) for s in _HANDLED}
    hook = sys.unraisablehook
    sys.unraisablehook = functools.partial(_keep_swallowed, previous=hook)
    for s in _HANDLED:
        signal.signal(s, _raise_interrupted)
    try:
        yield
        raise_if_swallowed()
    finally:
        for s, h in previous.items():
            signal.signal(s, h)
        sys.unraisablehook = hook
        _swallowed.clear()


def wait_until(predicate: Callable[[], bool], timeout: float, what: str,
               first: float = 0.005, cap: float = 0.2) -> None:
    """Poll ``predicate`` with growing intervals until it is true; raise UserError on timeout.

    This replaces fixed sleeps: it returns as soon as the condition holds.
    """
    deadline = time.monotonic() + timeout
    delay = first
    while True:
        raise_if_swallowed()
        if predicate():
            return
        now = time.monotonic()
        if now >= deadline:
            raise UserError(f"timed out after {timeout:g}s waiting for {what}")
        time.sleep(min(delay, cap, deadline - now))
        delay *= 1.6


@dataclass
class Tracked:
    """A child process (and its process group) that sdnbench started and must stop."""

    name: str
    popen: subprocess.Popen
    log_path: Optional[Path] = None
    _log_file: Optional[object] = field(default=None, repr=False)

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def log_tail(self, lines: int = 20) -> str:
        if not self.log_path or not self.log_path.exists():
            return ""
        with open(self.log_path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 64 * 1024))
            text = f.read().decode("utf-8", "replace")
        return "\n".join(text.splitlines()[-lines:])

    def stop(self, grace: float = 5.0) -> Optional[int]:
        """SIGTERM the process group, then SIGKILL after ``grace`` seconds; reap it."""
        try:
            if self.alive():
                _signal_group(self.popen.pid, signal.SIGTERM)
                try:
                    self.popen.wait(timeout=grace)
                except subprocess.TimeoutExpired:
                    _signal_group(self.popen.pid, signal.SIGKILL)
                    self.popen.wait(timeout=grace)
            # Members of the group may outlive its leader (or ignore SIGTERM): end them too.
            # While any member lives the group id cannot be reused, so this reaches only ours.
            _signal_group(self.popen.pid, signal.SIGKILL)
        finally:
            if self.popen.returncode is not None:
                procreg.forget(self.popen.pid)
            if self._log_file is not None:
                self._log_file.close()
                self._log_file = None
        return self.popen.returncode


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def spawn(name: str, argv: Sequence[str], log_path: Optional[Path] = None,
          env: Optional[dict] = None, cwd: Optional[Path] = None) -> Tracked:
    """Start ``argv`` in a new session, output to ``log_path`` (or discarded)."""
    log_file = open(log_path, "ab") if log_path else None
    try:
        popen = subprocess.Popen(
            list(argv), stdin=subprocess.DEVNULL,
            stdout=log_file or subprocess.DEVNULL, stderr=subprocess.STDOUT,
            env=env, cwd=cwd, start_new_session=True, preexec_fn=procreg.dies_with_us())
    except FileNotFoundError:
        if log_file:
            log_file.close()
        raise UserError(f"{name}: command not found: {argv[0]} (run `sdnbench doctor`)")
    procreg.record(popen.pid, name, list(argv))
    return Tracked(name=name, popen=popen, log_path=log_path, _log_file=log_file)


class ProcessSet:
    """Children that stop together, in reverse start order, when the block exits."""

    def __init__(self) -> None:
        self._items: list[Tracked] = []

    def add(self, tracked: Tracked) -> Tracked:
        self._items.append(tracked)
        return tracked

    def spawn(self, name: str, argv: Sequence[str], **kw) -> Tracked:
        return self.add(spawn(name, argv, **kw))

    def stop_all(self) -> None:
        while self._items:
            self._items.pop().stop()

    def __enter__(self) -> "ProcessSet":
        return self

    def __exit__(self, *exc) -> None:
        self.stop_all()


def run(argv: Sequence[str], timeout: float = 60, check: bool = True,
        what: Optional[str] = None) -> subprocess.CompletedProcess:
    """Run a short command to completion and capture its output as text."""
    try:
        cp = subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout)
    except FileNotFoundError:
        raise UserError(f"command not found: {argv[0]} (run `sdnbench doctor`)")
    except subprocess.TimeoutExpired:
        raise UserError(f"{what or argv[0]} did not finish within {timeout:g}s")
    if check and cp.returncode != 0:
        msg = (cp.stderr or cp.stdout).strip().splitlines()
        raise UserError(f"{what or ' '.join(argv[:2])} failed: {msg[-1] if msg else cp.returncode}")
    return cp
