"""Known answers for `controller cbench`'s pacing and counting (``crates/engine/src/switch/cbench_switch.rs``):
a scripted controller answers every packet-in after a known delay, so cbench's figures are known.

- Latency mode, one flow-mod per packet-in after D: one probe in flight, 1/D responses/s per
  switch, and as many answered requests.
- The same with a flow-mod *and* a packet-out, sent in one write: cbench counts two responses
  per request, and its counter never goes below zero, so the surplus response is no credit:
  still one probe in flight (1/D answered requests/s), 2/D responses/s.
- Throughput mode (``-t``), one flow-mod after D per packet-in: the socket is kept full, so the
  figure is the controller's, not D's: many times 1/D.
- The pause after each loop (100 ms, cbench's ``usleep`` in ``run_test``): the probe in flight at
  a loop's end is answered D later, inside the pause, and thrown away as cbench throws it away:
  one request *discarded* per switch per loop (the last loop's too: cbench reads after every
  loop; fewer only if the engine itself ran late), never answered, and the counters still add up. (With ``-L`` on, the reply to the
  learning packet-in is one more counted response in the first loop, so one more probe: cbench
  does the same.)
"""

from __future__ import annotations

import re
import statistics
import subprocess

import pytest

from sdnbench.engine import driver
from sdnbench.testing.peers.scripted_controller import ScriptedController
from sdnbench.paths import engine_binary

pytestmark = pytest.mark.integration

DELAY_S = 0.02
FLAGS = ["-s", "2", "-l", "3", "-m", "500", "-M", "10", "-w", "1"]


def cbench(address: str, *extra: str) -> tuple:
    """(responses/s, answered requests/s) averaged over the measured loops, for all switches."""
    host, port = address.rsplit(":", 1)
    cp = subprocess.run([str(engine_binary()), "cbench", "-c", host, "-p", port, *FLAGS, *extra],
                        capture_output=True, text=True, timeout=60)
    responses = re.search(r"RESULT: .*= [0-9.]+/[0-9.]+/([0-9.]+)/", cp.stdout)
    answered = re.search(r"answered requests/s .*= [0-9.]+/[0-9.]+/([0-9.]+)", cp.stdout)
    assert responses and answered, cp.stdout + cp.stderr
    return float(responses.group(1)), float(answered.group(1))


def _one_probe_per_round_trip(ctl: ScriptedController, answered: float, switches: int = 2) -> None:
    """One probe in flight per switch, the next sent as soon as the answer arrives.

    A round trip is never shorter than D, so at most 1/D per switch: exact. How far below 1/D it
    reads depends on how late this controller's timer fired and how soon the engine sent the next
    probe, which a loaded machine stretches; both are measured here, by the controller, so the
    lower bound is 1/(the round trip it saw), not 1/D and luck. The engine's own turnaround
    (answer written -> next packet-in read; the pauses between loops left out) must be a small
    part of D at the median, beyond the scheduling lateness the controller measured on itself: an
    engine that waited for a tick or a timer would show there."""
    gaps = [g for g in ctl.gaps_s if g < DELAY_S * 2.5]
    assert len(gaps) >= 20 and ctl.late_s, (len(ctl.gaps_s), len(ctl.late_s))
    # 10 % of D, plus how late this machine woke the controller's own timer at the median (the
    # engine wakes on the same scheduler): a tick or a timer in the engine would show beyond both
    slack = statistics.median(ctl.late_s)
    assert statistics.median(gaps) <= 0.1 * DELAY_S + slack, ("the next probe waits", statistics.median(gaps), slack)
    round_trip = DELAY_S + statistics.fmean(ctl.late_s) + statistics.fmean(gaps)
    assert 0.85 * switches / round_trip <= answered <= 1.02 * switches / DELAY_S, (answered, round_trip)


def test_latency_mode_one_reply_per_request_keeps_one_probe_in_flight():
    with ScriptedController(version=1, delay_s=DELAY_S) as ctl:
        responses, answered = cbench(ctl.address)
    _one_probe_per_round_trip(ctl, answered)
    assert responses == pytest.approx(answered, rel=0.02)


def test_latency_mode_a_surplus_reply_in_the_same_write_is_no_credit():
    with ScriptedController(version=1, delay_s=DELAY_S, packet_out_too=True) as ctl:
        responses, answered = cbench(ctl.address)
    _one_probe_per_round_trip(ctl, answered)
    assert responses == pytest.approx(2 * answered, rel=0.03), "a flow-mod and a packet-out: two responses"


def test_throughput_mode_keeps_the_socket_full():
    with ScriptedController(version=1, delay_s=DELAY_S) as ctl:
        _, answered = cbench(ctl.address, "-t")
    assert answered > 10 * 2 / DELAY_S, "a window, not one probe per round trip"


def test_answers_in_the_pause_after_a_loop_are_discarded_and_the_counters_add_up():
    switches, loops = 2, 3
    config = dict(mode="latency", traffic="cbench", switches=switches, macs=10, loops=loops - 1, warmup=1,
                  loop_ms=300, versions=2, settle_ms=0, cbench_compat=True, loop_gap_ms=100,
                  adaptive_timeout=False, timeout_ms=60_000, learn=False)
    with ScriptedController(version=1, delay_s=DELAY_S) as ctl:
        doc = driver.run([], config=dict(config, controllers=[ctl.address]))
    t = doc["totals"]
    # one probe in flight per switch at each pause's start, answered inside it: switches x loops
    # when the engine keeps time; a starved engine may have none in flight at some pause's start
    assert switches <= t["requests_discarded"] <= switches * loops, t
    assert t["requests_sent"] == (t["requests_answered"] + t["late_replies"] + t["requests_lost"]
                                  + t["requests_discarded"] + t["requests_in_flight_at_stop"]), t
    assert t["requests_answered"] + t["requests_discarded"] == ctl.packet_ins, "every probe answered or discarded"
