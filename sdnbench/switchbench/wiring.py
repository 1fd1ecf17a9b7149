"""Veth pairs between a switch and the probe side, in network namespaces sdnbench creates.

Names carry a per-run prefix (``sbt<pid>``) so that the clean-up only ever touches what this run
made. ``Wiring`` is a context manager: on exit (also after Ctrl-C, SIGTERM or an exception,
which ``sdnbench.proc`` turns into ``Interrupted``) every namespace and veth it created is
removed, each step even if an earlier one failed, and what is left is reported.

Invariants: ``switch_ifs[i]`` and ``probe_ifs[i]`` are the two ends of the same veth; the probe
end is in namespace ``netns[i]`` (or in this namespace with ``netns=False``); IPv6 is off on
both ends (no router solicitations in the captures) and checksum offload is off (the userspace
datapath stalls TCP/UDP otherwise).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Optional

from .. import proc
from ..lifecycle import Built


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def run_prefix(pid: Optional[int] = None) -> str:
    """``sbt`` + the run's PID in base 36 (at most 5 digits for Linux's largest PID), so names
    stay within 15 characters and a leftover names the process that made it."""
    n, digits = pid if pid is not None else os.getpid(), ""
    while True:
        n, r = divmod(n, 36)
        digits = _DIGITS[r] + digits
        if n == 0:
            return f"sbt{digits}"


def _pid_of(name: str) -> Optional[int]:
    """The PID in a name made from ``run_prefix`` plus a two-character suffix (s1, p2, n1, br)."""
    if not name.startswith("sbt") or len(name) < 6 or name[-2:-1] not in "spnbd":
        return None
    try:
        return int(name[3:-2], 36)
    except ValueError:
        return None


def stale() -> list:
    """(kind, name) of switch-test leftovers whose making process is gone (after kill -9)."""
    def dead(name: str) -> bool:
        pid = _pid_of(name)
        return pid is not None and not os.path.exists(f"/proc/{pid}")
    out = [("link", n) for n in sorted(os.listdir("/sys/class/net")) if dead(n)]
    netns_dir = Path("/var/run/netns")
    if netns_dir.exists():
        out += [("netns", n) for n in sorted(os.listdir(netns_dir)) if dead(n)]
    cp = proc.run(["ovs-vsctl", "--timeout=5", "list-br"], timeout=10, check=False)
    out += [("bridge", b) for b in cp.stdout.split() if dead(b)]
    return out


def sweep(items: list) -> None:
    for kind, name in items:
        if kind == "bridge":
            proc.run(["ovs-vsctl", "--if-exists", "del-br", name], timeout=30, check=False)
        elif kind == "netns":
            _ip("netns", "del", name, check=False)
        else:
            _ip("link", "del", name, check=False)


def _ip(*argv: str, check: bool = True) -> subprocess.CompletedProcess:
    return proc.run(["ip", *argv], timeout=20, check=check)


def _quiet(argv: list) -> None:
    proc.run(argv, timeout=20, check=False)


class Wiring(Built):
    """``n`` (at most 9) veth pairs: switch ends ``PREFIXs1..`` here, probe ends ``PREFIXp1..``,
    namespaces ``PREFIXn1..``."""

    def __init__(self, n: int = 2, netns: bool = True, prefix: Optional[str] = None) -> None:
        if not 1 <= n <= 9:
            raise ValueError("1 to 9 ports")
        self.prefix = prefix or run_prefix()
        self.n = n
        self.use_netns = netns
        self.switch_ifs = [f"{self.prefix}s{i}" for i in range(1, n + 1)]
        self.probe_ifs = [f"{self.prefix}p{i}" for i in range(1, n + 1)]
        self.netns = [f"{self.prefix}n{i}" for i in range(1, n + 1)] if netns else [None] * n
        self._made: list = []

    @property
    def probe_specs(self) -> list:
        """The probe ends as ``sdnbench-switch --if`` takes them (``NETNS:IF`` or ``IF``)."""
        return [f"{ns}:{i}" if ns else i for ns, i in zip(self.netns, self.probe_ifs)]

    def build(self) -> None:
        for k in range(self.n):
            self._pair(k)

    def _pair(self, k: int) -> None:
        sw, pr, ns = self.switch_ifs[k], self.probe_ifs[k], self.netns[k]
        _ip("link", "add", sw, "type", "veth", "peer", "name", pr)
        self._made.append(("link", sw))
        if ns:
            _ip("netns", "add", ns)
            self._made.append(("netns", ns))
            _ip("link", "set", pr, "netns", ns)
        inside = ["ip", "netns", "exec", ns] if ns else []
        for argv in (["sysctl", "-qw", f"net.ipv6.conf.{sw}.disable_ipv6=1"],
                     [*inside, "sysctl", "-qw", f"net.ipv6.conf.{pr}.disable_ipv6=1"]):
            _quiet(argv)
        _ip("link", "set", sw, "up")
        proc.run([*inside, "ip", "link", "set", pr, "up"], timeout=20)
        _quiet(["ethtool", "-K", sw, "tx", "off", "rx", "off"])
        _quiet([*inside, "ethtool", "-K", pr, "tx", "off", "rx", "off"])

    def close(self) -> None:
        """Removes everything this wiring made; raises if something could not be removed."""
        while self._made:
            kind, name = self._made.pop()
            if kind == "link":
                _ip("link", "del", name, check=False)
            else:
                _ip("netns", "del", name, check=False)
        left = self.leftovers()
        if left:
            raise RuntimeError(f"switch-test clean-up left {', '.join(left)}")

    def leftovers(self) -> list:
        names = set(os.listdir("/sys/class/net"))
        left = [i for i in self.switch_ifs + self.probe_ifs if i in names]
        netns_dir = Path("/var/run/netns")
        have = set(os.listdir(netns_dir)) if netns_dir.exists() else set()
        left += [ns for ns in self.netns if ns and ns in have]
        return left
