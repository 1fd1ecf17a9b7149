"""Unit tests: the pure parsers behind the measurements (ping, iperf3, D-ITG, pcap)."""

import json
import struct

import pytest

from sdnbench.errors import UserError
from sdnbench.net import ditg, iperf, pcap, ping

PING_OUT = """PING 10.0.0.2 (10.0.0.2) 56(84) bytes of data.
64 bytes from 10.0.0.2: icmp_seq=1 ttl=64 time=3.51 ms
64 bytes from 10.0.0.2: icmp_seq=3 ttl=64 time=0.209 ms
64 bytes from 10.0.0.2: icmp_seq=3 ttl=64 time=0.300 ms (DUP!)
64 bytes from 10.0.0.2: icmp_seq=4 ttl=64 time=0.2 ms

--- 10.0.0.2 ping statistics ---
4 packets transmitted, 3 received, 25% packet loss, time 3004ms
"""


def test_ping_keeps_every_packet_and_marks_losses():
    assert ping.parse_ping(PING_OUT, 4) == [3.51, None, 0.209, 0.2]
    assert ping.parse_ping("", 2) == [None, None]


def test_ping_sizes():
    assert ping.parse_sizes("64,128,...,8192") == [64, 128, 256, 512, 1024, 2048, 4096, 8192]
    assert ping.parse_sizes("default") == list(ping.DEFAULT_SIZES)
    assert ping.parse_sizes("100,150,...,300") == [100, 150, 200, 250, 300]
    assert ping.parse_sizes("64,1000") == [64, 1000]
    for bad in ("...,64", "64,x", "70000", "64,..."):
        with pytest.raises(UserError):
            ping.parse_sizes(bad)


def _iperf_doc(udp: bool) -> dict:
    def iv(end, bps, **kw):
        return {"sum": dict(start=end - 1, end=end, bits_per_second=bps, **kw)}
    server = {"intervals": [iv(1.0, 49e6, jitter_ms=0.1, lost_packets=2, packets=400, lost_percent=0.5),
                            iv(2.0, 50e6, jitter_ms=0.2, lost_packets=0, packets=410, lost_percent=0.0)]}
    client = {"intervals": [iv(1.0, 50e6, retransmits=3), iv(2.0, 50e6, retransmits=0)]}
    return {"start": {}, "end": {}, **client, "server_output_json": server}


def test_iperf_skips_the_warning_line_before_json():
    text = "warning: UDP block size 8000 exceeds TCP MSS 1448, may result in fragmentation / drops\n" \
        + json.dumps(_iperf_doc(True), indent=1)
    doc, warnings = iperf.parse_iperf(text)
    assert warnings == ["warning: UDP block size 8000 exceeds TCP MSS 1448, may result in "
                        "fragmentation / drops"]
    s = iperf.udp_samples(doc, reverse=False)
    assert s["throughput"] == [49.0, 50.0] and s["lost"] == [2, 0] and s["packets"] == [400, 410]
    assert s["jitter"] == [0.1, 0.2] and s["t"] == [1.0, 2.0]


def test_iperf_tcp_uses_the_receiver_unless_reversed():
    doc = _iperf_doc(False)
    assert iperf.tcp_samples(doc, reverse=False)["throughput"] == [49.0, 50.0]
    assert iperf.tcp_samples(doc, reverse=False)["retransmits"] == [3, 0]
    assert iperf.tcp_samples(doc, reverse=True)["throughput"] == [50.0, 50.0]


def test_iperf_errors():
    with pytest.raises(UserError, match="unable to connect"):
        iperf.parse_iperf(json.dumps({"error": "unable to connect to server"}))
    with pytest.raises(UserError, match="no JSON"):
        iperf.parse_iperf("iperf3: error - the server is busy")


ITGDEC_SUMMARY = """
****************  TOTAL RESULTS   ******************
Number of flows          =             1
Total time               =      1.993047 s
Total packets            =           198
Minimum delay            =      0.000135 s
Average delay            =      0.000203 s
Average jitter           =      0.000034 s
Delay standard deviation =      0.000072 s
Bytes received           =        101376
Average bitrate          =    406.918653 Kbit/s
Packets dropped          =             2 (1.00 %)
"""

ITGDEC_PACKETS = (
    "Flow>0001 Seq>      1 Src>   10.0.0.1/46476 Dest>   10.0.0.2/8999 "
    "txTime>20:26:57.626806 rxTime>20:26:57.627097 Size>  512\n"
    "Flow>0001 Seq>      2 Src>   10.0.0.1/46476 Dest>   10.0.0.2/8999 "
    "txTime>23:59:59.999900 rxTime>0:0:0.000100 Size>  512\n")


def test_itgdec_summary_and_packets():
    s = ditg.parse_summary(ITGDEC_SUMMARY)
    assert s["packets"] == 198 and s["avg_delay_s"] == 0.000203 and s["avg_jitter_s"] == 0.000034
    assert s["dropped"] == 2 and s["loss_pct"] == 1.0 and s["avg_bitrate_kbit"] == 406.918653
    rows = ditg.parse_packets(ITGDEC_PACKETS)
    assert [r[0] for r in rows] == [1, 2]
    assert rows[0][2] == pytest.approx(0.000291)
    assert rows[1][2] == pytest.approx(0.0002)          # across midnight


def test_itgdec_interval_file():
    t, v = ditg.parse_interval_file("Time 1-10.0.0.1-10.0.0.2 Aggregate-Flow\n"
                                    "0.000000 409.600000 409.600000\n0.500000 401.4 401.4\n")
    assert t == [0.0, 0.5] and v == [409.6, 401.4]


def _pcap(records: list, nano: bool = True) -> bytes:
    head = struct.pack("<IHHiIII", pcap.MAGIC_NS if nano else pcap.MAGIC_US, 2, 4, 0, 0, 65535, 1)
    body = b""
    for ts_ns, frame in records:
        frac = ts_ns % 1_000_000_000 if nano else (ts_ns % 1_000_000_000) // 1000
        body += struct.pack("<IIII", ts_ns // 1_000_000_000, frac, len(frame), len(frame)) + frame
    return head + body


def _echo_frame(src: str, dst: str, icmp_type: int, ident: int, seq: int, vlan: bool = False) -> bytes:
    eth = b"\x00" * 12 + (b"\x81\x00\x00\x05" if vlan else b"") + b"\x08\x00"
    ip = bytes([0x45, 0, 0, 84, 0, 0, 0x40, 0, 64, 1, 0, 0]) + bytes(map(int, src.split("."))) \
        + bytes(map(int, dst.split(".")))
    icmp = bytes([icmp_type, 0, 0, 0]) + struct.pack("!HH", ident, seq) + b"x" * 8
    return eth + ip + icmp


def test_pcap_reads_nanosecond_echoes():
    data = _pcap([(1_700_000_000_123_456_789, _echo_frame("10.0.0.1", "10.0.0.2", 8, 7, 1)),
                  (1_700_000_000_223_456_789, _echo_frame("10.0.0.2", "10.0.0.1", 0, 7, 1, vlan=True)),
                  (1_700_000_000_300_000_000, b"\x00" * 12 + b"\x08\x06" + b"\x00" * 28)])  # ARP
    e = pcap.echoes(data)
    assert len(e) == 2
    assert e[0] == pcap.Echo(1_700_000_000_123_456_789, "10.0.0.1", "10.0.0.2", 8, 7, 1)
    assert e[1].icmp_type == 0 and e[1].src == "10.0.0.2"


def test_pcap_microseconds_and_truncated_tail():
    data = _pcap([(5_000_001_000, _echo_frame("10.0.0.1", "10.0.0.2", 8, 1, 9))], nano=False)
    assert pcap.echoes(data)[0].ts_ns == 5_000_001_000
    assert pcap.echoes(data + b"\x01\x02\x03") == pcap.echoes(data)
    with pytest.raises(pcap.PcapError, match="not a pcap"):
        pcap.echoes(b"\x00" * 40)


def test_iperf_short_trailing_interval_is_merged_not_read_as_a_rate():
    # A 100 Mbit/s UDP test whose receiver closes with a 4 ms interval holding 0.5 MB still queued:
    # read alone it would claim 1000 Mbit/s.
    full = {"start": 0.0, "end": 1.0, "seconds": 1.0, "bytes": 12_500_000, "bits_per_second": 100e6,
            "jitter_ms": 0.1, "lost_packets": 10, "packets": 1000, "lost_percent": 1.0}
    tail = {"start": 1.0, "end": 1.004, "seconds": 0.004, "bytes": 500_000, "bits_per_second": 1000e6,
            "jitter_ms": 0.3, "lost_packets": 0, "packets": 40, "lost_percent": 0.0}
    doc = {"intervals": [], "server_output_json": {"intervals": [{"sum": full}, {"sum": tail}]}}
    raw = iperf.udp_samples(doc, reverse=False)
    assert raw["throughput"] == [100.0, 1000.0]
    s = iperf.udp_samples(doc, reverse=False, nominal=1.0)
    assert s["t"] == [1.004]
    assert s["throughput"] == [pytest.approx(13_000_000 * 8 / 1.004 / 1e6)]
    assert s["packets"] == [1040] and s["lost"] == [10]
    assert s["loss"] == [pytest.approx(100 * 10 / 1040)] and s["jitter"] == [0.3]
