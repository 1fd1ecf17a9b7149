"""The engine's JSON output against its checked-in schema (the Python side of the check; the
Rust side is crates/engine/tests/run.rs), and its conversion into a Result."""

import json

import jsonschema
import pytest

from sdnbench import paths
from sdnbench.result import Result
from sdnbench.engine.convert import latency_samples, to_result
from sdnbench.testing.engine_fixtures import responder, run_doc

SCHEMA = json.loads((paths.REPO / "crates/engine/schema/engine-result.schema.json").read_text())


@pytest.fixture(scope="module")
def doc():
    with responder("1.3") as addr:
        return run_doc(addr, switches=3, loops=2, loop_ms=200, warmup=1, macs=8, window=8)


def test_output_matches_schema(doc):
    jsonschema.validate(doc, SCHEMA)
    assert doc["status"] == "ok"


def test_schema_rejects_a_broken_document(doc):
    broken = dict(doc)
    del broken["totals"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, SCHEMA)


def test_responder_is_one_answer_per_request(doc):
    t = doc["totals"]
    assert t["requests_answered"] > 0
    assert t["replies_by_type"]["flow_mod"] == t["requests_answered"]
    assert t["extra_replies"] == 0
    assert t["requests_sent"] == t["requests_answered"] + t["requests_lost"]


def test_result_conversion_keeps_raw_samples(doc):
    r = to_result(doc, {"mode": "throughput", "switches": 3})
    assert r.status == "ok" and r.kind == "controller" and r.benchmark == "throughput"
    thr = r.find("throughput")[0]
    assert len(thr.values) == 2 and len(thr.t) == 2
    per_switch = r.find("switch_throughput")
    assert sorted(s.labels["switch"] for s in per_switch) == [1, 2, 3]
    lat = r.find("latency")[0]
    assert len(lat.values) == doc["latency"]["count"]
    assert r.counters["requests_answered"] == doc["totals"]["requests_answered"]
    assert any(s.metric == "engine_cpu_percent" for s in r.resources)
    # and it survives the results format's own round trip
    assert Result.from_dict(json.loads(json.dumps(r.to_dict()))).counters == r.counters


def test_latency_expansion_and_resampling():
    vals, resampled = latency_samples([[10.0, 2], [20.0, 1]])
    assert vals == [10.0, 10.0, 20.0] and not resampled
    vals, resampled = latency_samples([[10.0, 900], [20.0, 100]], cap=10)
    assert resampled and len(vals) == 10 and vals.count(20.0) == 1
