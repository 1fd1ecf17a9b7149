"""The link path, differential (issue 31): a frame a controller sends out of one switch's port
crosses a link into another switch and runs that switch's flow table, on Open vSwitch
(userspace datapath, two bridges cabled by a veth pair) and on the engine's emulated
switches (an emulated link: ``ofswitch::Switch::frame_from_link``, the path Faucet's stack
LLDP takes in a robustness run). What the controller gets back is compared.

The scripted OpenFlow 1.3 controller (``LinkController``) plays what Faucet does on a stack
link, in three steps, 1 s apart once both switches have answered its barrier:

1. ``faucet-flow``: on datapath 2, Faucet's stack LLDP flow for port ``PEER`` (table 0,
   priority 100, Faucet's cookie, ``in_port`` PEER, ``eth_dst 01:80:c2:00:00:00/ff:ff:ff:ff:ff:f0``,
   LLDP, ``output:CONTROLLER`` max_len 128) is installed first; datapath 1 sends Faucet's own
   beacon (captured from Faucet 1.10.12, ``BEACON``) out of its port ``LINK``: a packet-in
   reason ACTION with that flow's cookie and table, ``in_port`` PEER, the whole frame;
2. ``no-flow``: the same beacon addressed to 01:80:c2:00:00:21 (outside the flow's mask): no
   flow matches and 1.3 has no table-miss entry: no packet-in;
3. ``table-miss``: a table-miss entry (priority 0, cookie 0x77, ``output:CONTROLLER``) added on
   datapath 2, then the step-2 frame again: a packet-in reason NO_MATCH with cookie 0x77.

Every LLDP packet-in is recorded with the step it came in: (step, dpid, reason, cookie, table_id,
in_port, buffer_id, total_len, frame). Threads, 127.0.0.1 only (``sdnbench.testing.peer``)."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from typing import Iterator, Optional

from sdnbench import proc
from sdnbench.engine import driver
from sdnbench.engine.params import check, config, engine_args
from sdnbench.engine.result_types import engine_result
from sdnbench.testing import openflow as of
from sdnbench.testing.peer import ThreadedPeer

V13 = of.V13
LINK, PEER = 6, 5                     # datapath 1's port 6 is cabled to datapath 2's port 5 (a stack link)
FAUCET_COOKIE, MISS_COOKIE = 0x5ADC15C0, 0x77
# Faucet 1.10.12's beacon out of s1's stack port 6 (state INIT), captured 2026-11-25: the same
# capture ``crates/ofmutate/src/faucet_lldp.rs`` checks its forged beacon against.
BEACON = bytes.fromhex("0180c200000e0e000000000188cc0207040e0000000001040205360602000f0a0273310805706f727436"
                       "fe050e00000131fe050e0000023100000000")
OFF_MASK = bytes.fromhex("0180c2000021") + BEACON[6:]   # outside 01:80:c2:00:00:00/ff:ff:ff:ff:ff:f0
STEP_S = 1.0
STEPS = (("faucet-flow", BEACON), ("no-flow", OFF_MASK), ("table-miss", OFF_MASK))
OXM_ETH_TYPE = 5


def stack_lldp_flow(xid: int) -> bytes:
    """Faucet's stack LLDP flow for port PEER (``valve_switch_stack`` ``_add_stack_lldp``, as
    ``ovs-ofctl dump-flows`` shows it under Faucet 1.10.12)."""
    masked = of.oxm(of.OXM_ETH_DST, bytes.fromhex("0180c2000000"), mask=bytes.fromhex("fffffffffff0"))
    match = of.match13(of.oxm(of.OXM_IN_PORT, PEER.to_bytes(4, "big")), masked,
                       of.oxm(OXM_ETH_TYPE, of.LLDP.to_bytes(2, "big")))
    return of.flow_mod13(xid, of.ADD, 0, 100, of.apply_actions(of.output(V13, of.CONTROLLER[V13], 128)),
                         match=match, cookie=FAUCET_COOKIE)


def table_miss(xid: int) -> bytes:
    return of.flow_mod13(xid, of.ADD, 0, 0, of.apply_actions(of.output(V13, of.CONTROLLER[V13], 128)),
                         cookie=MISS_COOKIE)


class LinkController(ThreadedPeer):
    def __init__(self) -> None:
        super().__init__()
        self.ready: set = set()
        self.t0: Optional[float] = None
        self.seen: list = []
        self.errors: list = []
        self.done = threading.Event()

    def greeting(self) -> bytes:
        return of.hello(V13, 1) + of.msg(V13, "FEATURES_REQUEST", 2)

    def new_state(self) -> dict:
        return {"dpid": None, "sent": 0}

    def step_at(self, t: float) -> Optional[int]:
        """The step a packet-in arriving at monotonic time ``t`` belongs to."""
        if self.t0 is None or t < self.t0:
            return None
        return min(int((t - self.t0) / STEP_S), len(STEPS) - 1)

    def tick(self, s: socket.socket, st: dict) -> None:
        with self._lock:
            if self.t0 is None and self.ready >= {1, 2}:
                self.t0 = time.monotonic() + 0.3
            t0 = self.t0
        if t0 is None or st["dpid"] not in (1, 2):
            return
        now = time.monotonic()
        if st["dpid"] == 2 and st["sent"] == 0 and now >= t0 + (len(STEPS) - 1) * STEP_S - STEP_S / 2:
            s.sendall(table_miss(30) + of.msg(V13, "BARRIER_REQUEST", 31))   # before step 3's frame
            st["sent"] = 1
        if st["dpid"] == 1 and st["sent"] < len(STEPS) and now >= t0 + st["sent"] * STEP_S + 0.05:
            s.sendall(of.packet_out(V13, 40 + st["sent"], of.output(V13, LINK), STEPS[st["sent"]][1]))
            st["sent"] += 1
        if now >= t0 + len(STEPS) * STEP_S + 0.3:
            self.done.set()

    def record(self) -> dict:
        """Whether the three steps ran, which switches were set up, the LLDP packet-ins by step
        (sorted), and any OpenFlow error a switch sent."""
        with self._lock:
            return {"done": self.done.is_set(), "ready": sorted(self.ready), "seen": sorted(self.seen),
                    "errors": list(self.errors)}

    def handle(self, s: socket.socket, m: bytes, st: dict) -> None:
        kind = of.name_of(m)
        if kind == "FEATURES_REPLY":
            st["dpid"] = of.features(m)["dpid"]
            flows = stack_lldp_flow(10) if st["dpid"] == 2 else b""
            s.sendall(of.set_config(V13, 9) + flows + of.msg(V13, "BARRIER_REQUEST", 11))
        elif kind == "BARRIER_REPLY" and of.xid_of(m) == 11:
            with self._lock:
                self.ready.add(st["dpid"])
        elif kind == "ERROR":
            with self._lock:
                self.errors.append((st["dpid"], of.error(m)))
        elif kind == "PACKET_IN":
            pi = of.packet_in(m)
            step = self.step_at(time.monotonic())
            if pi["frame"][12:14] == of.LLDP.to_bytes(2, "big") and step is not None:
                with self._lock:
                    self.seen.append((STEPS[step][0], st["dpid"], pi["reason"], pi["cookie"], pi["table_id"],
                                      pi["in_port"], pi["buffer_id"], pi["total_len"], pi["frame"].hex()))


@contextlib.contextmanager
def ovs_pair(address: str) -> Iterator[tuple]:
    """Two Open vSwitch bridges (userspace datapath, OpenFlow 1.3, fail-mode secure, datapath ids
    1 and 2) cabled 1:LINK - 2:PEER by a veth pair, both controlled from ``address``; removed on
    exit, whatever happened. A veth, not a patch port pair: across patch ports OVS runs the peer
    bridge's table inside the packet-out's own translation, so a table-miss entry's packet-in
    there says ACTION (OVS's OFPR_PACKET_OUT, which 1.3 encodes as ACTION), where a frame that
    arrives on a cable says NO_MATCH (seen here, OVS 3.1)."""
    tag = f"lp{os.getpid() % 100000}"
    names, veth = (f"{tag}a", f"{tag}b"), (f"{tag}a-v", f"{tag}b-v")
    made, cabled = [], False
    try:
        proc.run(["ip", "link", "add", veth[0], "type", "veth", "peer", "name", veth[1]], timeout=10, what="ip link add")
        cabled = True
        for v in veth:
            proc.run(["ip", "link", "set", v, "up"], timeout=10, what="ip link set up")
        for dpid, (br, port, v) in enumerate(((names[0], LINK, veth[0]), (names[1], PEER, veth[1])), 1):
            made.append(br)
            proc.run(["ovs-vsctl", "--may-exist", "add-br", br, "--", "set", "bridge", br, "datapath_type=netdev",
                      "fail-mode=secure", "other-config:disable-in-band=true", f"other-config:datapath-id={dpid:016x}",
                      "protocols=OpenFlow13", "--", "add-port", br, v, "--", "set", "interface", v,
                      f"ofport_request={port}"], timeout=30, what="ovs-vsctl add-br")
        for br in names:
            proc.run(["ovs-vsctl", "set-controller", br, f"tcp:{address}"], timeout=30, what="ovs-vsctl set-controller")
        yield names
    finally:
        for br in made:
            proc.run(["ovs-vsctl", "--if-exists", "del-br", br], timeout=30, check=False)
        if cabled:
            proc.run(["ip", "link", "del", veth[0]], timeout=10, check=False)


def engine_params(address: str, seconds: float) -> tuple:
    """(params, config) of an engine run of two emulated switches cabled LINK - PEER by an emulated
    link, keeping the controller's flows, at OpenFlow 1.3, with a trickle of background requests
    (the link path belongs to the request workload, as in a robustness run)."""
    loops = max(4, int(seconds / 0.25))
    p = check({"controller": f"tcp:{address}", "of_version": "1.3", "mode": "fixed-rate", "rate": 10.0,
               "switches": 2, "ports": 4, "loops": loops, "loop_ms": 250, "warmup": 0, "learn": False})
    cfg = config(p, address)
    cfg["links"], cfg["keep_flows"] = [[1, LINK, 2, PEER]], True
    return p, cfg


def run_ovs(timeout_s: float = 20.0) -> dict:
    """The controller's record against the Open vSwitch pair."""
    with LinkController() as ctl, ovs_pair(ctl.address):
        ctl.done.wait(timeout_s)
        return ctl.record()


def run_engine(timeout_s: float = 20.0) -> dict:
    """The controller's record against the engine's two emulated switches."""
    with LinkController() as ctl:
        p, cfg = engine_params(ctl.address, 6.0)
        res = engine_result(driver.run(engine_args(p), config=cfg, timeout=60))
        return dict(ctl.record(), engine_status=res.status, engine_error=res.error)
