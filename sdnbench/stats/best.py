"""Best-scenario selection, the procedure of the controller study (seed 002, §4.1 and §4.3).

For one controller, the configurations (e.g. 1, 2, 4, ... 256 emulated switches) are ordered by
the parameter that varies. The study then:
1. tests two neighbouring configurations with a two-sided test (H0: "the distributions are
   equal"); p < 0.05 means they differ, and the one with the better median is better;
2. when they do not differ, runs one-sided tests (H0: "the first is not better than the
   second"), in both directions; p < 0.05 means the first is better ("better" is higher for
   throughput, lower for latency) — as POX's 128 vs 256 switches (Wilcoxon, p = 0.04203);
3. when neither is better, uses the median as the tiebreak — as Floodlight's 8 vs 16 switches
   (Student's t, p = 0.6126 and 0.3874).

Here the walk starts at the configuration with the best median and compares it with its
neighbours in parameter order; if a neighbour proves better the walk moves there (never back to
a configuration already left). Every test that was run is returned with its p-value, so a report
can say exactly why a configuration was chosen.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Optional

import numpy as np

from .significance import ALPHA, TESTS, TestResult
from .summary import clean

TWO_SIDED, ONE_SIDED, MEDIAN, ONLY = "two-sided", "one-sided", "median", "only candidate"


@dataclass
class Step:
    """One neighbour comparison: ``leader`` against ``other``."""

    leader: Any
    other: Any
    outcome: str                    # "better", "worse" (the neighbour is better) or "tie"
    tests: list = field(default_factory=list)   # TestResult, in the order they were run
    pairs: list = field(default_factory=list)   # (first, second) sample of each test


@dataclass
class Best:
    value: Any                      # the chosen configuration (the varying parameter's value)
    median: float
    decided_by: str                 # two-sided, one-sided, median, or "only candidate"
    tied_with: list = field(default_factory=list)
    steps: list = field(default_factory=list)    # Step, in the order they were run
    skipped: list = field(default_factory=list)  # configurations without samples (all failed)

    def to_dict(self) -> dict:
        return asdict(self)

    def p_values(self) -> list:
        """(first, second, test, alternative, p) for every test that was run; a one-sided test
        asks whether ``first`` is better than ``second``."""
        return [(a, b, t.test, t.alternative, t.p_value)
                for s in self.steps for t, (a, b) in zip(s.tests, s.pairs)]


def best_scenario(samples: dict, higher_is_better: bool, test: str = "auto",
                  alpha: float = ALPHA) -> Optional[Best]:
    """``samples`` maps each configuration value to its repetitions' values. None if all empty."""
    run_test: Callable[..., TestResult] = TESTS[test]
    data = {k: clean(v)[0] for k, v in samples.items()}
    skipped = [k for k, v in data.items() if len(v) == 0]
    order = sorted((k for k in data if len(data[k])), key=_sort_key)
    if not order:
        return None
    med = {k: float(np.median(data[k])) for k in order}
    sign = 1.0 if higher_is_better else -1.0
    leader = max(order, key=lambda k: (sign * med[k], sign * float(np.mean(data[k]))))
    if len(order) == 1:
        return Best(leader, med[leader], ONLY, skipped=skipped)

    better_alt = "greater" if higher_is_better else "less"
    steps: list = []
    left = {leader}
    while True:
        i = order.index(leader)
        neighbours = [order[j] for j in (i - 1, i + 1) if 0 <= j < len(order)]
        new_steps = [_compare(leader, nb, data, med, sign, run_test, better_alt, alpha)
                     for nb in neighbours]
        steps += new_steps
        winners = [s.other for s in new_steps if s.outcome == "worse" and s.other not in left]
        if not winners:
            break
        leader = max(winners, key=lambda k: sign * med[k])
        left.add(leader)

    final = [s for s in steps if s.leader == leader]
    tied = [s.other for s in final if s.outcome == "tie"]
    if tied:
        # Step 3: no test separates them; the better median wins (the leader on equal medians).
        pool = [leader] + tied
        chosen = max(pool, key=lambda k: (sign * med[k], k == leader))
        return Best(chosen, med[chosen], MEDIAN, [k for k in pool if k != chosen], steps, skipped)
    how = ONE_SIDED if any(len(s.tests) > 1 for s in final) else TWO_SIDED
    return Best(leader, med[leader], how, [], steps, skipped)


def _compare(leader, other, data, med, sign, run_test, better_alt, alpha) -> Step:
    a, b = data[leader], data[other]
    fwd_pair, rev_pair = (leader, other), (other, leader)
    two = run_test(a, b, "two-sided")
    if two.significant(alpha):
        return Step(leader, other, "better" if sign * (med[leader] - med[other]) >= 0 else "worse",
                    [two], [fwd_pair])
    fwd = run_test(a, b, better_alt)
    if fwd.significant(alpha):
        return Step(leader, other, "better", [two, fwd], [fwd_pair, fwd_pair])
    rev = run_test(b, a, better_alt)
    outcome = "worse" if rev.significant(alpha) else "tie"
    return Step(leader, other, outcome, [two, fwd, rev], [fwd_pair, fwd_pair, rev_pair])


def _sort_key(v: Any):
    # Numbers in numeric order, then everything else by its text.
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return (0, float(v), "")
    try:
        return (0, float(v), "")
    except (TypeError, ValueError):
        return (1, 0.0, str(v))
