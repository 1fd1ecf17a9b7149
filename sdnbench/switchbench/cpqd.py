"""The CPqD user switch (ofsoftswitch13) as sdnbench runs it, for ``switch bench --target cpqd``
and ``switch conformance --target cpqd``: ``ofdatapath`` on the given interfaces, its OpenFlow
channel on a Unix socket, and ``ofprotocol`` relaying that socket to our controller on loopback.

What its source says (``udatapath/udatapath.c``, ``lib/vconn-tcp.c``, ``secchan/secchan.c`` at
the commit ``sdnbench/install/recipes/cpqd.py`` names):

- ``--datapath-id`` takes exactly 12 hex-looking characters and reads them with
  ``strtoll(optarg, NULL, 12)``: base 12. ``dpid_arg`` writes a datapath id so (12 base-12
  digits, which are all hex characters); anything else makes ``ofdatapath`` exit at once.
- ``ptcp:PORT`` binds INADDR_ANY (no address can be given): every interface. ``punix:FILE``
  listens on a Unix socket, which ``ofprotocol`` reaches as ``unix:FILE``; nothing binds TCP.
- ``ofprotocol`` starts in-band control unless ``--out-of-band``.

Both programs' output goes to log files under ``<state>/run/switches/cpqd-*`` that stay after
the run; their ``ChildWatch`` (``watch.py``) names them when one dies.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Optional

from .. import paths, proc
from ..errors import UserError
from .watch import ChildWatch

BINARIES = ("ofdatapath", "ofprotocol")
DPID_DIGITS = 12


def missing() -> list:
    return [b for b in BINARIES if shutil.which(b) is None]


def check_installed(flag: str = "--target cpqd") -> None:
    """UserError naming what is missing unless the CPqD user switch is installed here."""
    gone = missing()
    if gone:
        raise UserError(f"{flag}: the CPqD user switch is not installed here ({', '.join(gone)} not found); "
                        "build ofsoftswitch13 (https://github.com/CPqD/ofsoftswitch13, its README) and record "
                        "it with `sdnbench install cpqd --from DIR`, or use --target ovs")


def dpid_arg(dpid: int) -> str:
    """``dpid`` as ``ofdatapath --datapath-id`` reads it back (12 digits, base 12)."""
    if not 0 < dpid < 12 ** DPID_DIGITS:
        raise UserError(f"the CPqD switch takes datapath ids 1 to {12 ** DPID_DIGITS - 1} "
                        f"(12 base-12 digits), not {dpid:#x}")
    digits = ""
    while dpid:
        dpid, d = divmod(dpid, 12)
        digits = "0123456789ab"[d] + digits
    return digits.rjust(DPID_DIGITS, "0")


class Cpqd:
    """``ofdatapath`` started by ``start(interfaces, dpid)``, ``ofprotocol`` by ``attach``;
    ``stop`` ends both and removes the socket (the logs stay)."""

    def __init__(self) -> None:
        check_installed()
        self.dir = Path(tempfile.mkdtemp(prefix="cpqd-", dir=paths.runtime_dir("switches")))
        self.socket = self.dir / "ofdatapath.sock"
        self.procs = proc.ProcessSet()
        self.watches: list = []

    def start(self, interfaces: list, dpid: int) -> None:
        t = self.procs.spawn("ofdatapath", ["ofdatapath", f"--interfaces={','.join(interfaces)}",
                                            f"--datapath-id={dpid_arg(dpid)}", f"punix:{self.socket}",
                                            "--no-slicing"], log_path=self.dir / "ofdatapath.log")
        self.watches.append(ChildWatch(t))
        proc.wait_until(lambda: self.socket.exists() or not t.alive(), 10.0, "ofdatapath's socket")
        why = self.dead()
        if why:
            raise UserError(f"the CPqD switch did not start: {why}")

    def attach(self, address: str) -> None:
        t = self.procs.spawn("ofprotocol", ["ofprotocol", f"unix:{self.socket}", f"tcp:{address}",
                                            "--out-of-band", "--fail=closed"], log_path=self.dir / "ofprotocol.log")
        self.watches.append(ChildWatch(t))

    def dead(self) -> Optional[str]:
        for w in self.watches:
            why = w.dead()
            if why:
                return why
        return None

    def pids(self) -> str:
        return ", ".join(f"{w.tracked.name} pid {w.pid}" for w in self.watches) + f"; output in {self.dir}"

    def stop(self) -> None:
        self.procs.stop_all()
        self.socket.unlink(missing_ok=True)
