"""What compares and what does not (pure; os-ken-shaped dicts as its parser gives them)."""

import base64

from .normalise import View, compare, frame_kind, received_key, sent_key, view
from .stimuli import stream_frame


def _pi(data: bytes, **kw) -> dict:
    body = dict(buffer_id=0xFFFFFFFF, reason=0, table_id=0, total_len=len(data), cookie=0,
                data=base64.b64encode(data).decode(),
                match={"OFPMatch": {"oxm_fields": [{"OXMTlv": {"field": "in_port", "value": 2, "mask": None}}]}})
    body.update(kw)
    return {"OFPPacketIn": body}


def test_packet_in_key_names_what_a_controller_acts_on():
    f = stream_frame(1, 2, 0, 0)
    k = received_key(_pi(f), b"")
    assert k == ("PACKET_IN reason=0 table=0 buffered=False total_len=60 in_port=2 cookie=0 "
                 "frame=ipv4/17 00:00:00:00:00:01>00:00:00:00:00:02 len=60")
    assert received_key(_pi(f, buffer_id=7), b"") != k, "buffer use compares"
    ipv6 = b"\x33\x33\0\0\0\x02" + b"\x02" * 6 + b"\x86\xdd" + b"\0" * 40
    assert received_key(_pi(ipv6), b"") == "noise"
    assert received_key({"OFPEchoRequest": {}}, b"") is None


def test_features_keep_tables_and_buffers_not_capabilities_or_local_port():
    a = {"OFPSwitchFeatures": {"n_tables": 254, "n_buffers": 0, "capabilities": 0x4F, "datapath_id": 1}}
    b = {"OFPSwitchFeatures": {"n_tables": 254, "n_buffers": 0, "capabilities": 0x7, "datapath_id": 1}}
    c = {"OFPSwitchFeatures": {"n_tables": 1, "n_buffers": 256, "capabilities": 0x7, "datapath_id": 1}}
    assert received_key(a, b"") == received_key(b, b"") != received_key(c, b"")
    local = {"OFPPortStatus": {"reason": 2, "desc": {"OFPPort": {"port_no": 0xFFFFFFFE, "config": 1, "state": 1}}}}
    assert received_key(local, b"") is None


def test_oxm_order_does_not_count_but_values_do():
    def fm(fields):
        return {"OFPFlowMod": {"table_id": 0, "match": {"OFPMatch": {"oxm_fields": fields}}}}
    x = [{"OXMTlv": {"field": "eth_dst", "value": "a"}}, {"OXMTlv": {"field": "eth_src", "value": "b"}}]
    raw = bytes([4, 14]) + b"\0" * 6
    assert sent_key(fm(x), raw) == sent_key(fm(x[::-1]), raw)
    assert sent_key(fm(x[:1]), raw) != sent_key(fm(x), raw)


def test_packet_out_is_read_from_the_wire():
    data = stream_frame(2, 1, 1, 0)
    action = bytes.fromhex("00000010fffffffb0000000000000000")
    raw = bytes([4, 13]) + (8 + 16 + 16 + len(data)).to_bytes(2, "big") + b"\0" * 4 + \
        (0xFFFFFFFF).to_bytes(4, "big") + (2).to_bytes(4, "big") + (16).to_bytes(2, "big") + b"\0" * 6 + action + data
    assert sent_key({"unparsed": "type 13"}, raw) == (
        "PACKET_OUT buffered=False in_port=0x2 actions=00000010fffffffb0000000000000000 "
        "frame=ipv4/17 00:00:00:00:00:02>00:00:00:00:00:01 len=60")


def test_view_drops_teardown_and_maps_connections_to_switches():
    class Rec:
        t_end = 10.0
        flows = {}
        feat = bytes([4, 6, 0, 32]) + b"\0" * 4 + (5).to_bytes(8, "big") + b"\0" * 16
        msgs = [(1.0, 99, True, {"OFPSwitchFeatures": {"n_tables": 254, "n_buffers": 0, "capabilities": 0}}, feat),
                (2.0, 99, True, _pi(stream_frame(1, 2, 0, 0)), b"\x04\x0a"),
                (11.0, 99, True, {"OFPPortStatus": {"reason": 2, "desc": {"OFPPort": {"port_no": 1, "config": 1,
                                                                                      "state": 1}}}}, b"\x04\x0c")]
    v = view(Rec)
    assert {k.split()[0] for k in v.received} == {"s5"} and len(v.received) == 2, v.received
    d = compare(v, View(received=set(v.received)))
    assert d.identical
    assert not compare(v, View()).identical


def test_frame_kinds():
    assert frame_kind(b"\x01\x80\xc2\0\0\x0e" + b"\0" * 6 + b"\x88\xcc") == "lldp"
    assert frame_kind(b"\xff" * 6 + b"\0" * 5 + b"\x01\x08\x06" + b"\0" * 28).startswith("arp 00:00:00:00:00:01>ff")


def _feat(dpid: int) -> tuple:
    return ({"OFPSwitchFeatures": {"n_tables": 254, "n_buffers": 0, "capabilities": 0}},
            bytes([4, 6, 0, 32]) + b"\0" * 4 + dpid.to_bytes(8, "big") + b"\0" * 16)


def test_a_window_compares_the_sessions_after_it_and_leaves_out_unnamed_connections():
    """restart / echo-silence: only what follows ``t_from`` compares; each switch's sessions
    that handshook in it are counted (whatever their TCP ports); a connection that never said
    which switch it is (the relaunch's HELLO probe, an attempt abandoned in a stopped
    controller's backlog) is left out and counted."""
    hello_in = hello_out = ({"OFPHello": {"elements": []}}, b"\x04\x00\x00\x08\0\0\0\0")
    pi = (_pi(stream_frame(1, 2, 0, 0)), b"\x04\x0a")

    class Rec:
        t_end, t_from, flows = 20.0, 10.0, {}
        msgs = [(1.0, 100, True, *_feat(5)), (2.0, 100, True, *pi),           # before: not compared
                (10.5, 300, True, *hello_in), (10.5, 300, False, *hello_out),  # unnamed
                (11.0, 200, True, *_feat(5))]
    v = view(Rec)
    assert v.received == {"s5 FEATURES_REPLY n_tables=254 n_buffers=0", "s5 SESSIONS=1"}, v.received
    assert v.unnamed == 2 and not v.sent

    class EarlyHello(Rec):       # the new session's HELLO waited in the backlog before t_from
        msgs = Rec.msgs + [(9.0, 200, True, *hello_in)]
    assert "s5 OFPHello {\"elements\": []}" in view(EarlyHello).received

    class Twice(Rec):
        msgs = Rec.msgs + [(12.0, 201, True, *_feat(5))]
    assert not compare(v, view(Twice)).identical, "a switch that came back twice differs"

    class NoWindow(Rec):
        t_from = 0.0
    w = view(NoWindow)
    assert not any("SESSIONS" in k for k in w.received) and w.unnamed == 0
    assert any(k.startswith("s? OFPHello") for k in w.received), "without a window nothing is left out"


def test_the_view_records_which_items_came_before_the_stimulus():
    """``pre`` / ``post`` (the connect phase, ``pooled.py``): capture time against the run's own
    handshake + SETTLE_S; an item seen on both sides of the stimulus is in both; a run with a
    window (restart, echo-silence) or no handshake time records no phase."""
    lldp = b"\x01\x80\xc2\0\0\x0e" + b"\0" * 6 + b"\x88\xcc" + b"\0" * 46
    early, late, both = _pi(lldp, reason=0), _pi(stream_frame(2, 1, 0, 0)), _pi(lldp, reason=1)

    class Rec:
        t_end, t_from, t_handshake, flows = 20.0, 0.0, 1.0, {}
        msgs = [(1.0, 100, True, *_feat(5)), (2.0, 100, True, early, b"\x04\x0a"),
                (4.9, 100, True, both, b"\x04\x0a"), (5.0, 100, True, late, b"\x04\x0a"),
                (6.0, 100, True, both, b"\x04\x0a")]
    v = view(Rec)
    lldp0, lldp1 = (f"s5 {received_key(x, b'')}" for x in (early, both))
    frame = f"s5 {received_key(late, b'')}"
    assert v.pre["received"] == {"s5 FEATURES_REPLY n_tables=254 n_buffers=0", lldp0, lldp1}
    assert v.post["received"] == {frame, lldp1}, "the frame 4.0 s after the handshake is the stimulus'"
    assert v.pre["sent"] == v.post["sent"] == set()

    class Window(Rec):
        t_from = 4.0
    assert view(Window).pre is None

    class NoClock(Rec):
        t_handshake = 0.0
    assert view(NoClock).pre is None and view(NoClock).received == v.received
