"""Compare two sides cell by cell: means, gap, ratio and a significance mark (asv's model).

For each configuration and metric present on both sides (or failed on one of them):
- ``mean_a``/``mean_b`` and their summaries, ``gap = |mean_b − mean_a|`` (the campus study's
  "gap", Table 3), ``ratio = mean_b / mean_a`` and ``change = (mean_b − mean_a) / |mean_a|``;
- the mark, decided by a two-sided Mann–Whitney U test at α = 0.05 (as asv does; with
  ``pair``, the Wilcoxon signed-rank test on matched samples):
  ``better`` / ``worse`` when significant (in the metric's direction: higher throughput, lower
  latency), ``not significant`` otherwise, ``failed`` when the cell failed on either side.

``gate`` implements ``--fail-on METRIC:PCT`` (pytest-benchmark's ``--benchmark-compare-fail``):
a regression is a change in the worse direction beyond PCT percent of side A's mean, whether or
not it is significant (a CI gate must not pass because a run was too short to reach
significance), or a cell that was fine on side A and failed on side B.
"""

from __future__ import annotations

import fnmatch
import json
import math
from dataclasses import dataclass, field
from typing import Optional

from ..errors import UserError
from ..stats import (ALPHA, Summary, TestResult, higher_is_better, mann_whitney, summarize,
                     wilcoxon_signed)
from .samples import Side, paired

BETTER, WORSE, SAME, FAILED = "better", "worse", "not significant", "failed"
SYMBOL = {BETTER: "-", WORSE: "+", SAME: "~", FAILED: "!"}   # asv's marks


@dataclass
class Row:
    benchmark: str
    params: dict
    metric: str
    unit: str
    higher_is_better: bool
    a: Optional[Summary]
    b: Optional[Summary]
    gap: Optional[float]
    ratio: Optional[float]
    change: Optional[float]          # fraction, signed: (b - a) / |a|
    p_value: Optional[float]
    mark: str
    errors: dict = field(default_factory=dict)   # side name -> first error, for failed cells

    def to_dict(self) -> dict:
        d = dict(vars(self))
        d["a"] = self.a.to_dict() if self.a else None
        d["b"] = self.b.to_dict() if self.b else None
        d["mean_a"] = self.a.mean if self.a else None
        d["mean_b"] = self.b.mean if self.b else None
        return d


def compare(a: Side, b: Side, per: str = "raw", alpha: float = ALPHA,
            directions: Optional[dict] = None, metrics: Optional[list] = None,
            pair: bool = False) -> list:
    """Rows for every configuration and metric on both sides. ``pair`` tests the samples that
    match by repetition, series labels and position with the Wilcoxon signed-rank test
    (paired data, e.g. each switch of the campus study on both set-ups) instead of Mann–Whitney."""
    rows = []
    for key in sorted(set(a.groups) | set(b.groups), key=sort_key):
        bench, pkey, metric = key
        if metrics and not any(fnmatch.fnmatchcase(metric, m) for m in metrics):
            continue
        ga, gb = a.groups.get(key), b.groups.get(key)
        cell = (bench, pkey)
        if ga is None and cell not in a.failures or gb is None and cell not in b.failures:
            continue              # measured on one side only: nothing to compare
        g = ga or gb
        hib = higher_is_better(metric, g.unit, directions)
        sa = summarize(ga.values(per)) if ga else None
        sb = summarize(gb.values(per)) if gb else None
        errors = {s.name: s.failures[cell][0] for s in (a, b) if cell in s.failures and s.groups.get(key) is None}
        rows.append(_row(bench, g.params, metric, g.unit, hib, sa, sb, ga, gb, per, alpha, errors, pair))
    for cell in sorted((set(a.failures) | set(b.failures)), key=lambda c: sort_key(c + ("",))):
        if any(k[:2] == cell for k in set(a.groups) | set(b.groups)):
            continue              # already shown per metric above
        if (cell in a.failures or cell in a.ok_cells) and (cell in b.failures or cell in b.ok_cells):
            errors = {s.name: s.failures[cell][0] for s in (a, b) if cell in s.failures}
            rows.append(Row(cell[0], json.loads(cell[1]), "-", "", True, None, None, None, None,
                            None, None, FAILED, errors))
    return rows


@dataclass
class Unmatched:
    """A cell (benchmark + parameters) that only one side has: nothing to compare it with."""
    side: str
    benchmark: str
    params: dict

    def to_dict(self) -> dict:
        return dict(vars(self))


def unmatched(a: Side, b: Side) -> list:
    """The cells present on one side only (measured or failed), in order, A's first."""
    def cells(s: Side) -> set:
        return {k[:2] for k in s.groups} | set(s.failures) | set(s.ok_cells)
    ca, cb = cells(a), cells(b)
    out = []
    for side, mine, other in ((a, ca, cb), (b, cb, ca)):
        for cell in sorted(mine - other, key=lambda c: sort_key(c + ("",))):
            out.append(Unmatched(side.name, cell[0], json.loads(cell[1])))
    return out


def _row(bench, params, metric, unit, hib, sa, sb, ga, gb, per, alpha, errors, pair) -> Row:
    if not sa or not sb or not sa.n or not sb.n:
        return Row(bench, params, metric, unit, hib, sa, sb, None, None, None, None, FAILED, errors)
    gap = abs(sb.mean - sa.mean)
    ratio = sb.mean / sa.mean if sa.mean else None
    change = (sb.mean - sa.mean) / abs(sa.mean) if sa.mean else None
    test = _paired_test(ga, gb) if pair else mann_whitney(ga.values(per), gb.values(per))
    if test.significant(alpha) and sb.mean != sa.mean:
        mark = BETTER if (sb.mean > sa.mean) == hib else WORSE
    else:
        mark = SAME
    return Row(bench, params, metric, unit, hib, sa, sb, gap, ratio, change, test.p_value, mark, errors)


def _paired_test(ga, gb) -> TestResult:
    xa, xb = paired(ga, gb)
    ok = [(x, y) for x, y in zip(xa, xb) if _finite(x) and _finite(y)]
    if len(ok) < 2:
        return TestResult("wilcoxon-signed-rank", None, None, note="fewer than 2 matching pairs")
    return wilcoxon_signed([x for x, _ in ok], [y for _, y in ok])


def _finite(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def sort_key(key: tuple):
    """Order (benchmark, params_key, metric) keys with numeric params in numeric order."""
    bench, pkey, metric = key
    params = json.loads(pkey)
    return (bench, sorted((k, _num(v)) for k, v in params.items()), metric)


def _num(v):
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return (0, float(v), "")
    return (1, 0.0, str(v))


# -- the regression gate ------------------------------------------------------------------

@dataclass(frozen=True)
class Threshold:
    metric: str          # a name or a glob (`*`, `latency*`)
    percent: float


def parse_threshold(text: str) -> Threshold:
    metric, sep, pct = text.rpartition(":")
    pct = pct.strip().rstrip("%")
    try:
        value = float(pct)
    except ValueError:
        value = -1.0
    if not sep or not metric.strip() or value < 0:
        raise UserError(f"--fail-on {text!r}: expected METRIC:PERCENT, e.g. throughput:5 or '*:10%'")
    return Threshold(metric.strip(), value)


def gate(rows: list, thresholds: list, name_a: str = "A", name_b: str = "B",
         any_change: bool = False) -> list:
    """The regressions beyond the thresholds, as one-line descriptions (empty: the gate passes).

    As asv does, a row counts only when it is significantly worse (mark ``+``) AND worse by more
    than the threshold; ``any_change`` (``--fail-on-any``) counts every change beyond the
    threshold, significant or not. A cell that failed in B only always counts."""
    out = []
    for row in rows:
        for th in thresholds:
            if row.metric != "-" and not fnmatch.fnmatchcase(row.metric, th.metric):
                continue
            where = f"{row.benchmark} {fmt_params(row.params)}".strip()
            if row.mark == FAILED:
                if name_b in row.errors and name_a not in row.errors:
                    out.append(f"{where}: failed on {name_b}: {row.errors[name_b]}")
                break
            if row.change is None or (row.mark != WORSE and not any_change):
                continue
            worse = -row.change if row.higher_is_better else row.change
            if worse * 100 > th.percent:
                sig = "" if row.p_value is None else f", p = {row.p_value:.2g}"
                out.append(f"{where} {row.metric}: {worse * 100:.1f}% worse "
                           f"({fmt_num(row.a.mean)} -> {fmt_num(row.b.mean)} {row.unit}{sig}; "
                           f"limit {th.percent:g}%)")
                break
    return out


def fmt_params(params: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in params.items())


def fmt_num(x: Optional[float]) -> str:
    if x is None:
        return "-"
    if abs(x) >= 1000:
        return f"{x:.1f}"
    return f"{x:.6g}"
