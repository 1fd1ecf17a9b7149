"""The link-latency measurement's pure part (``linklatency.latencies``), on messages built as the
switches and the relay send them (``sdnbench.testing.openflow``)."""

import sys
from pathlib import Path

import pytest

from sdnbench.differential.stimuli import stream_frame
from sdnbench.testing import openflow as of

sys.path.insert(0, str(Path(__file__).resolve().parent))
import linklatency as ll  # noqa: E402  (this directory's linklatency.py)


def test_the_intervals_pair_each_packet_out_with_its_peer_s_packet_in_and_barrier():
    f = stream_frame(2, 1, 1, 0)
    s1, s2 = 10, 20                                         # the two connections
    msgs = [(0.0, s1, True, None, of.features_reply13(2, 1, 254)), (0.0, s2, True, None, of.features_reply13(2, 2, 254)),
            (1.0000, s1, False, None, of.msg(of.V13, "BARRIER_REQUEST", ll.BARRIER_XID + 1)),
            (1.0001, s2, False, None, of.packet_out(of.V13, ll.PO_XID + 1, of.output(of.V13, ll.LINK_PORT), f)),
            (1.0003, s1, True, None, of.msg(of.V13, "BARRIER_REPLY", ll.BARRIER_XID + 1)),
            (1.0006, s1, True, None, of.packet_in13(0, ll.LINK_PORT, f)),
            (1.0010, s1, False, None, of.packet_out(of.V13, 0x6800, of.output(of.V13, of.CONTROLLER[of.V13]), f + ll.LOCAL_MARK)),
            (1.0012, s1, True, None, of.packet_in13(0, 0xFFFFFFFD, f + ll.LOCAL_MARK))]
    got = ll.latencies(msgs)
    assert got["link_ms"] == [pytest.approx(0.5)]
    assert got["barrier_ms"] == [pytest.approx(0.3)]
    assert got["race_ms"] == [pytest.approx(0.3)], "the frame came 0.3 ms after the flow-mod's barrier reply"
    assert got["local_ms"] == [pytest.approx(0.2)]
    late = msgs[:4] + [msgs[5], (1.0008, s1, True, None, msgs[4][4])]
    assert ll.latencies(late)["race_ms"] == [pytest.approx(-0.2)], "the frame beat the flow-mod"
    own = msgs[:3] + [(1.0006, s2, True, None, of.packet_in13(0, ll.LINK_PORT, f))]
    assert ll.latencies(own)["link_ms"] == [], "a packet-in on the sending switch is not the link's"
