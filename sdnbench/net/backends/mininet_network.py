"""The Mininet backend: turns a ``Topology`` into Open vSwitch bridges, host namespaces and veths,
and always takes them down again.

``MininetNetwork`` is a context manager. Inside the block the network is up (switches connected
to the controller, or in standalone mode); when the block exits — normally, by an exception, or
by SIGINT/SIGTERM turned into ``Interrupted`` by ``sdnbench.proc.signals_as_exceptions`` — it
stops every process it started (by process group), stops Mininet, deletes its nftables table and
then sweeps its own name prefix (``sdnbench.net.stale``) so that nothing of the run survives.

Layering: topology (pure data) -> this module (processes, names, link shaping) -> measurements,
which only use ``host_ip``, ``run_in``, ``spawn_in``, ``spawn_root`` and ``switch_ports``.

Refusals happen before anything is built: delay/jitter without netem, loss without nftables, a
user switch that is not installed, a topology too large for interface names.

Link emulation, per direction and on both ends of every link:
- bandwidth and queue length with tc htb (+ pfifo), which works without netem;
- delay and jitter with netem only (refused on kernels without it);
- loss with netem when the kernel has it, otherwise with an nftables ``numgen random`` drop rule
  on the sending interface's egress hook (host ends inside the host's namespace, switch ends in
  the root namespace, in the table ``netdev sdnbench_PREFIX``).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from ... import doctor, proc, procreg
from ...errors import UserError
from ...install import with_installed_path
from ...lifecycle import Built, left_behind
from ...tls.files import TlsFiles
from .. import mininet_common, ovs_ssl, stale
from ..links import LinkParams
from ..topology import Topology


@dataclass
class Port:
    """One switch port: its real interface and the logical node at the other end."""
    intf: str
    ofport: int
    peer: str


class MininetNetwork(Built):
    """A running network for ``topology``. Use as ``with MininetNetwork(topo, ...) as net:``.

    controller: ``(host, port)`` of an OpenFlow controller, or None for standalone switches
        (OVS ``fail_mode=standalone``: a learning bridge without controller).
    protocols: OpenFlow version(s) for switches that do not name their own, e.g. "OpenFlow13".
    link: parameters for links that have none of their own.
    datapath: "auto" (kernel when the module exists, else userspace), "kernel" or "user".
    switch: "ovs", or "user" for Mininet's CPqD user switch (ofsoftswitch13) when installed.
    """

    def __init__(self, topology: Topology, controller: Optional[tuple] = None,
                 protocols: Optional[str] = "OpenFlow13", link: Optional[LinkParams] = None,
                 datapath: str = "auto", switch: str = "ovs", connect_timeout: float = 30.0,
                 loss_backend: str = "auto") -> None:
        if switch not in ("ovs", "user"):
            raise UserError(f"unknown switch type {switch!r}; use ovs or user")
        if datapath not in ("auto", "kernel", "user"):
            raise UserError(f"unknown datapath {datapath!r}; use auto, kernel or user")
        self.topology = topology.with_link_params(link) if link else topology
        self.controller = controller
        self.protocols = protocols
        self.datapath = datapath
        self.switch_type = switch
        self.connect_timeout = connect_timeout
        self.loss_backend = loss_backend
        self.tls: Optional[TlsFiles] = None    # the switches connect with ssl: and these files
        self._ssl = contextlib.ExitStack()      # Open vSwitch's SSL record, put back on close
        self.prefix: Optional[str] = None
        self.workdir: Optional[Path] = None    # scratch files of this run, removed with it
        self.notes: list = []
        self.info: dict = {}
        self.procs = proc.ProcessSet()
        self._net = None
        self._real: dict = {}        # logical name -> real name
        self._ports: dict = {}       # logical switch -> [Port]
        self._host_intf: dict = {}   # logical host -> its first real interface
        self._host_links: dict = {}  # logical host -> [(real interface, LinkParams)]
        self._ips: dict = {}
        self._nft_table: Optional[str] = None
        self._checked = False

    # -- lifecycle ---------------------------------------------------------------------------

    def check(self) -> "MininetNetwork":
        """Refuse now, in one line, what this machine cannot build (nothing is started)."""
        if not self._checked:
            self._preflight()
            self._checked = True
        return self

    def __enter__(self) -> "MininetNetwork":
        self.check()
        self.prefix = stale.claim_prefix({"topology": self.topology.spec})
        self.workdir = stale.claims_dir() / f"{self.prefix}.d"
        return super().__enter__()

    def _preflight(self) -> None:
        """Refuse, in one line, everything this machine cannot do, before building anything."""
        checks = doctor.require("root", "ovs", "mininet-python", "ethtool")
        needs_netem = sorted({p for l in self.topology.links for p in l.params.needs_netem()})
        has_loss = any(l.params.loss_pct for l in self.topology.links)
        has_tc = any(l.params.bw_mbit or l.params.queue_pkts for l in self.topology.links)
        netem = True
        if needs_netem or has_loss or has_tc:
            tc = doctor.require("tc")["tc"]
            netem = tc.data.get("qdiscs", {}).get("netem", False)
        if needs_netem and not netem:
            what = " and ".join(n.split("_")[0] for n in needs_netem)
            verb, it = ("need", "them") if len(needs_netem) > 1 else ("needs", "it")
            raise UserError(
                f"link {what} {verb} the netem qdisc, which this kernel does not have; refusing "
                f"rather than running without {it}. Alternatives: drop {what} (bandwidth and "
                f"queue use htb, loss falls back to nftables), or run on a kernel with sch_netem")
        self._loss_via_nft = has_loss and (self.loss_backend == "nftables" or not netem)
        if self._loss_via_nft:
            doctor.require("nftables")
        self._netem = netem
        ovs = checks["ovs"].data
        datapath = ovs.get("datapath") if self.datapath == "auto" else self.datapath
        if datapath == "kernel" and not ovs.get("kernel_module"):
            raise UserError("datapath kernel: the openvswitch kernel module is not available "
                            "(use --datapath user or auto)")
        self._dp = datapath
        if self.switch_type == "user":
            # Mininet runs ofdatapath/ofprotocol by name: `sdnbench install cpqd` puts them on PATH
            os.environ["PATH"] = with_installed_path(os.environ.get("PATH", ""))
            if not (shutil.which("ofdatapath") and shutil.which("ofprotocol")):
                raise UserError("switch user: Mininet's user switch (CPqD ofsoftswitch13: "
                                "ofdatapath, ofprotocol) is not installed on this machine (`sdnbench install "
                                "cpqd --from DIR`); use --switch ovs")
        mininet_common.check_names_fit(self.topology, 4)      # stale.claim_prefix: "sb" + 2
        self.info = {"datapath": self._dp, "switch": self.switch_type,
                     "ovs_version": ovs.get("version"), "netem": netem,
                     "loss_backend": ("nftables" if self._loss_via_nft else "netem") if has_loss else None}

    def build(self) -> None:
        self.workdir.mkdir(exist_ok=True)
        with warnings.catch_warnings():
            # Mininet 2.3 compares OVS versions with distutils' deprecated StrictVersion.
            warnings.simplefilter("ignore", DeprecationWarning)
            self._build_mininet()

    def _build_mininet(self) -> None:
        from mininet.log import setLogLevel
        from mininet.net import Mininet
        from mininet.node import Host, OVSSwitch, UserSwitch

        setLogLevel("error")
        standalone = self.controller is None
        if standalone and self.switch_type == "user":   # checked here: check() runs before the controller is known
            raise UserError("switch user: the CPqD user switch has no standalone mode (its ofprotocol "
                            "ignores --fail): give it a controller, or use --switch ovs")
        net = Mininet(topo=None, build=False, controller=None, host=Host,
                      switch=OVSSwitch, autoSetMacs=False)
        self._net = net
        for i, h in enumerate(self.topology.hosts, start=1):
            real = f"{self.prefix}h{i}"
            self._real[h.name] = real
            ip, mac = mininet_common.host_addresses(h, i)
            self._ips[h.name] = ip.split("/")[0]
            net.addHost(real, ip=ip, mac=mac).cmd(mininet_common.NO_IPV6)
        for i, s in enumerate(self.topology.switches, start=1):
            real = f"{self.prefix}s{i}"
            self._real[s.name] = real
            # Mininet's UserSwitch passes 12 hex digits to `ofdatapath -d` (its dpidLen); OVS takes 16
            width = UserSwitch.dpidLen if self.switch_type == "user" else 16
            opts = dict(dpid=f"{s.dpid:0{width}x}", protocols=s.protocols or self.protocols)
            if self.switch_type == "user":
                net.addSwitch(real, cls=UserSwitch, dpopts="--no-slicing", **opts)
            else:
                net.addSwitch(real, cls=OVSSwitch, batch=True,
                              failMode="standalone" if standalone else "secure",
                              datapath="user" if self._dp == "user" else "kernel",
                              stp=False, **opts)
        for link in self.topology.links:
            ml = net.addLink(self._real[link.a], self._real[link.b])
            self._record_link(link, ml)
        if not standalone:
            net.controllers.append(mininet_common.RemoteController(*self.controller,
                                                                   protocol="ssl" if self.tls else "tcp"))
            if self.tls:
                self._ssl.enter_context(ovs_ssl.use(self.tls))
        net.build()
        net.start()
        self._configure_hosts()
        self._configure_switch_side()
        if not standalone:
            self.wait_connected(self.connect_timeout)
        elif self.topology.has_loop() and self.switch_type == "ovs":
            self._rapid_spanning_tree()

    def _record_link(self, link, ml) -> None:
        for end, intf, other in ((link.a, ml.intf1, link.b), (link.b, ml.intf2, link.a)):
            if self.topology.is_switch(end):
                ofport = intf.node.ports[intf]
                self._ports.setdefault(end, []).append(Port(intf.name, ofport, other))
            else:
                self._host_intf.setdefault(end, intf.name)
                self._host_links.setdefault(end, []).append((intf.name, link.params))

    def close(self) -> None:
        """Stop everything of this run; every step runs even if an earlier one fails. Errors of
        the orderly steps only matter if the final sweep could not remove what they left."""
        errors = []
        for step in (self.procs.stop_all, self._stop_mininet, self._delete_nft, self._sweep, self._unset_ssl):
            try:
                step()
            except Exception as e:  # keep tearing down; judged by what is left at the end
                errors.append(f"{step.__name__}: {type(e).__name__}: {e}")
        left = None
        if self.prefix:
            lo = stale.survey(self.prefix)[self.prefix]
            left = None if lo.empty() else lo.describe()
            shutil.rmtree(self.workdir, ignore_errors=True)
            if left is None:
                stale.release_prefix(self.prefix)
        if left:
            left_behind(f"network clean-up left {left} ({'; '.join(errors) or 'no error reported'}); "
                        "run `sdnbench net clean`", RuntimeError)

    def _unset_ssl(self) -> None:
        self._ssl.close()

    def _stop_mininet(self) -> None:
        net, self._net = self._net, None
        if net is not None:
            switches = [sw.name for sw in net.switches]
            mininet_common.stop(net)
            if self.switch_type == "user":      # Mininet's UserSwitch logs to /tmp/NAME-of{d,p}.log
                for name in switches:
                    for log in (f"/tmp/{name}-ofd.log", f"/tmp/{name}-ofp.log"):
                        with contextlib.suppress(OSError):
                            os.unlink(log)

    def _delete_nft(self) -> None:
        if self._nft_table:
            table, self._nft_table = self._nft_table, None
            proc.run(["nft", "delete", "table", "netdev", table], check=False)

    def _sweep(self) -> None:
        if self.prefix:
            lo = stale.survey(self.prefix)[self.prefix]
            if not lo.empty():
                stale.remove(lo)

    # -- configuration after start -----------------------------------------------------------

    def _configure_hosts(self) -> None:
        """Per host, in parallel: checksum offload off (the userspace datapath stalls TCP/UDP
        otherwise), host-end shaping and loss. (IPv6 went off when the host was added.)"""
        jobs = []
        for h in self.topology.hosts:
            lines = []
            lossy = []
            for intf, params in self._host_links.get(h.name, []):
                lines.append(f"ethtool -K {intf} tx off rx off >/dev/null")
                lines += [f"tc {c}" for c in _tc_commands(intf, params, self._netem, self._loss_via_nft)]
                if params.loss_pct and self._loss_via_nft:
                    lossy.append((intf, params.loss_pct))
            if lossy:
                lines.append("nft -f - <<'EOF'\n" + _nft_root("sdnbench_loss", lossy) + "\nEOF")
            jobs.append((h.name, self.node(h.name).pid, "set -e\n" + "\n".join(lines) + "\n"))
        procs = []
        try:
            for name, pid, script in jobs:
                procs.append((name, subprocess.Popen(
                    ["mnexec", "-a", str(pid), "sh", "-c", script], env=self._env(), stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT, text=True, start_new_session=True,
                    preexec_fn=procreg.dies_with_us())))
            for name, p in procs:
                out, _ = p.communicate(timeout=60)
                if p.returncode != 0:
                    raise RuntimeError(f"configuring host {name} failed: {out.strip()}")
        finally:
            for _, p in procs:
                if p.poll() is None:
                    p.kill()
                    p.wait()

    def _configure_switch_side(self) -> None:
        tc_lines, nft_chains = [], []
        for link in self.topology.links:
            p = link.params
            for end, other in ((link.a, link.b), (link.b, link.a)):
                if not self.topology.is_switch(end):
                    continue
                intf = self._intf_towards(end, other, link)
                tc_lines += _tc_commands(intf, p, self._netem, self._loss_via_nft)
                if p.loss_pct and self._loss_via_nft:
                    nft_chains.append((intf, p.loss_pct))
        if tc_lines:
            with tempfile.NamedTemporaryFile("w", suffix=".tc") as f:
                f.write("\n".join(tc_lines) + "\n")
                f.flush()
                proc.run(["tc", "-batch", f.name], what="tc (switch-side link shaping)")
        if nft_chains:
            table = f"sdnbench_{self.prefix}"
            self._nft_table = table
            _nft_apply(_nft_root(table, nft_chains))

    def _rapid_spanning_tree(self) -> None:
        """Standalone bridges flood forever around a loop: run RSTP (host ports as edge ports)
        and wait until every root and designated port forwards."""
        args = ["ovs-vsctl", "--timeout=20"]
        for s in self.topology.switch_names():
            args += ["--", "set", "bridge", self._real[s], "rstp_enable=true"]
            for port in self._ports.get(s, []):
                if not self.topology.is_switch(port.peer):
                    args += ["--", "set", "port", port.intf, "other_config:rstp-port-admin-edge=true"]
        proc.run(args, what="ovs-vsctl (enable RSTP)")
        intfs = [p.intf for ports in self._ports.values() for p in ports]
        proc.wait_until(lambda: _rstp_converged(intfs), 60, "the spanning tree to converge")
        self.notes.append("standalone switches on a topology with loops: RSTP enabled, so "
                          "redundant links are blocked")

    def _intf_towards(self, switch: str, other: str, link) -> str:
        """The switch's port on ``link`` (links are recorded in order, parallel links included)."""
        idx = [l for l in self.topology.links if {l.a, l.b} == {switch, other}].index(link)
        ports = [pt for pt in self._ports[switch] if pt.peer == other]
        return ports[idx].intf

    # -- queries and process helpers for measurements -----------------------------------------

    def node(self, name: str):
        if self._net is None:
            raise RuntimeError("network is not running")
        return self._net.get(self._real[name])

    def real_name(self, name: str) -> str:
        return self._real[name]

    def host_ip(self, host: str) -> str:
        return self._ips[host]

    def host_intf(self, host: str) -> str:
        return self._host_intf[host]

    def switch_ports(self, switch: str) -> list:
        return list(self._ports.get(switch, []))

    def port_towards(self, switch: str, peer: str) -> Port:
        for p in self._ports.get(switch, []):
            if p.peer == peer:
                return p
        raise KeyError(f"{switch} has no port towards {peer}")

    def bridge(self, switch: str) -> str:
        return self._real[switch]

    def _env(self) -> dict:
        """Every process this network starts carries its prefix in the environment, so that
        ``net clean`` finds it even when its namespace's shell is gone and its command line
        names nothing of ours (``stale.ENV``)."""
        return {**os.environ, stale.ENV: self.prefix or ""}

    def spawn_in(self, host: str, name: str, argv: Sequence[str], log_path=None) -> proc.Tracked:
        """A background process inside ``host``'s namespace, stopped with the network."""
        pid = self.node(host).pid
        return self.procs.spawn(name, ["mnexec", "-a", str(pid), *argv], log_path=log_path,
                                env=self._env())

    def spawn_root(self, name: str, argv: Sequence[str], log_path=None) -> proc.Tracked:
        """A background process in the root namespace (tcpdump on switch ports), stopped with
        the network."""
        return self.procs.spawn(name, list(argv), log_path=log_path, env=self._env())

    def run_in(self, host: str, argv: Sequence[str], timeout: float) -> subprocess.CompletedProcess:
        """Run a command inside ``host`` to completion; its process group is killed if the
        caller is interrupted or the timeout passes."""
        pid = self.node(host).pid
        p = subprocess.Popen(["mnexec", "-a", str(pid), *argv], stdin=subprocess.DEVNULL, env=self._env(),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True, preexec_fn=procreg.dies_with_us())
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise UserError(f"{argv[0]} on {host} did not finish within {timeout:g}s")
        finally:
            if p.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        return subprocess.CompletedProcess(p.args, p.returncode, out, err)

    def wait_connected(self, timeout: float) -> None:
        bridges = [self._real[s] for s in self.topology.switch_names()]
        host, port = self.controller
        if self.switch_type == "user":     # not OVS bridges: each ofprotocol holds one TCP session
            connected = lambda: _tcp_sessions_to(host, port) >= len(bridges)  # noqa: E731
        else:
            connected = lambda: _all_connected(bridges)  # noqa: E731
        proc.wait_until(connected, timeout,
                        f"{len(bridges)} switches to connect to the controller at {host}:{port}")

    def describe(self) -> dict:
        """The topology as realized, for ``Result.topology``."""
        d = self.topology.to_dict()
        d.update(prefix=self.prefix, datapath=self._dp, switch=self.switch_type,
                 protocols=self.protocols, standalone=self.controller is None,
                 ips=dict(self._ips))
        return d


def _tc_commands(intf: str, p: LinkParams, netem: bool, loss_via_nft: bool) -> list:
    """tc commands (without the leading ``tc``) for one interface's egress."""
    cmds = []
    parent = "root"
    if p.bw_mbit:
        cmds += [f"qdisc replace dev {intf} root handle 5: htb default 1",
                 f"class add dev {intf} parent 5: classid 5:1 htb rate {p.bw_mbit:g}mbit burst 15k"]
        parent = "parent 5:1"
    netem_opts = []
    if netem:
        if p.delay_ms:
            netem_opts.append(f"delay {p.delay_ms:g}ms" + (f" {p.jitter_ms:g}ms" if p.jitter_ms else ""))
        if p.loss_pct and not loss_via_nft:
            netem_opts.append(f"loss {p.loss_pct:g}%")
    if netem_opts:
        limit = f" limit {p.queue_pkts}" if p.queue_pkts else ""
        cmds.append(f"qdisc add dev {intf} {parent} handle 10: netem {' '.join(netem_opts)}{limit}")
    elif p.queue_pkts:
        verb = "replace" if parent == "root" else "add"
        cmds.append(f"qdisc {verb} dev {intf} {parent} handle 10: pfifo limit {p.queue_pkts}")
    return cmds


def _drop_rule(loss_pct: float) -> str:
    # numgen random mod 1000000 < N drops N in a million: loss to 0.0001%.
    return f"numgen random mod 1000000 < {round(loss_pct * 10000)} counter drop"


def _nft_root(table: str, chains: list) -> str:
    body = "\n".join(
        f"  chain e{i} {{ type filter hook egress device \"{intf}\" priority 0; {_drop_rule(loss)}; }}"
        for i, (intf, loss) in enumerate(chains))
    return f"table netdev {table} {{\n{body}\n}}"


def _nft_apply(text: str) -> None:
    cp = subprocess.run(["nft", "-f", "-"], input=text, capture_output=True, text=True, timeout=30)
    if cp.returncode != 0:
        raise RuntimeError(f"nft failed: {cp.stderr.strip()}")


def _rstp_converged(intfs: list) -> bool:
    cp = subprocess.run(["ovs-vsctl", "--timeout=5", "--format=csv", "--no-headings",
                         "--columns=name,rstp_status", "list", "Port", *intfs],
                        capture_output=True, text=True, timeout=10)
    if cp.returncode != 0:
        return False
    for line in cp.stdout.splitlines():
        state = re.search(r"rstp_port_state=(\w+)", line)
        role = re.search(r"rstp_port_role=(\w+)", line)
        if not state or not role:
            return False
        if role.group(1) in ("Root", "Designated") and state.group(1) != "Forwarding":
            return False
    return True


def _tcp_sessions_to(host: str, port: int) -> int:
    """Established TCP connections to host:port (their client ends) on this machine."""
    cp = subprocess.run(["ss", "-Htn", "state", "established", f"( dst {host}:{port} )"],
                        capture_output=True, text=True, timeout=10)
    return len([ln for ln in cp.stdout.splitlines() if ln.strip()]) if cp.returncode == 0 else 0


def _all_connected(bridges: list) -> bool:
    cp = subprocess.run(["ovs-vsctl", "--timeout=5", "--format=csv", "--data=bare", "--no-headings",
                         "--columns=name,controller", "list", "Bridge", *bridges],
                        capture_output=True, text=True, timeout=10)
    if cp.returncode != 0:
        return False
    uuids = {}
    for line in cp.stdout.splitlines():
        name, _, ctl = line.partition(",")
        uuids[name] = ctl.strip()
    cp2 = subprocess.run(["ovs-vsctl", "--timeout=5", "--format=csv", "--data=bare", "--no-headings",
                          "--columns=_uuid,is_connected", "list", "Controller"],
                         capture_output=True, text=True, timeout=10)
    connected = {u for u, _, c in (l.partition(",") for l in cp2.stdout.splitlines()) if c.strip() == "true"}
    return all(uuids.get(b) and all(u in connected for u in uuids[b].split()) for b in bridges)

