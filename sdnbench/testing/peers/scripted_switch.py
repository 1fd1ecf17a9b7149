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
import threading
import time
from typing import Callable, Optional

from sdnbench.testing import openflow as of
from sdnbench.switchbench.wiring import Wiring

V13 = of.V13
CONTROLLER = of.CONTROLLER[V13]
PACKET_OUTGOING = 4


def parse_flow_mod(m: bytes) -> tuple:
    """(command, table, priority, eth_dst or None, action) of a 1.3 flow-mod; action is
    ('out', port), ('goto', table) or ('drop',): what its last instruction that does one says."""
    fm = of.flow_mod(m)
    does = [a for a in (of.instruction_action(*i) for i in fm["instructions"]) if a != ("drop",)]
    action = does[-1] if does else ("drop",)
    return fm["command"], fm["table_id"], fm["priority"], fm["eth_dst"], action


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
        self._send(of.hello(V13, 1, [V13]))
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
            msgs, buf = of.split(buf + chunk)
            for m in msgs:
                self._on_message(m)

    def _on_message(self, m: bytes) -> None:
        name, xid = of.name_of(m), of.xid_of(m)
        if name == "ECHO_REQUEST":
            self._send(of.echo_reply(m))
        elif name == "FEATURES_REQUEST":
            self._send(of.features_reply13(xid, 0x5C41, n_tables=4))
        elif name == "BARRIER_REQUEST":
            self._later(self.barrier_delay, lambda: self._send(of.msg(V13, "BARRIER_REPLY", xid)))
        elif name == "FLOW_MOD":
            self._flow_mod(m)
        elif name == "PACKET_OUT":
            self._packet_out(m)
        elif name == "MULTIPART_REQUEST":
            kind = of.multipart_type(m)
            self._later(self.stats_delay, lambda: self._multipart(xid, kind))

    def _flow_mod(self, m: bytes) -> None:
        command, _table, _prio, dst, action = parse_flow_mod(m)
        if command == of.DELETE:                   # delete (all: the tests only delete all)
            self.table.clear()
            self._accepted = 0
            return
        if action[0] == "goto":                    # one table stands for the whole pipeline
            return
        if self.table_limit is not None and dst not in self.table:
            self._accepted += 1
            if self._accepted > self.table_limit:
                if not self.silent_overflow:
                    self._send(of.error_msg(V13, of.xid_of(m), of.OFPET_FLOW_MOD_FAILED, of.OFPFMFC_TABLE_FULL, m[:64]))
                return
        self._later(self.install_delay, lambda: self.table.__setitem__(dst, action))

    def _packet_out(self, m: bytes) -> None:
        po = of.packet_out_fields(m)
        port = next((p for _, p in of.actions(po["actions"])[:1] if p is not None), 0)
        frame = bytes(po["data"])
        if 1 <= port <= len(self._raw):
            self._later(self.packet_out_delay, lambda: self._raw[port - 1].send(frame))

    def _multipart(self, xid: int, kind: int) -> None:
        if kind == of.MP_DESC:
            body = of.desc_body("sdnbench", "scripted switch", "known delays", "0", "fake")
        elif kind == of.MP_AGGREGATE:
            body = of.aggregate_body(0, 0, len(self.table))
        else:                                      # flow, table, port: no entries
            body = b""
        self._send(of.multipart_reply(xid, kind, body))

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
        self._send(of.packet_in13(0, in_port, frame))


class ScriptedTarget:
    """The scripted switch as a ``switch bench`` target: veths into our namespaces, the fake
    switch forwarding between the switch ends."""

    spec = "scripted"

    def __init__(self, **delays: float) -> None:
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
