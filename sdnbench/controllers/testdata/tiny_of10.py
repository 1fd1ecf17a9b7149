#!/usr/bin/env python3
"""A tiny OpenFlow 1.0 learning controller, standard library only: the test fixture for ``cmd:``.
It stands in for a controller from outside, so it encodes its few messages itself rather than
with ``sdnbench.testing.openflow``; ``testing/test_openflow.py`` checks them against os-ken's bytes.

    python3 tiny_of10.py PORT [HOST]

Per switch it answers HELLO, ECHO and asks for features; on a packet-in it learns the source
MAC's port, and for a known destination installs a flow (in_port, dl_dst -> output) and sends the
packet out there; an unknown destination is flooded. It prints one line per switch that connects,
so its log shows what it did. SIGTERM ends it with exit status 0.

``TINY_OF10_DELAY_US`` (environment) makes it spend that long per packet-in: a known, scripted
slowdown for history and regression demonstrations.
"""

import os
import selectors
import signal
import socket
import struct
import sys
import time

HDR = struct.Struct("!BBHI")
HELLO, ECHO_REQUEST, ECHO_REPLY, FEATURES_REQUEST, FEATURES_REPLY = 0, 2, 3, 5, 6
PACKET_IN, PACKET_OUT, FLOW_MOD = 10, 13, 14
FLOOD, NO_BUFFER = 0xFFFB, 0xFFFFFFFF
DELAY_S = float(os.environ.get("TINY_OF10_DELAY_US") or 0) / 1e6
WILDCARDS = 0x3FFFFF & ~(1 | 1 << 3)          # match in_port and dl_dst only
MATCH = struct.Struct("!IH6s6sHBxHBBxxIIHH")


def msg(type_, xid, body=b""):
    return HDR.pack(1, type_, HDR.size + len(body), xid) + body


def output(port):
    return struct.pack("!HHHH", 0, 8, port, 0xFFFF)


def flow_mod(xid, in_port, dst, out):
    """ADD (in_port, dl_dst) -> output ``out``, priority 100, no buffer."""
    match = MATCH.pack(WILDCARDS, in_port, b"\0" * 6, dst, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    return msg(FLOW_MOD, xid, match + struct.pack("!QHHHHIHH", 0, 0, 0, 0, 100, NO_BUFFER, 0xFFFF, 0) + output(out))


def packet_out(xid, buffer_id, in_port, out, data):
    action = output(out)
    return msg(PACKET_OUT, xid, struct.pack("!IHH", buffer_id, in_port, len(action)) + action + data)


class Switch:
    def __init__(self, sock):
        self.sock, self.buf, self.macs = sock, b"", {}
        sock.sendall(msg(HELLO, 1) + msg(FEATURES_REQUEST, 2))

    def feed(self, data):
        self.buf += data
        while len(self.buf) >= HDR.size:
            _, type_, length, xid = HDR.unpack_from(self.buf)
            if length < HDR.size or len(self.buf) < length:
                return
            body, self.buf = self.buf[HDR.size:length], self.buf[length:]
            self.handle(type_, xid, body)

    def handle(self, type_, xid, body):
        if type_ == ECHO_REQUEST:
            self.sock.sendall(msg(ECHO_REPLY, xid, body))
        elif type_ == FEATURES_REPLY:
            print(f"switch {body[:8].hex()} connected", flush=True)
        elif type_ == PACKET_IN:
            self.packet_in(xid, body)

    def packet_in(self, xid, body):
        if DELAY_S:
            deadline = time.perf_counter() + DELAY_S
            while time.perf_counter() < deadline:        # busy: the cost is CPU, as in a real app
                pass
        buffer_id, _total, in_port, _reason = struct.unpack_from("!IHHB", body)
        frame = body[10:]
        if len(frame) < 14:
            return
        dst, src = frame[0:6], frame[6:12]
        self.macs[src] = in_port
        out = self.macs.get(dst)
        if out is not None and out != in_port:
            self.sock.sendall(flow_mod(xid, in_port, dst, out))
        data = frame if buffer_id == NO_BUFFER else b""
        self.sock.sendall(packet_out(xid, buffer_id, in_port, FLOOD if out is None else out, data))


def main():
    port = int(sys.argv[1])
    host = sys.argv[2] if len(sys.argv) > 2 else "127.0.0.1"
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    sel = selectors.DefaultSelector()
    listener = socket.create_server((host, port), backlog=128)
    sel.register(listener, selectors.EVENT_READ)
    print(f"tiny_of10 listening on {host}:{port}", flush=True)
    while True:
        for key, _ in sel.select():
            if key.fileobj is listener:
                conn, _ = listener.accept()
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                sel.register(conn, selectors.EVENT_READ, Switch(conn))
                continue
            try:
                data = key.fileobj.recv(65536)
            except OSError:
                data = b""
            if not data:
                sel.unregister(key.fileobj)
                key.fileobj.close()
                continue
            try:
                key.data.feed(data)
            except OSError:
                sel.unregister(key.fileobj)
                key.fileobj.close()


if __name__ == "__main__":
    main()
