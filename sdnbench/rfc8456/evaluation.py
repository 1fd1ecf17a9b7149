"""From a stored ``sdnbench rfc8456`` run to the evaluation: per test and controller its trials,
each figure's average, variance and confidence interval (§4.7), and which controller is better
where the difference is significant. Pure: (benchmark, repetition, Result) triples in.

The run's scenario starts with one comment line, ``# sdnbench-rfc8456: {json}``, naming the
controllers, the profile and the tests chosen (``header``/``parse_header``); the tests that
cannot apply are derived from it again, with their reasons.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Optional

from ..errors import UserError
from ..stats import ALPHA, auto_test, summarize
from .suite import BY_SLUG, TESTS, label, plan

HEADER = "# sdnbench-rfc8456: "


def header(controllers: list, profile: str, only: Optional[list], api: Optional[list] = None) -> str:
    doc = {"controllers": controllers, "profile": profile, "only": only}
    if api:
        doc["api"] = api
    return HEADER + json.dumps(doc) + "\n"


def parse_header(scenario_text: str) -> dict:
    first = (scenario_text or "").split("\n", 1)[0]
    if not first.startswith(HEADER):
        raise UserError("this run is not an `sdnbench rfc8456` evaluation (its scenario has no "
                        "sdnbench-rfc8456 header); use `sdnbench report` for it")
    return json.loads(first[len(HEADER):])


@dataclass
class Trial:
    repetition: int
    result: object               # sdnbench.result.Result
    values: list                 # one per figure (None: no value)
    detail: str = ""


@dataclass
class FigureSummary:
    name: str
    unit: str
    higher: bool
    n: int
    mean: Optional[float]
    variance: Optional[float]
    ci: Optional[tuple]          # 95 % t interval of the mean


@dataclass
class Cell:
    """One test against one controller."""
    slug: str
    controller: str              # the spec given
    spec: Optional[str]          # the app run, None: not applicable
    reason: str = ""
    trials: list = field(default_factory=list)
    figures: list = field(default_factory=list)    # FigureSummary per figure
    planned: int = 0

    @property
    def status(self) -> str:
        if self.spec is None:
            return "not applicable"
        if not self.trials:
            return "not run yet"
        ok = sum(1 for t in self.trials if t.result.status == "ok")
        return f"{ok}/{len(self.trials)} trials ok"


@dataclass
class Verdict:
    """Which controller is better on one figure: None when not significant (or one controller)."""
    better: Optional[str]
    p_value: Optional[float]
    test: str = ""
    note: str = ""


def evaluate(meta: dict, rows: list, planned: Optional[dict] = None) -> dict:
    """``rows``: (benchmark, repetition, Result); ``planned``: benchmark -> cells planned.
    Returns {(slug, controller): Cell} in suite order."""
    cells = {}
    by_bench = {}
    for p in plan(meta["controllers"], meta.get("only"), meta.get("api")):
        c = Cell(p.test.slug, p.controller, p.spec, p.reason, planned=(planned or {}).get(p.benchmark, 0))
        cells[(p.test.slug, p.controller)] = c
        by_bench[p.benchmark] = c
    for bench, rep, r in sorted(rows, key=lambda x: (x[0], x[1])):
        c = by_bench.get(bench)
        if c is None:
            continue
        test = BY_SLUG[c.slug]
        c.trials.append(Trial(rep, r, [f.value(r) for f in test.figures], test.detail(r)))
    for c in cells.values():
        c.figures = [_summary(f, [t.values[i] for t in c.trials]) for i, f in enumerate(BY_SLUG[c.slug].figures)]
    return cells


def _summary(f, values: list) -> FigureSummary:
    s = summarize([v for v in values if v is not None])
    ci = (s.ci_low, s.ci_high) if s.ci_low is not None else None
    return FigureSummary(f.name, f.unit, f.higher, s.n, s.mean, s.variance, ci)   # n = 1: no variance


def compare(cells: dict, slug: str, index: int, controllers: list) -> Verdict:
    """The better controller on figure ``index`` of test ``slug``: the best mean, if a test of
    its trials against every other controller's is significant at α = 0.05 (``auto_test``:
    Welch's t when both look normal, else Mann-Whitney U)."""
    have = []
    for ctl in controllers:
        c = cells.get((slug, ctl))
        if c is None or not c.figures:
            continue
        vals = [t.values[index] for t in c.trials if t.values[index] is not None]
        if vals:
            have.append((ctl, vals, c.figures[index]))
    if len(have) < 2:
        return Verdict(None, None, note="one controller measured")
    higher = have[0][2].higher
    have.sort(key=lambda x: x[2].mean, reverse=higher)
    best = have[0]
    if any(len(v) < 2 for _, v, _ in have):
        return Verdict(None, None, note="too few trials to test (fewer than 2)")
    worst_p = 0.0
    name = ""
    for other in have[1:]:
        if other[2].mean == best[2].mean:
            return Verdict(None, None, note="equal means")
        t = auto_test(best[1], other[1], "greater" if higher else "less")
        name = t.test
        if t.p_value is None:
            return Verdict(None, None, t.test, t.note or "no p-value")
        worst_p = max(worst_p, t.p_value)
    if worst_p < ALPHA:
        return Verdict(best[0], worst_p, name)
    return Verdict(None, worst_p, name, "not significant")


def tests_in_order() -> list:
    return [t.slug for t in TESTS]


def title(slug: str) -> str:
    t = BY_SLUG[slug]
    return f"§{t.sections} {t.title}"


def column(controller: str) -> str:
    return label(controller)
