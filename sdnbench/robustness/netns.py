"""The network namespace a ``syn-flood`` case sends its SYNs from (RFC 8456 §5.3.2).

Design (the simplest correct one, docs/robustness.md): a namespace and a veth pair to the root
namespace, a private /30 on the pair (10.233.B.1 root side, .2 namespace side), and the /24
around it routed into the namespace. The engine writes SYNs from random hosts .4-.254 of that
/24 onto the namespace's end of the veth (a packet socket: no routing inside the namespace),
addressed to the controller's own listening address, 127.0.0.1:port; ``route_localnet=1`` on
the root end lets the root namespace accept them. The controller's SYN-ACKs (source 127.0.0.1)
go back into the namespace, which owns none of the spoofed addresses and does not forward: they
die there. Nothing leaves through another interface: a 127.0.0.1 source is refused on every
interface without ``route_localnet``, so this refuses to run when ``conf.all`` has it set.

Everything is removed on the way out (the veth goes with its namespace; both are deleted in a
``finally``, which ``proc.signals_as_exceptions`` also reaches on SIGTERM/SIGHUP/SIGINT).
Names carry sdnbench's PID, so two runs never share them."""

from __future__ import annotations

import contextlib
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

from ..errors import UserError

PREFIX = "sdnb-syn-"
NETSTAT_KEYS = ("ListenOverflows", "ListenDrops", "SyncookiesSent", "SyncookiesRecv", "TCPReqQFullDoCookies",
                "TCPReqQFullDrop")


@dataclass
class SynNet:
    name: str          # the namespace (ip netns)
    veth_root: str
    veth_ns: str
    octet: int         # B of 10.233.B.0/24

    def spec(self, rate: int) -> dict:
        """The engine's ``robustness.syn``."""
        mac = Path(f"/sys/class/net/{self.veth_root}/address").read_text().strip()
        return {"netns": f"/run/netns/{self.name}", "ifname": self.veth_ns, "dst_mac": mac,
                "src_net": f"10.233.{self.octet}.0/24", "rate": int(rate)}


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    cp = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=10)
    if check and cp.returncode != 0:
        raise UserError(f"syn-flood namespace: ip {' '.join(args)}: {cp.stderr.strip()}")
    return cp


def names(pid: int) -> tuple:
    """(namespace, root veth, namespace veth) for this sdnbench process (veth names ≤ 15 chars)."""
    return f"{PREFIX}{pid}", f"sdnbs{pid % 10**8}r", f"sdnbs{pid % 10**8}n"


def free_octet(routes: str, pid: int) -> int:
    """A B in 10.233.B.0/24 that no route of ``routes`` (``ip -4 route show table all``) names."""
    used = {int(w.split(".")[2]) for w in routes.split() if w.startswith("10.233.") and w.count(".") >= 3}
    for i in range(250):
        b = 1 + (pid + i) % 250
        if b not in used:
            return b
    raise UserError("syn-flood namespace: every 10.233.B.0/24 is already routed here")


def cannot_run() -> Optional[str]:
    """Why this machine cannot run a SYN case (one line), or None."""
    if os.geteuid() != 0:
        return "syn-flood needs root (it creates a network namespace and a veth)"
    if Path("/proc/sys/net/ipv4/conf/all/route_localnet").read_text().strip() != "0":
        return ("syn-flood: net.ipv4.conf.all.route_localnet is set, so SYN-ACKs from 127.0.0.1 could "
                "leave through any interface; refusing")
    return None


def preflight() -> None:
    """One clear line when this machine cannot run the case."""
    why = cannot_run()
    if why:
        raise UserError(why + "; leave it out with --cases")


@contextlib.contextmanager
def syn_namespace() -> Iterator[SynNet]:
    """Create the namespace and veth pair, yield them, always remove them."""
    preflight()
    sweep_dead()
    ns, vr, vn = names(os.getpid())
    b = free_octet(_ip("-4", "route", "show", "table", "all").stdout, os.getpid())
    net = SynNet(ns, vr, vn, b)
    try:
        _ip("netns", "add", ns)
        _ip("link", "add", vr, "type", "veth", "peer", "name", vn, "netns", ns)
        _ip("addr", "add", f"10.233.{b}.1/30", "dev", vr)
        Path(f"/proc/sys/net/ipv4/conf/{vr}/route_localnet").write_text("1")
        _ip("link", "set", vr, "up")
        _ip("-n", ns, "addr", "add", f"10.233.{b}.2/30", "dev", vn)
        _ip("-n", ns, "link", "set", vn, "up")
        _ip("route", "add", f"10.233.{b}.0/24", "via", f"10.233.{b}.2", "dev", vr)
        yield net
    finally:
        remove(net)


def remove(net: SynNet) -> list:
    """Delete the veth and the namespace; return what could not be removed (empty: clean)."""
    _ip("link", "del", net.veth_root, check=False)    # takes its peer and the route with it
    _ip("netns", "del", net.name, check=False)
    return leftovers(net)


def dead_namespaces() -> list:
    """The syn-flood namespaces of sdnbench processes that are gone (a ``kill -9`` skips the
    ``finally`` that removes them): ``[(namespace, pid)]``."""
    out = []
    root = Path("/run/netns")
    for p in sorted(root.glob(f"{PREFIX}*")) if root.exists() else []:
        pid = p.name[len(PREFIX):]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            out.append((p.name, int(pid)))
    return out


def sweep_dead(dry_run: bool = False) -> list:
    """Remove (or, dry, only name) what dead runs' syn-flood cases left: namespace and veth."""
    done = []
    for ns, pid in dead_namespaces():
        _, vr, vn = names(pid)
        if not dry_run:
            _ip("link", "del", vr, check=False)
            _ip("netns", "del", ns, check=False)
        done.append(f"syn-flood namespace {ns} and veth {vr}")
    return done


def leftovers(net: SynNet) -> list:
    left = []
    if Path(f"/sys/class/net/{net.veth_root}").exists():
        left.append(f"veth {net.veth_root}")
    if Path(f"/run/netns/{net.name}").exists():
        left.append(f"namespace {net.name}")
    if f"10.233.{net.octet}.0/24" in _ip("-4", "route", "show", check=False).stdout:
        left.append(f"route 10.233.{net.octet}.0/24")
    return left


def netstat(text: str) -> dict:
    """The TcpExt counters of ``/proc/net/netstat`` (header line, value line) that say how the
    listen queue coped: overflows, drops, SYN cookies."""
    lines = text.splitlines()
    out = {}
    for head, vals in zip(lines[::2], lines[1::2]):
        if head.startswith("TcpExt:") and vals.startswith("TcpExt:"):
            out = {k: int(v) for k, v in zip(head.split()[1:], vals.split()[1:]) if k in NETSTAT_KEYS}
    return out


def read_netstat() -> dict:
    return netstat(Path("/proc/net/netstat").read_text())


def delta(before: dict, after: dict) -> dict:
    return {k: after.get(k, 0) - before.get(k, 0) for k in NETSTAT_KEYS if k in before or k in after}
