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

``Testbed(topology, ...)`` is a context manager; leaving it stops every sshd, deletes the
namespaces, veths and bridges, and checks that none is left (also after an exception).
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Optional

from ..topology import Topology
from .ssh import BASE_TOOLS, TOOLS

SSHD = "/usr/sbin/sshd"


def sh(*argv: str, check: bool = True, timeout: float = 30) -> subprocess.CompletedProcess:
    cp = subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout)
    if check and cp.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: {cp.stderr.strip()}")
    return cp


def _free_octet() -> int:
    used = sh("ip", "-4", "-o", "addr").stdout
    for n in random.sample(range(100, 250), 150):
        if f"172.31.{n}." not in used:
            return n
    raise RuntimeError("no free 172.31.N.0/24 for the control network")


class Testbed:
    __test__ = False          # not a pytest test class

    def __init__(self, topology: Topology, controller_port: Optional[int] = None,
                 path_without: Optional[dict] = None, stopped: tuple = ()) -> None:
        self.topology = topology
        self.controller_port = controller_port
        self.path_without = path_without or {}   # host -> tools left out of its PATH
        self.stopped = stopped                     # hosts whose sshd is not started
        self.prefix = "sb" + "".join(random.choice("0123456789abcdef") for _ in range(4))
        self.dir = Path(tempfile.mkdtemp(prefix=f"sdnbench-testbed-{self.prefix}-"))
        self.sshd: dict = {}           # host -> Popen
        self.netns: list = []
        self.bridges: list = []
        self.veths: list = []
        self.octet = _free_octet()
        self.key = self.dir / "id_ed25519"
        self.inventory = self.dir / "lab.yaml"

    def ns(self, host: str) -> str:
        return f"{self.prefix}-{host}"

    def ctl_ip(self, i: int, side: int) -> str:
        return f"172.31.{self.octet}.{4 * i - 4 + side}"

    # -- building ------------------------------------------------------------------------

    def __enter__(self) -> "Testbed":
        try:
            self._keys()
            self._switches()
            for i, h in enumerate(self.topology.host_names(), start=1):
                self._host(i, h)
            self._write_inventory()
            for i, h in enumerate(self.topology.host_names(), start=1):
                if h not in self.stopped:
                    self._wait_sshd(h, self.ctl_ip(i, 2))
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _keys(self) -> None:
        sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(self.key))
        sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(self.dir / "wrong_key"))
        sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(self.dir / "host_key"))
        shutil.copy(f"{self.key}.pub", self.dir / "authorized_keys")
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)     # sshd's privilege-separation dir

    def _switches(self) -> None:
        for s in self.topology.switches:
            br = f"{self.prefix}{s.name}"
            args = ["ovs-vsctl", "--timeout=20", "add-br", br, "--", "set", "bridge", br,
                    "datapath_type=netdev", f"other-config:datapath-id={s.dpid:016x}",
                    "protocols=OpenFlow10,OpenFlow13"]
            self.bridges.append(br)
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
        sh("ip", "netns", "add", ns)
        self.netns.append(ns)
        data, ctl = f"{self.prefix}{h}d", f"{self.prefix}{h}c"
        for root_end, ns_end in ((data, "eth0"), (ctl, "ctl0")):
            sh("ip", "link", "add", root_end, "type", "veth", "peer", "name", f"{root_end}x")
            self.veths.append(root_end)
            sh("ip", "link", "set", f"{root_end}x", "netns", ns, "name", ns_end)
            sh("ip", "link", "set", root_end, "up")
        in_ns = ["ip", "netns", "exec", ns]
        sh(*in_ns, "ip", "link", "set", "lo", "up")
        sh(*in_ns, "ip", "addr", "add", f"10.0.0.{i}/24", "dev", "eth0")
        sh(*in_ns, "ip", "link", "set", "eth0", "up")
        sh(*in_ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1")
        sh(*in_ns, "ethtool", "-K", "eth0", "tx", "off", "rx", "off")
        sh("ethtool", "-K", data, "tx", "off", "rx", "off")
        sh("ip", "addr", "add", f"{self.ctl_ip(i, 1)}/30", "dev", ctl)
        sh(*in_ns, "ip", "addr", "add", f"{self.ctl_ip(i, 2)}/30", "dev", "ctl0")
        sh(*in_ns, "ip", "link", "set", "ctl0", "up")
        sh("ovs-vsctl", "--timeout=20", "add-port", f"{self.prefix}{self.topology.switch_of(h)}", data)
        if h not in self.stopped:
            self._start_sshd(h, ns, self.ctl_ip(i, 2))

    def _start_sshd(self, h: str, ns: str, addr: str) -> None:
        cfg = self.dir / f"sshd-{h}.conf"
        cfg.write_text("\n".join([
            f"ListenAddress {addr}", "Port 22", f"HostKey {self.dir / 'host_key'}", "PidFile none",
            f"AuthorizedKeysFile {self.dir / 'authorized_keys'}", "StrictModes no",
            "PermitRootLogin prohibit-password", "PasswordAuthentication no",
            "KbdInteractiveAuthentication no", "UsePAM no", "UseDNS no", "MaxStartups 50",
            "MaxSessions 50", "PrintMotd no", "PrintLastLog no", "X11Forwarding no", "PermitTTY no",
            "Subsystem sftp internal-sftp", ""]))
        log = open(self.dir / f"sshd-{h}.log", "ab")
        try:
            self.sshd[h] = subprocess.Popen(["ip", "netns", "exec", ns, SSHD, "-D", "-e", "-f", str(cfg)],
                                            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        finally:
            log.close()

    def _wait_sshd(self, h: str, addr: str) -> None:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.sshd[h].poll() is not None:
                raise RuntimeError(f"sshd of {h} exited: {(self.dir / f'sshd-{h}.log').read_text()[-300:]}")
            with socket.socket() as s:
                s.settimeout(0.5)
                if s.connect_ex((addr, 22)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError(f"sshd of {h} did not listen on {addr}:22")

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
        cp = sh("ip", "netns", "pids", self.ns(host), check=False)
        keep = set()
        p = self.sshd.get(host)
        if p is not None:
            keep.add(p.pid)     # `ip netns exec` execs sshd: the same PID
        out = []
        for pid in cp.stdout.split():
            if int(pid) in keep:
                continue
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
                out.append(f"{pid} {cmd}")
            except OSError:
                pass
        return out

    def close(self) -> None:
        for _h, p in list(self.sshd.items()):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                    p.wait(timeout=5)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    try:
                        os.killpg(p.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    p.wait(timeout=5)
        for ns in self.netns:
            for pid in sh("ip", "netns", "pids", ns, check=False).stdout.split():
                try:
                    os.kill(int(pid), signal.SIGKILL)   # only processes inside our namespace
                except ProcessLookupError:
                    pass
            sh("ip", "netns", "del", ns, check=False)
        for v in self.veths:
            if Path(f"/sys/class/net/{v}").exists():
                sh("ip", "link", "del", v, check=False)
        for br in self.bridges:
            sh("ovs-vsctl", "--timeout=20", "--if-exists", "del-br", br, check=False)
        left = [n for n in self.netns if Path(f"/run/netns/{n}").exists()]
        left += [v for v in self.veths if Path(f"/sys/class/net/{v}").exists()]
        left += [b for b in self.bridges if sh("ovs-vsctl", "br-exists", b, check=False).returncode == 0]
        self.netns, self.veths, self.bridges, self.sshd = [], [], [], {}
        shutil.rmtree(self.dir, ignore_errors=True)
        if left:
            raise RuntimeError(f"testbed {self.prefix} left {', '.join(left)}")


def main(argv=None) -> int:
    """``python -m sdnbench.net.backends.testbed TOPO [options] -- COMMAND ...``: build the lab,
    run COMMAND with ``{inventory}`` replaced by the inventory file, tear the lab down."""
    import argparse
    import sys

    from .. import topology
    from ... import proc

    ap = argparse.ArgumentParser(prog="python -m sdnbench.net.backends.testbed", description=main.__doc__)
    ap.add_argument("topo", help="topology spec, e.g. star,3,2")
    ap.add_argument("--controller-port", type=int, help="bridges point at tcp:127.0.0.1:PORT")
    ap.add_argument("--without", action="append", default=[], metavar="HOST:TOOL",
                    help="give HOST a PATH without TOOL (repeatable)")
    ap.add_argument("--stopped", action="append", default=[], metavar="HOST", help="no sshd on HOST")
    argv = list(sys.argv[1:] if argv is None else argv)
    cut = argv.index("--") if "--" in argv else len(argv)
    a, cmd = ap.parse_args(argv[:cut]), argv[cut + 1:]
    without: dict = {}
    for item in a.without:
        h, _, t = item.partition(":")
        without.setdefault(h, []).append(t)
    with proc.signals_as_exceptions(), Testbed(topology.parse_topology(a.topo), a.controller_port,
                                               without, tuple(a.stopped)) as tb:
        print(f"testbed {tb.prefix}: inventory {tb.inventory}", file=sys.stderr)
        if not cmd:
            print(tb.inventory.read_text())
            return 0
        p = subprocess.Popen([c.replace("{inventory}", str(tb.inventory)) for c in cmd])
        try:
            return p.wait()
        except BaseException:
            p.send_signal(signal.SIGINT)
            p.wait()
            raise


if __name__ == "__main__":
    raise SystemExit(main())
