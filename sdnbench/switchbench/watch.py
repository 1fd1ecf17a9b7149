"""Is the switch under test still alive? One answer per kind of switch process, each a
``Watch`` whose ``dead()`` is None while the process lives and, once it is gone, one line: which
program, its pid, how it ended (the signal or the exit status) and the tail of its output.

- ``ChildWatch``: a program sdnbench started (``proc.Tracked``: CPqD's ``ofdatapath`` and
  ``ofprotocol``, the engine): its exit status is ours to read; its output is in a log file.
- ``DaemonWatch``: a daemon sdnbench did not start (``ovs-vswitchd``): its pid read from its
  pidfile when the run begins; gone when that pid no longer runs it. How it ended is read from its
  log, where OVS's ``--monitor`` writes ``pid N died, killed (Killed), restarting``.

``ended(status)`` and ``monitor_verdict(log, pid)`` are pure.
"""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path
from typing import Optional, Protocol


class Watch(Protocol):
    def dead(self) -> Optional[str]: ...


def ended(returncode: int) -> str:
    """How a child ended, from ``Popen.returncode`` (negative: the signal)."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"killed by {name} ({-returncode})"
    return f"exited with status {returncode}"


def tail(path: Optional[Path], lines: int = 5) -> str:
    """The last ``lines`` of a log file, joined with `` | `` (empty when there is none)."""
    if path is None or not Path(path).exists():
        return ""
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        f.seek(max(0, f.tell() - 16 * 1024))
        text = f.read().decode("utf-8", "replace")
    return " | ".join(x.strip() for x in text.splitlines()[-lines:] if x.strip())


class ChildWatch:
    """A child of ours (``proc.Tracked``)."""

    def __init__(self, tracked) -> None:
        self.tracked = tracked

    @property
    def pid(self) -> int:
        return self.tracked.pid

    @property
    def log(self) -> Optional[Path]:
        return self.tracked.log_path

    def dead(self) -> Optional[str]:
        rc = self.tracked.popen.poll()
        if rc is None:
            return None
        out = tail(self.log)
        return (f"{self.tracked.name} (pid {self.pid}) {ended(rc)}"
                + (f"; its output ({self.log}): {out}" if self.log else ""))


_MONITOR = re.compile(r"pid (?P<pid>\d+) died, (?P<how>[^,]+(?:\([^)]*\))?)")


def monitor_verdict(log_text: str, pid: int) -> Optional[str]:
    """What OVS's monitor logged about ``pid`` ("killed (Killed)", "exit status 1"), the last
    such line; None when it logged nothing about it."""
    found = None
    for m in _MONITOR.finditer(log_text):
        if int(m.group("pid")) == pid:
            found = m.group("how").strip()
    return found


def _runs(pid: int, comm: str) -> bool:
    """``pid`` is a live process named ``comm`` (not a zombie, not a reused pid)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    name = stat[stat.index("(") + 1:stat.rindex(")")]
    state = stat[stat.rindex(")") + 2:].split()[0]
    return name == comm[:15] and state not in ("Z", "X")


MONITOR_WAIT_S = 2.0


class DaemonWatch:
    """A daemon found by its pidfile (``ovs-vswitchd``), its log read for how it ended."""

    def __init__(self, name: str, pidfile: Path, log: Path) -> None:
        self.name, self.pidfile, self.log = name, Path(pidfile), Path(log)
        try:
            self.pid = int(self.pidfile.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            self.pid = 0
        self._log_start = self.log.stat().st_size if self.log.exists() else 0
        self._verdict: Optional[str] = None

    def dead(self) -> Optional[str]:
        if self._verdict is None and not (self.pid and _runs(self.pid, self.name)):
            how = None
            for _ in range(int(MONITOR_WAIT_S / 0.1)):  # the monitor logs a moment after the death
                how = monitor_verdict(self._log_since_start(), self.pid)
                if how:
                    break
                time.sleep(0.1)
            self._verdict = (f"{self.name} (pid {self.pid}) " + (f"died, {how}" if how else "is gone")
                             + f"; its log ({self.log}): {tail(self.log)}")
        return self._verdict

    def _log_since_start(self) -> str:
        if not self.log.exists():
            return ""
        with open(self.log, "rb") as f:
            f.seek(min(self._log_start, self.log.stat().st_size))
            return f.read().decode("utf-8", "replace")


def ovs_vswitchd() -> DaemonWatch:
    """The ovs-vswitchd that ``ovs-vsctl`` reaches (``$OVS_RUNDIR``, ``$OVS_LOGDIR`` as OVS reads them)."""
    run = Path(os.environ.get("OVS_RUNDIR", "/var/run/openvswitch"))
    logs = Path(os.environ.get("OVS_LOGDIR", "/var/log/openvswitch"))
    return DaemonWatch("ovs-vswitchd", run / "ovs-vswitchd.pid", logs / "ovs-vswitchd.log")


def first_death(watches: list) -> Optional[str]:
    for w in watches:
        why = w.dead()
        if why:
            return why
    return None
