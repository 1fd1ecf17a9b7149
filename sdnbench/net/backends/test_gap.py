"""Known-answer tests of the gap table (pure): known samples on both sides give known means,
gap, ratio and marks; conditions measured on one side only are left out."""

import pytest

from sdnbench.result import Result

from .gap import gap_rows, mark, markdown


def _result(rtts: dict, udp: dict, length: int = 1024) -> Result:
    r = Result(kind="net", benchmark="ping+udp", params={"udp": {"length": length}})
    for (sw, size), values in rtts.items():
        r.add("rtt", "ms", values, src="h3", dst="h1", size=size, rep=0, switch=sw)
    for sw, values in udp.items():
        r.add("udp_throughput", "Mbit/s", values, src="h3", dst="h1", rep=0, switch=sw)
    return r


def test_means_gap_ratio_and_significance_of_known_samples():
    emu = _result({("s2", 64): [1.0, 1.1, 0.9, 1.0, 1.05, 0.95, 1.0, 1.02],
                   ("s10", 64): [2.0, 2.0, 2.0]},
                  {"s2": [100.0, 100.0]})
    real = _result({("s2", 64): [3.0, 3.1, 2.9, 3.0, 3.05, 2.95, 3.0, 2.98],
                    ("s10", 64): [2.0, 2.0, 2.0],
                    ("s3", 64): [5.0]},          # only on the real side: no row
                   {"s2": [50.0, None]})         # a lost sample is not averaged
    rows = gap_rows([emu], [real])
    assert [(r.metric, r.where, r.size) for r in rows] == [
        ("rtt", "s2", 64), ("rtt", "s10", 64), ("udp_throughput", "s2", 1024)]
    s2 = rows[0]
    assert s2.emulated == pytest.approx(1.0025) and s2.real == pytest.approx(2.9975)
    assert s2.gap == pytest.approx(1.995) and s2.ratio == pytest.approx(2.9975 / 1.0025)
    assert s2.mark == "***" and s2.p_value < 0.001
    same = rows[1]
    assert same.gap == 0 and same.ratio == 1 and same.mark == "" and same.p_value == 1.0
    udp = rows[2]
    assert (udp.emulated, udp.real, udp.n_real, udp.mark) == (100.0, 50.0, 1, "")   # 3 samples: never significant
    text = markdown(rows, "mininet", "ssh")
    assert "| s2 | 64 | 1.002 | 2.998 | +1.995 | 2.99 |" in text and "UDP throughput (Mbit/s)" in text


def test_samples_pool_over_repetitions_and_results():
    a = [_result({("s1", 64): [1.0, 1.0]}, {}), _result({("s1", 64): [3.0, 3.0]}, {})]
    b = [_result({("s1", 64): [2.0, 2.0, 2.0, 2.0]}, {})]
    (row,) = gap_rows(a, b)
    assert (row.emulated, row.real, row.n_emulated, row.n_real, row.gap) == (2.0, 2.0, 4, 4, 0.0)


def test_marks():
    assert [mark(p) for p in (None, 0.2, 0.04, 0.009, 0.0001)] == ["n/a", "", "*", "**", "***"]
