"""A scripted OpenFlow 1.3 switch with known delays, for known-answer tests of ``switch bench``.

It connects to the controller address like any switch, answers the handshake, DESC and
AGGREGATE requests, and forwards frames between its data ports (AF_PACKET on veth ends) by a
flow table keyed on destination MAC. What it does late, it does exactly that late:

- a flow-mod ADD takes effect ``install_delay`` after it arrived (the figure insertion latency
  must read);
- a barrier is answered ``barrier_delay`` after it arrived, whether or not the flows before it
  are in force yet (so barrier gap = install_delay - barrier_delay);
- a packet-out's frame leaves ``packet_out_delay`` after it arrived;
- a table miss reaches the controller as a packet-in ``packet_in_delay`` after the frame came in;
- a forwarded frame leaves ``forward_delay`` after it came in;
- a stats reply leaves ``stats_delay`` after its request arrived;
- with ``table_limit`` N, a flow-mod adding an (N+1)th flow is refused with
  OFPET_FLOW_MOD_FAILED/OFPFMFC_TABLE_FULL, or, with ``silent_overflow``, accepted and dropped
  (the silent failure the capacity test must catch).

Only what the tests use is implemented: eth_dst matches (or match-all), apply-actions output
(to a port or the controller), goto-table is followed through the same table (one lookup), and
delete-all. It is a fake for tests, not a switch.
"""

from __future__ import annotations

import heapq
import socket
import struct
import threading
import time
from typing import Callable, Optional

OFP13 = 4
HELLO, ERROR, ECHO_REQ, ECHO_REP, FEAT_REQ, FEAT_REP = 0, 1, 2, 3, 5, 6
SET_CONFIG, PACKET_IN, PACKET_OUT, FLOW_MOD, MP_REQ, MP_REP, BARRIER_REQ, BARRIER_REP = 9, 10, 13, 14, 18, 19, 20, 21
CONTROLLER = 0xFFFFFFFD
PACKET_OUTGOING = 4


def _msg(typ: int, xid: int, body: bytes = b"") -> bytes:
    return struct.pack("!BBHI", OFP13, typ, 8 + len(body), xid) + body


def _pad8(n: int) -> int:
    return (n + 7) // 8 * 8


def parse_flow_mod(body: bytes) -> tuple:
    """(command, table, priority, eth_dst or None, action) of a 1.3 flow-mod body (after the
    header); action is ('out', port), ('goto', table) or ('drop',)."""
    table, command, priority = body[16], body[17], struct.unpack_from("!H", body, 22)[0]
    mlen = struct.unpack_from("!H", body, 42)[0]
    eth_dst, off = None, 44
    while off < 40 + mlen:
        cls, fld, ln = struct.unpack_from("!HBB", body, off)
        if cls == 0x8000 and fld >> 1 == 3:
            eth_dst = bytes(body[off + 4:off + 10])
        off += 4 + ln
    off = 40 + _pad8(mlen)
    action: tuple = ("drop",)
    while off + 4 <= len(body):
        itype, ilen = struct.unpack_from("!HH", body, off)
        if itype == 1:
            action = ("goto", body[off + 4])
        elif itype == 4 and ilen >= 24:
            action = ("out", struct.unpack_from("!I", body, off + 12)[0])
        off += max(ilen, 8)
    return command, table, priority, eth_dst, action


class ScriptedSwitch:
    def __init__(self, ports: list, install_delay: float = 0.0, barrier_delay: float = 0.0,
                 packet_out_delay: float = 0.0, packet_in_delay: float = 0.0, forward_delay: float = 0.0,
                 stats_delay: float = 0.0, table_limit: Optional[int] = None, silent_overflow: bool = False) -> None:
        self.ports = ports                      # interface names; port number = index + 1
        self.install_delay, self.barrier_delay = install_delay, barrier_delay
        self.packet_out_delay, self.packet_in_delay = packet_out_delay, packet_in_delay
        self.forward_delay, self.stats_delay = forward_delay, stats_delay
        self.table_limit, self.silent_overflow = table_limit, silent_overflow
        self._accepted = 0
        self.table: dict = {}                   # eth_dst (or None = match-all) -> action
        self._timers: list = []
        self._cv = threading.Condition()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads: list = []
        self._sock: Optional[socket.socket] = None
        self._raw: list = []
        self._seq = 0

    # -- life cycle ------------------------------------------------------------------------------

    def connect(self, address: str) -> None:
        host, port = address.rsplit(":", 1)
        self._sock = socket.create_connection((host, int(port)), timeout=10)
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._sock.settimeout(0.1)
        for name in self.ports:
            s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
            s.bind((name, 0))
            s.settimeout(0.1)
            self._raw.append(s)
        self._send(_msg(HELLO, 1, struct.pack("!HHI", 1, 8, 1 << OFP13)))
        for target in [self._control] + [lambda i=i: self._data(i) for i in range(len(self.ports))] + [self._timer_loop]:
            t = threading.Thread(target=target, daemon=True)
            t.start()
            self._threads.append(t)

    def close(self) -> None:
        self._stop.set()
        with self._cv:
            self._cv.notify_all()
        for t in self._threads:
            t.join(timeout=2)
        for s in self._raw + ([self._sock] if self._sock else []):
            s.close()

    # -- scheduling -----------------------------------------------------------------------------

    def _later(self, delay: float, fn: Callable[[], None]) -> None:
        if delay <= 0:
            fn()
            return
        with self._cv:
            self._seq += 1
            heapq.heappush(self._timers, (time.monotonic() + delay, self._seq, fn))
            self._cv.notify()

    def _timer_loop(self) -> None:
        while not self._stop.is_set():
            with self._cv:
                while not self._timers and not self._stop.is_set():
                    self._cv.wait(0.1)
                if self._stop.is_set():
                    return
                due, _, fn = self._timers[0]
                wait = due - time.monotonic()
                if wait > 0:
                    self._cv.wait(min(wait, 0.1))
                    continue
                heapq.heappop(self._timers)
            fn()

    # -- control plane --------------------------------------------------------------------------

    def _send(self, data: bytes) -> None:
        with self._lock:
            assert self._sock is not None
            self._sock.sendall(data)

    def _control(self) -> None:
        buf = b""
        while not self._stop.is_set():
            try:
                chunk = self._sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                return
            if not chunk:
                return
            buf += chunk
            while len(buf) >= 8:
                length = struct.unpack_from("!H", buf, 2)[0]
                if len(buf) < length:
                    break
                msg, buf = buf[:length], buf[length:]
                self._on_message(msg[1], struct.unpack_from("!I", msg, 4)[0], msg[8:])

    def _on_message(self, typ: int, xid: int, body: bytes) -> None:
        if typ == ECHO_REQ:
            self._send(_msg(ECHO_REP, xid, body))
        elif typ == FEAT_REQ:
            self._send(_msg(FEAT_REP, xid, struct.pack("!QIBBHII", 0x5C41, 0, 4, 0, 0, 0, 0)))
        elif typ == BARRIER_REQ:
            self._later(self.barrier_delay, lambda: self._send(_msg(BARRIER_REP, xid)))
        elif typ == FLOW_MOD:
            self._flow_mod(xid, body)
        elif typ == PACKET_OUT:
            self._packet_out(body)
        elif typ == MP_REQ:
            kind = struct.unpack_from("!H", body, 0)[0]
            self._later(self.stats_delay, lambda: self._multipart(xid, kind))

    def _flow_mod(self, xid: int, body: bytes) -> None:
        command, _table, _prio, dst, action = parse_flow_mod(body)
        if command == 3:                           # delete (all: the tests only delete all)
            self.table.clear()
            self._accepted = 0
            return
        if action[0] == "goto":                    # one table stands for the whole pipeline
            return
        if self.table_limit is not None and dst not in self.table:
            self._accepted += 1
            if self._accepted > self.table_limit:
                if not self.silent_overflow:       # OFPET_FLOW_MOD_FAILED / OFPFMFC_TABLE_FULL
                    head = _msg(FLOW_MOD, xid, body)[:64]
                    self._send(_msg(ERROR, xid, struct.pack("!HH", 5, 1) + head))
                return
        self._later(self.install_delay, lambda: self.table.__setitem__(dst, action))

    def _packet_out(self, body: bytes) -> None:
        alen = struct.unpack_from("!H", body, 8)[0]
        port = struct.unpack_from("!I", body, 16 + 4)[0] if alen >= 16 else 0
        frame = bytes(body[16 + alen:])
        if 1 <= port <= len(self._raw):
            self._later(self.packet_out_delay, lambda: self._raw[port - 1].send(frame))

    def _multipart(self, xid: int, kind: int) -> None:
        head = struct.pack("!HH4x", kind, 0)
        if kind == 0:                              # desc
            fields = [(b"sdnbench", 256), (b"scripted switch", 256), (b"known delays", 256), (b"0", 32), (b"fake", 256)]
            body = b"".join(v.ljust(n, b"\0") for v, n in fields)
        elif kind == 2:                            # aggregate
            body = struct.pack("!QQI4x", 0, 0, len(self.table))
        else:                                      # flow, table, port: no entries
            body = b""
        self._send(_msg(MP_REP, xid, head + body))

    # -- data plane -----------------------------------------------------------------------------

    def _data(self, i: int) -> None:
        sock = self._raw[i]
        while not self._stop.is_set():
            try:
                frame, addr = sock.recvfrom(2048)
            except socket.timeout:
                continue
            except OSError:
                return
            if addr[2] == PACKET_OUTGOING:
                continue
            action = self.table.get(frame[0:6], self.table.get(None))
            if action is None or action[0] == "drop":
                continue
            port = action[1]
            if port == CONTROLLER:
                self._later(self.packet_in_delay, lambda f=frame, p=i + 1: self._packet_in(p, f))
            elif 1 <= port <= len(self._raw):
                out = self._raw[port - 1]
                self._later(self.forward_delay, lambda o=out, f=frame: o.send(f))

    def _packet_in(self, in_port: int, frame: bytes) -> None:
        match = struct.pack("!HHHBBI", 1, 12, 0x8000, 0, 4, in_port) + b"\0" * 4
        body = struct.pack("!IHBBQ", 0xFFFFFFFF, len(frame), 0, 0, 0) + match + b"\0\0" + frame
        self._send(_msg(PACKET_IN, 0, body))


class ScriptedTarget:
    """The scripted switch as a ``switch bench`` target: veths into our namespaces, the fake
    switch forwarding between the switch ends."""

    spec = "scripted"

    def __init__(self, **delays: float) -> None:
        from .wiring import Wiring
        self.wiring = Wiring(2, netns=True)
        self.delays = delays
        self.switch: Optional[ScriptedSwitch] = None

    def __enter__(self) -> "ScriptedTarget":
        self.wiring.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        try:
            if self.switch:
                self.switch.close()
        finally:
            self.wiring.close()

    @property
    def probe_specs(self) -> list:
        return self.wiring.probe_specs

    def attach(self, address: str) -> None:
        self.switch = ScriptedSwitch(self.wiring.switch_ifs, **self.delays)
        self.switch.connect(address)

    def set_flow_limit(self, n: int) -> None:
        raise NotImplementedError

    def describe(self) -> dict:
        return {"target": "scripted", **self.delays}
