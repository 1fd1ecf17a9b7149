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


def run_prefix() -> str:
    return f"sbt{os.getpid() % 100000}"


def _ip(*argv: str, check: bool = True) -> subprocess.CompletedProcess:
    return proc.run(["ip", *argv], timeout=20, check=check)


def _quiet(argv: list) -> None:
    proc.run(argv, timeout=20, check=False)


class Wiring:
    """``n`` veth pairs: switch ends ``PREFIXs1..`` here, probe ends ``PREFIXp1..``."""

    def __init__(self, n: int = 2, netns: bool = True, prefix: Optional[str] = None) -> None:
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

    def __enter__(self) -> "Wiring":
        try:
            for k in range(self.n):
                self._pair(k)
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

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
