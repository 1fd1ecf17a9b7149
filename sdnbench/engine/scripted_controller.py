"""A scripted OpenFlow "controller" for the engine's tests: it does exactly what a test asks and
counts what it did, so the engine's accounting can be checked against an independent count.

- answers each packet-in with a flow-mod naming its buffer id (and a packet-out too, if asked),
  after ``delay_s`` (an injected, known delay);
- closes the ``close_nth`` accepted connection ``close_after_s`` after accepting it;
- ``drop_every`` K: leaves every K-th packet-in of a connection unanswered (1-in-K loss; with
  it, ``dropped`` counts them);
- ``garbage_after`` N: after N packet-ins on the first connection, sends a message whose length
  field (4) is shorter than the OpenFlow header;
- ``ignore_learning``: never answers the learning phase's packet-ins (xid ``LEARNING_XID | host``);
  ``learning_packet_ins`` counts them either way;
- counts packet-ins received, reply messages sent and distinct requests answered
  ((connection, buffer id) pairs), and keeps each connection's first packet-in
  (``first_packet_ins``, whole messages).

It runs an asyncio loop on a thread, on 127.0.0.1 and a free port. Speaks OF1.0 or OF1.3 (the
version of its hello; the engine negotiates).
"""

from __future__ import annotations

import asyncio
import struct
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


def _packet_out(version: int, xid: int, buffer_id: int) -> bytes:
    if version == 1:
        body = struct.pack("!IHH", buffer_id, 0xFFFF, 0)
        return struct.pack("!BBHI", 1, 13, 8 + len(body), xid) + body
    body = struct.pack("!IIH6x", buffer_id, 0xFFFFFFFD, 0)
    return struct.pack("!BBHI", 4, 13, 8 + len(body), xid) + body


class ScriptedController(LoopServer):
    def __init__(self, version: int = 4, delay_s: float = 0.0, packet_out_too: bool = False,
                 close_nth: Optional[int] = None, close_after_s: float = 0.0, drop_every: int = 0,
                 garbage_after: Optional[int] = None, ignore_learning: bool = False):
        super().__init__()
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
