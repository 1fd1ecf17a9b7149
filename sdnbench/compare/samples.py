"""Group measured Results into the samples that statistics and comparisons work on.

A *group* is one configuration (benchmark + parameters, repetitions pooled) and one metric. Its
samples are either every raw value of that metric across the repetitions (``per="raw"``, the
default: the grand mean is the mean of all samples, as the studies' tables are) or one value per
repetition, the mean of that repetition's samples (``per="rep"``: independent observations, as
cbench-style studies and asv use for their tests).

Sources (``load_source``): a run in the store (``3``, ``latest``), optionally narrowed to cells
whose parameters match (``3@controller=ryu:simple_switch_13,switches=4``; the narrowing params
are then left out of the matching key, so two narrowings of one run can be compared), a Result
JSON file, or a directory of them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

import numpy as np

from ..errors import UserError
from ..result import Result
from ..stats.summary import clean
from ..store import Store

PER = ("raw", "rep")


@dataclass
class Group:
    benchmark: str
    params: dict
    metric: str
    unit: str
    samples: list = field(default_factory=list)      # pooled raw values
    rep_means: list = field(default_factory=list)    # one mean per repetition (Result)
    keyed: dict = field(default_factory=dict)        # (repetition, labels, index) -> raw value

    def values(self, per: str = "raw") -> list:
        return self.samples if per == "raw" else self.rep_means


@dataclass
class Side:
    """One side of a comparison (or one run's contents): groups and failures by cell key."""

    name: str
    groups: dict = field(default_factory=dict)       # (benchmark, params_key, metric) -> Group
    failures: dict = field(default_factory=dict)     # (benchmark, params_key) -> [error, ...]
    ok_cells: dict = field(default_factory=dict)     # (benchmark, params_key) -> count


def paired(a: Group, b: Group) -> tuple:
    """The samples both groups have under the same (repetition, series labels, index), as two
    aligned lists: the same switch or host pair measured on both sides."""
    keys = [k for k in a.keyed if k in b.keyed]
    return [a.keyed[k] for k in keys], [b.keyed[k] for k in keys]


def params_key(params: dict) -> str:
    return json.dumps(params, sort_keys=True, separators=(",", ":"), default=str)


def build_side(name: str, results: Iterable, drop: Iterable = (), resources: bool = False) -> Side:
    """``results``: (params, Result) or (params, Result, repetition); params named in ``drop``
    are left out of the key. With ``resources``, the resource series (controller CPU %, RSS,
    threads) count as metrics. Without a repetition number, results count in order per cell."""
    drop = set(drop)
    side = Side(name)
    seen: dict = {}
    for item in results:
        params, r = item[0], item[1]
        p = {k: v for k, v in params.items() if k not in drop}
        seen_key = (r.benchmark, params_key(p))
        rep = item[2] if len(item) > 2 else seen.get(seen_key, 0)
        seen[seen_key] = seen.get(seen_key, 0) + 1
        cell = (r.benchmark, params_key(p))
        if r.status != "ok":
            side.failures.setdefault(cell, []).append(r.error or "failed")
            continue
        side.ok_cells[cell] = side.ok_cells.get(cell, 0) + 1
        per_metric: dict = {}
        for s in list(r.series) + (list(r.resources) if resources else []):
            per_metric.setdefault((s.metric, s.unit), []).append(s)
        for (metric, unit), series in per_metric.items():
            g = side.groups.setdefault((r.benchmark, cell[1], metric), Group(r.benchmark, p, metric, unit))
            vals = [v for s in series for v in s.values]
            g.samples.extend(vals)
            for s in series:
                labels = json.dumps(s.labels, sort_keys=True, default=str)
                for i, v in enumerate(s.values):
                    g.keyed[(rep, labels, i)] = v
            x, _ = clean(vals)
            if len(x):
                g.rep_means.append(float(np.mean(x)))
    return side


def parse_source(text: str) -> tuple:
    """``SOURCE[@k=v,k=v]`` -> (source, {k: v}). Values stay text (matched against str(param)).

    Values may hold commas (topologies: ``topo=linear,2``): a comma starts a new filter only
    when what follows it has an ``=``."""
    src, sep, filt = text.partition("@")
    where: dict = {}
    if sep:
        last = None
        for part in filt.split(","):
            k, eq, v = part.partition("=")
            if not eq:
                if last is None:
                    raise UserError(f"{text!r}: expected SOURCE@PARAM=VALUE[,PARAM=VALUE...]")
                where[last] += "," + part
                continue
            if not k.strip():
                raise UserError(f"{text!r}: expected SOURCE@PARAM=VALUE[,PARAM=VALUE...]")
            last = k.strip()
            where[last] = v.strip()
    return src, where


def load_source(text: str, store_dir: Optional[Path], ignore: Iterable = (),
                resources: bool = False) -> Side:
    src, where = parse_source(text)
    path = Path(src)
    if path.suffix == ".json" or path.is_dir():
        items = _from_files(path)
    else:
        with Store(store_dir, read_only=True) as store:
            run_id = store.resolve_run(src)
            items = store_pairs(store, run_id)
        text = f"run {run_id}" + text[len(src):]
    if where:
        items = [it for it in items if all(str(it[0].get(k)) == v for k, v in where.items())]
        if not items:
            raise UserError(f"{text}: no cell has {', '.join(f'{k}={v}' for k, v in where.items())}")
    return build_side(text, items, set(where) | set(ignore), resources)


def store_pairs(store, run_id: int) -> list:
    """(params, Result) for each finished cell of a run, grouped as the plan named them: the
    cell's parameters and the scenario's benchmark name (as the reports do)."""
    out = []
    for cell, r in store.results(run_id):
        r.benchmark = cell.benchmark or r.benchmark
        out.append((cell.params, r, cell.repetition))
    return out


def _from_files(path: Path) -> list:
    if path.is_dir():
        files = sorted(path.glob("*.json"))
        if not files:
            raise UserError(f"{path}: no Result .json files in this directory")
    elif path.exists():
        files = [path]
    else:
        raise UserError(f"{path}: no such file (a source is a run id, `latest`, a Result .json or a directory)")
    out = []
    for f in files:
        r = Result.read_json(f)
        out.append((r.params, r))
    return out
