"""Known-answer tests for step detection: a known step is found at the right run; flat noise is not."""

import random

from sdnbench.history.steps import detect_steps, fit_segments, noise_sigma


def _noisy(levels, sd, seed):
    rng = random.Random(seed)
    return [rng.gauss(level, sd) for level in levels]


def test_a_known_step_is_found_at_the_right_run():
    for seed in range(20):
        y = _noisy([100.0] * 7 + [80.0] * 6, 2.0, seed)
        steps = detect_steps(y)
        assert [s.index for s in steps] == [7], (seed, y)
        assert 95 < steps[0].before < 105 and 75 < steps[0].after < 85
        assert -0.25 < steps[0].change < -0.15


def test_flat_noisy_series_is_not_flagged():
    flagged = sum(bool(detect_steps(_noisy([100.0] * 15, 3.0, seed))) for seed in range(50))
    assert flagged == 0


def test_two_steps_and_an_outlier():
    y = [10, 10.2, 9.9, 10.1, 30, 10, 10.1, 20, 20.2, 19.8, 20.1, 20, 5, 5.1, 4.9, 5]
    assert [s.index for s in detect_steps(y)] == [7, 12]        # the single 30 is not a level


def test_exact_fit_and_noise_estimate():
    assert fit_segments([1, 1, 1, 5, 5, 5], gamma=0.5) == [0, 3]
    assert fit_segments([1, 1, 1, 5, 5, 5], gamma=100) == [0]
    assert noise_sigma([1, 1, 1, 1]) == 0 and noise_sigma([0, 1, 0, 1, 0]) > 0


def test_too_short_or_small_changes_are_not_steps():
    assert detect_steps([1, 2]) == []
    assert detect_steps([100, 100, 100, 101, 101, 101]) == []          # 1 %: below 5 %
