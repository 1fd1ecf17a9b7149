"""The TLS tap against real TLS on both sides (Python's ssl as the controller and the switch,
the certificates ``sdnbench certs`` makes): what a switch sends over TLS crosses the middle hop
in plain, where tcpdump reads it as OpenFlow; the controller's answer comes back; a switch whose
certificate the controller's CA did not sign is refused by the tap as the controller would."""

import socket
import ssl
import threading
import time

import pytest

from sdnbench import openflow as of
from sdnbench.differential.capture import Capture, messages
from sdnbench.differential.tlstap import TlsTap
from sdnbench.tls import certs

HELLO_13 = of.hello(of.V13, xid=7)


def _echo_controller(files):
    """A TLS server that answers every read with the same bytes (the controller's role)."""
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH, cafile=str(files.ca))
    ctx.load_cert_chain(str(files.cert), str(files.key))
    ctx.verify_mode = ssl.CERT_REQUIRED
    srv = socket.create_server(("127.0.0.1", 0))
    seen: list = []

    def serve():
        try:
            conn, _ = srv.accept()
        except OSError:          # closed with no one come (the tap refused the switch first)
            return
        with ctx.wrap_socket(conn, server_side=True) as s:
            seen.append(s.getpeercert()["subject"])
            while data := s.recv(4096):
                s.sendall(data)

    threading.Thread(target=serve, daemon=True).start()
    return srv, seen


def _switch(files, port: int) -> ssl.SSLSocket:
    ctx = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=str(files.ca))
    ctx.load_cert_chain(str(files.cert), str(files.key))
    return ctx.wrap_socket(socket.create_connection(("127.0.0.1", port), 5), server_hostname="127.0.0.1")


@pytest.fixture(scope="module")
def cset(tmp_path_factory):
    return certs.ensure(tmp_path_factory.mktemp("certs"))


def test_a_hello_over_tls_is_read_in_plain_on_the_middle_hop_and_answered(cset, tmp_path):
    srv, seen = _echo_controller(cset.controller)
    with srv, TlsTap(srv.getsockname(), cset.controller, cset.switch) as tap:
        pcap = tmp_path / "tap.pcap"
        with Capture(tap.plain_port, pcap):
            with _switch(cset.switch, tap.port) as s:
                s.sendall(HELLO_13)
                got = b""
                while len(got) < len(HELLO_13):
                    got += s.recv(4096)
        assert got == HELLO_13 and tap.sessions == 1 and tap.errors == []
    # the controller saw the switch certificate (the tap's identity towards it)
    assert any(("commonName", certs.SWITCH_CN) in rdn for rdn in seen[0])
    msgs = messages(pcap.read_bytes(), tap.plain_port, [])
    assert [(m.to_controller, m.raw) for m in msgs] == [(True, HELLO_13), (False, HELLO_13)]


def test_a_switch_the_ca_did_not_sign_is_refused(cset, tmp_path):
    other = certs.ensure(tmp_path / "other")          # another CA, another switch certificate
    srv, _ = _echo_controller(cset.controller)
    with srv, TlsTap(srv.getsockname(), cset.controller, cset.switch) as tap:
        bad = other.switch.__class__(ca=cset.switch.ca, cert=other.switch.cert, key=other.switch.key)
        try:
            with _switch(bad, tap.port) as s:
                s.sendall(HELLO_13)
                got = s.recv(4096)       # TLS 1.3: the refusal comes on the first read, as an alert or EOF
        except (ssl.SSLError, ConnectionError) as e:
            got = e
        assert got == b"" or isinstance(got, Exception), got
        deadline = time.monotonic() + 5          # the tap notes it in its own thread, maybe after the client saw it
        while not tap.errors and time.monotonic() < deadline:
            time.sleep(0.02)
        assert tap.sessions == 0 and any("certificate" in e for e in tap.errors), tap.errors
