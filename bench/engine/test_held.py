"""held.py's judgement, on two real million-session runs (bench.py scale --c-client on this
machine, 2026-11-28: docs/million.md, "At 1,000,000 on a quiet machine") and on ladders made
from them."""

import copy
import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import held  # noqa: E402

HELD = json.loads((HERE / "testdata" / "held-1m-10000-60s.json").read_text())   # both held
FAILED = json.loads((HERE / "testdata" / "held-1m-20000-30s.json").read_text())  # neither held


def at_rate(run: dict, rate: float, engine_lost: int = 0, c_lost: int = 0) -> dict:
    """`run` offered at `rate`, with `engine_lost` requests lost in its first loop and `c_lost`
    lost by the C client."""
    r = copy.deepcopy(run)
    r["load"]["offered_per_s"] = rate
    r["load"]["per_loop"]["lost"][0] += engine_lost
    r["c_client"]["load"]["lost"] += c_lost
    r["c_client"]["load"]["answered"] -= c_lost
    return r


def test_the_real_runs_read_as_they_were():
    assert held.engine_held(HELD["load"]) and held.c_client_held(HELD["c_client"]["load"])
    assert not held.engine_held(FAILED["load"]) and not held.c_client_held(FAILED["c_client"]["load"])


def test_a_sender_that_fell_behind_did_not_hold_even_with_nothing_lost():
    load = copy.deepcopy(HELD["load"])
    load["sender_kept_up"] = False
    assert not held.engine_held(load)


def test_a_late_answer_is_an_answer_as_the_c_client_counts_it():
    load = copy.deepcopy(HELD["load"])
    load["per_loop"]["lost"][3] = 5            # timed out in loop 3 …
    load["per_loop"]["late"][4] = 5            # … and answered in loop 4
    assert held.engine_held(load)
    assert held.engine_unanswered(load) == {"requests": 0, "echoes": 0, "late_requests": 5, "late_echoes": 0}
    load["per_loop"]["late"][4] = 4            # one never answered
    assert not held.engine_held(load) and held.engine_unanswered(load)["requests"] == 1


def test_a_request_or_echo_never_answered_or_still_in_flight_is_unanswered():
    load = copy.deepcopy(HELD["load"])
    load["after_loops"]["in_flight_at_stop"] = 2
    assert held.engine_unanswered(load)["requests"] == 2 and not held.engine_held(load)
    load = copy.deepcopy(HELD["load"])
    load["keepalive"]["lost"] = 3
    load["keepalive"]["late"] = 1
    assert held.engine_unanswered(load)["echoes"] == 2 and not held.engine_held(load)


def test_the_failed_million_left_requests_unanswered_not_just_late():
    u = held.engine_unanswered(FAILED["load"])
    # timed out in the loops 249,467 and after them 448; answered late 207,406 + 27,375; in flight at the stop 4,501
    assert u["late_requests"] == 207_406 + 27_375
    assert u["requests"] == 249_467 + 448 - (207_406 + 27_375) + 4_501
    assert u["echoes"] == 68_230 - 65_767 + 17_991


def test_highest_held_by_each_and_the_ratio_in_round_trips():
    n, echo = HELD["switches"], 60_000
    runs = [at_rate(HELD, 20_000, engine_lost=5, c_lost=3), at_rate(HELD, 10_000),
            at_rate(HELD, 15_000, engine_lost=1)]
    j = held.judge(runs, n, echo)
    assert [r["rate"] for r in j["rates"]] == [10_000, 15_000, 20_000]
    echoes = n * 1000 / echo   # 16,666.7 echoes/s at a million every 60 s
    assert j["highest_held_round_trips_per_s"] == {"engine": 10_000 + echoes, "c_client": 15_000 + echoes}
    assert j["engine_over_c_client"] == pytest.approx((10_000 + echoes) / (15_000 + echoes))
    assert not j["c_client_held_every_rate"]


def test_a_rate_held_above_one_not_held_does_not_raise_the_ceiling():
    runs = [at_rate(HELD, 10_000), at_rate(HELD, 15_000, engine_lost=2), at_rate(HELD, 20_000)]
    j = held.judge(runs, HELD["switches"], 60_000)
    assert j["highest_held_round_trips_per_s"]["engine"] == pytest.approx(10_000 + 1e9 / 60_000)
    assert j["c_client_held_every_rate"]


def test_a_side_that_held_nothing_reads_zero_and_a_c_client_that_held_nothing_gives_no_ratio():
    j = held.judge([at_rate(HELD, 10_000, engine_lost=1)], HELD["switches"], 60_000)
    assert j["highest_held_round_trips_per_s"]["engine"] is None and j["engine_over_c_client"] == 0
    j = held.judge([FAILED], FAILED["switches"], 30_000)
    assert j["engine_over_c_client"] is None
