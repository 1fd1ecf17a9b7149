"""A scripted OpenFlow 1.3 controller for the failover known answer (RFC 8456 §5.4.1), run as its
own process (``sdnbench controller failover`` kills the master by PID):

    python -m sdnbench.rfc8456.takeover_controller --port P --role master|slave --peer HB [--delay-ms D]

It forwards as a hub: the master installs a table-miss entry and answers every packet-in with a
packet-out to FLOOD, so every frame crosses the controller (a stream has a gap exactly as long
as no master answers). The master asks each switch for MASTER (generation 1) and holds the
connections made to loopback port HB; the slave asks for SLAVE (generation 1), connects to HB
and, when that connection ends (the master died), waits the known takeover delay D, then asks
every switch for MASTER (generation 2) and installs the table-miss entry.
"""

from __future__ import annotations

import argparse
import socket
import struct
import threading
import time

OFP13 = 4
ROLE_MASTER, ROLE_SLAVE = 2, 3
FLOOD, CONTROLLER, NO_BUFFER = 0xFFFFFFFB, 0xFFFFFFFD, 0xFFFFFFFF


def msg(ty: int, body: bytes = b"", xid: int = 0) -> bytes:
    return struct.pack("!BBHI", OFP13, ty, 8 + len(body), xid) + body


def role_request(role: int, generation: int) -> bytes:
    return msg(24, struct.pack("!I4xQ", role, generation))


def table_miss() -> bytes:
    body = struct.pack("!QQBBHHHIIIH2x", 0, 0, 0, 0, 0, 0, 0, NO_BUFFER, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    body += struct.pack("!HH4x", 1, 4)                                   # empty OXM match
    body += struct.pack("!HH4x", 4, 24) + struct.pack("!HHIH6x", 0, 16, CONTROLLER, 0xFFFF)
    return msg(14, body)


def packet_out(in_port: int, data: bytes) -> bytes:
    action = struct.pack("!HHIH6x", 0, 16, FLOOD, 0)
    return msg(13, struct.pack("!IIH6x", NO_BUFFER, in_port, len(action)) + action + data)


def packet_in_port_and_data(body: bytes) -> tuple:
    """(in_port, frame) of an OF1.3 packet-in body."""
    match_len = struct.unpack("!H", body[18:20])[0]
    in_port = 0
    at, end = 20, 16 + match_len
    while at + 4 <= end:
        cls, field, n = struct.unpack("!HBB", body[at:at + 4])
        if cls == 0x8000 and field >> 1 == 0:
            in_port = struct.unpack("!I", body[at + 4:at + 8])[0]
        at += 4 + n
    return in_port, body[16 + (match_len + 7) // 8 * 8 + 2:]


class Takeover:
    def __init__(self, master: bool, peer: int, delay_s: float):
        self.master, self.peer, self.delay_s = master, peer, delay_s
        self.generation = 1
        self.conns: list = []
        self.lock = threading.Lock()

    def send(self, conn, data: bytes) -> None:
        with self.lock:
            try:
                conn.sendall(data)
            except OSError:
                pass

    def claim(self, conn) -> None:
        self.send(conn, role_request(ROLE_MASTER if self.master else ROLE_SLAVE, self.generation))
        if self.master:
            self.send(conn, table_miss())

    def serve(self, conn) -> None:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.send(conn, msg(0) + msg(5, xid=1))
        buf = b""
        while True:
            try:
                chunk = conn.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            buf += chunk
            while len(buf) >= 8 and len(buf) >= struct.unpack("!H", buf[2:4])[0]:
                n = struct.unpack("!H", buf[2:4])[0]
                m, buf = buf[:n], buf[n:]
                self.on_message(conn, m[1], struct.unpack("!I", m[4:8])[0], m[8:])

    def on_message(self, conn, ty: int, xid: int, body: bytes) -> None:
        if ty == 2:
            self.send(conn, msg(3, body, xid))
        elif ty == 6:
            with self.lock:
                self.conns.append(conn)
            self.claim(conn)
        elif ty == 10 and self.master:
            in_port, data = packet_in_port_and_data(body)
            self.send(conn, packet_out(in_port, data))

    def listen_peer(self) -> None:
        srv = socket.socket()
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind(("127.0.0.1", self.peer))
        srv.listen(8)
        held = []
        while True:
            held.append(srv.accept()[0])

    def watch_peer(self) -> None:
        while True:
            try:
                s = socket.create_connection(("127.0.0.1", self.peer), timeout=1)
                break
            except OSError:
                time.sleep(0.05)
        s.settimeout(None)
        try:
            while s.recv(64):
                pass
        except OSError:
            pass
        time.sleep(self.delay_s)
        self.master = True
        self.generation += 1
        with self.lock:
            conns = list(self.conns)
        for c in conns:
            self.claim(c)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--role", choices=["master", "slave"], required=True)
    p.add_argument("--peer", type=int, required=True, help="loopback port of the heartbeat")
    p.add_argument("--delay-ms", type=float, default=0.0, help="slave: wait this long before taking over")
    a = p.parse_args(argv)
    t = Takeover(a.role == "master", a.peer, a.delay_ms / 1000)
    threading.Thread(target=t.listen_peer if t.master else t.watch_peer, daemon=True).start()
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", a.port))
    srv.listen(64)
    while True:
        conn, _ = srv.accept()
        threading.Thread(target=t.serve, args=(conn,), daemon=True).start()


if __name__ == "__main__":
    main()
