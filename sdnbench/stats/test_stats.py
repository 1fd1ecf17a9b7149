"""Known answers: computed by hand (shown in comments) or published."""

import math

import pytest

from sdnbench.stats import (best_scenario, higher_is_better, mann_whitney, shapiro, summarize,
                            welch_t, wilcoxon_signed)
from sdnbench.stats.significance import auto_test

# The campus study (seed 000), Table 1, 64-byte column: per-switch latency on Mininet (ms).
MININET_64 = [2.228, 2.341, 2.221, 2.611, 2.288, 2.581, 2.344, 2.731, 2.444, 2.553]
# Table 2, 64-byte column: the prototype switch.
PROTOTYPE_64 = [2.622, 3.211, 2.345, 3.445, 3.467, 3.567, 3.765, 3.541, 3.333, 3.489]


def test_summary_matches_the_published_campus_table():
    # Published: avg 2.434, stdev 0.177, var 0.031 (Mininet); 3.279, 0.448, 0.201 (prototype).
    m, p = summarize(MININET_64), summarize(PROTOTYPE_64)
    assert (round(m.mean, 4), round(m.stdev, 3), round(m.variance, 3)) == (2.4342, 0.177, 0.031)
    assert (round(p.mean, 4), round(p.stdev, 3), round(p.variance, 3)) == (3.2785, 0.448, 0.201)


def test_summary_by_hand():
    s = summarize([1, 2, 3, 4, 5, None, float("nan")])
    # mean 3; squared deviations 4+1+0+1+4 = 10; var = 10/4 = 2.5; sd = 1.58114
    assert (s.n, s.mean, s.median, s.variance, s.min, s.max, s.dropped) == (5, 3.0, 3.0, 2.5, 1.0, 5.0, 2)
    assert s.stdev == pytest.approx(math.sqrt(2.5))
    # t(0.975, 4) = 2.776445 (Student's t table); half width = 2.776445 * 1.58114 / sqrt(5) = 1.963243
    assert s.ci_low == pytest.approx(3 - 1.963243, abs=1e-6)
    assert s.ci_high == pytest.approx(3 + 1.963243, abs=1e-6)
    # type-7 percentiles: p25 = x[1] = 2, p5 = 1 + 0.2 * (2 - 1) = 1.2
    assert s.percentiles["p25"] == 2.0 and s.percentiles["p5"] == pytest.approx(1.2)


def test_summary_degenerate_samples():
    assert summarize([]).n == 0 and summarize([]).mean is None
    one = summarize([7])
    assert (one.n, one.mean, one.stdev, one.ci_low) == (1, 7.0, None, None)


def test_shapiro_wilk_published_example():
    # Shapiro & Wilk (1965), weights of 11 men: W = 0.79, significant at the 1% level.
    r = shapiro([148, 154, 158, 160, 161, 162, 166, 170, 182, 195, 236])
    assert round(r.statistic, 2) == 0.79 and r.p_value < 0.01
    assert shapiro([1, 2]).p_value is None


def test_welch_t_by_hand():
    # a: mean 3, var 2.5; b: mean 6, var 10; se = sqrt(2.5/5 + 10/5) = sqrt(2.5)
    # t = (3 - 6) / 1.581139 = -1.897367
    # df = 2.5^2 / (0.5^2/4 + 2^2/4) = 6.25 / 1.0625 = 5.882353
    r = welch_t([1, 2, 3, 4, 5], [2, 4, 6, 8, 10])
    assert r.statistic == pytest.approx(-1.897367, abs=1e-6)
    from scipy.stats import t
    assert r.p_value == pytest.approx(2 * t.sf(1.897367, 5.882353), rel=1e-5)
    assert r.p_value == pytest.approx(0.1076, abs=5e-4)


def test_mann_whitney_exact_by_hand():
    # No overlap, n = m = 3: U = 0; only 1 of C(6,3) = 20 orderings is as extreme on each side:
    # two-sided p = 2/20 = 0.1, one-sided p = 1/20 = 0.05.
    r = mann_whitney([1, 2, 3], [4, 5, 6])
    assert (r.statistic, r.p_value) == (0.0, pytest.approx(0.1))
    assert mann_whitney([1, 2, 3], [4, 5, 6], "less").p_value == pytest.approx(0.05)
    # n = m = 5 without overlap: 2 / C(10,5) = 2/252
    assert mann_whitney([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]).p_value == pytest.approx(2 / 252)


def test_mann_whitney_is_exact_for_ten_against_ten():
    # The campus study's 64-byte latencies: prototype ranks sum to 149 -> U = 94; enumerating
    # all C(20,10) splits gives 60 at least as extreme (both tails): p = 60/184756.
    r = mann_whitney(PROTOTYPE_64, MININET_64)
    assert r.statistic == 94 and r.p_value == pytest.approx(60 / 184756)
    assert mann_whitney([1, 1, 2], [2, 3, 3]).p_value is not None     # ties: normal approximation


def test_wilcoxon_signed_rank_exact_by_hand():
    # Differences 1..5, all positive: W+ = 15, W- = 0; P(W- = 0) = 1/2^5, two-sided p = 2/32.
    r = wilcoxon_signed([2, 4, 6, 8, 10], [1, 2, 3, 4, 5])
    assert r.statistic == 0.0 and r.p_value == pytest.approx(0.0625)
    assert wilcoxon_signed([2, 4, 6, 8, 10], [1, 2, 3, 4, 5], "greater").p_value == pytest.approx(1 / 32)
    with pytest.raises(ValueError):
        wilcoxon_signed([1, 2], [1])


def test_auto_test_uses_welch_for_normal_and_mann_whitney_otherwise():
    # Shapiro-Wilk: MININET_64 p = 0.45 (normal enough); PROTOTYPE_64 p = 0.025 (not).
    assert auto_test(MININET_64, [x + 1 for x in MININET_64]).test == "welch-t"
    assert auto_test(MININET_64, PROTOTYPE_64).test == "mann-whitney-u"


def test_direction():
    assert higher_is_better("throughput", "flows/s")
    assert not higher_is_better("latency", "ms")
    assert not higher_is_better("rtt", "ms")
    assert higher_is_better("bitrate", "bit/s")
    assert not higher_is_better("loss", "%")
    assert higher_is_better("latency", "ms", {"latency": True})


# -- best scenario ------------------------------------------------------------------------

def test_best_is_clear_by_two_sided_tests():
    # 4 switches is best; its neighbours 2 and 8 are entirely below it: exact MWU p = 2/252.
    samples = {1: [10, 11, 12, 13, 14], 2: [20, 21, 22, 23, 24], 4: [40, 41, 42, 43, 44],
               8: [30, 31, 32, 33, 34], 16: []}
    b = best_scenario(samples, higher_is_better=True, test="mann-whitney-u")
    assert (b.value, b.decided_by, b.median, b.skipped) == (4, "two-sided", 42.0, [16])
    assert b.p_values() == [(4, 2, "mann-whitney-u", "two-sided", pytest.approx(2 / 252)),
                            (4, 8, "mann-whitney-u", "two-sided", pytest.approx(2 / 252))]


def test_best_decided_by_one_sided_test_like_pox_128_vs_256():
    # 128 vs 256 overlap: the two-sided test is not significant, but 128 tends higher.
    # Ranks of 128's samples among the 12: 4,6,8,10,11,12, sum 51 -> U = 51 - 21 = 30.
    # Exact one-sided p = #{6-subsets of ranks 1..12 with sum >= 51} / C(12,6) = 30/924.
    a = [103, 105, 107, 109, 110, 112]
    b = [100, 101, 102, 104, 106, 108]
    import itertools
    extreme = sum(1 for c in itertools.combinations(range(1, 13), 6) if sum(c) >= 51)
    assert (extreme, math.comb(12, 6)) == (30, 924)
    samples = {64: [50, 51, 52, 53, 54, 55], 128: a, 256: b}
    two = mann_whitney(a, b)
    one = mann_whitney(a, b, "greater")
    assert one.statistic == 30 and one.p_value == pytest.approx(30 / 924)
    assert two.p_value == pytest.approx(60 / 924)
    assert two.p_value >= 0.05 > one.p_value      # the situation the study describes
    best = best_scenario(samples, higher_is_better=True, test="mann-whitney-u")
    assert (best.value, best.decided_by) == (128, "one-sided")
    assert (128, 256, "mann-whitney-u", "greater", pytest.approx(one.p_value)) in best.p_values()


def test_best_falls_back_to_the_median_like_floodlight_8_vs_16():
    samples = {4: [1, 2, 3, 4, 5, 6], 8: [14, 20, 11, 17, 13, 19], 16: [12, 18, 15, 16, 10, 21]}
    best = best_scenario(samples, higher_is_better=True, test="mann-whitney-u")
    # medians: 8 -> 15.5, 16 -> 15.5... equal medians keep the leader chosen by mean (8: 15.67, 16: 15.33)
    assert best.decided_by == "median" and best.value == 8 and best.tied_with == [16]
    tests = [t for s in best.steps if s.other == 16 for t in s.tests]
    assert [t.alternative for t in tests] == ["two-sided", "greater", "greater"]
    # the last test asks the reverse question: is 16 better than 8?
    assert [(a, b, alt) for a, b, _, alt, _ in best.p_values() if 16 in (a, b)] == \
        [(8, 16, "two-sided"), (8, 16, "greater"), (16, 8, "greater")]


def test_best_lower_is_better_moves_to_a_better_neighbour():
    # latency: lowest median is 32; but test the walk: every config distinct
    samples = {16: [9.9, 10.0, 10.1, 10.2, 10.3], 32: [4.6, 4.7, 4.8, 4.9, 5.0],
               64: [6.0, 6.1, 6.2, 6.3, 6.4]}
    best = best_scenario(samples, higher_is_better=False, test="mann-whitney-u")
    assert (best.value, best.decided_by) == (32, "two-sided")
    assert best_scenario({"a": [1.0]}, True).decided_by == "only candidate"
    assert best_scenario({"a": []}, True) is None


# -- ratio of means ------------------------------------------------------------------------

def test_ratio_of_means_by_hand():
    from sdnbench.stats.ratio import ratio_of_means
    # a: mean 12, s 2, se 1.1547; b: mean 6, s 1, se 0.57735; relative errors both 0.096225
    # se_r = 2 · √2 · 0.096225 = 0.27217; ν = (2u)² / (u²/2 + u²/2) = 4; t(0.975, 4) = 2.7764
    r = ratio_of_means([10, 12, 14], [5, 6, 7])
    assert r.value == 2.0 and r.dof == pytest.approx(4.0)
    assert r.half == pytest.approx(2.7764 * 0.27217, rel=1e-4)
    assert ratio_of_means([1, 2], [3]) is None and ratio_of_means([0, 0], [1, 2]) is None
    assert ratio_of_means([2, 2], [1, 1]).half == 0.0
