"""A scripted OpenFlow 1.3 controller that discovers links as a Java controller does (issue 27,
item 1): a known answer for the emulated switch against Open vSwitch.

On each switch: HELLO (1.3 only), FEATURES_REQUEST, SET_CONFIG (miss_send_len 0xffff), a
port-description request, then a FLOW_MOD deleting every flow of every table, then one
priority-0 table-miss entry ``actions=CONTROLLER:65535`` (apply-actions) per table, then a barrier.
Which tables, as Floodlight decides when the table features name no table (``OFSwitchHandshakeHandler``
``addDefaultFlows``): table ids ``t < n_tables`` with ``t < min(max_table, n_tables - 1)``; so
0, 1, 2, 3 on Open vSwitch (254 tables, ``max_table`` 4) and none at all on a switch announcing
one table. That is the known answer of issue 27: with no table-miss entry a 1.3 switch drops
the probes, and the controller learns nothing. Once the barrier is answered it sends, every ``probe_ms``, one
LLDP PACKET_OUT (in_port CONTROLLER, unbuffered) out of every port, carrying (dpid, port).

A PACKET_IN of such a frame is a link direction learned: ``learned`` holds
((src dpid, src port), (dpid, in_port)). ``errors`` counts the OpenFlow errors each switch sent
(type, code), ``n_tables`` what each announced, ``tables`` where it put table-miss entries, ``reasons``/``table_ids`` the packet-in reasons and
table ids of the LLDP packet-ins (a table-miss entry's packet-in says NO_MATCH, table 0).
Threads, 127.0.0.1 only; a known answer needs nothing else.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections import Counter

LLDP = 0x88CC
V13 = 4
PORT_CONTROLLER = 0xFFFFFFFD
NO_BUFFER = 0xFFFFFFFF
MAX_PORT = 0xFFFFFF00


def msg(t: int, xid: int, body: bytes = b"") -> bytes:
    return struct.pack("!BBHI", V13, t, 8 + len(body), xid) + body


def empty_match() -> bytes:
    return struct.pack("!HH", 1, 4) + b"\0" * 4          # OFPMT_OXM, no fields, padded to 8


def output(port: int, max_len: int = 0xFFFF) -> bytes:
    return struct.pack("!HHIH6x", 0, 16, port, max_len)


def flow_mod(command: int, table: int, priority: int = 0, instructions: bytes = b"", xid: int = 0) -> bytes:
    body = struct.pack("!QQBBHHHIIIH2x", 0, 0, table, command, 0, 0, priority, NO_BUFFER,
                       0xFFFFFFFF, 0xFFFFFFFF, 0)
    return msg(14, xid, body + empty_match() + instructions)


def apply_actions(actions: bytes) -> bytes:
    return struct.pack("!HH4x", 4, 8 + len(actions)) + actions


def table_miss(table: int) -> bytes:
    """FLOW_MOD ADD, priority 0, match all, apply-actions output CONTROLLER max_len 0xffff."""
    return flow_mod(0, table, 0, apply_actions(output(PORT_CONTROLLER)), xid=100 + table)


def delete_all() -> bytes:
    return flow_mod(3, 0xFF, xid=99)


def lldp_frame(dpid: int, port: int) -> bytes:
    frame = bytes([0x01, 0x80, 0xC2, 0, 0, 0x0E, 2, 0, 0, 0, 0, 1]) + struct.pack("!HQI", LLDP, dpid, port)
    return frame.ljust(60, b"\0")


def packet_out(dpid: int, port: int) -> bytes:
    a = output(port, 0)
    return msg(13, 7, struct.pack("!IIH6x", NO_BUFFER, PORT_CONTROLLER, len(a)) + a + lldp_frame(dpid, port))


def packet_in_fields(m: bytes) -> tuple:
    """(buffer_id, total_len, reason, table_id, in_port, frame) of a 1.3 PACKET_IN."""
    buffer_id, total_len, reason, table = struct.unpack("!IHBB", m[8:16])
    mlen = struct.unpack("!H", m[26:28])[0]
    in_port, i = None, 28
    while i + 4 <= 24 + mlen:
        oclass, field, n = struct.unpack("!HBB", m[i:i + 4])
        if oclass == 0x8000 and field >> 1 == 0:
            in_port = struct.unpack("!I", m[i + 4:i + 8])[0]
        i += 4 + n
    frame = m[24 + (mlen + 7) // 8 * 8 + 2:]
    return buffer_id, total_len, reason, table, in_port, frame


class TableMissController:
    def __init__(self, max_table: int = 4, probe_ms: int = 100, port: int = 0):
        self.max_table, self.probe_ms = max_table, probe_ms
        self.tables: dict = {}
        self.learned: set = set()
        self.errors: Counter = Counter()
        self.n_tables: dict = {}
        self.reasons: Counter = Counter()
        self.table_ids: Counter = Counter()
        self.probes_sent = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._sock = socket.create_server(("127.0.0.1", port))
        self._sock.settimeout(0.2)
        self._threads: list = []

    @property
    def port(self) -> int:
        return self._sock.getsockname()[1]

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def wait_learned(self, n: int, timeout_s: float) -> bool:
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            with self._lock:
                if len(self.learned) >= n:
                    return True
            time.sleep(0.05)
        return False

    def __enter__(self) -> "TableMissController":
        t = threading.Thread(target=self._accept, daemon=True)
        t.start()
        self._threads.append(t)
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(timeout=5)
        self._sock.close()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except (socket.timeout, OSError):
                continue
            t = threading.Thread(target=self._serve, args=(conn,), daemon=True)
            t.start()
            self._threads.append(t)

    def _serve(self, s: socket.socket) -> None:
        s.settimeout(0.01)
        try:
            s.sendall(msg(0, 1) + msg(5, 2))
            self._loop(s)
        except OSError:
            pass
        finally:
            s.close()

    def miss_tables(self, n_tables: int) -> list:
        return [t for t in range(n_tables) if t < min(self.max_table, n_tables - 1)]

    def _setup(self, s: socket.socket, dpid: int, n_tables: int) -> None:
        tables = self.miss_tables(n_tables)
        with self._lock:
            self.tables[dpid] = tables
        s.sendall(msg(9, 3, struct.pack("!HH", 0, 0xFFFF))           # SET_CONFIG
                  + msg(18, 4, struct.pack("!HH4x", 13, 0))            # PORT_DESC request
                  + delete_all() + b"".join(table_miss(t) for t in tables)
                  + msg(20, 5))                                        # BARRIER_REQUEST

    def _loop(self, s: socket.socket) -> None:
        buf, dpid, ports, ready, next_probe = b"", None, [], False, 0.0
        while not self._stop.is_set():
            if ready and ports and time.monotonic() >= next_probe:
                s.sendall(b"".join(packet_out(dpid, p) for p in ports))
                with self._lock:
                    self.probes_sent += len(ports)
                next_probe = time.monotonic() + self.probe_ms / 1000
            try:
                data = s.recv(65536)
                if not data:
                    return
                buf += data
            except socket.timeout:
                continue
            while len(buf) >= 8 and len(buf) >= struct.unpack("!H", buf[2:4])[0]:
                n = struct.unpack("!H", buf[2:4])[0]
                m, buf = buf[:n], buf[n:]
                t = m[1]
                if t == 2:                                             # ECHO_REQUEST
                    s.sendall(msg(3, struct.unpack("!I", m[4:8])[0], m[8:]))
                elif t == 6:                                           # FEATURES_REPLY
                    dpid = struct.unpack("!Q", m[8:16])[0]
                    with self._lock:
                        self.n_tables[dpid] = m[20]
                    self._setup(s, dpid, m[20])
                elif t == 19 and struct.unpack("!H", m[8:10])[0] == 13:   # PORT_DESC reply
                    ports += [p for p in (struct.unpack("!I", m[i:i + 4])[0] for i in range(16, len(m), 64)) if p < MAX_PORT]
                elif t == 21:                                          # BARRIER_REPLY
                    ready = True
                elif t == 1:                                           # ERROR
                    with self._lock:
                        self.errors[struct.unpack("!HH", m[8:12])] += 1
                elif t == 10:
                    self._packet_in(dpid, m)

    def _packet_in(self, dpid, m: bytes) -> None:
        _, _, reason, table, in_port, frame = packet_in_fields(m)
        if len(frame) < 26 or struct.unpack("!H", frame[12:14])[0] != LLDP:
            return
        src, src_port = struct.unpack("!QI", frame[14:26])
        with self._lock:
            self.learned.add(((src, src_port), (dpid, in_port)))
            self.reasons[reason] += 1
            self.table_ids[table] += 1


# As a controller of its own (the conformance harness runs it as a ``cmd:`` controller):
#     python -m sdnbench.conformance.tablemiss PORT
SPEC = ("cmd:{python} -m sdnbench.conformance.tablemiss {{port}};of=1.3;name=tablemiss;cwd={root}")


def spec() -> str:
    import sys
    from pathlib import Path
    return SPEC.format(python=sys.executable, root=Path(__file__).resolve().parents[2])


if __name__ == "__main__":
    import signal
    import sys
    with TableMissController(port=int(sys.argv[1])) as _c:
        signal.sigwait({signal.SIGTERM, signal.SIGINT})
