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
from .scripted_switch import ScriptedTarget

pytestmark = pytest.mark.integration

FLOOR_MS = 3.0


def near(measured: float, expected: float) -> bool:
    return abs(measured - expected) <= 0.05 * expected + FLOOR_MS


def reads(values: list, expected: float) -> bool:
    """The median is the known answer, and no sample is faster than the scripted delay allows."""
    return near(statistics.median(values), expected) and min(values) >= expected - FLOOR_MS


def run(tests, **delays):
    with signals_as_exceptions():
        rs = runner.run("scripted", {"tests": tests, "flows": [1, 5], "reps": 10, "probe_pps": 5000,
                                     "timeout": 5, "accept_timeout": 10}, target=ScriptedTarget(**delays))
    for r in rs:
        assert r.status == "ok", r.error
        assert invariants.violations(r) == []
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
