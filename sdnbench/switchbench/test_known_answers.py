"""Known answers: ``switch bench`` against the scripted switch, whose delays are set here, must
read them back within 5% + a floor (the fake switch is Python: its timers and forwarding add up
to about a millisecond).

Scripted: flows take effect 50 ms after their flow-mod, barriers are answered after 10 ms
(lying: before the flows forward), packet-outs leave after 20 ms, packet-ins reach us 15 ms
after the frame came in.
"""

import statistics

import pytest

from ..proc import signals_as_exceptions
from . import invariants, runner
from .stored import SwitchBenchCounters
from sdnbench.testing.peers.scripted_switch import ScriptedTarget

pytestmark = pytest.mark.integration

FLOOR_MS = 3.0


def near(measured: float, expected: float) -> bool:
    return abs(measured - expected) <= 0.05 * expected + FLOOR_MS


def reads(values: list, expected: float) -> bool:
    """The median is the known answer, and no sample is faster than the scripted delay allows."""
    return near(statistics.median(values), expected) and min(values) >= expected - FLOOR_MS


def run(tests, options=None, **delays):
    params = {"tests": tests, "flows": [1, 5], "reps": 10, "probe_pps": 5000, "timeout": 5, "accept_timeout": 10,
              **(options or {})}
    with signals_as_exceptions():
        rs = runner.run("scripted", params, target=ScriptedTarget(**delays))
    for r in rs:
        assert r.status == "ok", r.error
        assert invariants.violations(r) == []
        assert SwitchBenchCounters.problems(r.counters) == [], r.benchmark
    return rs


def test_insertion_and_barrier_read_the_scripted_delays():
    rs = run(["insertion", "barrier"], install_delay=0.050, barrier_delay=0.010)
    for r in rs:
        assert r.counters["never_forwarded"] == 0
        for s in r.find("insertion_latency"):
            assert reads(s.values, 50.0), s.values
    barrier = [r for r in rs if r.benchmark == "barrier"]
    assert len(barrier) == 2
    for r in barrier:
        assert near(r.find("barrier_reply")[0].values[0], 10.0)
        gaps = r.find("barrier_gap")[0].values
        assert reads(gaps, 40.0), gaps                            # the barrier lied by 40 ms
        assert r.counters["forwarded_after_barrier"] == r.counters["flows"]
    assert rs[0].topology["switch"]["manufacturer"] == "sdnbench"


def test_packet_in_and_packet_out_read_the_scripted_delays():
    rs = run(["packet-in", "packet-out"], packet_in_delay=0.015, packet_out_delay=0.020)
    pin, pout = rs
    assert pin.counters["lost"] == 0 and pout.counters["lost"] == 0
    assert reads(pin.find("packet_in_latency")[0].values, 15.0)
    assert reads(pout.find("packet_out_latency")[0].values, 20.0)


def test_first_packet_is_the_scripted_packet_in_plus_packet_out_path():
    [fp] = run(["first-packet"], packet_in_delay=0.015, packet_out_delay=0.020, forward_delay=0.004)
    first, ctl = fp.find("first_packet")[0].values, fp.find("controller_reaction")[0].values
    assert reads([f - c for f, c in zip(first, ctl)], 35.0)          # 15 ms in + 20 ms out
    assert reads(fp.find("packet_in_latency")[0].values, 15.0)
    assert reads(fp.find("next_packet")[0].values, 4.0)              # the installed flow's path
    assert fp.counters["next_packets_to_controller"] == 0


def test_stats_latency_and_pipeline_forwarding_read_the_scripted_delays():
    stats, *pipes = run(["stats", "pipeline"], {"duration": 0.2, "tables": 2, "flows": [3]},
                        stats_delay=0.010, forward_delay=0.006)
    for s in stats.find("stats_latency"):
        assert reads(s.values, 10.0), s.labels
    assert [p.params["tables"] for p in pipes] == [1, 2]
    for p in pipes:
        assert reads(p.find("forwarding_latency")[0].values, 6.0)


def test_capacity_tells_a_refusing_table_from_a_silently_failing_one():
    [refused] = run(["capacity"], {"max_flows": 500, "batch": 50}, table_limit=120)
    c = refused.counters
    assert (c["accepted"], c["table_flows"], c["verdict"]) == (120, 120, "refused-when-full")
    assert c["refusal"] == "OFPET_FLOW_MOD_FAILED/OFPFMFC_TABLE_FULL"
    [silent] = run(["capacity"], {"max_flows": 500, "batch": 50}, table_limit=120, silent_overflow=True)
    c = silent.counters
    assert (c["accepted"], c["table_flows"], c["verdict"]) == (500, 120, "silent-failure")
    assert c["sample_forwarded"] < c["sample_size"]
