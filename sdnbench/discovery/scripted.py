"""A scripted LLDP controller for known-answer tests (OpenFlow 1.0, threads, 127.0.0.1).

Southbound: it answers echo, learns each switch's dpid and ports from FEATURES_REPLY, and every
``probe_ms`` sends one LLDP-typed PACKET_OUT per port carrying (dpid, port) — except out of
``never_probe`` (dpid, port); a PACKET_IN of such a frame is a link direction learned.
Northbound: a fake os-ken-style ``/v1/links`` that shows the links learned, but only once
``reveal_s`` has passed since the first switch connected (a known discovery delay), and never
``hide`` (a link direction it "never learns"); a direction in ``forget`` leaves the view for good
``forget_s`` after the first connection (a view that loses links again, as os-ken's ages them).
With ``react_ms``, a PORT_STATUS saying a port went down is answered ``react_ms`` later by a
FLOW_MOD (ADD, drop what arrives on that port): a known southbound reaction time.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from typing import Optional

from ..northbound.fake_server import FakeApi
from ..northbound.osken import PATH

LLDP = 0x88CC


def _msg(t: int, xid: int, body: bytes = b"") -> bytes:
    return struct.pack("!BBHI", 1, t, 8 + len(body), xid) + body


def _drop_in_port(port: int) -> bytes:
    """OpenFlow 1.0 FLOW_MOD ADD: match in_port only, no actions (drop)."""
    match = struct.pack("!IH", 0x3FFFFE, port).ljust(40, b"\0")
    return _msg(14, 9, match + struct.pack("!QHHHHIHH", 0, 0, 0, 0, 100, 0xFFFFFFFF, 0xFFFF, 0))


def _probe(dpid: int, port: int) -> bytes:
    frame = bytes([0x01, 0x80, 0xC2, 0, 0, 0x0E, 2, 0, 0, 0, 0, 1]) + struct.pack("!HQH", LLDP, dpid, port)
    frame = frame.ljust(60, b"\0")
    action = struct.pack("!HHHH", 0, 8, port, 0)
    return _msg(13, 7, struct.pack("!IHH", 0xFFFFFFFF, 0xFFFF, len(action)) + action + frame)


class LldpController:
    def __init__(self, probe_ms: int = 50, reveal_s: float = 0.0, never_probe=None, hide=(),
                 react_ms: Optional[int] = None, forget=(), forget_s: float = 1.0):
        self.probe_ms, self.reveal_s, self.react_ms = probe_ms, reveal_s, react_ms
        self.never_probe, self.hide = never_probe, set(hide)
        self.forget, self.forget_s = set(forget), forget_s
        self.first_connect: Optional[float] = None
        self.learned: set = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._sock = socket.create_server(("127.0.0.1", 0))
        self._sock.settimeout(0.2)
        self.api = FakeApi({PATH: self._links})
        self._threads: list = []

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self._sock.getsockname()[1]}"

    def _links(self):
        with self._lock:
            age = None if self.first_connect is None else time.monotonic() - self.first_connect
            hidden = self.hide | (self.forget if age is not None and age >= self.forget_s else set())
            links = sorted(self.learned - hidden) if age is not None and age >= self.reveal_s else []
        return 200, [{"src": {"dpid": a, "port_no": pa}, "dst": {"dpid": b, "port_no": pb}} for (a, pa), (b, pb) in links]

    def __enter__(self) -> "LldpController":
        self.api.__enter__()
        t = threading.Thread(target=self._accept, daemon=True)
        t.start()
        self._threads.append(t)
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(timeout=5)
        self._sock.close()
        self.api.__exit__()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except (socket.timeout, OSError):
                continue
            with self._lock:
                if self.first_connect is None:
                    self.first_connect = time.monotonic()
            t = threading.Thread(target=self._serve, args=(conn,), daemon=True)
            t.start()
            self._threads.append(t)

    def _serve(self, s: socket.socket) -> None:
        s.settimeout(0.01)
        try:
            s.sendall(_msg(0, 1) + _msg(5, 2))
            self._serve_loop(s)
        except OSError:
            pass                                 # the switch went away
        finally:
            s.close()

    def _serve_loop(self, s: socket.socket) -> None:
        buf, dpid, ports, next_probe, due = b"", None, [], 0.0, []
        try:
            while not self._stop.is_set():
                while due and time.monotonic() >= due[0][0]:
                    s.sendall(due.pop(0)[1])
                if dpid is not None and time.monotonic() >= next_probe:
                    s.sendall(b"".join(_probe(dpid, p) for p in ports if (dpid, p) != self.never_probe))
                    next_probe = time.monotonic() + self.probe_ms / 1000
                try:
                    data = s.recv(65536)
                    if not data:
                        return
                    buf += data
                except socket.timeout:
                    continue
                while len(buf) >= 8:
                    n = struct.unpack("!H", buf[2:4])[0]
                    if len(buf) < n:
                        break
                    m, buf = buf[:n], buf[n:]
                    if m[1] == 2:
                        s.sendall(_msg(3, struct.unpack("!I", m[4:8])[0], m[8:]))
                    elif m[1] == 6:
                        dpid = struct.unpack("!Q", m[8:16])[0]
                        ports = [struct.unpack("!H", m[i:i + 2])[0] for i in range(32, len(m), 48)]
                        ports = [p for p in ports if p < 0xFF00]
                    elif m[1] == 12 and self.react_ms is not None and len(m) >= 64 and \
                            struct.unpack("!I", m[44:48])[0] & 1:       # port status: state LINK_DOWN
                        due.append((time.monotonic() + self.react_ms / 1000,
                                    _drop_in_port(struct.unpack("!H", m[16:18])[0])))
                    elif m[1] == 10 and len(m) >= 18 + 24 and struct.unpack("!H", m[30:32])[0] == LLDP:
                        in_port = struct.unpack("!H", m[14:16])[0]
                        src, src_port = struct.unpack("!QH", m[32:42])
                        with self._lock:
                            self.learned.add(((src, src_port), (dpid, in_port)))
        finally:
            # a switch that left takes its links with it (as os-ken's switch-leave does)
            with self._lock:
                self.learned = {l for l in self.learned if dpid not in (l[0][0], l[1][0])}
