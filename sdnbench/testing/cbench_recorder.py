"""A scripted OpenFlow 1.0 controller that records what a cbench-like tool sends it.

It does the handshake as POX does (``openflow.of_01``), because where a tool puts its first
packet-ins relative to that handshake decides what a real controller makes of them:

1. HELLO; then FEATURES_REQUEST and a description STATS_REQUEST;
2. on the FEATURES_REPLY: SET_CONFIG, a FLOW_MOD deleting every entry, BARRIER_REQUEST;
3. until the BARRIER_REPLY arrives, packet-ins are ignored (POX raises ConnectionUp only then,
   so its apps never see them); after it, every packet-in is answered with one buffered
   PACKET_OUT flooding it (24 bytes), as a learning switch does for an unknown destination.

Everything the tool sends is kept, in order, per connection (``messages``), so two tools can be
compared message by message: ``record`` runs a tool against it, ``compare`` says what differs
from a vector recorded from cbench itself (``bench/engine/cbench_vector.py`` makes them,
``sdnbench/engine/test_cbench_vector.py`` checks the engine against them).
"""

from __future__ import annotations

import socket
import subprocess
import threading
import time
from pathlib import Path

from . import openflow as of

T = of.TYPES[of.V10]
PACKET_IN = T["PACKET_IN"]


def handshake(xid: int) -> bytes:
    """What POX sends when a switch connects: HELLO, FEATURES_REQUEST, a description STATS_REQUEST."""
    return (of.msg(of.V10, "HELLO", xid) + of.msg(of.V10, "FEATURES_REQUEST", xid + 1)
            + of.msg(of.V10, "STATS_REQUEST", xid + 2, bytes(4)))      # OFPST_DESC, no flags


def on_features(xid: int) -> bytes:
    """POX's answer to the FEATURES_REPLY: SET_CONFIG (miss_send_len 128), a FLOW_MOD deleting
    every entry (all wildcards, out_port NONE: 72 bytes), BARRIER_REQUEST."""
    return (of.set_config(of.V10, xid, 0, 128)
            + of.flow_mod10(xid + 1, of.match10_all(), priority=0, command=of.DELETE)
            + of.msg(of.V10, "BARRIER_REQUEST", xid + 2))


def flood(buffer_id: int, in_port: int, xid: int) -> bytes:
    """A buffered PACKET_OUT with one output action to FLOOD: 24 bytes."""
    return of.packet_out(of.V10, xid, of.output(of.V10, of.FLOOD[of.V10], max_len=0), b"",
                         in_port=in_port, buffer_id=buffer_id)


class Recorder:
    """Listens on 127.0.0.1 (an ephemeral port) until closed; keeps ``limit`` messages a connection."""

    def __init__(self, limit: int = 1000):
        self.limit = limit
        self.messages: list[list[bytes]] = []
        self._lock = threading.Lock()
        self._srv = socket.socket()
        self._srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._srv.bind(("127.0.0.1", 0))
        self._srv.listen(64)
        self.port = self._srv.getsockname()[1]
        self._conns: list[socket.socket] = []
        self._threads: list[threading.Thread] = []
        self.ended: list[threading.Event] = []       # per connection: its end of file was read
        self._closed = False
        t = threading.Thread(target=self._accept, daemon=True)
        t.start()
        self._threads.append(t)

    def __enter__(self) -> "Recorder":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._closed = True
        self._srv.close()
        for c in list(self._conns):
            try:
                c.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            c.close()
        for t in self._threads:
            t.join(timeout=2)

    def _accept(self) -> None:
        while not self._closed:
            try:
                conn, _ = self._srv.accept()
            except OSError:
                return
            with self._lock:
                kept: list[bytes] = []
                ended = threading.Event()
                self.messages.append(kept)
                self.ended.append(ended)
                self._conns.append(conn)
            t = threading.Thread(target=self._serve_until_end, args=(conn, kept, ended), daemon=True)
            t.start()
            self._threads.append(t)

    def _serve_until_end(self, conn: socket.socket, kept: list, ended: threading.Event) -> None:
        try:
            self._serve(conn, kept)
        finally:
            ended.set()

    def _serve(self, conn: socket.socket, kept: list) -> None:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        xid, up = 100, False
        conn.sendall(handshake(xid))
        for msgs in of.reads(conn):
            out = []
            for m in msgs:
                if len(kept) < self.limit:
                    kept.append(m)
                ty = m[1]
                if ty == T["FEATURES_REPLY"]:
                    out.append(on_features(xid + 3))
                elif ty == T["BARRIER_REPLY"]:
                    up = True
                elif ty == T["ECHO_REQUEST"]:
                    out.append(of.echo_reply(m))
                elif ty == PACKET_IN and up:
                    p = of.packet_in(m)
                    out.append(flood(p["buffer_id"], p["in_port"], of.xid_of(m)))
            if out:
                try:
                    conn.sendall(b"".join(out))
                except OSError:
                    return


COUNT = 100
FLAGS = {"latency": ["-s", "1", "-l", "2", "-m", "300", "-M", "10", "-w", "1"],
         "throughput": ["-s", "1", "-l", "2", "-m", "300", "-M", "10", "-w", "1", "-t"]}
VECTORS = Path(__file__).resolve().parents[1] / "engine" / "testdata"


def record(argv: list, mode: str, count: int = COUNT) -> list:
    """The first ``count`` messages the tool ``argv`` sends on its first connection."""
    with Recorder(limit=count) as rec:
        cp = subprocess.run([*argv, "-c", "127.0.0.1", "-p", str(rec.port), *FLAGS[mode]],
                            capture_output=True, text=True, timeout=60)
        # the tool has exited: wait until its first connection's end of file is read (so every
        # message it sent is kept), not a fixed time a starved reader thread may overrun
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and rec.ended and not rec.ended[0].is_set():
            time.sleep(0.01)
        if not rec.messages:
            raise RuntimeError(f"{argv[0]} never connected: {(cp.stdout + cp.stderr).strip()[-300:]}")
        return list(rec.messages[0])


def read_vector(mode: str) -> list:
    return [bytes.fromhex(line) for line in (VECTORS / f"cbench_{mode}.hex").read_text().split()]


# Fields that legitimately differ between cbench and sdnbench, by message type (OpenFlow 1.0):
# (offset, length, why). Everything else must be equal byte for byte.
ALLOWED = {
    17: [(12 + 512, 256, "description stats: sw_desc names the tool (cbench: \"version 0.01\")")],
}


def compare(ours: list, theirs: list) -> list:
    """Lines naming each difference. The packet-ins and the other messages (replies to what the
    controller asked) are compared as two streams, each in order and byte for byte outside
    ``ALLOWED``: where a probe falls between two replies is timing (cbench writes its first
    probes on its first writable poll after the features reply, sdnbench when every switch is
    up), not content."""
    out = []
    for name, keep in (("packet-in", lambda m: m[1] == PACKET_IN), ("reply", lambda m: m[1] != PACKET_IN)):
        a, b = [m for m in ours if keep(m)], [m for m in theirs if keep(m)]
        n = min(len(a), len(b))
        if n < min(10, len(b)):
            out.append(f"{name}s: sdnbench sent {len(a)}, cbench {len(b)}")
        out += [f"{name} {i}: {d}" for i, (x, y) in enumerate(zip(a[:n], b[:n])) if (d := _differ(x, y))]
    return out


def _differ(a: bytes, b: bytes) -> str:
    if a[:2] != b[:2] or len(a) != len(b):
        return f"type {a[1]} length {len(a)}, cbench: type {b[1]} length {len(b)}"
    masked = [(o, n) for o, n, _ in ALLOWED.get(a[1], [])]
    diff = [k for k in range(len(a)) if a[k] != b[k] and not any(o <= k < o + n for o, n in masked)]
    return f"type {a[1]}, {len(a)} bytes: differs at bytes {diff[:12]}" if diff else ""
