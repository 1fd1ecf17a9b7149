"""The statistics a report shows: a thin adapter over ``sdnbench.stats``, so a report and
``sdnbench compare`` can never disagree. It only reshapes results for tables and plots.

- Sample variance and standard deviation use n−1 (RFC 8456 §4.7; the campus study's rows).
- Best scenario: the controller study's procedure (``sdnbench.stats.best``).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..stats import ALPHA, best_scenario, higher_is_better, summarize  # noqa: F401

PERCENTILES = (50, 90, 99)


def describe(values: Sequence[float]) -> dict:
    """n, mean, stdev, var (both n−1), min, median, max and p50/p90/p99 of raw samples."""
    s = summarize(values, percentiles=PERCENTILES)
    return {"n": s.n, "mean": s.mean, "stdev": s.stdev, "var": s.variance, "min": s.min,
            "median": s.median, "max": s.max, "p50": s.percentiles.get("p50"),
            "p90": s.percentiles.get("p90"), "p99": s.percentiles.get("p99")}


def ecdf(values: Sequence[float]) -> tuple:
    """Sorted samples and their cumulative fractions (i/n), for a CDF plot."""
    a = np.sort(np.asarray(list(values), dtype=float))
    return a, np.arange(1, a.size + 1) / a.size if a.size else np.array([])
