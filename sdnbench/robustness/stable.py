"""One verdict per case over its repetitions (issue 31). Pure.

Each case runs ``--reps`` times, each repetition against a fresh launch of the controller. The
case's verdict is the one that holds in every repetition; when the repetitions disagree it is
``unstable``, with the verdict of each repetition kept (``per_rep``), so a reader sees how
(e.g. ``hung, ignored, ignored``). A repetition that could not be measured (``unmeasured``: no
baseline, a starved controller or a starved load generator) makes no claim, so it neither agrees
nor disagrees: the verdict is the one every *measured* repetition gave, and the cell says how
many that were (``ignored (2/3; 1 unmeasured)``); with none measured the case is ``unmeasured``.
A case that was not applicable in every repetition is ``not applicable``; the summary counts
passes over the cases that were applicable and measured."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from .verdicts import PASSED, Verdict

UNSTABLE = "unstable"
NOT_COUNTED = ("not applicable", "unmeasured")


@dataclass
class Stable:
    case: str
    verdict: str               # the verdict every repetition gave, else "unstable"
    per_rep: list              # each repetition's verdict, in order
    restarted: bool = False    # the controller was restarted after this case in some repetition
    evidence: list = field(default_factory=list)   # each repetition's evidence

    @property
    def cell(self) -> str:
        """The table cell: the verdict, with the repetitions' verdicts when unstable."""
        text, n = self.verdict, len(self.per_rep)
        held = n - self.per_rep.count("unmeasured") if self.verdict != "unmeasured" else n
        if self.verdict == UNSTABLE:
            text += " (" + ", ".join(self.per_rep) + ")"
        elif n > 1:
            text += f" ({held}/{n}" + (f"; {n - held} unmeasured)" if held < n else ")")
        return text + (" restarted" if self.restarted else "")

    def to_dict(self) -> dict:
        return asdict(self)


def combine(verdicts: list) -> Stable:
    """The stable verdict of one case's repetitions (``Verdict`` list, in repetition order)."""
    if not verdicts:
        raise ValueError("combine needs at least one repetition")
    per = [v.verdict for v in verdicts]
    held = {p for p in per if p != "unmeasured"} or {"unmeasured"}   # an unmeasured repetition claims nothing
    verdict = held.pop() if len(held) == 1 else UNSTABLE
    return Stable(verdicts[0].case, verdict, per, any(v.restarted for v in verdicts),
                  [v.evidence for v in verdicts])


def score(stables: list) -> tuple:
    """(passed, applicable): passes (every repetition rejected or ignored) over the cases that
    were applicable and measured; an unstable case counts as applicable and not passed."""
    counted = [s for s in stables if s.verdict not in NOT_COUNTED]
    return sum(s.verdict in PASSED for s in counted), len(counted)


def by_case(verdicts: list) -> dict:
    """{case: Stable} from every repetition's ``Verdict`` (any order of cases, repetitions in order)."""
    grouped: dict = {}
    for v in verdicts:
        grouped.setdefault(v.case, []).append(v)
    return {c: combine(vs) for c, vs in grouped.items()}


__all__ = ["Stable", "Verdict", "by_case", "combine", "score", "UNSTABLE"]
