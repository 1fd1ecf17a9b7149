"""The LLDP-order measurement's pure part (``lldporder.receivers`` and ``tally``), on 1.0
messages built as Ryu and the switches send them (``sdnbench.testing.openflow``)."""

import struct
import sys
from pathlib import Path

from sdnbench.testing import openflow as of

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lldporder as lo  # noqa: E402  (this directory's lldporder.py)

V10 = of.V10


def features10(dpid: int) -> bytes:
    return of.msg(V10, "FEATURES_REPLY", 1, struct.pack("!QIB3xII", dpid, 0, 1, 0, 0))


def lldp_entry() -> bytes:
    """Ryu's 1.0 LLDP entry: dl_dst the nearest-bridge group, dl_type LLDP, output CONTROLLER."""
    wild = of.OFPFW10_ALL & ~(of.OFPFW10_DL_DST | 1 << 4)             # dl_dst and dl_type matched
    match = struct.pack("!IH6s6sHBxH", wild, 0, bytes(6), bytes.fromhex("0180c200000e"), 0, 0, 0x88CC).ljust(40, b"\0")
    return of.flow_mod10(2, match, 0xFFFF, of.output(V10, of.CONTROLLER[V10], 0xFFFF))


PROBE = bytes.fromhex("0180c200000e") + bytes.fromhex("020000000102") + b"\x88\xcc" + bytes(46)


def probe_out(port: int) -> bytes:
    return of.packet_out(V10, 3, of.output(V10, port), PROBE)


def run(flow_mod_at: float, probe_at: float, reason: int) -> list:
    """s1 (conn 10) sends a probe out of its link port; s2 (conn 20) gets its entry at
    ``flow_mod_at`` and raises the probe with ``reason`` 1 ms after the probe."""
    s1, s2 = 10, 20
    msgs = [(0.0, s1, True, None, features10(1)), (0.0, s2, True, None, features10(2)),
            (flow_mod_at, s2, False, None, lldp_entry()),
            (probe_at, s1, False, None, probe_out(1)),                   # the host port: not a probe
            (probe_at, s1, False, None, probe_out(lo.LINK_PORT)),
            (probe_at + 0.001, s2, True, None, of.packet_in10(5, lo.LINK_PORT, PROBE, reason=reason))]
    return sorted(msgs, key=lambda m: m[0])


def test_each_receiver_pairs_its_entry_with_the_peer_s_probe_and_its_first_packet_in():
    rows = lo.receivers(run(1.0, 1.0002, 0))
    s2 = next(r for r in rows if r["dpid"] == 2)
    assert (s2["flow_mod"], s2["probe"], s2["reason"]) == (1.0, 1.0002, 0)
    s1 = next(r for r in rows if r["dpid"] == 1)
    assert (s1["flow_mod"], s1["probe"], s1["reason"]) == (None, None, None)


def test_the_tally_splits_receivers_by_which_write_came_first():
    rows = lo.receivers(run(1.0, 1.0002, 0)) + lo.receivers(run(2.0005, 2.0, 0)) + lo.receivers(run(3.0, 3.001, 1))
    t = lo.tally(rows)
    assert t["flow-mod first"]["receivers"] == 2 and t["flow-mod first"]["no_match"] == 1
    assert t["probe first"] == {"receivers": 1, "no_match": 1, "gaps_ms": [0.5]}
    assert sorted(t["flow-mod first"]["gaps_ms"]) == [-1.0, -0.2]
