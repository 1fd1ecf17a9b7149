"""The cluster backend: one topology spread over several servers with Mininet's cluster edition
(``cluster_nodes``): hosts and Open vSwitch bridges on the server the placement rule gives them
(``cluster_place``), links between servers as VXLAN (or GRE) tunnels between the servers'
switches, everything made over SSH (OpenSSH, as cluster.py does).

``ClusterNetwork`` has the interface of ``base.Network``. ``check()`` logs into every server
(paramiko, ``remote.RemoteHostSession``) and checks it can take part: the tools, a running Open
vSwitch, the tunnel device type; the first failure is one line naming the server. The
measurements run inside the hosts' namespaces on their servers (``mnexec -a PID``) through the
same sessions, so every measured process is recorded and killed with the run (``remote.py``).
Leaving the network stops the measurements, stops Mininet (host shells, links, tunnels,
bridges), then sweeps what carries the run's prefix on every server and fails if any is left.

Refused in one line: first-packet (it captures on switch ports, on another machine here), D-ITG
(its logs are files on the hosts' servers; not wired yet), link parameters, and a controller on
a loopback address (the switches run on other machines).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import uuid
import warnings
from pathlib import Path
from typing import Optional, Sequence

from ... import proc
from ...errors import UserError
from ...lifecycle import Built, left_behind
from .. import mininet_common
from ..topology import Topology, parse_topology
from . import cluster_place, cluster_servers, cluster_sweep, remote
from .cluster_servers import Servers
from .inventory import InventoryError

TOOLS = {"ping": ["ping"], "tcp": ["iperf3", "ss"], "udp": ["iperf3", "ss"]}
SERVER_TOOLS = ["sh", "bash", "setsid", "env", "kill", "cat", "mkdir", "tail", "mnexec", "ip",
                "ethtool", "sysctl", "ovs-vsctl", "ovs-ofctl"]
UNSUPPORTED = {"first-packet": "first-packet captures on the switches' ports, which run on other "
                               "servers", "ditg": "D-ITG is not wired for the cluster backend yet"}


class ClusterNetwork(Built):
    def __init__(self, servers: Servers, topology: Topology, measurements: Sequence[str] = ("ping",),
                 controller: Optional[tuple] = None, protocols: Optional[str] = "OpenFlow13",
                 connect_timeout: float = 30.0) -> None:
        self.servers = servers
        self.topology = topology
        self.measurements = list(measurements)
        self.controller = controller
        self.protocols = protocols
        self.connect_timeout = connect_timeout
        self.placement = cluster_place.place(topology, servers.names(), servers.placement)
        self.run_id = uuid.uuid4().hex[:12]
        self.prefix = cluster_sweep.new_prefix()     # claimed on every server by check()
        self._claimed = False
        self.workdir: Optional[Path] = None
        self.notes: list = []
        self.info: dict = {"backend": "cluster", "servers": servers.path, "tunnel": servers.tunnel,
                           "placement": servers.placement, "datapath": "user"}
        self.procs: list = []
        self._sessions: dict = {}          # server name -> RemoteHostSession
        self._net = None
        self._real: dict = {}              # logical name -> Mininet node name
        self._ips: dict = {}
        self._checked = False

    # -- checks ----------------------------------------------------------------------------

    def check(self) -> "ClusterNetwork":
        if self._checked:
            return self
        for m in self.measurements:
            if m in UNSUPPORTED:
                raise UserError(f"cluster backend: {UNSUPPORTED[m]}")
        if any(not l.params.is_default() for l in self.topology.links):
            raise UserError("cluster backend: link parameters are not applied across servers; drop them")
        if self.controller and self.controller[0].startswith("127."):
            raise UserError(f"cluster backend: the switches run on other servers and cannot reach a "
                            f"controller on {self.controller[0]}; start it listening on an address "
                            "they reach and use --controller tcp:ADDR:PORT")
        mininet_common.check_names_fit(self.topology, len(self.prefix))
        wanted = list(dict.fromkeys(SERVER_TOOLS + [t for m in self.measurements for t in TOOLS.get(m, [])]))
        try:
            remote.connect_all(self.servers.servers, self.run_id, self._sessions)
            for s in self.servers.servers:
                self._check_server(s, wanted)
            self._claim_prefix()
        except BaseException:
            self._close_sessions()
            raise
        self._checked = True
        return self

    def _check_server(self, s, wanted: list) -> None:
        sess = self._sessions[s.name]
        for prefix in cluster_sweep.sweep_dead(sess):      # a run killed with SIGKILL
            self.notes.append(f"removed what a killed sdnbench run ({prefix}) left on server {s.name}")
        missing = sess.missing_tools(wanted)
        if missing:
            raise UserError(remote.not_found(s, missing)
                            + (" (Mininet is not installed)" if "mnexec" in missing else ""))
        status, out = _run(sess, "ovs-vsctl --timeout=5 show >/dev/null && ovs-vsctl --version | head -1")
        if status != 0:
            raise UserError(f"{s.where()}: Open vSwitch is not running ({_last(out)})")
        self.info.setdefault("ovs_version", out.split()[-1] if out.split() else None)
        if len(self.servers.servers) > 1:
            kind = "vxlan id 1 dstport 4789" if self.servers.tunnel == "vxlan" else "gretap"
            probe = f"{self.prefix}chk"
            status, out = _run(sess, f"ip link add name {probe} type {kind} local {s.tunnel_ip} "
                                     f"remote {s.tunnel_ip} && ip link del {probe}")
            if status != 0:
                other = "vxlan" if self.servers.tunnel == "gre" else "gre"
                raise UserError(f"{s.where()}: cannot make {self.servers.tunnel} tunnels "
                                f"({_last(out)}); try tunnel: {other}")

    def _claim_prefix(self, tries: int = 50) -> None:
        """Make the run's prefix its own on every server (``cluster_sweep.claim_script``),
        drawing another while one is taken."""
        for _ in range(tries):
            taken = None
            for name, sess in self._sessions.items():
                sess._ensure_dir()
                _st, out, _ = sess.shell(cluster_sweep.claim_script(self.prefix, sess.dir))
                if out.strip() == "taken":
                    taken = name
                    break
                if out.strip() != "claimed":
                    raise UserError(f"{self.servers.server(name).where()}: cannot claim a name prefix "
                                    f"in {remote.RUN_ROOT} ({_last(out)})")
                self._claimed = True
            if taken is None:
                return
            self._release_prefix()
            self.prefix = cluster_sweep.new_prefix()
        raise UserError(f"cluster backend: {tries} name prefixes in a row were in use on server {taken}")

    def _release_prefix(self) -> None:
        if self._claimed:
            for sess in self._sessions.values():
                sess.shell(cluster_sweep.release_script(self.prefix, sess.dir))
            self._claimed = False

    # -- lifecycle -------------------------------------------------------------------------

    def __enter__(self) -> "ClusterNetwork":
        self.check()
        self.workdir = Path(tempfile.mkdtemp(prefix=cluster_sweep.LOCAL_DIR.format(prefix=self.prefix)))
        return super().__enter__()

    def build(self) -> None:
        for sess in self._sessions.values():
            cluster_sweep.record(sess, self.prefix)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            self._build_mininet()

    def _build_mininet(self) -> None:
        from mininet.log import setLogLevel
        from mininet.net import Mininet

        from .cluster_nodes import classes, ssh_config

        setLogLevel("error")
        conf = ssh_config(self.workdir / "ssh_config", self.servers.servers, self.workdir / "known_hosts")
        host_cls, switch_cls, link_cls = classes(conf, self.servers.tunnel,
                                                 {s.name: s.tunnel_ip for s in self.servers.servers})
        net = Mininet(topo=None, build=False, controller=None, host=host_cls, switch=switch_cls,
                      link=link_cls, autoSetMacs=False)
        self._net = net
        where = lambda n: {"server": self.placement[n], "user": "root",    # noqa: E731
                           "serverIP": self.servers.server(self.placement[n]).ssh}
        for i, h in enumerate(self.topology.hosts, start=1):
            self._real[h.name] = real = f"{self.prefix}h{i}"
            ip, mac = mininet_common.host_addresses(h, i)
            self._ips[h.name] = ip.split("/")[0]
            net.addHost(real, ip=ip, mac=mac, **where(h.name)).cmd(mininet_common.NO_IPV6)
        standalone = self.controller is None
        for i, s in enumerate(self.topology.switches, start=1):
            self._real[s.name] = real = f"{self.prefix}s{i}"
            net.addSwitch(real, dpid=f"{s.dpid:016x}", protocols=s.protocols or self.protocols,
                          failMode="standalone" if standalone else "secure", datapath="user",
                          stp=False, **where(s.name))
        for link in self.topology.links:
            net.addLink(self._real[link.a], self._real[link.b])
        if not standalone:
            net.controllers.append(mininet_common.RemoteController(*self.controller))
        net.build()
        net.start()
        self._configure_hosts()
        if not standalone:
            switches = [net.get(self._real[s]) for s in self.topology.switch_names()]
            proc.wait_until(lambda: all(sw.connected() for sw in switches), self.connect_timeout,
                            f"{len(switches)} switches to connect to the controller at "
                            f"{self.controller[0]}:{self.controller[1]}")
        crossing = cluster_place.crossing(self.topology, self.placement)
        self.notes.append(f"cluster backend ({self.servers.tunnel} tunnels, {self.servers.placement} "
                          f"placement): {cluster_place.describe(self.topology, self.placement, self.servers.names())}")
        self.info["crossing_links"] = [f"{l.a}-{l.b}" for l in crossing]

    def _configure_hosts(self) -> None:
        """Checksum offload off (the userspace datapath stalls TCP/UDP otherwise)."""
        for h in self.topology.host_names():
            node = self._net.get(self._real[h])
            lines = [f"ethtool -K {i.name} tx off rx off >/dev/null" for i in node.intfList() if i.name != "lo"]
            out = node.cmd(" && ".join(lines) + "; echo rc=$?")
            if "rc=0" not in out:
                raise RuntimeError(f"configuring host {h} on server {self.placement[h]} failed: {out.strip()}")

    def close(self) -> None:
        errors = []
        for step in (self._stop_procs, self._stop_mininet, self._sweep, self._stop_masters):
            try:
                step()
            except Exception as e:     # keep tearing down; judged by what is left
                errors.append(f"{step.__name__}: {type(e).__name__}: {e}")
        left = self._leftovers() if self._sessions else []
        errors += [l for l in self._close_sessions()]
        if self.workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)
        if left:
            left_behind(f"cluster clean-up left {'; '.join(left)} ({'; '.join(errors) or 'no error reported'})",
                        UserError)

    def _stop_procs(self) -> None:
        procs, self.procs = self.procs, []
        for t in procs:
            t.stop(grace=2)

    def _stop_mininet(self) -> None:
        net, self._net = self._net, None
        if net is not None:
            mininet_common.stop(net)

    def _sweep(self) -> None:
        for s in self._sessions.values():
            s.shell(cluster_sweep.sweep_script(self.prefix), timeout=30)

    def _stop_masters(self) -> None:
        from .cluster_nodes import stop_masters
        if self.workdir and (self.workdir / "ssh_config").exists():
            stop_masters(self.workdir / "ssh_config", self.servers.servers)

    def _leftovers(self) -> list:
        left = []
        for name, s in self._sessions.items():
            _st, out, _ = s.shell(cluster_sweep.leftovers_script(self.prefix))
            if out.split():
                left.append(f"server {name}: {' '.join(out.split())}")
        return left

    def _close_sessions(self) -> list:
        self._checked = False
        errors = []
        try:
            self._release_prefix()
        except Exception as e:    # a lost session: the claim's run directory goes, so it is stale
            errors.append(f"release of prefix {self.prefix}: {type(e).__name__}: {e}")
        return errors + remote.close_sessions(self._sessions)

    # -- the measurements' interface -----------------------------------------------------

    def server_of(self, host: str) -> str:
        return self.placement[host]

    def _in_host(self, host: str, argv: Sequence[str]) -> list:
        if self._net is None:
            raise RuntimeError("network is not running")
        return ["mnexec", "-a", str(self._net.get(self._real[host]).pid), *map(str, argv)]

    def run_in(self, host: str, argv: Sequence[str], timeout: float) -> subprocess.CompletedProcess:
        status, out, err = self._sessions[self.placement[host]].run(self._in_host(host, argv), timeout)
        return subprocess.CompletedProcess(list(argv), status, out, err)

    def spawn_in(self, host: str, name: str, argv: Sequence[str], log_path=None):
        t = self._sessions[self.placement[host]].spawn(name, self._in_host(host, argv))
        t.log_path = log_path
        self.procs.append(t)
        return t

    def spawn_root(self, name: str, argv: Sequence[str], log_path=None):
        raise UserError(f"cluster backend: {name} would run on a server's root namespace; not supported")

    def port_towards(self, switch: str, peer: str):
        raise UserError(f"cluster backend: the ports of switch {switch} are on server "
                        f"{self.placement[switch]} and cannot be captured from here")

    def switch_ports(self, switch: str) -> list:
        return []

    def host_ip(self, host: str) -> str:
        return self._ips[host]

    def describe(self) -> dict:
        d = self.topology.to_dict()
        d.update(backend="cluster", servers=self.servers.path, prefix=self.prefix,
                 tunnel=self.servers.tunnel, placement_rule=self.servers.placement,
                 placement=dict(self.placement), crossing_links=self.info.get("crossing_links", []),
                 datapath="user", standalone=self.controller is None, ips=dict(self._ips))
        return d


def _run(sess, script: str) -> tuple:
    """``(exit status, output)`` of a short script on a server. (``RemoteHostSession.shell``
    reports the status of its own trailing ``echo``, always 0, so the script's is printed.)"""
    _st, out, _ = sess.shell(f"{script}\necho __rc=$?")
    body, _, rc = out.rpartition("__rc=")
    return int(rc.strip() or 1), body


def _last(text: str) -> str:
    lines = [l.strip() for l in text.strip().splitlines() if l.strip()]
    return lines[-1] if lines else "no output"


class ClusterBackend:
    """The cluster backend as a ``base`` backend (``--backend cluster:SERVERS``): the topology is
    the ``topo`` parameter, built afresh on the servers for every repetition."""

    name = "cluster"

    def __init__(self, path: str) -> None:
        try:
            self.servers = cluster_servers.load(path)
        except InventoryError as e:
            raise UserError(f"servers file {e}")
        self.spec = f"cluster:{path}"

    def topology(self, p: dict) -> Topology:
        return parse_topology(p["topo"])

    def controller_port(self) -> Optional[int]:
        return None

    def network(self, topo: Topology, controller: Optional[tuple], p: dict) -> ClusterNetwork:
        net, self._checked = getattr(self, "_checked", None), None
        if net is None:
            net = ClusterNetwork(self.servers, topo, p["measurements"], controller, p["protocols"])
        net.controller = controller
        return net

    def preflight(self, topo: Topology, p: dict) -> None:
        """Refuse a controller the servers cannot reach, then log into every server and check
        it, before a controller starts; the first repetition's network reuses the sessions."""
        spec = str(p["controller"])
        if spec not in mininet_common.STANDALONE and (not spec.startswith("tcp:") or spec[4:].startswith(("127.", "localhost"))):
            raise UserError(f"cluster backend: controller {spec} would listen on this machine's "
                            "loopback, which switches on other servers cannot reach; start it "
                            "listening on an address they reach and use --controller tcp:ADDR:PORT, "
                            "or standalone")
        self._checked = ClusterNetwork(self.servers, topo, p["measurements"], None, p["protocols"]).check()
