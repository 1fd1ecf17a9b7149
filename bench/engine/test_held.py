"""held.py's judgement: a scripted case per verdict, made from the load sections of two real
million-session runs (bench.py scale --c-client on this machine, 2026-11-28: docs/million.md,
"At 1,000,000 on a quiet machine"), and ladders made from them. The real run with a scripted
responder is test_held_run.py."""

import copy
import json
import re
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import held  # noqa: E402

HELD = json.loads((HERE / "testdata" / "held-1m-10000-60s.json").read_text())   # both held
FAILED = json.loads((HERE / "testdata" / "held-1m-20000-30s.json").read_text())  # neither held
SHARED_RS = HERE.parents[1] / "crates" / "engine" / "src" / "switch" / "shared.rs"


def at_rate(run: dict, rate: float, engine_lost: int = 0, c_lost: int = 0) -> dict:
    """`run` offered at `rate`, with `engine_lost` requests lost in its first loop and `c_lost`
    lost by the C client."""
    r = copy.deepcopy(run)
    r["load"]["offered_per_s"] = rate
    r["load"]["per_loop"]["lost"][0] += engine_lost
    r["c_client"]["load"]["lost"] += c_lost
    r["c_client"]["load"]["answered"] -= c_lost
    return r


def verdicts(load: dict, c_load: dict) -> tuple:
    return (held.verdict(held.engine_account(load), load["sender_kept_up"]),
            held.verdict(held.c_client_account(c_load)))


def test_the_real_runs_read_as_they_were():
    assert verdicts(HELD["load"], HELD["c_client"]["load"]) == ("held", "held")
    assert verdicts(FAILED["load"], FAILED["c_client"]["load"]) == ("sender behind", "lost")


def test_held_nothing_lost_nothing_unsettled_and_every_request_accounted_for():
    a = held.engine_account(HELD["load"])
    assert a["requests"] == {"answered": HELD["load"]["sent"] + HELD["load"]["after_loops"]["sent"],
                             "late": 0, "lost": 0, "unsettled": 0}
    assert a["echoes"]["lost"] == a["echoes"]["unsettled"] == 0


def test_sender_behind_even_with_nothing_lost():
    load = copy.deepcopy(HELD["load"])
    load["sender_kept_up"] = False
    assert held.verdict(held.engine_account(load), False) == "sender behind"


def test_a_late_answer_is_an_answer_on_both_sides():
    load = copy.deepcopy(HELD["load"])
    load["per_loop"]["lost"][3] = 5            # timed out in loop 3 …
    load["per_loop"]["late"][4] = 5            # … and answered in loop 4
    a = held.engine_account(load)
    assert held.verdict(a) == "held" and a["requests"]["late"] == 5 and a["requests"]["lost"] == 0
    load["per_loop"]["late"][4] = 4            # one never answered
    assert held.verdict(held.engine_account(load)) == "lost"
    c = {**HELD["c_client"]["load"], "late": 7, "echo_late": 2, "unsettled": 0, "echo_unsettled": 0}
    assert held.verdict(held.c_client_account(c)) == "held" and held.c_client_account(c)["requests"]["late"] == 7


def test_unsettled_on_either_side_is_its_own_verdict_and_not_held():
    # the 17,000/s row at 1,000,000 (docs/million.md): every answer came, one request still in
    # flight when the engine's drain ended
    load = copy.deepcopy(HELD["load"])
    load["after_loops"]["in_flight_at_stop"] = 1
    assert held.verdict(held.engine_account(load)) == "unsettled"
    load = copy.deepcopy(HELD["load"])
    load["keepalive"]["in_flight_at_stop"] = 2
    assert held.verdict(held.engine_account(load)) == "unsettled"
    c = {**HELD["c_client"]["load"], "sent": 299_983, "unsettled": 3, "echo_unsettled": 0}
    assert held.verdict(held.c_client_account(c)) == "unsettled"
    # lost outweighs unsettled
    c["lost"] = 1
    assert held.verdict(held.c_client_account(c)) == "lost"
    runs = [at_rate(HELD, 10_000)]
    runs[0]["load"]["after_loops"]["in_flight_at_stop"] = 1
    j = held.judge(runs, HELD["switches"], 60_000)
    assert j["rates"][0]["engine"]["verdict"] == "unsettled" and not j["rates"][0]["engine"]["held"]
    assert j["highest_held_round_trips_per_s"]["engine"] is None


def test_echoes_lost_are_lost():
    load = copy.deepcopy(HELD["load"])
    load["keepalive"]["lost"] = 3
    load["keepalive"]["late"] = 1
    a = held.engine_account(load)
    assert a["echoes"]["lost"] == 2 and held.verdict(a) == "lost"


def test_the_failed_million_split_into_lost_late_and_unsettled():
    a = held.engine_account(FAILED["load"])["requests"]
    # timed out in the loops 249,467 and after them 448; answered late 207,406 + 27,375; in flight at the stop 4,501
    assert a["late"] == 207_406 + 27_375
    assert a["lost"] == 249_467 + 448 - (207_406 + 27_375)
    assert a["unsettled"] == 4_501
    e = held.engine_account(FAILED["load"])["echoes"]
    assert (e["lost"], e["unsettled"]) == (68_230 - 65_767, 17_991)


def test_highest_held_by_each_and_the_ratio_in_round_trips():
    n, echo = HELD["switches"], 60_000
    runs = [at_rate(HELD, 20_000, engine_lost=5, c_lost=3), at_rate(HELD, 10_000),
            at_rate(HELD, 15_000, engine_lost=1)]
    j = held.judge(runs, n, echo)
    assert [r["rate"] for r in j["rates"]] == [10_000, 15_000, 20_000]
    assert [(r["engine"]["verdict"], r["c_client"]["verdict"]) for r in j["rates"]] == \
        [("held", "held"), ("lost", "held"), ("lost", "lost")]
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


def test_the_table_gives_each_sides_verdict_counts_and_the_ratio():
    runs = [at_rate(HELD, 10_000), at_rate(HELD, 15_000, engine_lost=4)]
    runs[1]["load"]["after_loops"]["in_flight_at_stop"] = 0
    runs[0]["c_client"]["load"].update(timeout_ms=2000, drain_ms=2000)
    t = held.table(held.judge(runs, HELD["switches"], 60_000), HELD["switches"], 60_000)
    lines = t.splitlines()
    assert "timeout 2000 ms, drain 2000 ms on both sides" in lines[0]
    assert re.search(r"15,000\s+31,667\s+engine\s+not held\s+4\s+0\s+0\s+0/0/0", t), t
    assert re.search(r"10,000\s+26,667\s+C client\s+held\s+0\s+0\s+0", t), t
    assert "highest held: engine 26,667 round trips/s, C client 31,667 round trips/s" in t
    assert lines[-1].startswith("engine / C client: 0.84 (an upper bound"), t


def test_the_drain_bound_is_the_engines():
    m = re.search(r"pub const DRAIN_MAX_MS: u64 = ([0-9_]+);", SHARED_RS.read_text())
    assert m and int(m.group(1).replace("_", "")) == held.DRAIN_MAX_MS
    assert [held.drain_ms(t) for t in (200, 2000, 60_000)] == [200, 2000, held.DRAIN_MAX_MS]
