"""A scripted OpenFlow 1.3 controller that discovers links as a Java controller does (issue 27,
item 1): a known answer for the emulated switch against Open vSwitch.

On each switch: HELLO (1.3 only), FEATURES_REQUEST, SET_CONFIG (miss_send_len 0xffff), a
port-description request, then a FLOW_MOD deleting every flow of every table, then one
priority-0 table-miss entry ``actions=CONTROLLER:65535`` (apply-actions) per table, then a barrier.
Which tables, as Floodlight decides when the table features name no table (``OFSwitchHandshakeHandler``
``addDefaultFlows``): table ids ``t < n_tables`` with ``t < min(max_table, n_tables - 1)``; so
0, 1, 2, 3 on Open vSwitch (254 tables, ``max_table`` 4) and none at all on a switch announcing
one table. That is the known answer of issue 27: with no table-miss entry a 1.3 switch drops
the probes, and the controller learns nothing. Once the barrier is answered it sends, every ``probe_ms``, one
LLDP PACKET_OUT (in_port CONTROLLER, unbuffered) out of every port, carrying (dpid, port).

A PACKET_IN of such a frame is a link direction learned: ``learned`` holds
((src dpid, src port), (dpid, in_port)). ``errors`` counts the OpenFlow errors each switch sent
(type, code), ``n_tables`` what each announced, ``tables`` where it put table-miss entries, ``reasons``/``table_ids`` the packet-in reasons and
table ids of the LLDP packet-ins (a table-miss entry's packet-in says NO_MATCH, table 0).
Threads, 127.0.0.1 only (``sdnbench.testing.peer``), messages from ``sdnbench.testing.openflow``.
"""

from __future__ import annotations

import socket
import time
from collections import Counter

from sdnbench.testing import openflow as of
from sdnbench.testing.peer import ThreadedPeer

V13 = of.V13


def table_miss(table: int) -> bytes:
    """FLOW_MOD ADD, priority 0, match all, apply-actions output CONTROLLER max_len 0xffff
    (out_port and out_group ANY, as Floodlight writes them)."""
    return of.flow_mod13(100 + table, of.ADD, table, 0, of.apply_actions(of.output(V13, of.CONTROLLER[V13])),
                         out_port=of.ANY, out_group=of.ANY)


def delete_all() -> bytes:
    return of.flow_mod13(99, of.DELETE, 0xFF, out_port=of.ANY, out_group=of.ANY)


def packet_out(dpid: int, port: int) -> bytes:
    """The LLDP probe for (dpid, port) out of that port (in_port CONTROLLER, unbuffered)."""
    return of.packet_out(V13, 7, of.output(V13, port, 0), of.probe_frame(dpid, port, 4))


class TableMissController(ThreadedPeer):
    def __init__(self, max_table: int = 4, probe_ms: int = 100, port: int = 0):
        super().__init__(port)
        self.max_table, self.probe_ms = max_table, probe_ms
        self.tables: dict = {}
        self.learned: set = set()
        self.errors: Counter = Counter()
        self.n_tables: dict = {}
        self.reasons: Counter = Counter()
        self.table_ids: Counter = Counter()
        self.probes_sent = 0

    def wait_learned(self, n: int, timeout_s: float) -> bool:
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            with self._lock:
                if len(self.learned) >= n:
                    return True
            time.sleep(0.05)
        return False

    def miss_tables(self, n_tables: int) -> list:
        return [t for t in range(n_tables) if t < min(self.max_table, n_tables - 1)]

    def _setup(self, s: socket.socket, dpid: int, n_tables: int) -> None:
        tables = self.miss_tables(n_tables)
        with self._lock:
            self.tables[dpid] = tables
        s.sendall(of.set_config(V13, 3) + of.port_desc_request(4)
                  + delete_all() + b"".join(table_miss(t) for t in tables)
                  + of.msg(V13, "BARRIER_REQUEST", 5))

    def greeting(self) -> bytes:
        return of.hello(V13, 1) + of.msg(V13, "FEATURES_REQUEST", 2)

    def new_state(self) -> dict:
        return {"dpid": None, "ports": [], "ready": False, "next_probe": 0.0}

    def tick(self, s: socket.socket, st: dict) -> None:
        if st["ready"] and st["ports"] and time.monotonic() >= st["next_probe"]:
            s.sendall(b"".join(packet_out(st["dpid"], p) for p in st["ports"]))
            with self._lock:
                self.probes_sent += len(st["ports"])
            st["next_probe"] = time.monotonic() + self.probe_ms / 1000

    def handle(self, s: socket.socket, m: bytes, st: dict) -> None:
        kind = of.name_of(m)
        if kind == "FEATURES_REPLY":
            f = of.features(m)
            st["dpid"] = f["dpid"]
            with self._lock:
                self.n_tables[f["dpid"]] = f["n_tables"]
            self._setup(s, f["dpid"], f["n_tables"])
        elif kind == "MULTIPART_REPLY":
            st["ports"] += of.port_desc_ports(m) or []
        elif kind == "BARRIER_REPLY":
            st["ready"] = True
        elif kind == "ERROR":
            with self._lock:
                self.errors[of.error(m)] += 1
        elif kind == "PACKET_IN":
            self._packet_in(st["dpid"], m)

    def _packet_in(self, dpid, m: bytes) -> None:
        pi = of.packet_in(m)
        src = of.probed(pi["frame"], 4)
        if src is None:
            return
        with self._lock:
            self.learned.add((src, (dpid, pi["in_port"])))
            self.reasons[pi["reason"]] += 1
            self.table_ids[pi["table_id"]] += 1


# As a controller of its own (the conformance harness runs it as a ``cmd:`` controller):
#     python -m sdnbench.testing.peers.tablemiss PORT
SPEC = ("cmd:{python} -m sdnbench.testing.peers.tablemiss {{port}};of=1.3;name=tablemiss;cwd={root}")


def spec() -> str:
    import sys
    from pathlib import Path
    return SPEC.format(python=sys.executable, root=Path(__file__).resolve().parents[2])


if __name__ == "__main__":
    import signal
    import sys
    if sys.argv[1:] == ["--spec"]:       # for `sdnbench conformance --controller "$(... --spec)"`
        print(spec())
        sys.exit(0)
    with TableMissController(port=int(sys.argv[1])) as _c:
        signal.sigwait({signal.SIGTERM, signal.SIGINT})
