"""Descriptive statistics of one sample (the repetitions of one cell, or one series' samples).

Conventions, and where they come from:
- variance and standard deviation use the sample (n − 1, Bessel) denominator, as RFC 8456 §5
  ("standard deviation" of the trials) and the seed studies do (the campus study's Table 1 gives
  stdev 0.177 / var 0.031 for latencies whose n−1 stdev is 0.1768; with n it would be 0.168);
- the confidence interval of the mean is Student's t interval, mean ± t(1−α/2, n−1)·s/√n
  (Montgomery & Runger, Applied Statistics and Probability for Engineers, §8.2), 95% by default;
- percentiles use linear interpolation between order statistics (numpy's default, Hyndman & Fan
  type 7), the same as R's default ``quantile`` that boxplots in the studies were drawn with.
Non-finite samples (NaN, ±inf) and ``None`` (a lost probe) are left out and counted in ``dropped``.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Iterable, Optional, Sequence

import numpy as np
from scipy import stats as sps

DEFAULT_PERCENTILES = (5, 25, 50, 75, 95, 99)


@dataclass
class Summary:
    n: int
    mean: Optional[float]
    median: Optional[float]
    stdev: Optional[float]          # sample (n − 1)
    variance: Optional[float]       # sample (n − 1)
    min: Optional[float]
    max: Optional[float]
    ci_low: Optional[float]         # t confidence interval of the mean
    ci_high: Optional[float]
    confidence: float = 0.95
    percentiles: dict = field(default_factory=dict)   # "p50" -> value
    dropped: int = 0                # None / NaN / inf samples left out

    def to_dict(self) -> dict:
        return asdict(self)


def clean(values: Iterable) -> tuple:
    """The finite numeric samples as a float array, and how many others were dropped."""
    vals = [v for v in values]
    keep = [float(v) for v in vals
            if v is not None and not isinstance(v, bool) and isinstance(v, (int, float))
            and math.isfinite(v)]
    return np.asarray(keep, dtype=float), len(vals) - len(keep)


def summarize(values: Iterable, confidence: float = 0.95,
              percentiles: Sequence[float] = DEFAULT_PERCENTILES) -> Summary:
    x, dropped = clean(values)
    n = len(x)
    if n == 0:
        return Summary(0, None, None, None, None, None, None, None, None, confidence, {}, dropped)
    mean = float(np.mean(x))
    pct = {f"p{_fmt(p)}": float(np.percentile(x, p)) for p in percentiles}
    if n < 2:
        return Summary(n, mean, float(x[0]), None, None, float(x[0]), float(x[0]), None, None,
                       confidence, pct, dropped)
    var = float(np.var(x, ddof=1))
    sd = math.sqrt(var)
    lo, hi = t_interval(mean, sd, n, confidence)
    return Summary(n, mean, float(np.median(x)), sd, var, float(x.min()), float(x.max()), lo, hi,
                   confidence, pct, dropped)


def t_interval(mean: float, sd: float, n: int, confidence: float = 0.95) -> tuple:
    """Student's t interval for the mean: mean ± t(1−α/2, n−1)·sd/√n."""
    half = float(sps.t.ppf(0.5 + confidence / 2, n - 1)) * sd / math.sqrt(n)
    return mean - half, mean + half


def _fmt(p: float) -> str:
    return str(int(p)) if float(p).is_integer() else str(p).replace(".", "_")
