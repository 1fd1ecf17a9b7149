"""Stored counters read through their kind's declared view (``sdnbench.counters``): a misspelt
counter fails, an absent one is ``None``, and results stored by an older sdnbench (main at
8136f42; a real store, ``store/testdata/main-8136f42``: net and engine runs of the demo and the
controller tests) read back into the views with their values."""

import shutil

import pytest

from sdnbench import paths
from sdnbench.engine.stored import EngineCounters
from sdnbench.net.stored import NetCounters
from sdnbench.store.store import Store

OLD_STORE = paths.REPO / "sdnbench/store/testdata/main-8136f42"


def test_a_misspelt_counter_fails_and_an_absent_one_is_none():
    c = EngineCounters.from_counters({"requests_sent": 5})
    assert c.requests_sent == 5 and c.latency_p50_us is None and c.replies_by_type is None
    with pytest.raises(AttributeError):
        c.latency_p50          # noqa: B018  (what counters.get("latency_p50") read as None)
    assert EngineCounters.problems({"latency_p50": 1.0, "requests_sent": "5"}) == [
        "latency_p50: not declared in EngineCounters", "requests_sent: str, declared int"]


def test_results_stored_by_main_read_back_into_the_views(tmp_path):
    shutil.copytree(OLD_STORE, tmp_path / "st")
    store = Store(tmp_path / "st", read_only=True)
    try:
        got = {rid: store.load_result(rid) for rid in range(1, 7)}
    finally:
        store.close()
    ctl = [r for r in got.values() if r.kind == "controller"]
    assert [r.benchmark for r in ctl] == ["throughput", "capacity", "latency"]
    for r in ctl:
        assert EngineCounters.problems(r.counters) == [], r.benchmark
    thr, cap, lat = (EngineCounters.of(r) for r in ctl)
    assert (thr.requests_sent, thr.requests_answered, thr.latency_p50_us) == (1455, 1455, 421789.695)
    assert thr.replies_by_type == {"features_request": 1, "flow_mod": 1455, "hello": 1, "packet_out": 1455,
                                   "stats_request": 1}
    assert (cap.capacity_held, cap.capacity_first_failure, cap.latency_p50_us) == (1100, None, 0.0)
    assert lat.latency_p99_us == 13705.215
    # counters this store's engine did not write yet read as None, not as an error
    assert thr.sessions_tls is None and thr.tcp_connect_p50_us is None


def test_net_results_stored_by_main_read_back_into_their_view(tmp_path):
    shutil.copytree(OLD_STORE, tmp_path / "st")
    store = Store(tmp_path / "st", read_only=True)
    try:
        net = [r for r in (store.load_result(i) for i in range(1, 7)) if r.kind == "net"]
    finally:
        store.close()
    assert [r.benchmark for r in net] == ["first-packet+ping+tcp", "udp", "ping"]
    for r in net:
        assert NetCounters.problems(r.counters) == [], r.benchmark
    first, udp, ping = (NetCounters.of(r) for r in net)
    assert (first.pairs, first.ping_sent, first.ping_lost, first.tcp_retransmits) == (1, 15, 0, 8289)
    assert (udp.udp_datagrams, udp.udp_lost, udp.ping_sent) == (73169, 3185, None)
    assert (ping.ping_sent, ping.ping_lost, ping.ditg_packets) == (27, 0, None)


def test_a_view_is_read_only_and_a_prefix_family_is_one_map():
    c = EngineCounters.from_counters({"errors": 2, "errors_1.5": 2, "replies_hello": 1, "requests_sent": 3})
    assert (c.errors, c.errors_by_code, c.replies_by_type) == (2, {"1.5": 2}, {"hello": 1})
    with pytest.raises(AttributeError):
        c.requests_sent = 4        # frozen: a view never writes back to the stored result
    assert EngineCounters.undeclared({"errors_1.5": 2, "errors": 2, "sessions_up": 1, "latency_p50": 3}) == ["latency_p50"]
    assert EngineCounters.problems({"errors_1.5": "two", "engine_coalescing": {"pct": 0.0}}) == [
        "errors_1.5: str, declared int"]
