"""Step detection in a series of per-run values, after asv's ``step_detect`` (reimplemented).

The series is fitted with a piecewise-constant function by minimising

    sum over segments of  sum |y_i - median(segment)|   +   gamma * (number of segments)

(an L1 "Potts" problem, solved exactly by dynamic programming; fine for the few hundred runs a
history holds). ``gamma`` is the price of one more segment: it is set from the noise of the
series, estimated robustly from successive differences (the median absolute difference of
neighbours, which a few steps barely move), times ``log(n)`` so that longer histories do not
produce more false steps. A level held by a single run is an outlier and is skipped. A step is then reported only if it is also large against that noise
(``min_sigmas``) and against the level (``min_relative``), so that a flat noisy series is not
flagged and a drift of a fraction of a percent is not called a regression.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median
from typing import Sequence

PENALTY = 4.0           # gamma = PENALTY * sigma * log(n + 1)
MIN_SIGMAS = 3.0        # a step smaller than this many noise sigmas is not reported
MIN_RELATIVE = 0.05     # nor one smaller than 5 % of the level before it
MIN_RUNS = 2            # a level held by fewer runs is an outlier, not a step


@dataclass(frozen=True)
class Step:
    index: int          # the first point of the new level
    before: float       # the level (median) before it
    after: float        # the level (median) from it on

    @property
    def change(self) -> float:
        """Relative change, after/before - 1 (inf when the level before was 0)."""
        if self.before == 0:
            return math.inf if self.after else 0.0
        return self.after / self.before - 1


def noise_sigma(y: Sequence[float]) -> float:
    """A robust noise estimate: 1.4826 * median |y[i+1] - y[i]| / sqrt(2)."""
    diffs = [abs(b - a) for a, b in zip(y, y[1:])]
    return 1.4826 * median(diffs) / math.sqrt(2) if diffs else 0.0


def _cost(y: Sequence[float], i: int, j: int) -> float:
    m = median(y[i:j])
    return sum(abs(v - m) for v in y[i:j])


def fit_segments(y: Sequence[float], gamma: float) -> list:
    """The exact L1 Potts fit: the start index of every segment (the first is 0)."""
    n = len(y)
    best = [0.0] + [math.inf] * n          # best[j]: cost of y[:j]
    start = [0] * (n + 1)
    for j in range(1, n + 1):
        for i in range(j):
            c = best[i] + gamma + _cost(y, i, j)
            if c < best[j]:
                best[j], start[j] = c, i
    cuts, j = [], n
    while j > 0:
        cuts.append(start[j])
        j = start[j]
    return sorted(cuts)


def detect_steps(y: Sequence[float], penalty: float = PENALTY, min_sigmas: float = MIN_SIGMAS,
                 min_relative: float = MIN_RELATIVE) -> list:
    """The steps in ``y`` that pass both size tests, oldest first."""
    y = [float(v) for v in y]
    if len(y) < 3:
        return []
    sigma = noise_sigma(y)
    scale = sigma or (1e-9 * max(1.0, max(abs(v) for v in y)))
    cuts = fit_segments(y, penalty * scale * math.log(len(y) + 1))
    segments = [(a, b) for a, b in zip(cuts, cuts[1:] + [len(y)]) if b - a >= MIN_RUNS]
    steps = []
    for (a0, b0), (a1, b1) in zip(segments, segments[1:]):
        before, after = median(y[a0:b0]), median(y[a1:b1])
        delta = abs(after - before)
        if delta >= min_sigmas * sigma and delta >= min_relative * abs(before):
            steps.append(Step(a1, before, after))
    return steps
