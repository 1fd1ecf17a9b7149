"""The rate search's logic, against a made-up controller (pure logic: a fake trial function), and
a trial's stability rule from hand-made counters. The known-answer test against a controller with
a known service rate is ``test_search_known_answer.py``."""

import pytest

from sdnbench.errors import UserError
from sdnbench.engine.search import Trial, agree, parse_step, search, trial_from
from sdnbench.engine.stored import EngineCounters

C = EngineCounters.from_counters


def fake_controller(capacity: float, noise=()):
    """Answers min(offered, capacity); loses what it cannot answer."""
    noise = list(noise)
    calls = []

    def trial(rate):
        calls.append(rate)
        offered = rate if rate is not None else capacity * 1.5
        apr = min(offered, capacity) * (1 + (noise.pop(0) if noise else 0.0))
        unstable = "maximum load" if rate is None else ("" if apr >= offered else "fell behind")
        return Trial(offered=offered, apr=apr, loss=max(0.0, 1 - apr / offered), unstable=unstable)
    return trial, calls


def test_finds_max_and_loss_free_with_confirmation():
    trial, calls = fake_controller(10_000)
    r = search(trial, step="10%", p_pct=5)
    assert r.max_rate == 10_000
    assert r.loss_free_rate == pytest.approx(10_000)
    markers = [t.marker for t in r.trials]
    assert markers.count("max") == 1 and markers.count("loss-free") == 1
    # two max trials, then open loop at the maximum itself, twice (stable, confirmed)
    assert calls == [None, None, 10_000.0, 10_000.0]


def test_steps_down_until_the_controller_keeps_up():
    # the maximum-load trials read 10,500 (noise), the controller serves 10,000: open loop at
    # 10,500 falls behind, one step (1,000) down keeps up
    trial, calls = fake_controller(10_000, noise=[0.05, 0.05])
    r = search(trial, step="1000", p_pct=5)
    assert r.max_rate == pytest.approx(10_500)
    assert calls[2:] == [10_500, 9_500, 9_500] and r.loss_free_rate == pytest.approx(9_500)


def test_a_trial_is_stable_only_when_it_kept_up_and_lost_nothing():
    ok = dict(requests_sent=30_000, requests_answered=30_000)
    t = trial_from(10_000, C(ok), [10_000, 10_000], [10_000, 9_990])
    assert t.stable and t.loss == 0 and t.sent == 10_000
    # the case: everything answered in the end (the drain), but 10,243/s during a
    # trial that sent 10,900/s: the controller's queue grew
    t = trial_from(10_900, C(dict(requests_sent=32_700, requests_answered=32_700)), [10_900] * 3, [10_243] * 3)
    assert t.loss == 0 and not t.stable and "fell behind" in t.unstable
    # the engine could not send the offered rate
    t = trial_from(50_000, C(ok), [40_000, 40_000], [40_000, 40_000])
    assert "sent 40,000/s of 50,000/s" in t.unstable
    # late answers and requests in flight at the stop are unsuccessful, though not "lost"
    for k in ("late_replies", "requests_in_flight_at_stop", "requests_lost"):
        t = trial_from(10_000, C(dict(ok, **{k: 3})), [10_000], [10_000])
        assert not t.stable and "3" in t.unstable, k
    assert "closed loop" in trial_from(None, C(ok), [10_000], [10_000]).unstable


def test_max_needs_two_agreeing_trials():
    trial, calls = fake_controller(10_000, noise=[0.0, 0.3, 0.29])
    r = search(trial, step="1000", p_pct=5)
    assert calls[:3] == [None, None, None]
    assert r.max_rate == pytest.approx(13_000)


def test_gives_up_within_budget():
    def never(rate):
        return Trial(offered=1.0, apr=0.5, loss=0.5, unstable="half lost")
    r = search(never, step="10%", max_trials=6)
    assert r.loss_free_rate is None and len(r.trials) <= 6 and r.stopped


def test_agree_and_step_parsing():
    assert agree(100, 96, 5) and not agree(100, 94, 5)
    assert parse_step("10%", 5000) == 500
    assert parse_step("250", 5000) == 250
    with pytest.raises(UserError):
        parse_step("fast", 1)
    with pytest.raises(UserError):
        parse_step("-5", 1)
