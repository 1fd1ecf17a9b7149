"""Known answers for the significance rule of ``degraded`` (change.py): made-up loop samples
whose reading is clear, and p-values checked against the exact Mann–Whitney distribution."""

import math

from sdnbench.robustness.change import ALPHA, latency_rose, rate_fell

PH = ["before"] * 4 + ["during"] * 8 + ["after"] * 8


def test_a_fall_in_every_loop_is_significant_with_the_exact_p():
    rates = [1000, 1001, 999, 1002] + [500 + i for i in range(8)] + [1000 + i for i in range(8)]
    c = rate_fell(rates, PH, drop=0.3)
    assert c.phase == "during" and c.effect_a == 1.0
    # exact one-sided p with no ties: 1 / C(12, 4)
    assert math.isclose(c.p_value, 1 / math.comb(12, 4), rel_tol=1e-9)
    assert c.p_value < ALPHA
    assert "rate fell 50%" in c.text() and "p = 0.00202" in c.text() and "A = 1.00" in c.text()


def test_a_small_or_one_loop_fall_is_not_a_change():
    small = [1000] * 4 + [800] * 8 + [1000] * 8          # -20%: significant, below drop
    assert rate_fell(small, PH, drop=0.3) is None
    one = [1000] * 4 + [0] + [1000] * 7 + [1000] * 8     # one silent loop: mean -12.5%
    assert rate_fell(one, PH, drop=0.1) is None
    assert rate_fell([0] * 20, PH, drop=0.3) is None     # no baseline: nothing to fall from


def test_a_fall_after_the_window_counts():
    rates = [1000, 1001, 999, 1002] + [1000 + i for i in range(8)] + [100 + i for i in range(8)]
    c = rate_fell(rates, PH, drop=0.3)
    assert c.phase == "after" and c.value < 200


def test_latency_needs_the_median_moved_past_the_floor_and_significance():
    p50s = [1000, 1010, 990, 1005] + [3100 + i for i in range(8)] + [1000 + i for i in range(8)]
    c = latency_rose(p50s, PH, {"before": 1000, "during": 3100, "after": 1000})
    assert c.measure == "latency" and c.phase == "during" and c.effect_a == 1.0 and c.p_value < ALPHA
    # the floor: max(2 x 1 ms, 1 ms + 2 ms) = 3 ms
    assert latency_rose(p50s, PH, {"before": 1000, "during": 2900, "after": 1000}) is None
    # past the floor but in one loop only: not significant
    spike = [1000, 1010, 990, 1005] + [50000] + [1000 + i for i in range(7)] + [1000 + i for i in range(8)]
    assert latency_rose(spike, PH, {"before": 1000, "during": 4000, "after": 1000}) is None
