"""The rate search's logic, against a made-up controller (pure logic: a fake trial function)."""

import pytest

from sdnbench.errors import UserError
from sdnbench.engine.search import Trial, agree, parse_step, search


def fake_controller(capacity: float, noise=()):
    """Answers min(offered, capacity); loses what it cannot answer."""
    noise = list(noise)
    calls = []

    def trial(rate):
        calls.append(rate)
        offered = rate if rate is not None else capacity * 1.5
        apr = min(offered, capacity) * (1 + (noise.pop(0) if noise else 0.0))
        return Trial(offered=offered, apr=apr, loss=max(0.0, 1 - apr / offered))
    return trial, calls


def test_finds_max_and_loss_free_with_confirmation():
    trial, calls = fake_controller(10_000)
    r = search(trial, step="10%", p_pct=5)
    assert r.max_rate == 10_000
    assert r.loss_free_rate == pytest.approx(9_000)
    markers = [t.marker for t in r.trials]
    assert markers.count("max") == 1 and markers.count("loss-free") == 1
    # two max trials, then 9000 twice (loss-free at the first step down, confirmed)
    assert calls == [None, None, 9000.0, 9000.0]


def test_max_needs_two_agreeing_trials():
    trial, calls = fake_controller(10_000, noise=[0.0, 0.3, 0.29])
    r = search(trial, step="1000", p_pct=5)
    assert calls[:3] == [None, None, None]
    assert r.max_rate == pytest.approx(13_000)


def test_gives_up_within_budget():
    def never(rate):
        return Trial(offered=1.0, apr=0.5, loss=0.5)
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
