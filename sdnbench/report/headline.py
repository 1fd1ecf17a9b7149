"""The headline a report opens with: what was compared, who won each metric and by how much,
whether that is significant, the best scenario, and the warnings that change how to read it.

Pure: from observations and runs to a ``Section`` of sentences. One sentence per headline
metric (the engine's side metrics, warm-up and bookkeeping series stay in their sections).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from statistics import fmean
from typing import Optional

from .. import fmt
from ..stats.best import MEDIAN, ONLY, best_scenario
from ..stats.ratio import ratio_of_means
from ..stats.significance import auto_test
from ..stats.summary import summarize
from .model import Section
from .observations import cells, layout_for, line_name
from .summary import higher_is_better

ALPHA = 0.05
MAX_SENTENCES = 8


def headline(runs: list, groups: list, section_rank) -> Section:
    """``groups``: ``((kind, metric, unit, mode), observations)`` pairs, in report order."""
    s = Section(title="Headline")
    setups = _setups(groups)
    s.text.append(_compared(runs, setups))
    said = 0
    for (kind, metric, unit, mode), group in groups:
        side, rank, _ = section_rank(kind, metric, unit, mode)
        if side or rank[0] == 2 or said >= MAX_SENTENCES:
            continue
        s.text.append(metric_sentence(metric, unit, mode, group))
        said += 1
    s.text += [f"Warning: {w}" for w in warnings(runs)]
    return s


def _setups(groups: list) -> list:
    names: list = []
    for _, group in groups:
        lay = layout_for(group)
        for o in group:
            n = line_name(o.factors, lay.lines)
            if n != "all" and n not in names:
                names.append(n)
    return names


def _compared(runs: list, setups: list) -> str:
    n = sum(len(r.results) for r in runs)
    what = (f"{fmt.plural(len(setups), 'set-up')} compared: {', '.join(setups)}"
            if len(setups) > 1 else f"one set-up ({setups[0]})" if setups else "one set-up")
    return f"{what}; {fmt.plural(n, 'result')} from {fmt.plural(len(runs), 'run')}."


def metric_sentence(metric: str, unit: str, mode: Optional[str], group: list) -> str:
    """One finding per metric, hyperfine's way: who is better, by how many times ± what, how
    sure; with one set-up, its mean ± 95% interval; then the best scenario along the varied
    parameter, chosen by the study's procedure (``stats.best``) and why."""
    lay = layout_for(group)
    keys = lay.lines + [k for k in (lay.row, lay.x) if k]
    by_key = cells(group, keys)
    higher = higher_is_better(metric, unit)
    pooled: "OrderedDict[str, list]" = OrderedDict()
    per_x: dict = {}
    # One value per repetition when any cell was repeated (as the report's tables), else the
    # samples: both sides of a comparison are counted the same way.
    repeated = max(len(c.reps) for c in by_key.values()) > 1
    for c in by_key.values():
        name = line_name(c.factors, lay.lines)
        vals = c.rep_values if repeated else c.samples
        pooled.setdefault(name, []).extend(vals)
        if lay.x:
            per_x.setdefault(name, {}).setdefault(c.factors.get(lay.x), []).extend(vals)
    what = metric.replace("_", " ") + (f" ({mode} mode)" if mode and mode not in metric else "")
    means = {n: fmean(v) for n, v in pooled.items() if v}
    order = sorted(means, key=lambda n: means[n], reverse=higher)
    show = _Shown(list(means.values()), unit)
    best = order[0]
    if len(order) == 1:
        text = f"{what}: {show.mean_ci(pooled[best])} (mean ± 95% interval, n = {len(pooled[best])})"
    else:
        text = f"{what}: {_versus(best, order[1], pooled, higher, show)}"
    scenario = _best_scenario(per_x.get(best), lay.x, higher, show) if lay.x else None
    return text + (f"; {scenario}" if scenario else "") + "."


class _Shown:
    """Numbers of one metric in one unit (the largest mean decides it), each with its interval."""

    def __init__(self, means: list, unit: str):
        self.factor, self.unit = fmt.scale_factor(means, unit)

    def mean_ci(self, values: list, with_unit: bool = True) -> str:
        s = summarize(values)
        u = f" {self.unit}" if with_unit and self.unit else ""
        half = (s.ci_high - s.mean) / self.factor if s.ci_high is not None else None
        return f"{fmt.plus_minus(s.mean / self.factor, half)}{u}"


def _versus(best: str, second: str, pooled: dict, higher: bool, show: _Shown) -> str:
    a, b = pooled[best], pooled[second]
    t = auto_test(a, b)
    n = f"n = {len(a)} vs {len(b)}"
    test = (f"{t.test} p = {t.p_value:.2g}, {n}" if t.p_value is not None
            else f"not tested: {t.note or 'too few values'}, {n}")
    r = ratio_of_means(a, b) if higher else ratio_of_means(b, a)
    times = (f"{fmt.plus_minus(r.value, r.half)} times" if r is not None
             else "no ratio (a zero mean or one value)")
    word = "higher" if higher else "lower"
    values = f"{show.mean_ci(a, False)} against {show.mean_ci(b, False)} {show.unit}".rstrip()
    if t.p_value is not None and t.p_value < ALPHA:
        return f"{best} is {times} {word} than {second} ({values}, mean ± 95% interval; significant, {test})"
    ratio = f"ratio {fmt.plus_minus(r.value, r.half)}" if r is not None else "no ratio"
    return f"no significant difference between {best} and {second} ({values}, mean ± 95% interval; {ratio}; {test})"


def _best_scenario(per_x: Optional[dict], x: str, higher: bool, show: _Shown) -> Optional[str]:
    """The best configuration by the study's walk over neighbours, with the tests that chose it."""
    if not per_x or len(per_x) < 2:
        return None
    b = best_scenario(per_x, higher)
    if b is None or b.decided_by == ONLY:
        return None
    label = (fmt.plural(b.value, "switch") if isinstance(b.value, (int, float)) and
             x in ("switches", "n_switches", "num_switches") else f"{x.replace('_', ' ')} = {fmt.show(b.value)}")
    head = f"best scenario: {label} ({show.mean_ci(per_x[b.value])})"
    final = [s for s in b.steps if b.value in (s.leader, s.other)]
    tests = "; ".join(_step_test(s, b.value) for s in final if s.tests)
    if b.decided_by == MEDIAN:
        tied = ", ".join(fmt.show(v) for v in b.tied_with)
        return f"{head}, by its median: no test separates it from {tied}" + (f" ({tests})" if tests else "")
    return f"{head}, better than its neighbours" + (f" ({tests})" if tests else "")


def _step_test(step, chosen) -> str:
    """The test that decided one neighbour comparison: the two-sided one for a tie, else the
    last one run (two-sided when it separated them, else the one-sided test that did)."""
    t = step.tests[0] if step.outcome == "tie" else step.tests[-1]
    other = step.other if step.leader == chosen else step.leader
    p = f"p = {t.p_value:.2g}" if t.p_value is not None else f"no p ({t.note or 'too few values'})"
    return f"{fmt.show(other)}: {t.test} {t.alternative} {p}"


def merge_notes(notes: list) -> list:
    """Notes that differ only in their numbers are one note, with a count: "... (×7)"."""
    merged: "OrderedDict[str, list]" = OrderedDict()
    for n in notes:
        merged.setdefault(re.sub(r"\d+(\.\d+)?", "#", n), []).append(n)
    return [v[0] + (f" (×{len(v)}, first shown)" if len(v) > 1 else "") for v in merged.values()]


def warnings(runs: list) -> list:
    results = [r for run in runs for r in run.results]
    out = merge_notes([n for r in results for n in (r.notes or [])])
    failed = [r for r in results if r.status != "ok"]
    if failed:
        out.insert(0, f"{fmt.plural(len(failed), 'result')} of {len(results)} failed and "
                      "{} left out".format("is" if len(failed) == 1 else "are"))
    return out
