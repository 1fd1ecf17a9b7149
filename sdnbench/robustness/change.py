"""Did the background's service change over a case? A significance test over its loop samples,
and an effect size large enough to matter (issue 31). Pure.

The samples are the measured loops (250 ms each): 3 or 4 before the case, 8 or 9 in the
window, 7 or 8 after (the loops' clock starts when the switches are up). Each phase after the
case start is compared with the loops before it by a one-sided Mann–Whitney U test
(``sdnbench.stats.significance.mann_whitney``: exact without ties, the normal approximation
with tie correction otherwise). A change counts when both hold:

- it is significant: p < ``ALPHA`` (with 3 loops against 8 the smallest exact one-sided p is
  1/165 = 0.006, with 4 against 8 1/495 = 0.002, so 0.01 can be reached by a change that holds
  over the loops, and one stalled loop cannot reach it);
- it is large: rate, the phase's mean answered rate more than ``drop`` below the mean before;
  latency, the phase's pooled median above max(``P50_FACTOR`` × the median before, the median
  before + ``P50_SLACK_MS``) (a shared 2-core machine moves a fast controller's median by a
  millisecond; a denial of service moves it by more).

The effect size reported with it is the common-language effect size A = U / (n₁ n₂): the
probability that a loop before the case was better than a loop of the phase (1.0: every one).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from statistics import fmean
from typing import Optional

ALPHA = 0.01
TEST = "one-sided Mann-Whitney U"
P50_FACTOR = 2.0
P50_SLACK_MS = 2.0


@dataclass
class Change:
    """A significant, large change of one measure over one phase."""
    measure: str            # "rate" or "latency"
    phase: str              # "during" or "after"
    p_value: float
    effect_a: float         # U / (n1 n2), the probability a loop before beat a loop of the phase
    before: float           # mean rate (/s) or pooled median latency (µs) before
    value: float            # the same for the phase
    n_before: int           # loop samples
    n_phase: int

    def text(self) -> str:
        if self.measure == "rate":
            what = (f"rate fell {1 - self.value / self.before:.0%} ({self.before:,.0f} → {self.value:,.0f} "
                    f"answered/s {self.phase})")
        else:
            what = f"latency p50 rose {self.before / 1000:,.2f} → {self.value / 1000:,.2f} ms {self.phase}"
        return (f"{what}; {TEST} over {self.n_before} loops before vs {self.n_phase} {self.phase}: "
                f"p = {self.p_value:.3g} < {ALPHA}, A = {self.effect_a:.2f}")

    def to_dict(self) -> dict:
        return dict(asdict(self), test=TEST, alpha=ALPHA)


def _test(before: list, phase: list, alternative: str) -> tuple:
    """(p, A) of before vs phase; ``alternative`` "greater": before tends higher."""
    from ..stats.significance import mann_whitney
    r = mann_whitney(before, phase, alternative=alternative)
    if r.p_value is None or r.statistic is None:
        return 1.0, 0.5
    a = r.statistic / (len(before) * len(phase))
    return r.p_value, (a if alternative == "greater" else 1 - a)


def rate_fell(rates: list, phases: list, drop: float) -> Optional[Change]:
    """The first phase ("during", then "after") whose loop rates fell significantly and by more
    than ``drop`` of the mean before; ``rates[i]`` is loop i's answered/s, ``phases[i]`` its phase."""
    before = [r for r, ph in zip(rates, phases) if ph == "before"]
    if len(before) < 2 or not fmean(before):
        return None
    for name in ("during", "after"):
        x = [r for r, ph in zip(rates, phases) if ph == name]
        if len(x) < 2 or fmean(x) >= (1 - drop) * fmean(before):
            continue
        p, a = _test(before, x, "greater")
        if p < ALPHA:
            return Change("rate", name, p, a, fmean(before), fmean(x), len(before), len(x))
    return None


def latency_rose(p50s: list, phases: list, pooled: dict) -> Optional[Change]:
    """The first phase whose loops' median latencies rose significantly, with the phase's pooled
    median (``pooled[phase]``, µs) above the limit. ``p50s[i]``: loop i's median (None: no sample)."""
    before = [x for x, ph in zip(p50s, phases) if ph == "before" and x is not None]
    m = pooled.get("before")
    if len(before) < 2 or m is None:
        return None
    limit = max(P50_FACTOR * m, m + P50_SLACK_MS * 1000.0)
    for name in ("during", "after"):
        x = [v for v, ph in zip(p50s, phases) if ph == name and v is not None]
        if len(x) < 2 or pooled.get(name) is None or pooled[name] <= limit:
            continue
        p, a = _test(before, x, "less")
        if p < ALPHA:
            return Change("latency", name, p, a, m, pooled[name], len(before), len(x))
    return None
