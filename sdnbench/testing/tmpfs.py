"""A small tmpfs for storage-fault tests: a disk that really fills (ENOSPC) and really turns
read-only (``mount -o remount,ro``). Needs root (``mount``); the tests that use it skip without.

    with tmpfs("4m") as d:        # a mounted, empty directory (0755, so another uid can reach it)
        fill(d, leave=200_000)    # a file taking all but about 200 kB
        with read_only(d): ...
        damage(d / "st" / "results.sqlite", "page")   # or "truncated", "garbage"
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Iterator

FILLER = ".filler"
BIG = 100_000      # synthetic samples (800 kB): more than a disk ``fill``ed to leave 300 kB takes
# a campaign that fills such a disk in its second cell: the first is stored, the second is not
FILLING = f"""name: filling
order: sequential
benchmarks:
  - name: small
    kind: synthetic
    params: {{value: 5, samples: 5}}
  - name: big
    kind: synthetic
    params: {{value: 5, samples: {BIG}}}
"""


def can_mount() -> bool:
    return os.geteuid() == 0 and shutil.which("mount") is not None


@contextlib.contextmanager
def tmpfs(size: str = "4m") -> Iterator[Path]:
    d = Path(tempfile.mkdtemp(prefix="sdnbench-tmpfs-", dir="/tmp"))
    try:
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(d)],
                       check=True, capture_output=True)
        try:
            yield d
        finally:
            subprocess.run(["umount", "-l", str(d)], check=True, capture_output=True)
    finally:
        d.rmdir()


def fill(d: Path, leave: int = 0) -> None:
    """Fill the file system of ``d`` with one file until ``leave`` bytes (at most) are free."""
    st = os.statvfs(d)
    size = max(0, st.f_bavail * st.f_frsize - leave)
    with open(d / FILLER, "wb", buffering=0) as f:
        with contextlib.suppress(OSError):          # ENOSPC when leave is 0: full, as meant
            for _ in range(size // 65536):
                f.write(b"\0" * 65536)
            f.write(b"\0" * (size % 65536))


def unfill(d: Path) -> None:
    (d / FILLER).unlink(missing_ok=True)


@contextlib.contextmanager
def read_only(d: Path) -> Iterator[None]:
    subprocess.run(["mount", "-o", "remount,ro", str(d)], check=True, capture_output=True)
    try:
        yield
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(d)], check=True, capture_output=True)


def damage(db: Path, how: str) -> None:
    """Damage an SQLite file (its log checkpointed into it first): ``page`` overwrites page 2 (the
    first table's root), ``truncated`` keeps its first half, ``garbage`` is not a database at all."""
    import sqlite3

    c = sqlite3.connect(db, isolation_level=None)
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    c.close()
    data = bytearray(db.read_bytes())
    if how == "page":
        page = int.from_bytes(data[16:18], "big")
        data[page:2 * page] = b"\xa5" * page
    elif how == "truncated":
        data = data[:len(data) // 2]
    else:
        data = bytearray(b"not a database " * 300)
    db.write_bytes(bytes(data))
