"""A scripted OpenFlow controller whose TLS handshake takes a known time (the known answer of
``controller tls-cost``): one thread accepts and, when the client's first byte is a TLS record
(0x16, not an OpenFlow version), sleeps DELAY_MS before the handshake, so N sessions cannot be set up faster than N x delay; over TCP nothing waits. Each
session then gets HELLO and FEATURES_REQUEST, its echo requests are answered, its packet-ins
are answered with a flow-mod naming their buffer id (as the responder does).

    python3 slow_tls_peer.py PORT DELAY_MS CA CERT KEY

It speaks TCP or TLS as the client does, so one command line serves a spec and its ``;tls`` twin
(``cmd:`` fills {tls_ca}/... only on TLS: the files are named as paths).
"""

from __future__ import annotations

import socket
import ssl
import struct
import sys
import threading
import time


def _serve(s) -> None:
    s.sendall(bytes([4, 0, 0, 8, 0, 0, 0, 1]) + bytes([4, 5, 0, 8, 0, 0, 0, 2]))
    buf = b""
    try:
        while True:
            got = s.recv(65536)
            if not got:
                return
            buf += got
            while len(buf) >= 8:
                n = struct.unpack("!H", buf[2:4])[0]
                if n < 8 or len(buf) < n:
                    break
                m, buf = buf[:n], buf[n:]
                if m[1] == 2:                                     # ECHO_REQUEST
                    s.sendall(m[:1] + b"\x03" + m[2:])
                elif m[1] == 10 and len(m) >= 12:                 # PACKET_IN: a flow-mod, its buffer id
                    fm = bytearray(56)
                    fm[0:4] = bytes([4, 14, 0, 56])
                    fm[4:8] = m[4:8]
                    fm[30:32] = b"\x80\x00"                       # priority (ADD, table 0)
                    fm[32:36] = m[8:12]                           # buffer_id
                    fm[36:40] = b"\xff\xff\xff\xff"               # out_port ANY
                    fm[40:44] = b"\xff\xff\xff\xff"               # out_group ANY
                    fm[48:56] = bytes([0, 1, 0, 4, 0, 0, 0, 0])   # an empty OXM match
                    s.sendall(bytes(fm))
    except OSError:
        return


def main() -> None:
    port, delay = int(sys.argv[1]), float(sys.argv[2]) / 1000
    ca, cert, key = sys.argv[3:6]
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    ctx.load_verify_locations(ca)
    ctx.verify_mode = ssl.CERT_REQUIRED
    ls = socket.create_server(("127.0.0.1", port), backlog=1024)
    while True:
        c, _ = ls.accept()
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            first = c.recv(1, socket.MSG_PEEK)
        except OSError:
            first = b""
        if first == b"\x16":                                    # a TLS handshake record
            time.sleep(delay)
            try:
                c = ctx.wrap_socket(c, server_side=True)
            except (ssl.SSLError, OSError):
                c.close()
                continue
        threading.Thread(target=_serve, args=(c,), daemon=True).start()


if __name__ == "__main__":
    main()
