"""Steps in a history, as alerts: which condition, the run where the new level began, and
whether it is a regression (worse, by the metric's direction) or an improvement."""

from __future__ import annotations

from dataclasses import dataclass

from ..stats.direction import higher_is_better
from .collect import History
from .steps import Step, detect_steps


@dataclass(frozen=True)
class Alert:
    condition: str
    run_id: int             # the first run at the new level
    previous_run: int       # the last run at the old level
    step: Step
    regression: bool

    @property
    def word(self) -> str:
        return "regression" if self.regression else "improvement"


def alerts(history: History) -> list:
    higher = higher_is_better(history.metric, history.unit)
    found = []
    for cond in history.conditions:
        ids, values = history.series(cond)
        for step in detect_steps(values):
            worse = step.after < step.before if higher else step.after > step.before
            found.append(Alert(cond, ids[step.index], ids[step.index - 1], step, worse))
    return found
