"""Hypothesis tests used to compare configurations, all from scipy.stats.

- Shapiro–Wilk normality test (Shapiro & Wilk 1965; scipy.stats.shapiro): decides whether the
  t test's normality assumption is plausible (n ≥ 3).
- Welch's t test (Welch 1947; scipy.stats.ttest_ind with equal_var=False): means of two
  independent samples without assuming equal variances.
- Mann–Whitney U, a.k.a. Wilcoxon rank-sum (Mann & Whitney 1947; scipy.stats.mannwhitneyu):
  the distribution-free test the controller study (seed 002, §4.1) and asv use; exact p-values
  without ties (up to 100 per sample), the normal approximation with tie and continuity
  corrections otherwise.
- Wilcoxon signed-rank for paired samples (Wilcoxon 1945; scipy.stats.wilcoxon), e.g. the same
  switch measured on two set-ups as in the campus study.

``alternative`` is scipy's: ``two-sided``, ``less`` (first sample tends lower) or ``greater``.
``auto_test`` picks Welch's t when both samples pass Shapiro–Wilk at α, else Mann–Whitney U —
the study's "Wilcoxon or Student's t" choice, made explicit and recorded.
"""

from __future__ import annotations

import warnings
from dataclasses import asdict, dataclass
from typing import Optional, Sequence

import numpy as np
from scipy import stats as sps

from .summary import clean

ALPHA = 0.05      # the studies' significance level (seed 002 §4.1: "p-value < 0.05")


@dataclass
class TestResult:
    __test__ = False          # not a pytest test class
    test: str                 # "welch-t", "mann-whitney-u", "wilcoxon-signed-rank", "shapiro-wilk"
    statistic: Optional[float]
    p_value: Optional[float]
    alternative: str = "two-sided"
    note: str = ""            # why no p-value (too few samples, identical samples, ...)

    def significant(self, alpha: float = ALPHA) -> bool:
        return self.p_value is not None and self.p_value < alpha

    def to_dict(self) -> dict:
        return asdict(self)


def shapiro(values: Sequence) -> TestResult:
    x, _ = clean(values)
    if len(x) < 3:
        return TestResult("shapiro-wilk", None, None, note=f"needs n ≥ 3 (have {len(x)})")
    if x.max() == x.min():
        return TestResult("shapiro-wilk", None, None, note="all samples equal")
    r = sps.shapiro(x)
    return TestResult("shapiro-wilk", float(r.statistic), float(r.pvalue))


def welch_t(a: Sequence, b: Sequence, alternative: str = "two-sided") -> TestResult:
    x, y = clean(a)[0], clean(b)[0]
    if len(x) < 2 or len(y) < 2:
        return TestResult("welch-t", None, None, alternative, f"needs n ≥ 2 each (have {len(x)}, {len(y)})")
    if x.var() == 0 and y.var() == 0:
        return TestResult("welch-t", None, None, alternative, "both samples constant")
    r = sps.ttest_ind(x, y, equal_var=False, alternative=alternative)
    return TestResult("welch-t", float(r.statistic), float(r.pvalue), alternative)


def mann_whitney(a: Sequence, b: Sequence, alternative: str = "two-sided") -> TestResult:
    x, y = clean(a)[0], clean(b)[0]
    if len(x) < 1 or len(y) < 1:
        return TestResult("mann-whitney-u", None, None, alternative, "an empty sample")
    # Exact null distribution whenever it is valid (no ties) and cheap (n, m <= 100); scipy's
    # "auto" would switch to the normal approximation above n = 8, which for two samples of 10
    # gives p = 0.00101 where the exact answer is 0.00032.
    ties = len(np.unique(np.concatenate([x, y]))) < len(x) + len(y)
    method = "exact" if not ties and max(len(x), len(y)) <= 100 else "asymptotic"
    r = sps.mannwhitneyu(x, y, alternative=alternative, method=method)
    return TestResult("mann-whitney-u", float(r.statistic), float(r.pvalue), alternative)


def wilcoxon_signed(a: Sequence, b: Sequence, alternative: str = "two-sided") -> TestResult:
    """Paired samples: ``a[i]`` and ``b[i]`` are the same unit measured twice."""
    if len(a) != len(b):
        raise ValueError(f"paired test needs equal lengths ({len(a)} != {len(b)})")
    x, y = clean(a)[0], clean(b)[0]
    if len(x) != len(a) or len(y) != len(b):
        raise ValueError("paired test needs every pair finite")
    d = x - y
    if not d.any():
        return TestResult("wilcoxon-signed-rank", None, None, alternative, "all differences zero")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # scipy warns about small n; the exact method is fine
        r = sps.wilcoxon(x, y, alternative=alternative)
    return TestResult("wilcoxon-signed-rank", float(r.statistic), float(r.pvalue), alternative)


def auto_test(a: Sequence, b: Sequence, alternative: str = "two-sided",
              alpha: float = ALPHA) -> TestResult:
    """Welch's t if both samples look normal (Shapiro–Wilk p ≥ α), else Mann–Whitney U."""
    if all(s.p_value is not None and s.p_value >= alpha for s in (shapiro(a), shapiro(b))):
        return welch_t(a, b, alternative)
    return mann_whitney(a, b, alternative)


TESTS = {"auto": auto_test, "welch-t": welch_t, "mann-whitney-u": mann_whitney}
