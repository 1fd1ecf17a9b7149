"""The listener rule against the kernel's own lines (the vectors the engine reads too) and
against real sockets bound every way a controller binds."""

import json
import socket

import pytest

from sdnbench.paths import REPO

from . import listeners

VECTORS = json.loads((REPO / "crates/engine/tests/vectors/listeners.json").read_text())
HEADER = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"


def _host_port(target: str) -> tuple:
    host, _, port = target.rpartition(":")
    return host.strip("[]"), int(port)


@pytest.mark.parametrize("name", sorted(VECTORS["listeners"]))
def test_every_form_the_kernel_shows_is_read_as_the_engine_reads_it(name):
    table = HEADER + VECTORS["listeners"][name] + "\n"
    got = [listeners.lookup(table, *_host_port(t)) for t in VECTORS["targets"]]
    assert got == VECTORS["expect"][name]


def test_no_table_says_nothing():
    assert listeners.lookup("", "127.0.0.1", 9) is None
    assert listeners.lookup(HEADER, "127.0.0.1", 9) == listeners.NO


def _listen(family: int, addr: str, v6only: int = 0) -> socket.socket:
    s = socket.socket(family, socket.SOCK_STREAM)
    if family == socket.AF_INET6:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, v6only)
    s.bind((addr, 0))
    s.listen()
    return s


@pytest.mark.parametrize("family,addr,v6only,target", [
    (socket.AF_INET, "127.0.0.1", 0, "127.0.0.1"),
    (socket.AF_INET, "0.0.0.0", 0, "127.0.0.1"),
    (socket.AF_INET6, "::", 0, "127.0.0.1"),
    (socket.AF_INET6, "::ffff:127.0.0.1", 0, "127.0.0.1"),     # a JVM told 127.0.0.1
    (socket.AF_INET6, "::ffff:127.0.0.1", 0, "::ffff:127.0.0.1"),
    (socket.AF_INET6, "::1", 1, "::1"),
    (socket.AF_INET, "127.0.0.2", 0, "127.0.0.2"),
    (socket.AF_INET, "127.0.0.1", 0, "localhost"),
])
def test_a_listener_bound_any_way_is_not_refused(family, addr, v6only, target):
    with _listen(family, addr, v6only) as s:
        assert listeners.refusal(target, s.getsockname()[1]) is None


@pytest.mark.parametrize("family,addr,v6only,target", [
    (socket.AF_INET6, "::1", 1, "127.0.0.1"),               # IPv6 only: IPv4 connections refused
    (socket.AF_INET, "127.0.0.2", 0, "127.0.0.1"),          # another local address
])
def test_a_listener_a_client_cannot_reach_is_refused_for_a_true_reason(family, addr, v6only, target):
    with _listen(family, addr, v6only) as s:
        port = s.getsockname()[1]
        assert listeners.refusal(target, port) == f"nothing listens there: connection to {target}:{port} refused"


def test_a_wildcard_ipv6_listener_asked_for_ipv4_is_left_to_the_run():
    """The table does not show IPV6_V6ONLY: such a listener may take IPv4, so nothing is refused
    (and no connection made); the run reports a refused session itself."""
    with _listen(socket.AF_INET6, "::", 1) as s:
        assert listeners.refusal("127.0.0.1", s.getsockname()[1]) is None


def test_a_closed_port_is_refused_and_an_unresolvable_name_left_to_the_run():
    with _listen(socket.AF_INET, "127.0.0.1") as s:
        port = s.getsockname()[1]
    assert listeners.refusal("127.0.0.1", port) == f"nothing listens there: connection to 127.0.0.1:{port} refused"
    assert listeners.refusal("no-such-host.invalid", port) is None
