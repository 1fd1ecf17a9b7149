"""Statistics over raw samples (scipy): summaries, significance tests, best-scenario selection.

- ``summary.summarize(values)``: n, mean, median, sample stdev/variance (n − 1), min/max,
  percentiles and the 95% t confidence interval of the mean.
- ``significance``: Shapiro–Wilk, Welch's t, Mann–Whitney U, Wilcoxon signed-rank, and the
  ``auto_test`` choice between Welch and Mann–Whitney.
- ``best.best_scenario(samples_by_config, higher_is_better)``: the controller study's procedure.
- ``direction.higher_is_better(metric, unit)``: which way is better for a metric.

Everything here is pure: lists of numbers in, dataclasses out.
"""

from .best import Best, best_scenario
from .direction import higher_is_better
from .significance import (ALPHA, TestResult, auto_test, mann_whitney, shapiro, welch_t,
                           wilcoxon_signed)
from .summary import Summary, summarize

__all__ = ["Best", "best_scenario", "higher_is_better", "ALPHA", "TestResult", "auto_test",
           "mann_whitney", "shapiro", "welch_t", "wilcoxon_signed", "Summary", "summarize"]
