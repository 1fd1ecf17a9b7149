"""The engine against real controllers (os-ken's learning app on OF1.0 and OF1.3,
ovs-testcontroller) and against the scripted controller (which counts independently):
accounting agreement, a session closed mid-run, an injected delay."""

import pytest

from sdnbench.engine.convert import to_result
from sdnbench.testing.engine_fixtures import HIST_FLOOR, run_doc, scheduling_slack_us
from sdnbench.engine.runner import run_engine
from sdnbench.testing.peers.scripted_controller import ScriptedController

pytestmark = pytest.mark.integration

SHORT = {"loops": 2, "loop_ms": 300, "warmup": 1}


def _identities(c: dict) -> None:
    """Every request is answered, lost or still in flight when the run stopped (a controller
    that falls behind at the end leaves a window's worth per switch), once; every request-related
    reply is an answer, an extra or a late one."""
    assert c["requests_sent"] == (c["requests_answered"] + c["requests_lost"] + c["requests_in_flight_at_stop"]
                                  + c["requests_discarded"]), c
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
    """The scripted controller answers after exactly D: no sample reads less than D (less the
    histogram's precision, ``HIST_FLOOR``), the fastest is D plus the baseline's fastest round
    trip (and the peer's own lateness), and the median is D within 5% plus the baseline median
    and what the run itself recorded as scheduling delay (``scheduling_slack_us``), not a fixed
    floor that a loaded machine overruns."""
    delay_us = 50_000
    params = dict(mode="latency", switches=1, macs=4, learn=False, loops=2, loop_ms=500, warmup=0)
    with ScriptedController(version=4) as ctl:
        base = run_doc(ctl.address, **params)["latency"]
    with ScriptedController(version=4, delay_s=delay_us / 1e6) as ctl:
        doc = run_doc(ctl.address, **params)
    lat = doc["latency"]
    assert lat["count"] >= 10
    assert lat["min"] >= HIST_FLOOR * delay_us and lat["p50"] >= delay_us, lat
    assert lat["min"] <= delay_us + base["min"] + min(ctl.late_s) * 1e6 + 1_000, (lat, base["min"], min(ctl.late_s))
    slack = scheduling_slack_us(doc, ctl.late_s)
    assert lat["p50"] <= 1.05 * delay_us + base["p50"] + slack + 2_000, (lat["p50"], base["p50"], slack)
