"""The controller's side of the wire, as captured: tcpdump on loopback (``--immediate-mode``,
the controller's TCP port only), then the pcap cut into OpenFlow messages per connection and
direction.

``Capture`` starts tcpdump and always stops it (by its process group). ``messages(pcap, port)``
is pure: IPv4/TCP over Ethernet (tcpdump's link type on ``lo``), each direction of each
connection put together by sequence number (a retransmitted segment counted once), then cut at
the OpenFlow header's length. A message is ``Msg(t, conn, to_controller, raw)``; ``conn`` is the
switch's TCP port, ``t`` the capture time of the segment that completed it.
"""

from __future__ import annotations

import struct
import time
from dataclasses import dataclass
from pathlib import Path

from .. import proc
from ..errors import UserError
from .. import openflow as of

LINKTYPE_ETHERNET = 1


@dataclass(frozen=True)
class Msg:
    t: float
    conn: int
    to_controller: bool
    raw: bytes


class Capture:
    """tcpdump of TCP port ``port`` on ``lo`` into ``path`` for the duration of the block."""

    def __init__(self, port: int, path: Path):
        self.port, self.path = port, Path(path)
        self._t = None

    def __enter__(self) -> "Capture":
        argv = ["tcpdump", "-i", "lo", "--immediate-mode", "-U", "-B", "32768", "-s", "0", "-w", str(self.path),
                f"tcp port {self.port}"]
        self._t = proc.spawn("tcpdump", argv, log_path=self.path.with_suffix(".log"))
        # tcpdump says "listening on lo" once its filter is in place
        proc.wait_until(lambda: "listening on" in self._log() or not self._t.alive(), 10.0,
                        "tcpdump to start listening on lo")
        if not self._t.alive():
            raise UserError(f"tcpdump failed: {self._log().strip()[-200:]}")
        return self

    def _log(self) -> str:
        p = self.path.with_suffix(".log")
        return p.read_text(errors="replace") if p.exists() else ""

    def __exit__(self, *exc) -> None:
        if self._t is not None:
            time.sleep(0.2)            # the last segments out of the buffer (-U writes per packet)
            self._t.stop(grace=3.0)

    def so_far(self) -> list:
        """The messages captured so far (tcpdump writes each packet as it comes, ``-U``)."""
        return messages(self.path.read_bytes() if self.path.exists() else b"", self.port)

    def dropped(self) -> int:
        """Packets the kernel dropped before tcpdump read them (its own count at exit)."""
        import re
        m = re.search(r"(\d+) packets? dropped by kernel", self._log())
        return int(m.group(1)) if m else 0


def _packets(data: bytes):
    """(time, frame) of every record of a classic pcap file."""
    if len(data) < 24:
        return
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        e = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        e = ">"
    else:
        raise ValueError("not a classic pcap file")
    nano = magic in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
    if struct.unpack(e + "I", data[20:24])[0] != LINKTYPE_ETHERNET:
        raise ValueError("pcap link type is not Ethernet")
    i = 24
    while i + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack(e + "IIII", data[i:i + 16])
        if i + 16 + incl > len(data):
            return                  # a record tcpdump is still writing (a capture read while it runs)
        yield sec + frac / (1e9 if nano else 1e6), data[i + 16:i + 16 + incl]
        i += 16 + incl


def _tcp(frame: bytes):
    """(src port, dst port, seq, payload, syn) of an IPv4 TCP frame, or None."""
    if len(frame) < 34 or frame[12:14] != b"\x08\x00":
        return None
    ip = frame[14:]
    ihl = (ip[0] & 15) * 4
    if ip[9] != 6:
        return None
    total = struct.unpack("!H", ip[2:4])[0]
    tcp = ip[ihl:total]
    if len(tcp) < 20:
        return None
    sport, dport, seq = struct.unpack("!HHI", tcp[:8])
    off = (tcp[12] >> 4) * 4
    return sport, dport, seq, tcp[off:], bool(tcp[13] & 2)


def _starts_message(b: bytes) -> bool:
    """Does ``b`` begin with a plausible OpenFlow header (1.0 or 1.3, a type 1.3 knows, length >= 8)?"""
    if len(b) < 8:
        return False
    version, typ, length, _ = of.header(b)
    return version in (of.V10, of.V13) and typ < len(of.TYPES[of.V13]) and length >= 8


def messages(pcap: bytes, port: int, gaps: list = None) -> list:
    """Every OpenFlow message in the capture, in the order they completed. A direction whose
    start was not captured, or that lost a segment, picks up again at the next segment that
    begins with an OpenFlow header; each such place is appended to ``gaps`` (conn, direction)."""
    streams: dict = {}          # (switch port, to_controller) -> [next seq, buffer]
    out = []
    gaps = [] if gaps is None else gaps
    for t, frame in _packets(pcap):
        seg = _tcp(frame)
        if seg is None:
            continue
        sport, dport, seq, payload, syn = seg
        if port not in (sport, dport):
            continue
        to_ctl = dport == port
        key = (sport if to_ctl else dport, to_ctl)
        if syn:
            streams[key] = [(seq + 1) & 0xFFFFFFFF, b""]
            continue
        st = streams.get(key)
        if not payload:
            continue
        skip = None if st is None else (st[0] - seq) & 0xFFFFFFFF
        if skip is not None and len(payload) <= skip < 1 << 31:
            continue                                  # a retransmission of what we have
        if skip is None or skip >= 1 << 31:           # no start seen, or a segment missed
            if not _starts_message(payload):
                continue
            gaps.append(key)
            st = streams[key] = [seq, b""]
            skip = 0
        st[1] += payload[skip:]
        st[0] = (seq + len(payload)) & 0xFFFFFFFF
        msgs, st[1] = of.split(st[1])
        out.extend(Msg(t, key[0], to_ctl, m) for m in msgs)
    return out
