"""replymix's reading of a capture, on os-ken's messages (known kinds and buffer ids) and on a
capture written here (a known mix)."""

import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import replymix  # noqa: E402
from sdnbench.testing import openflow as of  # noqa: E402
from sdnbench.testing.vectors import message as _hex, osken  # noqa: E402

OF10, OF13 = osken("10"), osken("13")


def test_flow_mods_name_their_buffer_as_os_ken_wrote_it():
    # 1.0: buffer_id sits at 64, not 68 (out_port and flags); 1.3: at 32, not 36 (out_port)
    assert replymix.kind(_hex(OF10["flow_mod_delete_wildcard"])) == "FLOW_MOD DELETE len=72 unbuffered"
    assert replymix.kind(_hex(OF13["flow_mod_add_rich"])) == "FLOW_MOD ADD table=1 len=400 buffered"
    assert replymix.buffer_id(_hex(OF13["flow_mod_add_rich"])) == 119
    assert replymix.buffer_id(_hex(OF13["flow_mod_table_miss"])) is None
    assert replymix.kind(_hex(OF10["packet_out_buffered"])) == "PACKET_OUT len=32 buffered actions=2"
    assert replymix.kind(_hex(OF10["packet_in_action_buffered"])) == (
        "PACKET_IN len=50 total_len=1500 in_port=3 reason=1 buffered")
    assert replymix.buffer_id(_hex(OF13["packet_out_buffered"])) == 4660


def _pcap(path: Path, segments: list) -> None:
    """A libpcap file (Ethernet) of one TCP segment per (time, src port, dst port, seq, payload)."""
    out = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)
    for ts, sport, dport, seq, payload in segments:
        tcp = struct.pack(">HHIIBBHHH", sport, dport, seq, 0, 5 << 4, 0x18, 65535, 0, 0) + payload
        ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 0, 0, 64, 6, 0, bytes([127, 0, 0, 1]),
                         bytes([127, 0, 0, 1])) + tcp
        frame = bytes(12) + b"\x08\x00" + ip
        out += struct.pack("<IIII", int(ts), int(ts % 1 * 1e6), len(frame), len(frame)) + frame
    path.write_bytes(out)


def test_a_capture_of_two_requests_answered_two_ways(tmp_path):
    frame = bytes(60)
    asks, asks2 = of.packet_in10(1, 1, frame, buffer_id=7), of.packet_in10(2, 1, frame, buffer_id=8)
    fm = of.flow_mod10(1, of.match10_all(), 1, buffer_id=7)
    po = of.packet_out(of.V10, 2, of.output(of.V10, 2), b"", buffer_id=8)
    cap = tmp_path / "c.pcap"
    # switch (port 40000) -> controller (6653), and the replies back; the second packet-in split in two
    _pcap(cap, [(1.0, 40000, 6653, 100, asks), (1.1, 40000, 6653, 100 + len(asks), asks2[:10]),
                (1.2, 40000, 6653, 110 + len(asks), asks2[10:]), (1.3, 6653, 40000, 500, fm + po)])
    m = replymix.mix(cap, 6653)
    assert (m["requests"], m["answered"]) == (2, 2)
    assert m["per_answered"] == {"FLOW_MOD ADD len=72 buffered": 0.5, "PACKET_OUT len=24 buffered actions=1": 0.5}


def test_floodlight_s_three_responses_per_request_and_the_pacing(tmp_path):
    # Floodlight's learning switch, destination known: the buffered packet-out and two unbuffered
    # flow-mod ADDs (forward and reverse) per packet-in; cbench counts all three, the matcher
    # sees the packet-out only. One request answered 0.25 s after it was written, one left queued.
    frame = bytes(60)
    asks = [of.packet_in10(i, 1, frame, buffer_id=i) for i in (1, 2)]
    po = of.packet_out(of.V10, 9, of.output(of.V10, 2), b"", buffer_id=1)
    fms = [of.flow_mod10(10 + i, of.match10_all(), 1) for i in (0, 1)]
    lldp = of.packet_out(of.V10, 12, of.output(of.V10, 2), bytes(12) + b"\x88\xcc" + bytes(46))
    cap = tmp_path / "f.pcap"
    up = asks[0] + asks[1]
    _pcap(cap, [(1.0, 40000, 6653, 100, up[:70]), (1.05, 40000, 6653, 170, up[70:]),
                (1.25, 6653, 40000, 500, po + fms[0] + fms[1] + lldp)])
    m = replymix.mix(cap, 6653)
    assert (m["requests"], m["answered"]) == (2, 1)
    assert m["counted_per_answered"] == 3.0, "packet-out + 2 flow-mods; the LLDP packet-out is not counted"
    assert m["delay_ms_median"] == 250.0
    assert m["write_bytes_median"] == len(up) - 70, "segments of 70 and 86 bytes"
    flood = {**m, "counted_per_answered": 1.0}
    assert replymix.mixes_differ(m, flood) == ["responses cbench counts per answered request: 3.00 vs 1.00"]
    assert replymix.mixes_differ(m, m) == []
