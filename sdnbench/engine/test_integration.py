"""The engine against real controllers (os-ken's learning app on OF1.0 and OF1.3,
ovs-testcontroller) and against the scripted controller (which counts independently):
accounting agreement, a session closed mid-run, an injected delay."""

import pytest

from sdnbench.engine.convert import to_result
from sdnbench.engine.engine_fixtures import run_doc
from sdnbench.engine.runner import run_engine
from sdnbench.engine.scripted_controller import ScriptedController

pytestmark = pytest.mark.integration

SHORT = {"loops": 2, "loop_ms": 300, "warmup": 1}


def _identities(c: dict) -> None:
    """Every request is answered or lost, once; every request-related reply is an answer, an
    extra or a late one."""
    assert c["requests_sent"] == c["requests_answered"] + c["requests_lost"]
    replies = c.get("replies_flow_mod", 0) + c.get("replies_packet_out", 0)
    assert replies == c["requests_answered"] + c["extra_replies"] + c["late_replies"]


@pytest.mark.parametrize("of_version", ["1.0", "1.3"])
def test_osken_learning(of_version):
    r = run_engine(dict(SHORT, controller="osken:learning", of_version=of_version, switches=2, macs=20))
    assert r.status == "ok", r.error
    c = r.counters
    assert c["requests_answered"] > 0 and c["sessions_up"] == 2
    _identities(c)
    # os-ken's learning app answers a packet-in with a flow-mod and a packet-out: read as one
    # answered request with one extra message, never as two answers
    assert c["requests_answered"] <= c["requests_sent"]
    assert r.controller["spec"] == "osken:learning"
    assert r.find("throughput")[0].values and r.find("latency")[0].values


def test_ovs_testcontroller():
    r = run_engine(dict(SHORT, controller="ovs-testcontroller", of_version="1.0", switches=4, macs=20))
    assert r.status == "ok", r.error
    assert r.counters["requests_answered"] > 0 and r.counters["sessions_up"] == 4
    _identities(r.counters)


def test_accounting_agrees_with_a_counting_controller():
    with ScriptedController(version=1, packet_out_too=True) as ctl:
        doc = run_doc(ctl.address, of_version="1.0", switches=4, macs=10, learn=False, window=32, **SHORT)
    t = doc["totals"]
    assert doc["status"] == "ok"
    assert t["requests_sent"] == ctl.packet_ins
    # an answer after the (adaptive) loss timeout is late, not answered: together they are all
    assert t["requests_answered"] + t["late_replies"] == len(ctl.answered_ids)
    assert t["replies_by_type"]["flow_mod"] + t["replies_by_type"]["packet_out"] == ctl.replies
    # one packet-out extra per request answered, in time or late (a stall of the Python
    # controller past the adaptive timeout makes some answers late; their packet-outs are extra too)
    assert t["extra_replies"] == t["requests_answered"] + t["late_replies"], "one packet-out extra per answer"


def test_a_controller_closing_one_of_16_sessions():
    with ScriptedController(version=4, close_nth=5, close_after_s=0.6) as ctl:
        doc = run_doc(ctl.address, switches=16, macs=4, learn=False, loops=3, loop_ms=300, warmup=0)
    assert doc["status"] == "partial", "a lost session makes the run partial, named in the error"
    lost = [s for s in doc["switches"] if s["disconnect"]]
    assert f"switch {lost[0]['index']} (dpid {lost[0]['dpid']})" in doc["error"]
    assert len(lost) == 1 and lost[0]["disconnect"]["kind"] in ("closed", "reset")
    for s in doc["switches"]:
        if s is not lost[0]:
            assert s["answered_per_loop"][-1] > 0, f"switch {s['index']} stopped too"
    assert lost[0]["answered_per_loop"][-1] == 0
    r = to_result(doc, {"switches": 16})
    name = f"switch {lost[0]['index']} (dpid {lost[0]['dpid']}) lost"
    assert any(n.startswith(name) for n in r.notes), r.notes


def test_injected_delay_is_reported():
    delay_us = 50_000
    params = dict(mode="latency", switches=1, macs=4, learn=False, loops=2, loop_ms=500, warmup=0)
    with ScriptedController(version=4) as ctl:
        base = run_doc(ctl.address, **params)["latency"]["p50"]
    with ScriptedController(version=4, delay_s=delay_us / 1e6) as ctl:
        doc = run_doc(ctl.address, **params)
    p50 = doc["latency"]["p50"]
    assert doc["latency"]["count"] >= 10
    # within 5% of the delay, plus a floor for the baseline round trip and timer granularity
    assert abs(p50 - (delay_us + base)) <= 0.05 * delay_us + 2_000, (p50, base)
