"""The two switches of the tool's network: the target (the switch tested) and the tester (an
OpenFlow switch the tool drives to send and receive), joined by three links: target port 1 (the
tool's ``target_recv_port``) to tester port 1 (``tester_send_port``), 2 to 2 and 3 to 3.

A pair is a context manager (``lifecycle.Built``): entering builds what does not need the tool,
``connect(address)`` points both switches at the tool once it listens, leaving removes
everything the pair made (also after Ctrl-C or SIGTERM, which ``proc`` turns into
``Interrupted``). Names carry the run's prefix (``switchbench.wiring``), so ``sdnbench switch
clean`` removes what a kill -9 left.

- ``OvsPair``: two Open vSwitch bridges (``datapath_type=netdev``) on three veth pairs;
- ``EmulatedPair``: two emulated switches on three emulated links, the engine in network mode
  (its network JSON lets two switches share several links: ``emulated_network``);
- ``CpqdPair``: the CPqD user switch as the target, an OVS bridge as the tester;
- ``RemotePair``: a switch sdnbench does not build (it connects to the tool's port by itself),
  its ports 1, 2, 3 cabled to three local interfaces that an OVS tester bridge takes (the
  patterns name ports 1, 2, 3 in their flows and matches: other numbers cannot pass).
"""

from __future__ import annotations

from typing import Optional

from .. import proc
from ..discovery.engine_run import EngineRun
from ..engine.driver import version as engine_version
from ..engine.params import check as engine_check, config as engine_config
from ..lifecycle import Built
from ..switchbench import cpqd
from ..switchbench.targets import check_interface, ovs_running, ovs_version
from ..switchbench.watch import ended, first_death, ovs_vswitchd
from ..switchbench.wiring import Wiring

TARGET_DPID, TESTER_DPID = 1, 2
LINKS = 3
PROTOCOLS = {"1.0": "OpenFlow10", "1.3": "OpenFlow13"}


def dpid_hex(dpid: int) -> str:
    return f"{dpid:016x}"


class _Bridge:
    """An OVS bridge (netdev) with ``ifs`` as its ports 1, 2, 3, made on ``make()``, deleted on ``remove()``."""

    def __init__(self, name: str, dpid: int, version: str, ifs: list):
        self.name, self.dpid, self.version, self.ifs = name, dpid, version, ifs
        self.made = False

    def make(self) -> None:
        argv = ["ovs-vsctl", "--may-exist", "add-br", self.name, "--", "set", "bridge", self.name,
                "datapath_type=netdev", "fail-mode=secure", "other-config:disable-in-band=true",
                f"other-config:datapath-id={dpid_hex(self.dpid)}", f"protocols={PROTOCOLS[self.version]}"]
        for i, name in enumerate(self.ifs, start=1):
            argv += ["--", "add-port", self.name, name, "--", "set", "interface", name, f"ofport_request={i}"]
        self.made = True
        proc.run(argv, timeout=30, what="ovs-vsctl add-br")

    def connect(self, address: str) -> None:
        proc.run(["ovs-vsctl", "set-controller", self.name, f"tcp:{address}"], timeout=30, what="ovs-vsctl set-controller")

    def remove(self, wait: bool = True) -> Optional[str]:
        """Delete the bridge; ``wait=False`` when ovs-vswitchd died (``ovs-vsctl`` would wait for
        it to apply the change, forever: the database alone is changed)."""
        if not self.made:
            return None
        self.made = False
        cp = proc.run(["ovs-vsctl", *([] if wait else ["--no-wait"]), "--if-exists", "del-br", self.name],
                      timeout=30, check=False)
        return f"ovs-vsctl del-br {self.name}: {cp.stderr.strip()}" if cp.returncode else None


class OvsPair(Built):
    kind = "ovs"

    def __init__(self, version: str):
        self.version = version
        self.target_ports = (1, 2, 3)
        self.wiring = Wiring(LINKS, netns=False)
        p = self.wiring.prefix
        self.target = _Bridge(f"{p}b1", TARGET_DPID, version, self.wiring.switch_ifs)
        self.tester = _Bridge(f"{p}b2", TESTER_DPID, version, self.wiring.probe_ifs)
        self.target_dpid, self.tester_dpid = TARGET_DPID, TESTER_DPID
        self.watch = None

    def __enter__(self) -> "OvsPair":
        ovs_running()
        self.wiring.__enter__()
        return super().__enter__()

    def build(self) -> None:
        self.watch = ovs_vswitchd()
        self.target.make()
        self.tester.make()

    def processes(self) -> str:
        return f"ovs-vswitchd pid {self.watch.pid}, its log {self.watch.log}" if self.watch else ""

    def dead(self) -> Optional[str]:
        return self.watch.dead() if self.watch else None

    def connect(self, address: str) -> None:
        self.target.connect(address)
        self.tester.connect(address)

    def describe(self) -> dict:
        return {"target": "ovs", "switch": f"Open vSwitch {ovs_version()} (datapath_type=netdev)",
                "tester": "Open vSwitch bridge (netdev)", "bridges": [self.target.name, self.tester.name],
                "links": [list(x) for x in zip(self.wiring.switch_ifs, self.wiring.probe_ifs)]}

    def close(self) -> None:
        wait = self.dead() is None
        errors = [e for e in (self.target.remove(wait), self.tester.remove(wait)) if e]
        try:
            self.wiring.close()
        except RuntimeError as e:
            errors.append(str(e))
        if errors:
            raise RuntimeError("; ".join(errors))


def emulated_network() -> dict:
    """The engine's network JSON: two switches, three parallel links 1-1, 2-2, 3-3, no hosts."""
    return {"spec": "switch-conformance", "switches": [{"dpid": TARGET_DPID, "ports": LINKS},
                                                       {"dpid": TESTER_DPID, "ports": LINKS}],
            "links": [[TARGET_DPID, i, TESTER_DPID, i] for i in range(1, LINKS + 1)], "hosts": []}


def emulated_params(version: str, seconds: int) -> dict:
    """Checked engine params (``sdnbench-engine check``): network mode, this OpenFlow version,
    running ``seconds`` unless stopped (the run stops it when the tool is done)."""
    return engine_check({"controller": "tcp:127.0.0.1:6653", "mode": "network", "network": emulated_network(),
                         "switches": 2, "of_version": version, "loops": seconds, "loop_ms": 1000,
                         "warmup": 0, "settle_ms": 0, "workers": 1})


class EmulatedPair:
    kind = "emulated"

    def __init__(self, version: str, seconds: int = 6 * 3600):
        self.version = version
        self.params = emulated_params(version, seconds)
        self.target_ports = (1, 2, 3)
        self.target_dpid, self.tester_dpid = TARGET_DPID, TESTER_DPID
        self.run: Optional[EngineRun] = None
        self.doc: Optional[dict] = None

    def __enter__(self) -> "EmulatedPair":
        return self

    def connect(self, address: str) -> None:
        self.run = EngineRun(engine_config(self.params, address))

    def processes(self) -> str:
        return f"sdnbench-engine pid {self.run.proc.pid}" if self.run else ""

    def dead(self) -> Optional[str]:
        """The engine (both switches) ended before the run stopped it: how, and its last stderr lines."""
        if self.run is None or self.run.running():
            return None
        err = self.run.proc.stderr.read() if self.run.proc.stderr else ""
        last = " | ".join((err or "").strip().splitlines()[-3:])
        return f"sdnbench-engine (pid {self.run.proc.pid}) {ended(self.run.proc.returncode)}" + \
            (f"; its stderr: {last}" if last else "")

    def describe(self) -> dict:
        return {"target": "emulated", "switch": f"sdnbench-engine {engine_version()} (ofswitch, network mode)",
                "tester": "emulated switch", "network": emulated_network()}

    def __exit__(self, *exc) -> None:
        if self.run is None:
            return
        try:
            if exc[0] is None and self.run.running():     # a dead engine was reported by ``dead``
                self.doc = self.run.stop()
        finally:
            self.run.__exit__(*exc)
            self.run = None


def check_cpqd() -> None:
    """UserError naming what is missing unless the CPqD user switch is installed here."""
    cpqd.check_installed()


class CpqdPair(Built):
    """The CPqD user switch (``switchbench.cpqd``: ``ofdatapath`` on a Unix socket, ``ofprotocol``)
    as the target, an OVS bridge as the tester."""

    kind = "cpqd"

    def __init__(self, version: str):
        check_cpqd()
        self.version = version
        self.target_ports = (1, 2, 3)
        self.wiring = Wiring(LINKS, netns=False)
        self.tester = _Bridge(f"{self.wiring.prefix}b2", TESTER_DPID, version, self.wiring.probe_ifs)
        self.target_dpid, self.tester_dpid = TARGET_DPID, TESTER_DPID
        self.switch: Optional[cpqd.Cpqd] = None
        self.watches: list = []

    def __enter__(self) -> "CpqdPair":
        ovs_running()
        self.wiring.__enter__()
        return super().__enter__()

    def build(self) -> None:
        self.watches.append(ovs_vswitchd())
        self.tester.make()
        self.switch = cpqd.Cpqd()
        self.watches.append(self.switch)
        self.switch.start(self.wiring.switch_ifs, TARGET_DPID)

    def connect(self, address: str) -> None:
        self.switch.attach(address)
        self.tester.connect(address)

    def processes(self) -> str:
        return self.switch.pids() if self.switch else ""

    def dead(self) -> Optional[str]:
        return first_death(self.watches)

    def describe(self) -> dict:
        return {"target": "cpqd", "switch": "CPqD ofsoftswitch13", "tester": "Open vSwitch bridge (netdev)",
                "datapath_id_arg": cpqd.dpid_arg(TARGET_DPID),
                "logs": str(self.switch.dir) if self.switch else None}

    def close(self) -> None:
        try:
            if self.switch is not None:
                self.switch.stop()
            err = self.tester.remove(wait=self.watches[0].dead() is None if self.watches else True)
        finally:
            self.wiring.close()
        if err:
            raise RuntimeError(err)


class RemotePair(Built):
    """A switch that connects to the tool's port by itself (``remote:PORT,IF1,IF2,IF3``); its
    ports 1, 2, 3 are cabled to IF1..IF3, which an OVS tester bridge takes as its ports 1..3 (the
    interfaces themselves are left as they were)."""

    kind = "remote"

    def __init__(self, version: str, port: int, ifs: list, dpid: int):
        for name in ifs:
            check_interface(name)
        self.version, self.port, self.ifs = version, port, ifs
        self.target_ports = (1, 2, 3)
        self.target_dpid, self.tester_dpid = dpid, (TESTER_DPID if dpid != TESTER_DPID else TARGET_DPID)
        self.tester = _Bridge(f"{Wiring(1).prefix}b2", self.tester_dpid, version, ifs)

    def __enter__(self) -> "RemotePair":
        ovs_running()
        return super().__enter__()

    def build(self) -> None:
        self.tester.make()

    def connect(self, address: str) -> None:
        self.tester.connect(address)      # the target was told the tool's address by whoever cabled it

    def processes(self) -> str:
        return ""

    def dead(self) -> Optional[str]:
        return None                       # not ours to watch; the tool's timeouts say it stopped answering

    def describe(self) -> dict:
        return {"target": f"remote:{self.port},{','.join(self.ifs)}", "switch": f"dpid {dpid_hex(self.target_dpid)}",
                "tester": "Open vSwitch bridge (netdev)"}

    def close(self) -> None:
        err = self.tester.remove()
        if err:
            raise RuntimeError(err)
