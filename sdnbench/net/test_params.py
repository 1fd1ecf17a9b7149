"""The net parameter model: defaults, every problem at once, refusals by flag or by key, and the
version-mismatch cause a probe HELLO finds (against a scripted 1.0-only peer)."""

import socket
import struct
import threading

import pytest

from sdnbench.net.params import NetParamsError, check, check_one, parse_of
from sdnbench.net.runner import negotiated_version, version_mismatch


def test_defaults_offer_openflow_10_and_13():
    p = check({"topo": "single,2"})
    assert p["of"] == "1.0,1.3" and p["protocols"] == "OpenFlow10,OpenFlow13"
    assert p["measurements"] == ["ping"] and p["reps"] == 1 and p["ping"]["sizes"][0] == 64
    assert parse_of("OpenFlow13,1.0") == ["1.0", "1.3"]          # sorted; OVS names accepted


@pytest.mark.parametrize("params, field", [
    ({"topo": "tree,0"}, "topo"),
    ({"topo": "single,2", "tcp": {"duration": 0}}, "tcp.duration"),
    ({"topo": "single,2", "ping": {"count": 0}}, "ping.count"),
    ({"topo": "single,2", "ping": {"sizes": [0]}}, "ping.sizes"),
    ({"topo": "single,2", "ping": {"sizes": []}}, "ping.sizes"),
    ({"topo": "single,2", "udp": {"rate": "abc"}}, "udp.rate"),
    ({"topo": "single,2", "of": "OpenFlow99"}, "of"),
    ({"topo": "single,2", "measurements": []}, "measurements"),
    ({"topo": "single,2", "measurements": ["tcpp"]}, "measurements"),
    ({"topo": "single,2", "reps": 0}, "reps"),
    ({"topo": "single,2", "pairs": "h1-h9"}, "pairs"),
    ({"topo": "single,2", "protocols": "OpenFlow13"}, "protocols"),
    ({"topo": "single,2", "colour": "red"}, "colour"),
])
def test_each_bad_value_is_refused_naming_its_field(params, field):
    with pytest.raises(NetParamsError) as e:
        check(params)
    assert [f for f, _ in e.value.problems] == [field]


def test_cells_stored_before_the_rename_still_run():
    p = check({"topo": "single,2", "protocols": "OpenFlow13"}, legacy=True)
    assert p["of"] == "1.3" and p["protocols"] == "OpenFlow13"


def test_every_problem_is_reported_at_once_by_flag():
    with pytest.raises(NetParamsError) as e:
        check({"topo": "single,2", "reps": 0, "ping": {"count": 0}, "udp": {"rate": "x"}}, flags=True)
    assert str(e.value).count(";") == 2
    assert "--reps" in str(e.value) and "--ping-count" in str(e.value) and "--udp-rate" in str(e.value)


def test_scenario_keys_are_checked_one_by_one():
    assert check_one("ping", {"count": 0}).startswith("count: must be between 1")
    assert "renamed" in check_one("protocols", "OpenFlow13")
    assert check_one("topo", "linear,3") is None


def _hello_server(version: int):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(4)

    def serve():
        while True:
            try:
                c, _ = s.accept()
            except OSError:
                return
            c.sendall(struct.pack("!BBHI", version, 0, 8, 7))
            c.close()
    threading.Thread(target=serve, daemon=True).start()
    return s


def test_a_probe_hello_names_the_version_mismatch():
    srv = _hello_server(1)           # a controller that speaks OpenFlow 1.0 only
    try:
        addr = srv.getsockname()
        assert version_mismatch(addr, "1.3") == ("the controller answered HELLO with 1.0 only and the "
                                                 "switches were forced to 1.3; use --of 1.0")
        assert version_mismatch(addr, "1.0,1.3") is None      # overlap: not the cause
    finally:
        srv.close()
    quiet = socket.socket()
    quiet.bind(("127.0.0.1", 0))           # bound, not listening: refused
    try:
        assert "did not answer a HELLO" in version_mismatch(quiet.getsockname(), "1.3")
    finally:
        quiet.close()


def test_the_negotiated_version_is_the_lower_of_the_two_highest():
    for ctl, offered, want in ((1, "1.0,1.3", "1.0"), (4, "1.0,1.3", "1.3"), (6, "1.0,1.3", "1.3"),
                               (1, "1.3", None), (4, "1.0", "1.0")):
        srv = _hello_server(ctl)
        try:
            assert negotiated_version(srv.getsockname(), offered) == want, (ctl, offered)
        finally:
            srv.close()
