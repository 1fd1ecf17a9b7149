"""The statistics a report shows, computed from raw samples.

This is a thin adapter: when ``sdnbench.stats`` provides a function we use it, so a report and
``sdnbench compare`` can never disagree; the fallbacks below only cover what it lacks.

- Sample variance and standard deviation use n−1 (RFC 8456 §4.7: variance = Σ(x−mean)²/(n−1));
  the campus study's stdev/var rows are the same sample statistics.
- "Is A better than B" is the one-sided Wilcoxon rank-sum (Mann–Whitney U) test at α = 0.05, as
  the controller benchmark study uses to pick each controller's best scenario.
"""

from __future__ import annotations

import math
from typing import Optional, Sequence

import numpy as np

ALPHA = 0.05  # significance level of the controller benchmark study (95 % confidence)

_HIGHER_WORDS = ("throughput", "rate", "bitrate", "bandwidth", "flows", "goodput", "capacity",
                 "sessions", "connections", "bps", "pps")
_LOWER_WORDS = ("latency", "delay", "rtt", "jitter", "loss", "time", "duration", "lost", "drop")


def describe(values: Sequence[float]) -> dict:
    """n, mean, stdev, var (both n−1), min, median, max and p90/p99 of raw samples."""
    a = np.asarray(list(values), dtype=float)
    n = int(a.size)
    if n == 0:
        return {"n": 0, "mean": None, "stdev": None, "var": None, "min": None,
                "median": None, "max": None, "p90": None, "p99": None}
    var = float(a.var(ddof=1)) if n > 1 else None
    return {"n": n, "mean": float(a.mean()), "stdev": math.sqrt(var) if var is not None else None,
            "var": var, "min": float(a.min()), "median": float(np.median(a)),
            "max": float(a.max()), "p90": float(np.percentile(a, 90)),
            "p99": float(np.percentile(a, 99))}


def higher_is_better(metric: str, unit: str = "") -> Optional[bool]:
    """Whether a larger value is better, guessed from the metric's name and unit."""
    name = metric.lower()
    if any(w in name for w in _LOWER_WORDS):
        return False
    if any(w in name for w in _HIGHER_WORDS):
        return True
    u = (unit or "").lower()
    if u.endswith("/s") or u.endswith("ps"):
        return True
    if u in ("s", "ms", "us", "µs", "ns", "%"):
        return False
    return None


def p_better(a: Sequence[float], b: Sequence[float], higher: bool) -> Optional[float]:
    """One-sided p-value for "a is better than b" (Wilcoxon rank-sum / Mann–Whitney U)."""
    if len(a) < 2 or len(b) < 2:
        return None
    from scipy.stats import mannwhitneyu
    if np.ptp(np.concatenate([a, b])) == 0:
        return 1.0  # identical samples: neither is better
    res = mannwhitneyu(a, b, alternative="greater" if higher else "less")
    return float(res.pvalue)


def ecdf(values: Sequence[float]) -> tuple:
    """Sorted samples and their cumulative fractions (i/n), for a CDF plot."""
    a = np.sort(np.asarray(list(values), dtype=float))
    return a, np.arange(1, a.size + 1) / a.size if a.size else np.array([])
