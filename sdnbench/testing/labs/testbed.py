"""A lab on this machine for the SSH backend's tests: every host is a network namespace running
its own sshd, the switches under test are Open vSwitch bridges (userspace datapath) in the root
namespace, and an inventory file describes it all.

Per host ``hI`` (prefix ``P``, a few random hex digits):
- namespace ``P-hI``; its test interface ``eth0`` (10.0.0.I/24) is a veth whose other end
  ``PhId`` is a port of the host's bridge (checksum offload off on both ends: the userspace
  datapath stalls TCP/UDP otherwise);
- the SSH control connection uses a second veth on a private /30 of our own: ``PhIc``
  172.31.N.(4I-3) in the root namespace, ``ctl0`` 172.31.N.(4I-2) in the host (N chosen so that
  no address of 172.31.N.0/24 exists on this machine);
- ``sshd -D`` (started here, stopped by its PID) listens on the ctl0 address only, with a host key
  and an authorized key generated for this lab.
Switches ``sK`` are bridges ``PsK`` (``datapath_type=netdev``), joined by patch ports, in
``fail_mode=secure`` pointing at ``tcp:127.0.0.1:PORT`` when a controller port is given, else
standalone learning bridges.

``Testbed(topology, ...)`` is a context manager (``sdnbench.testing.netlab``); leaving it stops
every sshd, deletes the namespaces, veths and bridges, and checks that none is left (also after
an exception).
"""

from __future__ import annotations

import shutil
from typing import Optional

from sdnbench import proc
from sdnbench.testing.netlab import NetnsLab, free_octet, run_command, sh, split_command
from sdnbench.net import topology
from sdnbench.net.topology import Topology
from sdnbench.net.backends.ssh import BASE_TOOLS, TOOLS


class Testbed(NetnsLab):
    KIND = "testbed"

    def __init__(self, topology: Topology, controller_port: Optional[int] = None,
                 path_without: Optional[dict] = None, stopped: tuple = ()) -> None:
        super().__init__("sb")
        self.topology = topology
        self.controller_port = controller_port
        self.path_without = path_without or {}   # host -> tools left out of its PATH
        self.stopped = stopped                     # hosts whose sshd is not started
        self.sshd: dict = {}           # host -> Popen
        self.octet = free_octet("172.31.{n}.")
        self.inventory = self.dir / "lab.yaml"

    def ns(self, host: str) -> str:
        return f"{self.prefix}-{host}"

    def ctl_ip(self, i: int, side: int) -> str:
        return f"172.31.{self.octet}.{4 * i - 4 + side}"

    # -- building ------------------------------------------------------------------------

    def build(self) -> None:
        self.ssh_keys("wrong_key")
        self._switches()
        for i, h in enumerate(self.topology.host_names(), start=1):
            self._host(i, h)
        self._write_inventory()
        for i, h in enumerate(self.topology.host_names(), start=1):
            if h not in self.stopped:
                self.wait_listening(self.ctl_ip(i, 2), 22, f"sshd of {h}")

    def _switches(self) -> None:
        for s in self.topology.switches:
            br = f"{self.prefix}{s.name}"
            args = ["ovs-vsctl", "--timeout=20", "add-br", br, "--", "set", "bridge", br,
                    "datapath_type=netdev", f"other-config:datapath-id={s.dpid:016x}",
                    "protocols=OpenFlow10,OpenFlow13"]
            self.ovs_bridges.append(br)
            if self.controller_port:
                args += ["fail_mode=secure", "--", "set-controller", br,
                         f"tcp:127.0.0.1:{self.controller_port}"]
            else:
                args += ["fail_mode=standalone"]
            sh(*args)
        for k, l in enumerate(self.topology.switch_links()):
            pa, pb = f"{self.prefix}p{k}a", f"{self.prefix}p{k}b"
            sh("ovs-vsctl", "--timeout=20",
               "add-port", f"{self.prefix}{l.a}", pa, "--", "set", "interface", pa, "type=patch",
               f"options:peer={pb}", "--",
               "add-port", f"{self.prefix}{l.b}", pb, "--", "set", "interface", pb, "type=patch",
               f"options:peer={pa}")

    def _host(self, i: int, h: str) -> None:
        ns = self.ns(h)
        self.add_netns(ns)
        data, ctl = f"{self.prefix}{h}d", f"{self.prefix}{h}c"
        self.veth_into(data, ns, "eth0")
        self.veth_into(ctl, ns, "ctl0")
        self.address(ns, "eth0", f"10.0.0.{i}/24")
        self.in_ns(ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1")
        self.in_ns(ns, "ethtool", "-K", "eth0", "tx", "off", "rx", "off")
        sh("ethtool", "-K", data, "tx", "off", "rx", "off")
        sh("ip", "addr", "add", f"{self.ctl_ip(i, 1)}/30", "dev", ctl)
        self.address(ns, "ctl0", f"{self.ctl_ip(i, 2)}/30")
        sh("ovs-vsctl", "--timeout=20", "add-port", f"{self.prefix}{self.topology.switch_of(h)}", data)
        if h not in self.stopped:
            self.sshd[h] = self.start_sshd(f"sshd-{h}", ns, self.ctl_ip(i, 2), "MaxStartups 50", "MaxSessions 50",
                                           "PermitTTY no", "Subsystem sftp internal-sftp")

    def _tool_dir(self, h: str) -> str:
        """A PATH directory with every tool the backend uses except those left out."""
        d = self.dir / f"bin-{h}"
        d.mkdir(exist_ok=True)
        tools = set(BASE_TOOLS) | {t for ts in TOOLS.values() for t in ts}
        for t in sorted(tools - set(self.path_without.get(h, ()))):
            found = shutil.which(t)
            if found:
                (d / t).symlink_to(found)
        return str(d)

    def _write_inventory(self) -> None:
        lines = []
        if self.controller_port:
            lines.append(f"controller: 127.0.0.1:{self.controller_port}")
        lines.append(f"defaults: {{user: root, key: {self.key.name}}}")
        lines.append("switches:")
        lines += [f"  - {{name: {s.name}, dpid: {s.dpid}}}" for s in self.topology.switches]
        lines.append("links: [" + ", ".join(f"[{l.a}, {l.b}]" for l in self.topology.switch_links()) + "]")
        lines.append("hosts:")
        for i, h in enumerate(self.topology.host_names(), start=1):
            path = f", path: {self._tool_dir(h)}" if h in self.path_without else ""
            lines.append(f"  - {{name: {h}, ssh: {self.ctl_ip(i, 2)}, switch: {self.topology.switch_of(h)}, "
                         f"intf: eth0, ip: 10.0.0.{i}{path}}}")
        self.inventory.write_text("\n".join(lines) + "\n")

    # -- inspecting and tearing down -------------------------------------------------------

    def leftovers(self, host: str) -> list:
        """Processes in ``host``'s namespace other than its sshd listener."""
        p = self.sshd.get(host)
        return self.others_in(self.ns(host), {p.pid} if p is not None else set())   # `ip netns exec` execs sshd

    def close(self) -> None:
        self.sshd = {}
        super().close()


def main(argv=None) -> int:
    """``python -m sdnbench.testing.labs.testbed TOPO [options] -- COMMAND ...``: build the lab,
    run COMMAND with ``{inventory}`` replaced by the inventory file, tear the lab down."""
    import argparse
    import sys

    ap = argparse.ArgumentParser(prog="python -m sdnbench.testing.labs.testbed", description=main.__doc__)
    ap.add_argument("topo", help="topology spec, e.g. star,3,2")
    ap.add_argument("--controller-port", type=int, help="bridges point at tcp:127.0.0.1:PORT")
    ap.add_argument("--without", action="append", default=[], metavar="HOST:TOOL",
                    help="give HOST a PATH without TOOL (repeatable)")
    ap.add_argument("--stopped", action="append", default=[], metavar="HOST", help="no sshd on HOST")
    options, cmd = split_command(argv)
    a = ap.parse_args(options)
    without: dict = {}
    for item in a.without:
        h, _, t = item.partition(":")
        without.setdefault(h, []).append(t)
    with proc.signals_as_exceptions(), Testbed(topology.parse_topology(a.topo), a.controller_port,
                                               without, tuple(a.stopped)) as tb:
        print(f"testbed {tb.prefix}: inventory {tb.inventory}", file=sys.stderr)
        return run_command(cmd, tb.inventory, {"inventory": str(tb.inventory)})


if __name__ == "__main__":
    raise SystemExit(main())
