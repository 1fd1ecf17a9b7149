"""The stable verdict over repetitions and the score over applicable cases (stable.py)."""

import pytest

from sdnbench.robustness.stable import by_case, combine, score
from sdnbench.robustness.verdicts import Verdict


def v(case, verdict, restarted=False):
    return Verdict(case, verdict, f"{verdict} because", restarted=restarted)


def test_the_verdict_that_holds_in_every_repetition():
    s = combine([v("a", "hung", True), v("a", "hung", True), v("a", "hung", True)])
    assert (s.verdict, s.per_rep, s.restarted) == ("hung", ["hung"] * 3, True)
    assert s.cell == "hung (3/3) restarted"


def test_disagreeing_repetitions_are_unstable_with_each_shown():
    s = combine([v("a", "degraded"), v("a", "ignored"), v("a", "ignored")])
    assert s.verdict == "unstable" and s.cell == "unstable (degraded, ignored, ignored)"
    assert s.evidence == ["degraded because", "ignored because", "ignored because"]
    with pytest.raises(ValueError):
        combine([])


def test_score_counts_passes_over_applicable_measured_cases():
    got = by_case([v("a", "ignored"), v("b", "not applicable"), v("c", "unmeasured"), v("d", "rejected"),
                   v("e", "hung"), v("a", "ignored"), v("f", "rejected"), v("f", "ignored")])
    assert got["a"].verdict == "ignored" and got["f"].verdict == "unstable"
    assert score(list(got.values())) == (2, 4)        # a, d pass; e hung; f unstable: not a pass


def test_an_unmeasured_repetition_claims_nothing():
    s = combine([v("a", "ignored"), v("a", "unmeasured"), v("a", "ignored")])
    assert (s.verdict, s.cell) == ("ignored", "ignored (2/3; 1 unmeasured)")
    s = combine([v("a", "degraded"), v("a", "unmeasured"), v("a", "ignored")])
    assert s.cell == "unstable (degraded, unmeasured, ignored)"
    s = combine([v("a", "unmeasured")] * 3)
    assert (s.verdict, s.cell) == ("unmeasured", "unmeasured (3/3)")
    assert score([combine([v("a", "rejected"), v("a", "unmeasured")]), s]) == (1, 1)
