"""Version negotiation for the robustness and dos suites (version.py), with HELLOs from real
sockets: a controller that answers only OpenFlow 1.0 (as POX does) and one that answers 1.3."""

import socket
import struct
import threading

import pytest

from sdnbench.errors import UserError
from sdnbench.robustness.version import needs, session_version


def hello_server(version: int):
    """A listener that answers every connection's first 8 bytes with a HELLO of ``version``."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)

    def serve():
        while True:
            try:
                c, _ = srv.accept()
            except OSError:
                return
            with c:
                c.recv(8)
                c.sendall(struct.pack("!BBHI", version, 0, 8, 1))

    threading.Thread(target=serve, daemon=True).start()
    return srv


@pytest.mark.parametrize("wire,want", [(1, "1.0"), (4, "1.3"), (6, "1.3")])
def test_without_of_the_controllers_pick_is_used(wire, want):
    srv = hello_server(wire)
    try:
        assert session_version(*srv.getsockname(), None, "ctl") == want
    finally:
        srv.close()


def test_a_forced_version_the_controller_cannot_speak_is_one_line_naming_of():
    srv = hello_server(1)
    try:
        with pytest.raises(UserError) as e:
            session_version(*srv.getsockname(), "1.3", "pox")
        assert str(e.value) == ("pox answered HELLO with OpenFlow 1.0, not 1.3: use --of 1.0, "
                                "or leave --of out to negotiate")
        assert session_version(*srv.getsockname(), "1.0", "pox") == "1.0"
    finally:
        srv.close()


def test_no_hello_falls_back_and_cases_name_the_version_they_need():
    assert session_version("127.0.0.1", 9, None, "x", hello=lambda h, p, o: (None, None)) == "1.3"
    assert needs({"of13_only": True}, "1.0") == "needs OpenFlow 1.3; the session negotiated 1.0"
    assert needs({"of13_only": True}, "1.3") is None and needs({}, "1.0") is None
