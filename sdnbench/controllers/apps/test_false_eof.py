"""The launcher's repair of os-ken's TLS sessions (``false_eof``), against the race it repairs.

A TLS server uses one session as os-ken does: a receive thread reads 8-byte headers with a 5 s
timeout while a send thread writes; the peer, on one thread, sends a 24-byte message, drains for
``PEER_GAP_S`` and sends again. A ``recv`` that returns ``b''`` while the peer is still sending is a
false EOF: os-ken closes the session on it. A plain ``ssl.SSLSocket`` shows it in about one
half-second session in six here (12 of 60); the repaired socket must show none.
"""

from __future__ import annotations

import socket
import ssl
import threading
import time

from sdnbench.controllers.apps.false_eof import TrueEofSSLSocket
from sdnbench.tls import certs

PEER_GAP_S = 0.0001       # the peer sends, then drains for this long


def _contexts(sslsocket_class):
    files = certs.ensure().controller
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(str(files.cert), str(files.key))
    server.sslsocket_class = sslsocket_class
    client = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    client.check_hostname = False
    client.verify_mode = ssl.CERT_NONE
    return server, client


def _pair(server_ctx, client_ctx):
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        raw = socket.create_connection(listener.getsockname())
        accepted = {}
        t = threading.Thread(target=lambda: accepted.update(s=server_ctx.wrap_socket(listener.accept()[0], server_side=True)))
        t.start()
        client = client_ctx.wrap_socket(raw)
        t.join()
    return accepted["s"], client


def _spurious_eof(server_ctx, client_ctx, seconds: float) -> tuple[bool, int]:
    """One session of ``seconds``: whether the server's receive thread read a false EOF, and how
    many messages its send thread wrote."""
    server, client = _pair(server_ctx, client_ctx)
    server.settimeout(5.0)
    stop = time.monotonic() + seconds
    eof = threading.Event()

    def receive():
        while time.monotonic() < stop:
            try:
                if not server.recv(8):
                    if time.monotonic() < stop:      # the peer closes only after the stop
                        eof.set()
                    return
            except (socket.timeout, ssl.SSLError):
                continue

    def peer():
        client.settimeout(PEER_GAP_S)
        while time.monotonic() < stop + 0.3:
            if time.monotonic() < stop:
                client.settimeout(None)
                client.sendall(b"y" * 24)
                client.settimeout(PEER_GAP_S)
            try:
                while client.recv(65536):
                    pass
            except (socket.timeout, ssl.SSLWantReadError):
                pass
        client.close()                               # a true EOF, after the stop: ends receive()

    threads = [threading.Thread(target=receive), threading.Thread(target=peer)]
    for t in threads:
        t.start()
    sent = 0
    while time.monotonic() < stop and not eof.is_set():
        server.sendall(b"x" * 100)
        sent += 1
    for t in threads:
        t.join()
    server.close()
    return eof.is_set(), sent


def test_a_plain_session_shared_by_two_threads_reads_a_false_eof():
    """The control: the harness provokes the race on the socket os-ken uses unrepaired."""
    contexts = _contexts(ssl.SSLSocket)
    sessions, give_up = 0, time.monotonic() + 60     # about 1 session in 6 shows it here
    while time.monotonic() < give_up:
        sessions += 1
        if _spurious_eof(*contexts, 0.5)[0]:
            return
    raise AssertionError(f"no false EOF in {sessions} sessions: the harness no longer provokes the race")


def test_a_repaired_session_reads_no_false_eof_and_still_sends():
    contexts = _contexts(TrueEofSSLSocket)
    results = [_spurious_eof(*contexts, 0.5) for _ in range(8)]
    assert not any(eof for eof, _ in results), results
    assert all(sent > 100 for _, sent in results), results
