"""The stimuli, each once for Open vSwitch (Mininet) and once for the emulated network, on the
same timeline: seconds after the last switch's handshake, the capture time of its FEATURES_REPLY
on both sides (``clock.py``; docs/conformance.md, "The stimulus clock"):

- ``connect``: nothing more than the handshake, the controller's first flows and its own
  probes (LLDP for topology apps) for ``SETTLE_S``;
- ``frames``: after ``SETTLE_S``, 5 UDP frames h1 → h2, 100 ms apart, then from
  ``SETTLE_S + PAIR_GAP_S`` 5 frames h2 → h1 (one after the other: a learning controller's flows depend
  on which host spoke first, and a race would differ from run to run on either side); the
  engine's own stream frames (``crates/engine/src/network/stream.rs``: host MACs and IPs, UDP
  5003 → 5003, payload "SDNS", pair, sequence; 60 bytes); on Mininet sent raw from the host's
  interface (the hosts' own IP output is dropped, so no ICMP or ARP of theirs joins in);
- ``link``: after ``SETTLE_S`` the first switch-to-switch link goes down, 1.5 s later up;
- ``hosts``: at ``SETTLE_S`` each host announces itself once, h1 then h2: a gratuitous ARP
  (broadcast request for its own IP; the engine's ``announce_frame``,
  ``crates/engine/src/network/provision.rs``, which the engine sends as its provisioning's
  announcement, here with a first flow that never comes before the end);
- ``restart``: at ``SETTLE_S`` the controller is killed (SIGKILL, by its PID) and, after
  ``RESTART_PAUSE_S``, started again on the same port; the switches reconnect (OVS's rconn,
  the engine's ``reconnect.rs``, both with Mininet's ``max_backoff`` of 1 s);
- ``echo-silence``: at ``SETTLE_S`` the controller is stopped (SIGSTOP, its process group) for
  ``SILENCE_S``: the switches' inactivity probe (5 s on both sides) fires unanswered, they
  drop the session after one more probe interval and try again; then SIGCONT.

Everything then settles until ``end_s(stimulus)``, when the flow tables are read. For
``restart`` and ``echo-silence`` what is compared starts at ``compare_from_s`` (the kill; the
SIGCONT): the second sessions, their handshake and flows.
"""

from __future__ import annotations

import struct

SETTLE_S = 4.0
LEAD_S = 0.5                # the harness ready this long before the stimulus (a frame sender's start)
END_S = 8.0
FRAMES = 5
FRAME_GAP_S = 0.1
LINK_DOWN_S = 1.5
STIMULI = ("connect", "frames", "link", "hosts", "restart", "echo-silence")
UDP_PORT = 5003
RESTART_PAUSE_S = 0.5
SILENCE_S = 12.0            # > probe (5 s) + its timeout (5 s) + OVS's whole-second clock (1 s)
AFTER_S = {"restart": 10.0, "echo-silence": SILENCE_S + 5.0}   # settling after the stimulus
# the switches' keep-alive and backoff as Mininet configures OVS (inactivity_probe unset: 5 s;
# max_backoff=1000 ms, Mininet's ``reconnectms``), set the same on the engine; OVS gives up an
# attempt whose HELLO goes unanswered after max(1 s, backoff) (rconn ``timeout_CONNECTING``),
# here always 1 s: the engine's handshake timeout (``connect_timeout_ms``, 10 s by default)
ENGINE_KEEPALIVE = {"echo_interval_ms": 5000, "reconnect": True, "reconnect_backoff_ms": 1000,
                    "max_backoff_ms": 1000, "connect_timeout_ms": 1000}
OVS_INACTIVITY_PROBE_MS = 5000


def end_s(stimulus: str) -> float:
    """When the flow tables are read (seconds on the shared timeline)."""
    return max(END_S, SETTLE_S + AFTER_S.get(stimulus, 0.0))


def compare_from_s(stimulus: str) -> float:
    """Where the compared window starts: the kill, or the SIGCONT (0: the whole run)."""
    return {"restart": SETTLE_S, "echo-silence": SETTLE_S + SILENCE_S}.get(stimulus, 0.0)


def host_mac(i: int) -> bytes:
    return bytes([0, 0, 0, (i >> 16) & 255, (i >> 8) & 255, i & 255])


def host_ip(i: int) -> bytes:
    return bytes([10, (i >> 16) & 255, (i >> 8) & 255, i & 255])


def _checksum(data: bytes) -> int:
    """RFC 1071 (an odd last byte padded with zero)."""
    data += b"\0" * (len(data) % 2)
    s = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while s > 0xFFFF:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def stream_frame(src: int, dst: int, pair: int, seq: int) -> bytes:
    """The engine's stream frame from host ``src`` to ``dst`` (1-based host numbers), byte for
    byte (``testdata/stream_frame.hex``, which the engine's own test reads too): DF set, the IPv4
    and UDP checksums computed, the payload zero-padded to a 60-byte frame."""
    payload = (b"SDNS" + struct.pack("!II", pair, seq)).ljust(18, b"\0")
    udp_len = 8 + len(payload)
    ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + udp_len, 0, 0x4000, 64, 17, 0,
                               host_ip(src), host_ip(dst)))
    ip[10:12] = struct.pack("!H", _checksum(bytes(ip)))
    pseudo = host_ip(src) + host_ip(dst) + struct.pack("!BBH", 0, 17, udp_len)
    udp = bytearray(struct.pack("!HHHH", UDP_PORT, UDP_PORT, udp_len, 0) + payload)
    udp[6:8] = struct.pack("!H", _checksum(pseudo + bytes(udp)) or 0xFFFF)
    return host_mac(dst) + host_mac(src) + b"\x08\x00" + bytes(ip) + bytes(udp)


def announce_frame(i: int) -> bytes:
    """Host ``i`` (1-based) announcing itself: the engine's gratuitous ARP, byte for byte."""
    arp = bytes([0, 1, 8, 0, 6, 4, 0, 1]) + host_mac(i) + host_ip(i) + bytes(6) + host_ip(i)
    return (b"\xff" * 6 + host_mac(i) + b"\x08\x06" + arp).ljust(60, b"\0")


def engine_params(stimulus: str) -> dict:
    """The engine's parameters besides the network: its keep-alive and backoff as OVS's; for
    ``hosts`` the measured phase (the announcements) starting at ``SETTLE_S``."""
    p = dict(ENGINE_KEEPALIVE)
    if stimulus == "hosts":
        p["settle_ms"] = int(SETTLE_S * 1000)
    return p


def engine_network(stimulus: str, net: dict) -> dict:
    """The engine's network JSON with the stimulus scheduled."""
    net = dict(net)
    at = int(SETTLE_S * 1000)
    if stimulus == "frames":
        span = int((FRAMES - 0.5) * FRAME_GAP_S * 1000)
        gap = int(PAIR_GAP_S * 1000)
        net["stream"] = {"pairs": [[0, 1], [1, 0]], "interval_us": int(FRAME_GAP_S * 1e6),
                         "start_ms": at, "stop_ms": at + gap + span,
                         "pair_start_ms": [at, at + gap], "pair_stop_ms": [at + span, at + gap + span]}
    elif stimulus == "link":
        link = net["links"][0]
        net["events"] = [{"at_ms": at, "link": link, "state": "down"},
                         {"at_ms": at + int(LINK_DOWN_S * 1000), "link": link, "state": "up"}]
    elif stimulus == "hosts":
        # the announcement at go (settle_ms = SETTLE_S); its second one and the first flow
        # come announce_ms / 2 and announce_ms later, after the run has ended
        late = int(10 * end_s(stimulus) * 1000)
        net["provisioning"] = {"pairs": [[1, 0], [0, 1]], "flows": 1, "announce_ms": late, "timeout_ms": late}
    return net


PAIR_GAP_S = 1.0            # h2 -> h1 starts this long after h1 -> h2 did
LATE_EXIT = 3               # the sender's exit status when it could not keep its schedule

# Sends its frames at absolute times on the shared monotonic clock (network namespaces share
# it): frame k at ``start + k * gap``. Started seconds ahead, so that neither Python's start-up
# nor the other host's sender moves a frame; a sender that starts after its first frame was
# due exits LATE_EXIT rather than send a schedule that is not the engine's.
SENDER = """
import socket, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
start, gap = float(sys.argv[2]), float(sys.argv[3])
if time.monotonic() > start + gap / 2:
    sys.exit(%d)
for k, h in enumerate(sys.argv[4:]):
    time.sleep(max(0.0, start + k * gap - time.monotonic()))
    s.send(bytes.fromhex(h))
""" % LATE_EXIT
