"""bench.py's efficiency summary: the user/system split per answered request and the paired
per-rep ratios (rows written here, as `_engine_row` and `_cbench_row` make them)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402


def test_cpu_split_per_answered_request():
    row = bench._cpu_split({"answered": 1_000_000, "per_cpu_s": 1.0}, user=0.03, system=0.01)
    assert row["user_ns_per_answered"] == 30.0
    assert abs(row["sys_ns_per_answered"] - 10.0) < 1e-9
    assert row["sys_share"] == 0.25
    assert bench._cpu_split({"answered": 0}, 0.0, 0.0)["sys_share"] is None


def test_paired_ratios_are_per_rep_not_of_means():
    a = [{"per_cpu_s": 10.0}, {"per_cpu_s": 30.0}, {"per_cpu_s": 12.0}]
    b = [{"per_cpu_s": 20.0}, {"per_cpu_s": 10.0}, {"per_cpu_s": 12.0}]
    p = bench.paired(a, b)
    assert p["per_rep"] == [0.5, 1.0, 3.0]
    assert (p["median"], p["min"], p["max"]) == (1.0, 0.5, 3.0)
    # the ratio of the means would read 52/42; the paired median says the reps disagree
    assert bench.paired([], []) == {}
