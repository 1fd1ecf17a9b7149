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
from ..stats.significance import auto_test
from .model import Section
from .observations import cells, layout_for, line_name, sort_key
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
    factor, u = fmt.scale_factor(list(means.values()), unit)
    order = sorted(means, key=lambda n: means[n], reverse=higher)
    best = order[0]
    shown = dict(zip(order, fmt.column([means[n] / factor for n in order])))
    if len(order) == 1:
        text = f"{what}: {shown[best]} {u} on average"
    else:
        second = order[1]
        text = (f"{what}: {best} is best with {shown[best]} {u}, against {shown[second]} {u} for "
                f"{second} ({_size(means[best], means[second], higher)}; "
                f"{_significance(pooled[best], pooled[second])})")
    scenario = _best_scenario(per_x.get(best), lay.x, higher) if lay.x else None
    return text + (f"; best scenario: {scenario}" if scenario else "") + "."


def _size(a: float, b: float, higher: bool) -> str:
    if b == 0 or a == 0:
        return "no ratio (a zero mean)"
    ratio = a / b if higher else b / a
    word = "higher" if higher else "lower"
    if ratio >= 2:
        return f"{ratio:.2f}× {word}"
    return f"{(ratio - 1):.1%} {word}" if ratio < 1.1 else f"{(ratio - 1):.0%} {word}"


def _significance(a: list, b: list) -> str:
    t = auto_test(a, b)
    n = f"n = {len(a)} vs {len(b)}"
    if t.p_value is None:
        return f"significance not tested: {t.note or 'too few values'}, {n}"
    verdict = "significant" if t.p_value < ALPHA else "not significant"
    return f"{verdict}, {t.test} p = {t.p_value:.2g}, {n}"


def _best_scenario(per_x: Optional[dict], x: str, higher: bool) -> Optional[str]:
    if not per_x or len(per_x) < 2:
        return None
    means = {k: fmean(v) for k, v in per_x.items() if v}
    best = (max if higher else min)(means, key=lambda k: (means[k], sort_key(k)))
    label = x.replace("_", " ")
    if isinstance(best, (int, float)) and x in ("switches", "n_switches", "num_switches"):
        return fmt.plural(best, "switch")
    return f"{label} = {fmt.show(best)}"


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
