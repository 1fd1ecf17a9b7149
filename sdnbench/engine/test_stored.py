"""The engine's stored counters (``stored.EngineCounters``): every counter ``convert`` writes from
a real engine run is declared with its type, every field of the engine's schema that becomes a
counter has a declaration. (A store written by an older sdnbench: ``sdnbench/test_counters.py``.)"""

import json

import pytest

from sdnbench import paths
from sdnbench.engine.convert import to_result
from sdnbench.engine.stored import EngineCounters
from sdnbench.testing.engine_fixtures import responder, run_doc

SCHEMA = paths.REPO / "crates/engine/schema/engine-result.schema.json"


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
