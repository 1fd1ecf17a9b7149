"""The pcap → OpenFlow messages cut, on a synthetic capture: two connections, a message split
over two segments, a retransmission counted once, a lost segment picked up again at the next
message."""

import struct

from .capture import messages

CTL = 6653


def _pcap(packets) -> bytes:
    head = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)
    out = head
    for t, frame in packets:
        out += struct.pack("<IIII", int(t), int((t % 1) * 1e6), len(frame), len(frame)) + frame
    return out


def _seg(sport, dport, seq, payload=b"", syn=False) -> bytes:
    tcp = struct.pack("!HHIIBBHHH", sport, dport, seq, 0, 5 << 4, 0x02 if syn else 0x18, 65535, 0, 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 0, 0, 64, 6, 0, b"\x7f\0\0\1", b"\x7f\0\0\1")
    return b"\0" * 12 + b"\x08\x00" + ip + tcp


def _of(t, xid, body=b"", v=4) -> bytes:
    return struct.pack("!BBHI", v, t, 8 + len(body), xid) + body


def test_messages_per_connection_and_direction():
    hello, feat = _of(0, 1), _of(6, 2, b"\0" * 24)
    pk = [(1.0, _seg(40000, CTL, 99, syn=True)), (1.0, _seg(CTL, 40000, 499, syn=True)),
          (1.1, _seg(40000, CTL, 100, hello + feat[:10])), (1.2, _seg(40000, CTL, 118, feat[10:])),
          (1.3, _seg(40000, CTL, 118, feat[10:])),                        # retransmitted: once
          (1.4, _seg(CTL, 40000, 500, _of(5, 3))),
          (1.5, _seg(41000, CTL, 7, syn=True)), (1.6, _seg(41000, CTL, 8, _of(0, 9)))]
    m = messages(_pcap(pk), CTL)
    assert [(x.conn, x.to_controller, x.raw[1], round(x.t, 3)) for x in m] == [
        (40000, True, 0, 1.1), (40000, True, 6, 1.2), (40000, False, 5, 1.4), (41000, True, 0, 1.6)]
    assert m[1].raw == feat


def test_a_lost_segment_is_picked_up_at_the_next_message_and_reported():
    a, b, c = _of(10, 1, b"x" * 20), _of(10, 2, b"y" * 20), _of(10, 3)
    pk = [(1.0, _seg(40000, CTL, 0, syn=True)), (1.1, _seg(40000, CTL, 1, a)),
          (1.3, _seg(40000, CTL, 1 + len(a) + len(b), c))]               # b never captured
    gaps = []
    m = messages(_pcap(pk), CTL, gaps)
    assert [x.raw for x in m] == [a, c] and gaps == [(40000, True)]
