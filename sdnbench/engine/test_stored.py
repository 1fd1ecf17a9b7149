"""The engine's stored counters (``stored.EngineCounters``): every counter ``convert`` writes from
a real engine run is declared with its type, every field of the engine's schema that becomes a
counter has a declaration, and results stored by an older sdnbench (main at 8136f42, a real
store: ``store/testdata/main-8136f42``) read back into the views with their values."""

import json
import shutil

import pytest

from sdnbench import paths
from sdnbench.engine.convert import to_result
from sdnbench.engine.stored import EngineCounters
from sdnbench.store.store import Store
from sdnbench.testing.engine_fixtures import responder, run_doc

SCHEMA = paths.REPO / "crates/engine/schema/engine-result.schema.json"
OLD_STORE = paths.REPO / "sdnbench/store/testdata/main-8136f42"


@pytest.fixture(scope="module")
def runs():
    with responder("1.3") as addr:
        return [to_result(run_doc(addr, switches=2, loops=2, loop_ms=200, warmup=1, macs=8, window=8, mode=m),
                          {}) for m in ("throughput", "latency")] + \
               [to_result(run_doc(addr, switches=3, mode="capacity", hold_ms=100, loops=1), {})]


def test_every_counter_convert_writes_is_declared_with_its_type(runs):
    for r in runs:
        assert r.status == "ok", r.error
        assert EngineCounters.problems(r.counters) == [], r.benchmark
    c = EngineCounters.of(runs[0])
    assert c.requests_sent == runs[0].counters["requests_sent"] > 0
    assert c.replies_by_type == {k[len("replies_"):]: v for k, v in runs[0].counters.items()
                                 if k.startswith("replies_")} and sum(c.replies_by_type.values()) > 0
    assert EngineCounters.of(runs[2]).capacity_held == 3


def test_every_schema_field_that_becomes_a_counter_is_declared():
    defs = json.loads(SCHEMA.read_text())["$defs"]
    names = {n for n, *_ in EngineCounters.declared()}
    want = {k if not k.endswith("_by_type") and not k.endswith("_by_code") else k.split("_by_")[0] + "_*"
            for k in defs["Totals"]["properties"]}
    want |= {f"engine_{k}" for k in defs["Efficiency"]["properties"]}
    want |= {f"capacity_{k}" for k in defs["Capacity"]["properties"] if k != "session_ms"}   # a series
    assert sorted(want - names) == []


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
