"""A results store that cannot be used, told apart: its disk is full, it is read-only, another
process holds its write lock, or its file is damaged (a malformed page, truncated, not a
database at all). Each is one line (``StoreFault``) naming the file and what to do; none of them
is called corruption unless the file is damaged. An error that is none of these is a bug in
sdnbench and keeps its traceback.

SQLite's primary result codes (https://www.sqlite.org/rescode.html) and the OS's errno decide
the kind; the file's 100-byte header (https://www.sqlite.org/fileformat.html §1.3) tells a
truncated file from one with a damaged page.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path
from typing import Optional

from ..errors import UserError

FULL, READ_ONLY, LOCKED, DAMAGED, IO = "full", "read-only", "locked", "damaged", "i/o error"
BUSY_TIMEOUT_S = 30.0      # how long a writer waits for another's write lock before it is a fault

# primary result codes
_BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 5, 6, 8, 10, 11, 13, 14, 26
_BY_CODE = {_BUSY: LOCKED, _LOCKED: LOCKED, _READONLY: READ_ONLY, _CORRUPT: DAMAGED, _NOTADB: DAMAGED,
            _FULL: FULL, _IOERR: IO}
_IOERR_SHORT_READ = _IOERR | (2 << 8)          # the file ends before a page it should hold
_BY_ERRNO = {errno.ENOSPC: FULL, errno.EDQUOT: FULL, errno.EROFS: READ_ONLY, errno.EACCES: READ_ONLY,
             errno.EPERM: READ_ONLY}
MAGIC = b"SQLite format 3\x00"
WHY = {FULL: "its disk was full", READ_ONLY: "it was read-only", LOCKED: "another process held its lock",
       DAMAGED: "its file is damaged", IO: "an I/O error"}      # why a result was not stored


class StoreFault(UserError):
    """A store that cannot take or give results; ``kind`` one of the kinds above. Exit 1 before
    anything was measured; 2 when it ended a run (what was measured is in a rescue file)."""

    def __init__(self, kind: str, message: str, exit_code: int = 1):
        super().__init__(message)
        self.kind = kind
        self.exit_code = exit_code


def kind_of(e: BaseException, db: Path) -> Optional[str]:
    """The kind of fault ``e`` is for the store file ``db``, or None (then it is a bug)."""
    if isinstance(e, StoreFault):
        return e.kind
    if isinstance(e, sqlite3.Error):
        code = getattr(e, "sqlite_errorcode", None)
        if code is None:
            return None
        if code == _IOERR_SHORT_READ:
            return DAMAGED
        if code & 0xFF == _CANTOPEN:
            return _cannot_open(db)
        kind = _BY_CODE.get(code & 0xFF)
        return FULL if kind == IO and _free_bytes(db.parent) == 0 else kind
    if isinstance(e, OSError):
        return _BY_ERRNO.get(e.errno)
    return None


def fault(e: BaseException, db: Path, exit_code: int = 1) -> Optional[StoreFault]:
    """``e`` as a ``StoreFault`` naming ``db`` and what to do, or None when it is no fault."""
    if isinstance(e, StoreFault):
        return e
    kind = kind_of(e, db)
    if kind is None:
        return None
    return StoreFault(kind, line(kind, db, e), exit_code)


def line(kind: str, db: Path, e: BaseException) -> str:
    where = db.parent
    if kind == FULL:
        return (f"the disk under the results store {where} is full ({_free_bytes(where) // 1024} KiB free): "
                f"free some space, or name another store with --store DIR")
    if kind == READ_ONLY:
        return (f"the results store {db} is read-only ({_why_read_only(db)}): it can be read "
                f"(`sdnbench results list --store {where}`), not written; make it writable or name "
                "another store with --store DIR")
    if kind == LOCKED:
        return (f"the results store {db} is locked: another process{_holders(db)} has held its write "
                f"lock for over {BUSY_TIMEOUT_S:g} s; let it finish, or name another store with --store DIR")
    if kind == DAMAGED:
        return f"the results store {db} {damage(db)}"
    return (f"the results store {db} could not be read or written ({e}): check the disk "
            "(the kernel log names the device), or name another store with --store DIR")


def damage(db: Path) -> str:
    """What is wrong with a damaged store file, and what to do: '... is not an SQLite database'."""
    try:
        size = db.stat().st_size
        with open(db, "rb") as f:
            head = f.read(100)
    except OSError as e:
        return f"cannot be read ({e.strerror})"
    if len(head) < 100 or not head.startswith(MAGIC):
        return ("is not an SQLite database (its first bytes are not SQLite's): move it aside, or name "
                "another store with --store DIR")
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(head[28:32], "big")
    if size < page * pages:
        what = f"is truncated ({size} of the {page * pages} bytes its header counts)"
    else:
        what = "has a damaged page (SQLite: database disk image is malformed)"
    return (f"{what}: move it aside and name a new store with --store DIR; runs clear of the damage may "
            f"still export one by one (`sdnbench results export RUN --store {db.parent}`)")


def _cannot_open(db: Path) -> Optional[str]:
    if _free_bytes(db.parent) == 0:
        return FULL
    if not os.access(db.parent, os.W_OK) or (db.exists() and not os.access(db, os.W_OK)):
        return READ_ONLY
    return None


def _free_bytes(directory: Path) -> int:
    """Free bytes on the disk under ``directory`` (or its nearest parent that exists)."""
    while not directory.exists() and directory != directory.parent:
        directory = directory.parent
    try:
        st = os.statvfs(directory)
    except OSError:
        return -1
    return st.f_bavail * st.f_frsize


def _why_read_only(db: Path) -> str:
    try:
        if os.statvfs(db.parent).f_flag & os.ST_RDONLY:
            return "its file system is mounted read-only"
    except OSError:
        pass
    if not os.access(db.parent, os.W_OK):
        return f"its directory is not writable by uid {os.getuid()}"
    return f"its file is not writable by uid {os.getuid()}"


def _holders(db: Path) -> str:
    """' (pid 123)': the processes /proc/locks says hold a write lock on the store's files."""
    ids = set()
    for p in (db, Path(f"{db}-shm"), Path(f"{db}-wal")):
        try:
            st = p.stat()
        except OSError:
            continue
        ids.add(f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}")
    try:
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return ""
    pids = sorted({int(f[4]) for f in (ln.split() for ln in lines)
                   if len(f) > 5 and f[3] == "WRITE" and f[5] in ids and f[4].isdigit()
                   and int(f[4]) != os.getpid()})
    return f" (pid {', '.join(map(str, pids))})" if pids else ""
