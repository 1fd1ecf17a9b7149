"""Switches under test behind one interface.

A target is a context manager. Inside the block it exposes ``probe_specs`` (the local
interfaces sdnbench sends and captures on, ``[NETNS:]IF``, in switch-port order as far as the
target knows it; ``sdnbench-switch`` finds the real port numbers itself) and ``attach(address)``
(point the switch at our controller port). ``describe()`` says what it is. On exit everything
the target built is removed.

Specs: ``ovs`` (Open vSwitch: kernel datapath where the openvswitch module is loaded, else the
userspace ``netdev`` datapath), ``ovs-netdev`` / ``ovs-system`` to choose, ``cpqd`` (the CPqD
user switch, ofsoftswitch13, where installed), ``remote:PORT,IF1,IF2[,...]`` (a switch that
connects by itself, e.g. hardware, with its data ports cabled to local interfaces IF1, IF2).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from .. import proc
from ..errors import UserError
from ..lifecycle import Built
from . import cpqd
from .watch import ovs_vswitchd
from .wiring import Wiring


def kernel_datapath_available() -> bool:
    return Path("/sys/module/openvswitch").exists()


class OvsTarget(Built):
    """An OVS bridge with two (or more) ports wired to probe interfaces in namespaces."""

    def __init__(self, datapath: Optional[str] = None, ports: int = 2, netns: bool = True) -> None:
        if datapath is None:
            datapath = "system" if kernel_datapath_available() else "netdev"
        if datapath == "system" and not kernel_datapath_available():
            raise UserError("--target ovs-system: the openvswitch kernel module is not loaded here; "
                            "use --target ovs (userspace datapath)")
        self.datapath = datapath
        self.wiring = Wiring(ports, netns=netns)
        self.bridge = f"{self.wiring.prefix}br"
        self.spec = "ovs" if datapath == "netdev" else f"ovs-{datapath}"
        self._bridge_made = False
        self.watch = None

    def __enter__(self) -> "OvsTarget":
        ovs_running()
        self.wiring.__enter__()
        return super().__enter__()

    def dead(self) -> Optional[str]:
        return self.watch.dead() if self.watch else None

    def processes(self) -> str:
        return f"ovs-vswitchd pid {self.watch.pid}, its log {self.watch.log}" if self.watch else ""

    def build(self) -> None:
        """The bridge, with the wiring's switch ends as ports 1, 2, ..."""
        self.watch = ovs_vswitchd()
        argv = ["ovs-vsctl", "--may-exist", "add-br", self.bridge, "--", "set", "bridge", self.bridge,
                f"datapath_type={self.datapath}", "fail-mode=secure",
                "other-config:disable-in-band=true", "protocols=OpenFlow10,OpenFlow13"]
        self._bridge_made = True
        for i, name in enumerate(self.wiring.switch_ifs, start=1):
            argv += ["--", "add-port", self.bridge, name, "--", "set", "interface", name, f"ofport_request={i}"]
        proc.run(argv, timeout=30, what="ovs-vsctl add-br")

    @property
    def probe_specs(self) -> list:
        return self.wiring.probe_specs

    def attach(self, address: str) -> None:
        proc.run(["ovs-vsctl", "set-controller", self.bridge, f"tcp:{address}"], timeout=30,
                 what="ovs-vsctl set-controller")

    def set_flow_limit(self, n: int) -> None:
        """Table 0 refuses flows beyond ``n`` (OFPFMFC_TABLE_FULL)."""
        proc.run(["ovs-vsctl", "--", "--id=@t", "create", "Flow_Table", f"flow_limit={n}",
                  "overflow_policy=refuse", "--", "set", "Bridge", self.bridge, "flow_tables:0=@t"],
                 timeout=30, what="ovs-vsctl flow_limit")

    def describe(self) -> dict:
        return {"target": self.spec, "datapath_type": self.datapath, "bridge": self.bridge,
                "ovs_version": ovs_version()}

    def close(self) -> None:
        errors = []
        if self._bridge_made:
            self._bridge_made = False
            wait = [] if self.dead() is None else ["--no-wait"]     # a dead ovs-vswitchd never applies it
            cp = proc.run(["ovs-vsctl", *wait, "--if-exists", "del-br", self.bridge], timeout=30, check=False)
            if cp.returncode != 0:
                errors.append(f"ovs-vsctl del-br {self.bridge}: {cp.stderr.strip()}")
        try:
            self.wiring.close()
        except RuntimeError as e:
            errors.append(str(e))
        if errors:
            raise RuntimeError("; ".join(errors))


def ovs_running() -> None:
    cp = proc.run(["ovs-vsctl", "--timeout=5", "show"], timeout=10, check=False)
    if cp.returncode != 0:
        raise UserError("Open vSwitch is not running: start it with "
                        "`/usr/share/openvswitch/scripts/ovs-ctl start --system-id=random` (or `make setup`)")


def ovs_version() -> str:
    cp = proc.run(["ovs-vsctl", "--version"], timeout=10, check=False)
    first = cp.stdout.splitlines()[0] if cp.stdout else ""
    return first.split()[-1] if first else "unknown"


class CpqdTarget(Built):
    """The CPqD user switch (ofsoftswitch13, ``cpqd.Cpqd``): ``ofdatapath`` on veths, its channel
    on a Unix socket, ``ofprotocol`` to our controller on loopback."""

    DPID = 1

    def __init__(self) -> None:
        cpqd.check_installed()
        self.wiring = Wiring(2, netns=True)
        self.spec = "cpqd"
        self.switch: Optional[cpqd.Cpqd] = None

    def __enter__(self) -> "CpqdTarget":
        self.wiring.__enter__()
        return super().__enter__()

    def build(self) -> None:
        self.switch = cpqd.Cpqd()
        self.switch.start(self.wiring.switch_ifs, self.DPID)

    @property
    def probe_specs(self) -> list:
        return self.wiring.probe_specs

    def attach(self, address: str) -> None:
        self.switch.attach(address)

    def dead(self) -> Optional[str]:
        return self.switch.dead() if self.switch else None

    def processes(self) -> str:
        return self.switch.pids() if self.switch else ""

    def set_flow_limit(self, n: int) -> None:
        raise UserError("--table-limit is an Open vSwitch setting; the CPqD switch has its own fixed table size")

    def describe(self) -> dict:
        return {"target": "cpqd", "datapath_id_arg": cpqd.dpid_arg(self.DPID),
                "logs": str(self.switch.dir) if self.switch else None}

    def close(self) -> None:
        try:
            if self.switch is not None:
                self.switch.stop()
        finally:
            self.wiring.close()


class RemoteTarget:
    """A switch sdnbench does not build: it connects to our port by itself."""

    def __init__(self, port: int, ifs: list) -> None:
        self.port = port
        self.ifs = ifs
        self.spec = f"remote:{port},{','.join(ifs)}"
        for name in ifs:
            check_interface(name)

    def __enter__(self) -> "RemoteTarget":
        return self

    def __exit__(self, *exc) -> None:
        pass

    @property
    def probe_specs(self) -> list:
        return list(self.ifs)

    def attach(self, address: str) -> None:
        pass  # the switch was told our address by whoever cabled it

    def dead(self) -> Optional[str]:
        return None  # not ours to watch

    def processes(self) -> str:
        return ""

    def set_flow_limit(self, n: int) -> None:
        raise UserError("--table-limit needs a switch sdnbench builds (--target ovs); a remote switch keeps its own")

    def describe(self) -> dict:
        return {"target": "remote", "interfaces": list(self.ifs), "listen_port": self.port}


def check_interface(name: str) -> None:
    """Refuses an interface that does not exist or is down, before anything starts."""
    base = Path("/sys/class/net") / name
    if not base.exists():
        raise UserError(f"interface {name} does not exist (see `ip link`)")
    flags = int((base / "flags").read_text().strip(), 16)
    state = (base / "operstate").read_text().strip()
    if not flags & 1 or state == "down":
        raise UserError(f"interface {name} is down (operstate {state}): `ip link set {name} up` first")




def parse_target(spec: str):
    """The target named by ``spec`` (not yet entered)."""
    if spec in ("ovs", "ovs-netdev", "ovs-system"):
        return OvsTarget(datapath=None if spec == "ovs" else spec.split("-", 1)[1])
    if spec == "cpqd":
        return CpqdTarget()
    if spec.startswith("remote:"):
        parts = spec[len("remote:"):].split(",")
        if len(parts) < 3 or not parts[0].isdigit() or not 0 < int(parts[0]) < 65536:
            raise UserError(f"--target {spec}: want remote:PORT,IF1,IF2 (our listening port, then the local "
                            "interfaces cabled to the switch's data ports)")
        return RemoteTarget(int(parts[0]), parts[1:])
    raise UserError(f"--target {spec}: want ovs, ovs-netdev, ovs-system, cpqd or remote:PORT,IF1,IF2")


__all__ = ["OvsTarget", "CpqdTarget", "RemoteTarget", "parse_target", "check_interface",
           "kernel_datapath_available", "ovs_running", "ovs_version"]
