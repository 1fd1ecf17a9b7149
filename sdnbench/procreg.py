"""What a run started, recorded where ``sdnbench net clean`` finds it after a kill -9.

Every child ``sdnbench.proc.spawn`` starts (controllers, tools) is listed in one file per
sdnbench process: ``<state>/run/procs/<pid>-<start>.json`` = ``{"owner": {pid, start},
"children": [{pid, start, name, argv}]}``, written before ``spawn`` returns and updated when a
child is stopped. PIDs are stored with their start time (``/proc/PID/stat`` field 22), so a
reused PID is never mistaken for ours.

``orphans()`` lists the children of owners that are gone (dead, or their PID now belongs to a
different process); ``reap(orphans)`` ends their process groups (each child leads its own
session, see ``proc.spawn``) and removes the record. A live owner's children are never touched.

Processes started some other way (plain ``subprocess``, e.g. the engine) are found too: the CLI
sets ``SDNBENCH_OWNER=PID-START`` in its own environment at start (``mark_owner``), every
descendant inherits it, and ``orphans`` also looks for processes carrying a dead owner's tag.

Children also get ``PR_SET_PDEATHSIG`` (SIGKILL when sdnbench dies), so in the common case there
is nothing left to reap; the record covers what that cannot reach (grandchildren in the
child's group, a parent thread that ended first).
"""

from __future__ import annotations

import ctypes
import functools
import json
import os
import signal
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from .paths import runtime_dir

PR_SET_PDEATHSIG = 1
OWNER_ENV = "SDNBENCH_OWNER"
_lock = threading.Lock()
_libc = None


def start_time(pid: int) -> Optional[str]:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def die_with_parent(parent: Optional[int] = None) -> None:
    """``preexec_fn``: SIGKILL this child when the process that started it dies. ``parent``:
    that process's pid; a child whose parent died before the setting took hold exits at once."""
    _load_libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent is not None and os.getppid() != parent:
        os._exit(1)


def _load_libc():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc


def dies_with_us() -> Optional[Callable[[], None]]:
    """The ``preexec_fn`` that makes a child die with this process (``die_with_parent``), or
    None off the main thread: PDEATHSIG follows the *thread* that forked, and a worker thread
    may end before the process does."""
    if threading.current_thread() is not threading.main_thread():
        return None
    _load_libc()   # here, not in the forked child (a loader lock held by another thread)
    return functools.partial(die_with_parent, os.getpid())


def mark_owner() -> None:
    """Tag this process (and so every descendant) with its pid and start time."""
    os.environ[OWNER_ENV] = f"{os.getpid()}-{start_time(os.getpid())}"


def _tagged() -> dict:
    """``{pid: owner tag}`` of every process carrying ``SDNBENCH_OWNER``."""
    out = {}
    key = OWNER_ENV.encode() + b"="
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) == os.getpid():
            continue
        try:
            with open(f"/proc/{d}/environ", "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue
        for item in env:
            if item.startswith(key):
                out[int(d)] = item[len(key):].decode(errors="replace")
    return out


def _dir() -> Path:
    return runtime_dir("procs")


def _own_file() -> Path:
    pid = os.getpid()
    return _dir() / f"{pid}-{start_time(pid)}.json"


def _read(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def _write(path: Path, data: dict) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data))
    os.replace(tmp, path)


def record(pid: int, name: str, argv: list) -> None:
    """Add a child we just started to this process's record (best effort: an unwritable state
    directory must not stop a measurement; PDEATHSIG and the owner tag still apply)."""
    try:
        _record(pid, name, argv)
    except OSError:
        pass


def _record(pid: int, name: str, argv: list) -> None:
    with _lock:
        path = _own_file()
        data = _read(path) or {"owner": {"pid": os.getpid(), "start": start_time(os.getpid())},
                               "children": []}
        data["children"].append({"pid": pid, "start": start_time(pid), "name": name,
                                 "argv": [str(a) for a in argv][:8]})
        _write(path, data)


def forget(pid: int) -> None:
    """A child was stopped and reaped: drop it (and the file when none is left)."""
    try:
        _forget(pid)
    except OSError:
        pass


def _forget(pid: int) -> None:
    with _lock:
        path = _own_file()
        data = _read(path)
        if not data:
            return
        data["children"] = [c for c in data["children"] if c["pid"] != pid]
        if data["children"]:
            _write(path, data)
        else:
            path.unlink(missing_ok=True)


@dataclass
class Orphan:
    pid: int
    name: str
    owner: int
    record: Optional[Path]          # None: found by its SDNBENCH_OWNER tag

    def describe(self) -> str:
        return f"process {self.pid} ({self.name}) left by dead sdnbench pid {self.owner}"


def pid_alive(pid: int) -> bool:
    """Does a process with this pid exist (one of another user's counts)?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _alive(entry: dict) -> bool:
    return bool(entry.get("pid")) and start_time(entry["pid"]) == entry.get("start")


def orphans() -> tuple:
    """``(orphans, dead_records)``: live children of dead owners, and records of dead owners."""
    found, dead = [], []
    for path in sorted(_dir().glob("*.json")):
        data = _read(path)
        if not data or _alive(data.get("owner", {})):
            continue
        dead.append(path)
        for c in data.get("children", []):
            if _alive(c):
                found.append(Orphan(c["pid"], c.get("name", "?"), data["owner"].get("pid"), path))
    seen = {o.pid for o in found}
    for pid, tag in _tagged().items():
        owner, _, start = tag.partition("-")
        if pid in seen or not owner.isdigit() or _alive({"pid": int(owner), "start": start}):
            continue
        name = _comm(pid)
        if name is not None:
            found.append(Orphan(pid, name, int(owner), None))
    return found, dead


def _comm(pid: int) -> Optional[str]:
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return None


def reap(found: list, dead: list) -> None:
    """End each orphan's process group (SIGTERM, then SIGKILL), then drop the dead records."""
    import time

    for o in found:
        _group(o.pid, signal.SIGTERM) if o.record else _one(o.pid, signal.SIGTERM)
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and any(start_time(o.pid) for o in found):
        time.sleep(0.05)
    for o in found:
        _group(o.pid, signal.SIGKILL) if o.record else _one(o.pid, signal.SIGKILL)
    for path in dead:
        path.unlink(missing_ok=True)


def _one(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _group(pid: int, sig: int) -> None:
    for send in (lambda: os.killpg(pid, sig), lambda: os.kill(pid, sig)):
        try:
            send()
        except (ProcessLookupError, PermissionError):
            pass
