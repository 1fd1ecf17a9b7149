"""The HELLO probe: header encoding, and what counts as ready against real sockets on loopback."""

import socket
import threading

from sdnbench.controllers import ofhello


def test_hello_bytes():
    assert ofhello.hello(4, xid=7) == bytes([4, 0, 0, 8, 0, 0, 0, 7])
    assert ofhello.parse_header(ofhello.hello(1, xid=9)) == (1, 0, 8, 9)


def test_parse_header_rejects_short_and_impossible():
    assert ofhello.parse_header(b"\x04\x00\x00") is None
    assert ofhello.parse_header(bytes([4, 0, 0, 4, 0, 0, 0, 0])) is None


def _server(reply: bytes):
    """A one-shot loopback server that sends ``reply`` and closes; returns (port, thread)."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)

    def serve():
        conn, _ = srv.accept()
        with conn:
            conn.recv(8)
            conn.sendall(reply)
        srv.close()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    return srv.getsockname()[1], t


def test_probe_accepts_a_hello():
    port, t = _server(ofhello.hello(4))
    assert ofhello.probe("127.0.0.1", port, 4) == 4
    t.join(5)


def test_probe_rejects_other_messages_and_silence():
    port, t = _server(bytes([4, 5, 0, 8, 0, 0, 0, 1]))      # FEATURES_REQUEST, not HELLO
    assert ofhello.probe("127.0.0.1", port, 4) is None
    t.join(5)
    port, t = _server(b"")                                  # accepts, then closes
    assert ofhello.probe("127.0.0.1", port, 4) is None
    t.join(5)


def test_probe_of_a_closed_port_is_not_ready():
    port = ofhello.free_port()
    assert ofhello.probe("127.0.0.1", port, 4, timeout=0.5) is None
    assert not ofhello.accepts("127.0.0.1", port, timeout=0.5)
