"""From a scenario to the ordered list of cells a campaign runs.

A cell is one measurement: a benchmark, one combination of its matrix (plus its fixed params) and
one repetition. Its ``key`` (canonical JSON of those three) identifies it within a run, so the
store can hold each cell exactly once however often a campaign is resumed.

Order: ``sequential`` keeps file order (matrix in file order, repetitions innermost); ``random``
shuffles all cells with ``random.Random(seed)``, so a slow drift of the machine (thermal, other
load) spreads over all configurations instead of biasing the last ones, and the same seed always
gives the same order.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass
from typing import Optional

from ..store import CellSpec
from .scenario import Benchmark, Scenario


@dataclass(frozen=True)
class Overrides:
    """Command-line changes to a scenario's schedule (``--quick``, ``--repetitions``).

    ``quick`` applies the scenario's ``quick:`` block; a scenario without one runs quick as one
    repetition with no warm-up and no pause."""

    quick: bool = False
    repetitions: Optional[int] = None
    warmup: Optional[int] = None
    pause: Optional[float] = None

    def to_dict(self) -> dict:
        return {k: v for k, v in vars(self).items() if v is not None and v is not False}


def combinations(bench: Benchmark) -> list:
    """Every parameter dict of a benchmark: fixed params + one value per matrix entry."""
    names = list(bench.matrix)
    out = []
    for values in itertools.product(*(bench.matrix[n] for n in names)):
        p = dict(bench.params)
        p.update(zip(names, values))
        out.append(p)
    return out


def cell_key(benchmark: str, params: dict, repetition: int) -> str:
    return json.dumps({"benchmark": benchmark, "params": params, "repetition": repetition},
                      sort_keys=True, separators=(",", ":"))


def plan(scenario: Scenario, seed: int, overrides: Overrides = Overrides()) -> list:
    cells = []
    for b in scenario.benchmarks:
        reps = overrides.repetitions or b.repetitions
        for params in combinations(b):
            for rep in range(reps):
                cells.append(CellSpec(cell_key(b.name, params, rep), b.name, b.kind, params, rep))
    if scenario.order == "random":
        random.Random(seed).shuffle(cells)
    return cells


def label(bench: Benchmark, params: dict, repetition: int) -> str:
    """What the progress line shows: the benchmark, its varying params, the repetition."""
    varying = " ".join(f"{k}={params.get(k)}" for k in bench.matrix)
    return f"{bench.name} {varying} #{repetition + 1}".replace("  ", " ")


def one_benchmark(name: str, kind: str, params: dict, matrix: Optional[dict] = None,
                  repetitions: int = 1) -> list:
    """A command's plan (``sdnbench controller bench``): one benchmark, its matrix in the order
    given, repetitions innermost; the cells a campaign of that one benchmark would plan."""
    bench = Benchmark(name, kind, dict(params), dict(matrix or {}), repetitions)
    return plan(Scenario(name, [bench], order="sequential"), 0)
