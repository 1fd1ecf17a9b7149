"""A scripted OpenFlow "controller" for the engine's tests: it does exactly what a test asks and
counts what it did, so the engine's accounting can be checked against an independent count.

- answers each packet-in with a flow-mod naming its buffer id (and a packet-out too, if asked),
  after ``delay_s`` (an injected, known delay);
- closes the ``close_nth`` accepted connection ``close_after_s`` after accepting it;
- ``drop_every`` K: leaves every K-th packet-in of a connection unanswered (1-in-K loss; with
  it, ``dropped`` counts them);
- ``garbage_after`` N: after N packet-ins on the first connection, sends a message whose length
  field (4) is shorter than the OpenFlow header;
- ``cost_us``: spends this much CPU (a busy loop, on its one event-loop thread) on every
  packet-in before answering, as a single-threaded controller whose decision costs that much:
  it serves at most 10^6 / ``cost_us`` requests/s, less its own per-message overhead;
- ``ignore_learning``: never answers the learning phase's packet-ins (xid ``LEARNING_XID | host``);
  ``learning_packet_ins`` counts them either way;
- ``faucet``: behaves as Faucet's learning does (``crates/ofswitch/src/faucet.rs``): takes only
  packet-ins with Faucet's cookie, reason ACTION and a frame tagged VLAN 100 (``ignored``
  counts the others); learns each source MAC once for good (``learned``, kept across
  connections, as a Faucet process keeps its hosts), answering with two flow-mods that name no
  buffer: eth_dst (table 2) then eth_src (table 1);
- counts packet-ins received, reply messages sent and distinct requests answered
  ((connection, buffer id) pairs), and keeps each connection's first packet-in
  (``first_packet_ins``, whole messages).

It runs an asyncio loop on a thread, on 127.0.0.1 and a free port. Speaks OF1.0 or OF1.3 (the
version of its hello; the engine negotiates).
"""

from __future__ import annotations

import asyncio
import struct
import time
from typing import Optional
from .loop_server import LoopServer

NO_BUFFER = 0xFFFFFFFF


def _flow_mod(version: int, xid: int, buffer_id: int) -> bytes:
    if version == 1:
        body = struct.pack("!I", 0x003FFFFF) + bytes(36) + bytes(8) + struct.pack("!HHHHIHH", 0, 0, 0, 0x8000, buffer_id, 0xFFFF, 0)
        return struct.pack("!BBHI", 1, 14, 8 + len(body), xid) + body
    body = bytes(16) + struct.pack("!BBHHHIIIHH", 0, 0, 0, 0, 0x8000, buffer_id, 0xFFFFFFFF, 0xFFFFFFFF, 0, 0)
    body += struct.pack("!HHI", 1, 4, 0)  # empty OXM match, padded to 8
    return struct.pack("!BBHI", 4, 14, 8 + len(body), xid) + body


# The engine's learning packet-ins (gratuitous ARPs) carry xid 0x4000_0000 | host
# (crates/engine/src/learning.rs).
LEARNING_XID = 0x4000_0000


FAUCET_COOKIE = 0x5ADC15C0
FAUCET_VID = 100


def _oxm(field: int, value: bytes) -> bytes:
    return struct.pack("!HBB", 0x8000, field << 1, len(value)) + value


def _faucet_flow_mods(xid: int, in_port: int, mac: bytes) -> bytes:
    """Faucet's two learning flow-mods for ``mac`` (OF1.3, no buffer): eth_dst table 2, then
    eth_src table 1."""
    vlan = _oxm(6, struct.pack("!H", 0x1000 | FAUCET_VID))
    out = b""
    for table, oxms in ((2, vlan + _oxm(3, mac)), (1, _oxm(0, struct.pack("!I", in_port)) + vlan + _oxm(4, mac))):
        match = struct.pack("!HH", 1, 4 + len(oxms)) + oxms
        match += bytes(-len(match) % 8)
        body = struct.pack("!QQBBHHHIIIH2x", 0x5ADC15C0, 0, table, 0, 0, 0, 0x8000, NO_BUFFER, 0xFFFFFFFF, 0xFFFFFFFF, 0)
        out += struct.pack("!BBHI", 4, 14, 8 + len(body) + len(match), xid) + body + match
    return out


def _faucet_takes(body: bytes) -> Optional[tuple]:
    """(in_port, source MAC) of a 1.3 packet-in Faucet would learn from, else None."""
    reason, cookie = body[6], struct.unpack("!Q", body[8:16])[0]
    mlen = struct.unpack("!H", body[18:20])[0]
    data = body[16 + mlen + (-mlen % 8) + 2:]
    if cookie != FAUCET_COOKIE or reason != 1 or len(data) < 18:
        return None
    if data[12:14] != b"\x81\x00" or struct.unpack("!H", data[14:16])[0] & 0xFFF != FAUCET_VID:
        return None
    in_port = struct.unpack("!I", body[24:28])[0] if body[20:24] == b"\x80\x00\x00\x04" else 0
    return in_port, data[6:12]


def _spin(seconds: float) -> None:
    """Burn ``seconds`` of CPU (a decision that costs that much), holding the loop."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def _packet_out(version: int, xid: int, buffer_id: int) -> bytes:
    if version == 1:
        body = struct.pack("!IHH", buffer_id, 0xFFFF, 0)
        return struct.pack("!BBHI", 1, 13, 8 + len(body), xid) + body
    body = struct.pack("!IIH6x", buffer_id, 0xFFFFFFFD, 0)
    return struct.pack("!BBHI", 4, 13, 8 + len(body), xid) + body


class ScriptedController(LoopServer):
    def __init__(self, version: int = 4, delay_s: float = 0.0, packet_out_too: bool = False,
                 close_nth: Optional[int] = None, close_after_s: float = 0.0, drop_every: int = 0,
                 garbage_after: Optional[int] = None, ignore_learning: bool = False, faucet: bool = False,
                 cost_us: float = 0.0):
        super().__init__()
        self.cost_s = cost_us / 1e6
        self.faucet = faucet
        self.learned: set = set()
        self.ignored = 0
        self.version = version
        self.delay_s = delay_s
        self.packet_out_too = packet_out_too
        self.close_nth = close_nth
        self.close_after_s = close_after_s
        self.drop_every = drop_every
        self.garbage_after = garbage_after
        self.ignore_learning = ignore_learning
        self.learning_packet_ins = 0
        self.dropped = 0
        self.packet_ins = 0
        self.replies = 0
        self.answered_ids: set = set()
        self.accepted = 0
        self.closed_peer: Optional[tuple] = None
        self.first_packet_ins: list = []

    def __enter__(self) -> "ScriptedController":
        super().__enter__()
        return self

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nth = self.accepted
        self.accepted += 1
        v = self.version
        hello = struct.pack("!BBHIHHI", 4, 0, 16, 1, 1, 8, 0x12) if v == 4 else struct.pack("!BBHI", 1, 0, 8, 1)
        writer.write(hello + struct.pack("!BBHI", v, 5, 8, 2))
        if nth == self.close_nth:
            self._loop.call_later(self.close_after_s, self._close, writer)
        seen = 0
        first = True
        try:
            while True:
                head = await reader.readexactly(8)
                ver, ty, length, xid = struct.unpack("!BBHI", head)
                body = await reader.readexactly(length - 8)
                if ty == 0:
                    v = min(v, ver)
                elif ty == 2:
                    writer.write(struct.pack("!BBHI", v, 3, length, xid) + body)
                elif ty == 10:
                    if first:
                        self.first_packet_ins.append(head + body)
                        first = False
                    self.packet_ins += 1
                    if xid & LEARNING_XID:
                        self.learning_packet_ins += 1
                        if self.ignore_learning:
                            continue
                    seen += 1
                    if self.drop_every and seen % self.drop_every == 0:
                        self.dropped += 1
                        continue
                    if nth == 0 and self.garbage_after is not None and seen > self.garbage_after:
                        writer.write(struct.pack("!BBHI", v, 2, 4, 66))
                        continue
                    buffer_id = struct.unpack("!I", body[:4])[0]
                    if self.cost_s:
                        _spin(self.cost_s)
                    if self.faucet:
                        self._faucet(writer, xid, body, nth)
                        continue
                    msg = _flow_mod(v, xid, buffer_id)
                    n = 1
                    if self.packet_out_too:
                        msg += _packet_out(v, xid, buffer_id)
                        n = 2
                    if self.delay_s > 0:
                        self._loop.call_later(self.delay_s, self._send, writer, msg, n, (nth, buffer_id))
                    else:
                        self._send(writer, msg, n, (nth, buffer_id))
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        finally:
            writer.close()

    def _faucet(self, writer: asyncio.StreamWriter, xid: int, body: bytes, nth: int) -> None:
        took = _faucet_takes(body)
        if took is None:
            self.ignored += 1
            return
        in_port, mac = took
        if mac in self.learned:
            return   # Faucet learns a host once
        self.learned.add(mac)
        msg = _faucet_flow_mods(xid, in_port, mac)
        if self.delay_s > 0:
            self._loop.call_later(self.delay_s, self._send, writer, msg, 2, (nth, mac))
        else:
            self._send(writer, msg, 2, (nth, mac))

    def _send(self, writer: asyncio.StreamWriter, msg: bytes, n: int, request: tuple) -> None:
        if writer.is_closing():
            return
        writer.write(msg)
        self.replies += n
        if request[1] != NO_BUFFER:
            self.answered_ids.add(request)

    def _close(self, writer: asyncio.StreamWriter) -> None:
        self.closed_peer = writer.get_extra_info("peername")
        writer.close()
