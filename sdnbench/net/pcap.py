"""A minimal reader for the pcap files tcpdump writes, enough to match ICMP echo requests
across a switch's ports (pure: bytes in, records out).

Handles both byte orders and both timestamp resolutions (magic ``a1b2c3d4`` microseconds,
``a1b23c4d`` nanoseconds, as written with ``--time-stamp-precision=nano``), Ethernet link type,
an optional 802.1Q tag, IPv4 and ICMP. Timestamps are integer nanoseconds, so no precision is
lost to floats. A truncated last record (the capture was stopped mid-write) is ignored.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Iterator, Optional

MAGIC_US, MAGIC_NS = 0xA1B2C3D4, 0xA1B23C4D
LINKTYPE_ETHERNET = 1


class PcapError(ValueError):
    pass


@dataclass(frozen=True)
class Echo:
    """An ICMP echo request or reply seen on one interface."""
    ts_ns: int
    src: str
    dst: str
    icmp_type: int      # 8 request, 0 reply
    ident: int
    seq: int


def records(data: bytes) -> Iterator[tuple]:
    """(timestamp ns, frame bytes) for every complete record."""
    if len(data) < 24:
        raise PcapError(f"pcap too short for a header: {len(data)} bytes")
    for endian in ("<", ">"):
        magic = struct.unpack(endian + "I", data[:4])[0]
        if magic in (MAGIC_US, MAGIC_NS):
            break
    else:
        raise PcapError(f"not a pcap file (magic {data[:4].hex()})")
    scale = 1 if magic == MAGIC_NS else 1000
    linktype = struct.unpack(endian + "I", data[20:24])[0] & 0x0FFFFFFF
    if linktype != LINKTYPE_ETHERNET:
        raise PcapError(f"pcap link type {linktype} is not Ethernet")
    off = 24
    while off + 16 <= len(data):
        sec, frac, incl, _orig = struct.unpack(endian + "IIII", data[off:off + 16])
        off += 16
        if off + incl > len(data):
            return
        yield sec * 1_000_000_000 + frac * scale, data[off:off + incl]
        off += incl


def parse_echo(frame: bytes, ts_ns: int) -> Optional[Echo]:
    if len(frame) < 14:
        return None
    ethertype = struct.unpack("!H", frame[12:14])[0]
    off = 14
    if ethertype == 0x8100 and len(frame) >= 18:
        ethertype = struct.unpack("!H", frame[16:18])[0]
        off = 18
    if ethertype != 0x0800 or len(frame) < off + 20:
        return None
    ihl = (frame[off] & 0x0F) * 4
    proto = frame[off + 9]
    frag = struct.unpack("!H", frame[off + 6:off + 8])[0] & 0x1FFF
    if proto != 1 or frag != 0 or len(frame) < off + ihl + 8:
        return None
    src = ".".join(str(b) for b in frame[off + 12:off + 16])
    dst = ".".join(str(b) for b in frame[off + 16:off + 20])
    icmp = off + ihl
    itype = frame[icmp]
    if itype not in (0, 8):
        return None
    ident, seq = struct.unpack("!HH", frame[icmp + 4:icmp + 8])
    return Echo(ts_ns, src, dst, itype, ident, seq)


def echoes(data: bytes) -> list:
    out = []
    for ts, frame in records(data):
        e = parse_echo(frame, ts)
        if e is not None:
            out.append(e)
    return out
