"""The stimuli, each once for Open vSwitch (Mininet) and once for the emulated network, on the
same timeline (seconds after every switch is connected):

- ``connect``: nothing more than the handshake, the controller's first flows and its own
  probes (LLDP for topology apps) for ``SETTLE_S``;
- ``frames``: after ``SETTLE_S``, 5 UDP frames h1 → h2, 100 ms apart, then from
  ``SETTLE_S + 1`` 5 frames h2 → h1 (one after the other: a learning controller's flows depend
  on which host spoke first, and a race would differ from run to run on either side); the
  engine's own stream frames (``crates/engine/src/network/stream.rs``: host MACs and IPs, UDP
  5003 → 5003, payload "SDNS", pair, sequence; 60 bytes); on Mininet sent raw from the host's
  interface (the hosts' own IP output is dropped, so no ICMP or ARP of theirs joins in);
- ``link``: after ``SETTLE_S`` the first switch-to-switch link goes down, 1.5 s later up.

Everything then settles until ``END_S``, when the flow tables are read.
"""

from __future__ import annotations

import struct

SETTLE_S = 4.0
END_S = 8.0
FRAMES = 5
FRAME_GAP_S = 0.1
LINK_DOWN_S = 1.5
STIMULI = ("connect", "frames", "link")
UDP_PORT = 5003


def host_mac(i: int) -> bytes:
    return bytes([0, 0, 0, (i >> 16) & 255, (i >> 8) & 255, i & 255])


def host_ip(i: int) -> bytes:
    return bytes([10, (i >> 16) & 255, (i >> 8) & 255, i & 255])


def _ip_checksum(h: bytes) -> int:
    s = sum(struct.unpack("!10H", h))
    s = (s & 0xFFFF) + (s >> 16)
    s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def stream_frame(src: int, dst: int, pair: int, seq: int) -> bytes:
    """The engine's stream frame from host ``src`` to ``dst`` (1-based host numbers)."""
    payload = b"SDNS" + struct.pack("!II", pair, seq)
    udp_len = 8 + 18                          # padded to a 60-byte frame
    ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + udp_len, 0, 0x4000, 64, 17, 0,
                               host_ip(src), host_ip(dst)))
    ip[10:12] = struct.pack("!H", _ip_checksum(bytes(ip)))
    udp = struct.pack("!HHHH", UDP_PORT, UDP_PORT, udp_len, 0) + payload
    return (host_mac(dst) + host_mac(src) + b"\x08\x00" + bytes(ip) + udp).ljust(60, b"\0")


def engine_network(stimulus: str, net: dict) -> dict:
    """The engine's network JSON with the stimulus scheduled."""
    net = dict(net)
    at = int(SETTLE_S * 1000)
    if stimulus == "frames":
        span = int((FRAMES - 0.5) * FRAME_GAP_S * 1000)
        net["stream"] = {"pairs": [[0, 1], [1, 0]], "interval_us": int(FRAME_GAP_S * 1e6),
                         "start_ms": at, "stop_ms": at + 1000 + span,
                         "pair_start_ms": [at, at + 1000], "pair_stop_ms": [at + span, at + 1000 + span]}
    elif stimulus == "link":
        link = net["links"][0]
        net["events"] = [{"at_ms": at, "link": link, "state": "down"},
                         {"at_ms": at + int(LINK_DOWN_S * 1000), "link": link, "state": "up"}]
    return net


SENDER = """
import socket, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
for h in sys.argv[3:]:
    s.send(bytes.fromhex(h))
    time.sleep(float(sys.argv[2]))
"""
