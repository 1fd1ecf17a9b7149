"""How fast a frame a controller sends out of one switch's link port reaches the other switch,
on Mininet + Open vSwitch (userspace datapath, a veth between the bridges) and on the engine's
emulated network, in the harness's own runs (``sides.run_ovs`` / ``run_engine``, topology
``linear,2``, the ``frames`` stimulus): docs/conformance.md, "The link's latency".

A scripted OpenFlow 1.3 controller (``Relay``, 127.0.0.1, given as a ``tcp:`` spec) installs a
table-miss entry (output CONTROLLER) on both switches. For each stream frame a switch raises from
its host port (in_port 1), at the same moment it sends what Floodlight's Forwarding sends for a
new flow, in its order: to the other switch a flow-mod (table 0, priority 1, in_port 99: never
matched) and a barrier, then a packet-out of the frame on that switch out of its link port (2). The other
switch raises the frame from its link port (in_port 2), and the relay then sends it back to that
switch as a packet-out to CONTROLLER (the switch's own loop, no link). Read from the run's
capture (tcpdump on loopback, both sides alike; ``latencies``, pure):

- ``link_ms``: packet-out out of the link port → the peer's packet-in of it (the path of
  Floodlight 1.3 frames' race: the frame against the peer's flow-mod);
- ``barrier_ms``: that flow-mod's barrier → its reply (the peer's flow-mod handled);
- ``race_ms``: the peer's packet-in of the frame − the barrier reply (> 0: the flow-mod was
  in place first);
- ``local_ms``: packet-out to CONTROLLER → its packet-in on the same switch (no link).

    cd <repository> && .venv/bin/python bench/conformance/linklatency.py --pairs 5      # OVS, engine, alternating

Not in the test suite (a measurement); its pure part is tested in ``test_linklatency.py``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import struct
import tempfile
import time
from pathlib import Path

from sdnbench import openflow as sof
from sdnbench.differential import clock, sides
from sdnbench.differential.clock import packet_in_data
from sdnbench.testing import openflow as of
from sdnbench.testing.peer import ThreadedPeer

V13 = of.V13
HOST_PORT, LINK_PORT, NO_PORT = 1, 2, 99
FLOW_XID, BARRIER_XID, PO_XID, LOCAL_MARK = 0x7000, 0x7100, 0x6000, b"\xee"


def _never_flow(xid: int) -> bytes:
    return of.flow_mod13(xid, of.ADD, 0, 1, b"", match=of.match13(of.oxm_in_port(NO_PORT)), cookie=0x1a7)


class Relay(ThreadedPeer):
    """The scripted controller (module doc); one instance a run."""

    def __init__(self) -> None:
        super().__init__()
        self.conns: dict = {}               # dpid -> socket

    def greeting(self) -> bytes:
        return of.hello(V13, 1) + of.msg(V13, "FEATURES_REQUEST", 2)

    def new_state(self) -> dict:
        return {"dpid": None, "n": 0}

    def handle(self, s, m: bytes, st: dict) -> None:
        kind = of.name_of(m)
        if kind == "FEATURES_REPLY":
            st["dpid"] = of.features(m)["dpid"]
            with self._lock:
                self.conns[st["dpid"]] = s
            miss = of.flow_mod13(3, of.ADD, 0, 0, of.apply_actions(of.output(V13, of.CONTROLLER[V13], 0xFFFF)))
            s.sendall(of.set_config(V13, 4) + miss + of.msg(V13, "BARRIER_REQUEST", 5))
        elif kind == "PACKET_IN":
            pi = of.packet_in(m)
            frame = pi["frame"]
            if not clock.is_stream(frame):
                return
            if pi["in_port"] == HOST_PORT:
                with self._lock:
                    peer = next((c for d, c in self.conns.items() if d != st["dpid"]), None)
                st["n"] += 1
                if peer is not None:            # Floodlight's order: the peer's flow-mod, then the packet-out
                    peer.sendall(_never_flow(FLOW_XID + st["n"]) + of.msg(V13, "BARRIER_REQUEST", BARRIER_XID + st["n"]))
                s.sendall(of.packet_out(V13, PO_XID + st["n"], of.output(V13, LINK_PORT), frame))
            elif pi["in_port"] == LINK_PORT:
                s.sendall(of.packet_out(V13, 0x6800, of.output(V13, of.CONTROLLER[V13], 0xFFFF), frame + LOCAL_MARK))


def _conn_dpid(msgs: list) -> dict:
    out = {}
    for _t, conn, to_ctl, _d, raw in msgs:
        if to_ctl and sof.name_of(raw) == "FEATURES_REPLY" and len(raw) >= 16:
            out[conn] = sof.dpid_of(raw)
    return out


def _po_data(raw: bytes) -> bytes:
    """A 1.3 PACKET_OUT's frame (after the 24-byte head and the actions)."""
    return raw[24 + struct.unpack("!H", raw[16:18])[0]:]


def latencies(msgs: list) -> dict:
    """Pure: the four intervals (module doc) in milliseconds, from a run's captured messages
    ``(t, conn, to_controller, parsed, raw)`` (wall-clock seconds). The n-th packet-out of a
    switch (xid ``PO_XID`` + n) goes with the n-th barrier to its peer (``BARRIER_XID`` + n)."""
    dp = _conn_dpid(msgs)
    po_link, po_local, sent, reply, arrived = {}, {}, {}, {}, {}
    out: dict = {"link_ms": [], "barrier_ms": [], "race_ms": [], "local_ms": []}
    for t, conn, to_ctl, _d, raw in msgs:
        kind, sw, xid = sof.name_of(raw), dp.get(conn), sof.xid_of(raw)
        if not to_ctl and kind == "PACKET_OUT":
            data = _po_data(raw)
            if data.endswith(LOCAL_MARK):
                po_local[(sw, data)] = t
            elif xid > PO_XID:
                po_link[data] = (sw, xid - PO_XID, t)
        elif not to_ctl and kind == "BARRIER_REQUEST" and xid > BARRIER_XID:
            sent[(sw, xid - BARRIER_XID)] = t
        elif to_ctl and kind == "BARRIER_REPLY" and (sw, xid - BARRIER_XID) in sent:
            reply[(sw, xid - BARRIER_XID)] = t
            out["barrier_ms"].append(1000 * (t - sent[(sw, xid - BARRIER_XID)]))
        elif to_ctl and kind == "PACKET_IN":
            data = packet_in_data(raw)
            if (sw, data) in po_local:
                out["local_ms"].append(1000 * (t - po_local.pop((sw, data))))
            elif data in po_link and po_link[data][0] != sw:
                _src, n, t_po = po_link.pop(data)
                out["link_ms"].append(1000 * (t - t_po))
                arrived[(sw, n)] = t
    out["race_ms"] = [1000 * (t - reply[k]) for k, t in sorted(arrived.items()) if k in reply]
    return out


def one(side: str, work: Path) -> dict:
    """One run of ``side`` (``ovs`` or ``engine``) with a fresh ``Relay``: its intervals."""
    with Relay() as relay:
        fn = sides.run_ovs if side == "ovs" else sides.run_engine
        rec = fn(f"tcp:{relay.address}", "1.3", "frames", "linear,2", work)
    return latencies(rec.msgs)


def _summary(xs: list) -> dict:
    if not xs:
        return {"n": 0}
    q = statistics.quantiles(xs, n=4) if len(xs) > 1 else [xs[0]] * 3
    return {"n": len(xs), "median": round(statistics.median(xs), 3), "q1": round(q[0], 3), "q3": round(q[2], 3),
            "min": round(min(xs), 3), "max": round(max(xs), 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=3, help="OVS/engine run pairs, alternating (3)")
    ap.add_argument("-o", metavar="FILE", help="the raw samples and the summary as JSON")
    args = ap.parse_args()
    raw: dict = {"ovs": [], "engine": []}
    for i in range(args.pairs):
        for side in (("ovs", "engine") if i % 2 == 0 else ("engine", "ovs")):
            with tempfile.TemporaryDirectory(prefix="sdnbench-linklatency-") as d:
                raw[side].append({"at": time.strftime("%H:%M:%S", time.gmtime()), **one(side, Path(d))})
    out = {side: {k: _summary([x for r in runs for x in r[k]]) for k in ("link_ms", "barrier_ms", "race_ms", "local_ms")}
           for side, runs in raw.items()}
    print(json.dumps(out, indent=1))
    if args.o:
        Path(args.o).write_text(json.dumps({"summary": out, "runs": raw}, indent=1))


if __name__ == "__main__":
    main()
