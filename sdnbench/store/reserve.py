"""Room kept aside on the store's disk while a store is open for writing.

SQLite cannot write even one status update into a full disk, so a run that filled the disk would
stay ``running`` for ever. A writer therefore holds ``DIR/.reserve-PID-N`` (``SIZE`` bytes,
allocated, never read) and lets go of it when the disk fills: the run's last status then fits.
A store that cannot get its reserve is on a disk too full to work in, which is said before
anything is measured. The file goes when the store closes; one left by a killed process is
removed by the next writer.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from pathlib import Path

from ..procreg import pid_alive

SIZE = 64 * 1024        # a status update is one or two WAL frames (4 KiB pages); room for many
PREFIX = ".reserve-"
_serial = itertools.count()


class Reserve:
    def __init__(self, directory: Path):
        self.path = Path(directory) / f"{PREFIX}{os.getpid()}-{next(_serial)}"
        self.held = False

    def hold(self) -> None:
        """Allocate the room; ``OSError`` (ENOSPC) when the disk has less than ``SIZE`` free."""
        _remove_stale(self.path.parent)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.posix_fallocate(fd, 0, SIZE)
        except OSError:
            os.close(fd)
            self.path.unlink(missing_ok=True)
            raise
        os.close(fd)
        self.held = True

    def release(self) -> bool:
        """Give the room back to the disk; True if there was any to give."""
        had, self.held = self.held, False
        with contextlib.suppress(OSError):
            self.path.unlink()
        return had


def _remove_stale(directory: Path) -> None:
    """Reserves of processes that are gone (killed before they closed their store)."""
    for p in directory.glob(f"{PREFIX}*"):
        pid = p.name[len(PREFIX):].split("-")[0]
        if pid.isdigit() and not pid_alive(int(pid)):
            with contextlib.suppress(OSError):
                p.unlink()


