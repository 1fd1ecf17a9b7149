"""A scripted OpenFlow 1.3 controller for the failover known answer (RFC 8456 §5.4.1), run as its
own process (``sdnbench controller failover`` kills the master by PID):

    python -m sdnbench.testing.peers.takeover_controller --port P --role master|slave --peer HB [--delay-ms D]

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
import threading
import time

from sdnbench.testing import openflow as of

V13 = of.V13


def table_miss() -> bytes:
    return of.flow_mod13(0, of.ADD, 0, 0, of.apply_actions(of.output(V13, of.CONTROLLER[V13])),
                         out_port=of.ANY, out_group=of.ANY)


def packet_out(in_port: int, data: bytes) -> bytes:
    return of.packet_out(V13, 0, of.output(V13, of.FLOOD[V13], 0), data, in_port=in_port)


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
        self.send(conn, of.role_request(0, of.ROLE_MASTER if self.master else of.ROLE_SLAVE, self.generation))
        if self.master:
            self.send(conn, table_miss())

    def serve(self, conn) -> None:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.send(conn, of.hello(V13, 0) + of.msg(V13, "FEATURES_REQUEST", 1))
        for msgs in of.reads(conn):
            for m in msgs:
                self.on_message(conn, m)

    def on_message(self, conn, m: bytes) -> None:
        kind = of.name_of(m)
        if kind == "ECHO_REQUEST":
            self.send(conn, of.echo_reply(m))
        elif kind == "FEATURES_REPLY":
            with self.lock:
                self.conns.append(conn)
            self.claim(conn)
        elif kind == "PACKET_IN" and self.master:
            pi = of.packet_in(m)
            self.send(conn, packet_out(pi["in_port"] or 0, pi["frame"]))

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
