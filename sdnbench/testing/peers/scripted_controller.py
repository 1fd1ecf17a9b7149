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
  (``first_packet_ins``, whole messages);
- records its own timing, so a test can bound the engine's figures by what this peer did
  rather than by the machine's luck: ``late_s`` (how late each delayed answer went out after its
  due time: its own scheduling delay), ``gaps_s`` (per connection, from writing an answer to
  reading the next packet-in: the engine's turnaround), ``served_t`` (when each answer was
  written, monotonic s) and, with ``cost_us``, ``idle`` (each (start, end) its event loop spent
  blocked in ``select`` with nothing to do; ``idle_s(t0, t1)`` sums them between two times).

Its counts are final once every connection has ended: ``settle()`` waits for that (the engine
has exited, so each connection reads its end of file), and leaving the ``with`` calls it. A
count read before then may miss packet-ins still in the socket buffer of a starved thread.

It runs an asyncio loop on a thread, on 127.0.0.1 and a free port. Speaks OF1.0 or OF1.3 (the
version of its hello; the engine negotiates).
"""

from __future__ import annotations

import asyncio
import struct
import time
from typing import Optional

from sdnbench.testing import openflow as of
from sdnbench.testing.peers.loop_server import LoopServer

NO_BUFFER = of.NO_BUFFER


def _packet_out(version: int, xid: int, buffer_id: int) -> bytes:
    """A second answer: a packet-out of the same buffer, no actions."""
    return of.packet_out(version, xid, b"", b"", buffer_id=buffer_id)


# The engine's learning packet-ins (gratuitous ARPs) carry xid 0x4000_0000 | host
# (crates/engine/src/learning.rs).
LEARNING_XID = 0x4000_0000


FAUCET_COOKIE = 0x5ADC15C0
FAUCET_VID = 100


def _faucet_flow_mods(xid: int, in_port: int, mac: bytes) -> bytes:
    """Faucet's two learning flow-mods for ``mac`` (OF1.3, no buffer): eth_dst table 2, then
    eth_src table 1."""
    vlan = of.oxm_vlan_vid(FAUCET_VID)
    matches = ((2, of.match13(vlan, of.oxm(of.OXM_ETH_DST, mac))),
               (1, of.match13(of.oxm_in_port(in_port), vlan, of.oxm(of.OXM_ETH_SRC, mac))))
    return b"".join(of.flow_mod13(xid, of.ADD, table, 0x8000, match=m, cookie=FAUCET_COOKIE, out_port=of.ANY,
                                  out_group=of.ANY) for table, m in matches)


def _faucet_takes(m: bytes) -> Optional[tuple]:
    """(in_port, source MAC) of a 1.3 packet-in Faucet would learn from (its cookie, reason
    ACTION, a frame tagged VLAN 100), else None."""
    pi = of.packet_in(m)
    data = pi["frame"]
    if pi["cookie"] != FAUCET_COOKIE or pi["reason"] != 1 or len(data) < 18:
        return None
    if data[12:14] != b"\x81\x00" or struct.unpack("!H", data[14:16])[0] & 0xFFF != FAUCET_VID:
        return None
    return pi["in_port"] or 0, data[6:12]


def _spin(seconds: float) -> None:
    """Burn ``seconds`` of CPU (a decision that costs that much), holding the loop."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


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
        self.open = 0
        self.late_s: list = []
        self.gaps_s: list = []
        self.served_t: list = []
        self.idle: list = []
        self._last_answer: dict = {}

    def __enter__(self) -> "ScriptedController":
        if self.cost_s:
            self._time_idle()
        super().__enter__()
        return self

    def _time_idle(self) -> None:
        """Record each time the loop blocks in its selector (nothing to do) in ``idle``."""
        selector = self._loop._selector          # asyncio's selector loop: the one place it waits
        select = selector.select

        def timed(timeout=None):
            t0 = time.monotonic()
            try:
                return select(timeout)
            finally:
                self.idle.append((t0, time.monotonic()))
        selector.select = timed

    def idle_s(self, t0: float, t1: float) -> float:
        """Seconds the loop was idle between monotonic times ``t0`` and ``t1``."""
        return sum(max(0.0, min(b, t1) - max(a, t0)) for a, b in self.idle)

    def __exit__(self, *exc) -> None:
        self.settle()
        super().__exit__(*exc)

    def settle(self, timeout_s: float = 15.0) -> None:
        """Wait (up to ``timeout_s``) until every accepted connection has ended, so the counts
        hold everything the engine sent. Called once the engine has exited."""
        deadline = time.monotonic() + timeout_s
        while self.open and time.monotonic() < deadline:
            time.sleep(0.01)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nth = self.accepted
        self.accepted += 1
        self.open += 1
        v = self.version
        hello = of.hello(of.V13, 1, [of.V10, of.V13]) if v == of.V13 else of.hello(of.V10, 1)
        writer.write(hello + of.msg(v, "FEATURES_REQUEST", 2))
        if nth == self.close_nth:
            self._loop.call_later(self.close_after_s, self._close, writer)
        seen = 0
        first = True
        try:
            while True:
                head = await reader.readexactly(8)
                now = time.monotonic()
                ver, ty, length, xid = of.header(head)
                body = await reader.readexactly(length - 8)
                if ty == of.TYPES[of.V13]["HELLO"]:
                    v = min(v, ver)
                elif ty == of.TYPES[v]["ECHO_REQUEST"]:
                    writer.write(of.msg(v, "ECHO_REPLY", xid, body))
                elif ty == of.TYPES[v]["PACKET_IN"]:
                    if first:
                        self.first_packet_ins.append(head + body)
                        first = False
                    self.packet_ins += 1
                    if nth in self._last_answer:
                        self.gaps_s.append(now - self._last_answer.pop(nth))
                    if xid & LEARNING_XID:
                        self.learning_packet_ins += 1
                        if self.ignore_learning:
                            continue
                    seen += 1
                    if self.drop_every and seen % self.drop_every == 0:
                        self.dropped += 1
                        continue
                    if nth == 0 and self.garbage_after is not None and seen > self.garbage_after:
                        writer.write(of.with_length(of.msg(v, "ECHO_REQUEST", 66), 4))
                        continue
                    buffer_id = of.buffer_id(head + body)
                    if self.cost_s:
                        _spin(self.cost_s)
                    if self.faucet:
                        self._faucet(writer, xid, head + body, nth)
                        continue
                    msg = of.drop_flow(v, xid, buffer_id)  # match all, priority 0x8000, the buffer named
                    n = 1
                    if self.packet_out_too:
                        msg += _packet_out(v, xid, buffer_id)
                        n = 2
                    self._answer(writer, msg, n, (nth, buffer_id))
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        finally:
            writer.close()
            self.open -= 1

    def _answer(self, writer: asyncio.StreamWriter, msg: bytes, n: int, request: tuple) -> None:
        """Send now, or ``delay_s`` from now (its lateness recorded)."""
        if self.delay_s > 0:
            due = time.monotonic() + self.delay_s
            self._loop.call_later(self.delay_s, self._send, writer, msg, n, request, due)
        else:
            self._send(writer, msg, n, request)

    def _faucet(self, writer: asyncio.StreamWriter, xid: int, m: bytes, nth: int) -> None:
        took = _faucet_takes(m)
        if took is None:
            self.ignored += 1
            return
        in_port, mac = took
        if mac in self.learned:
            return   # Faucet learns a host once
        self.learned.add(mac)
        self._answer(writer, _faucet_flow_mods(xid, in_port, mac), 2, (nth, mac))

    def _send(self, writer: asyncio.StreamWriter, msg: bytes, n: int, request: tuple,
              due: Optional[float] = None) -> None:
        if writer.is_closing():
            return
        writer.write(msg)
        now = time.monotonic()
        if due is not None:
            self.late_s.append(max(0.0, now - due))
        self._last_answer[request[0]] = now
        self.served_t.append(now)
        self.replies += n
        if request[1] != NO_BUFFER:
            self.answered_ids.add(request)

    def _close(self, writer: asyncio.StreamWriter) -> None:
        self.closed_peer = writer.get_extra_info("peername")
        writer.close()
