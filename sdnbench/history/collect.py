"""A metric's values per run and condition, read from the results store.

A *condition* is one combination of the parameters that differ between cells of the scenario
(``controller=osken:learning, switches=4``), without the repetition. For each run and condition,
the value is the median over that run's cells of each cell's mean of the metric: raw samples
stay in the store; this is a summary computed from them, once per run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean, median
from typing import Optional

import yaml

from ..errors import UserError


@dataclass
class RunPoint:
    run_id: int
    created: float
    values: dict = field(default_factory=dict)      # condition -> value


@dataclass
class History:
    scenario: str
    metric: str
    unit: str
    runs: list                                       # RunPoint, oldest first
    conditions: list                                 # condition labels, in first-seen order

    def series(self, condition: str) -> tuple:
        """(run ids, values) of the runs that measured ``condition``."""
        pts = [(r.run_id, r.values[condition]) for r in self.runs if condition in r.values]
        return [p[0] for p in pts], [p[1] for p in pts]


def scenario_name(store, ref: str) -> str:
    """SCENARIO (a name, or a scenario file) or RUN (an id, ``latest``) -> the scenario name."""
    if ref.isdigit() or ref.lower() in ("latest", "last"):
        return store.run(ref).name
    path = Path(ref)
    if path.suffix in (".yaml", ".yml"):
        if not path.is_file():
            raise UserError(f"{ref}: no such scenario file")
        try:
            name = (yaml.safe_load(path.read_text()) or {}).get("name")
        except yaml.YAMLError as e:
            raise UserError(f"{ref}: not a YAML scenario ({str(e).splitlines()[0]})") from None
        if not name:
            raise UserError(f"{ref}: the scenario has no name")
        return str(name)
    return ref


def collect(store, scenario: str, metric: str) -> History:
    runs = [r for r in store.runs() if r.name == scenario]
    if not runs:
        known = sorted({r.name for r in store.runs()})
        raise UserError(f"no runs of {scenario!r} in {store.dir}; scenarios there: "
                        f"{', '.join(known) or 'none'}")
    cells, unit, seen_metrics = [], "", set()
    for run in runs:
        for cell, result in store.results(run.id, status="ok"):
            found = [s for s in result.series if s.metric == metric and s.values]
            seen_metrics.update(s.metric for s in result.series)
            if found:
                unit = unit or found[0].unit
                means = [fmean(s.values) for s in found]
                cells.append((run, cell.benchmark, cell.params, fmean(means)))
    if not cells:
        raise UserError(f"no {metric!r} values in the runs of {scenario!r}; metrics there: "
                        f"{', '.join(sorted(seen_metrics)) or 'none'}")
    return _assemble(scenario, metric, unit, cells)


def _assemble(scenario: str, metric: str, unit: str, cells: list) -> History:
    varying = _varying_keys(cells)
    one_bench = len({bench for _, bench, _, _ in cells}) == 1
    per: dict = {}
    conditions: list = []
    for run, bench, params, value in cells:
        label = condition_label(None if one_bench else bench, params, varying)
        if label not in conditions:
            conditions.append(label)
        per.setdefault(run.id, (run, {})).__getitem__(1).setdefault(label, []).append(value)
    points = [RunPoint(run.id, run.created, {c: median(v) for c, v in vals.items()})
              for run, vals in (per[k] for k in sorted(per))]
    return History(scenario, metric, unit, points, conditions)


def _varying_keys(cells: list) -> list:
    keys: dict = {}
    for _, _bench, params, _ in cells:
        for k, v in params.items():
            keys.setdefault(k, set()).add(json.dumps(v, sort_keys=True))
    return [k for k, vals in keys.items() if len(vals) > 1]


def condition_label(bench: Optional[str], params: dict, varying: list) -> str:
    """``controller=osken:learning, switches=4``, prefixed by the benchmark when there are several."""
    parts = ", ".join(f"{k}={params[k]}" for k in varying if k in params)
    if bench is None:
        return parts or "all cells"
    return bench + (f" ({parts})" if parts else "")


def load_history(store, ref: str, metric: str) -> History:
    return collect(store, scenario_name(store, ref), metric)
