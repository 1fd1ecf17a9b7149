"""LLDP frames as os-ken's topology discovery makes them (chassis ID ``dpid:%016x``, port ID a
4-byte port number, to the nearest-bridge group), checked against os-ken's own frames
(``crates/ofwire/tests/vectors/osken_lldp.json``). Stdlib only."""

from __future__ import annotations

import struct
from typing import Optional

ETHERTYPE = 0x88CC
NEAREST_BRIDGE = bytes.fromhex("0180c200000e")
CHASSIS_LOCAL, PORT_COMPONENT = 7, 2         # subtypes: locally assigned chassis ID, port component


def tlv(t: int, value: bytes) -> bytes:
    return struct.pack("!H", (t << 9) | len(value)) + value


def frame(dpid: int, port: int, src: bytes = bytes.fromhex("020000000001"), ttl: int = 120) -> bytes:
    """os-ken's LLDP frame for (dpid, port), padded to 60 bytes."""
    body = (tlv(1, bytes([CHASSIS_LOCAL]) + f"dpid:{dpid:016x}".encode())
            + tlv(2, bytes([PORT_COMPONENT]) + struct.pack("!I", port))
            + tlv(3, struct.pack("!H", ttl)) + tlv(0, b""))
    return (NEAREST_BRIDGE + src + struct.pack("!H", ETHERTYPE) + body).ljust(60, b"\0")


def origin(f: bytes) -> Optional[tuple]:
    """(dpid, port) an LLDP frame of that shape claims to have left, else None."""
    if len(f) < 14 or struct.unpack("!H", f[12:14])[0] != ETHERTYPE:
        return None
    got, at = {}, 14
    while at + 2 <= len(f):
        head = struct.unpack("!H", f[at:at + 2])[0]
        t, n = head >> 9, head & 0x1FF
        if t == 0:
            break
        got.setdefault(t, f[at + 2:at + 2 + n])
        at += 2 + n
    chassis, port = got.get(1, b""), got.get(2, b"")
    if not chassis.startswith(bytes([CHASSIS_LOCAL]) + b"dpid:") or len(port) != 5:
        return None
    try:
        dpid = int(chassis[6:].decode(), 16)
    except ValueError:
        return None
    return dpid, struct.unpack("!I", port[1:])[0]
