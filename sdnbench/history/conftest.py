"""A synthetic results store: runs of one scenario whose metric level is known per run."""

import json
import random

from sdnbench.result import Result
from sdnbench.store.store import CellSpec, Store


def make_store(directory, levels: dict, name: str = "nightly", metric: str = "throughput",
               unit: str = "flows/s", sd: float = 0.02, seed: int = 1) -> Store:
    """``levels``: controller -> list of per-run levels (one run per list position); each cell
    gets 5 samples of Gaussian noise (relative ``sd``) around its level, 2 repetitions."""
    rng = random.Random(seed)
    store = Store(directory)
    runs = len(next(iter(levels.values())))
    for i in range(runs):
        run_id = store.create_run("campaign", name, status="running")
        specs = [CellSpec(json.dumps({"c": c, "r": r}), "throughput", "controller",
                          {"controller": c, "switches": 4}, r)
                 for c in levels for r in range(2)]
        store.add_cells(run_id, specs)
        for cell in store.cells(run_id):
            level = levels[cell.params["controller"]][i]
            res = Result("controller", "throughput", dict(cell.params))
            res.add(metric, unit, [rng.gauss(level, sd * level) for _ in range(5)])
            res.add("latency", "us", [rng.gauss(100, 2) for _ in range(5)])
            store.finish_cell(cell.id, res.finish())
        store.set_run_status(run_id, "done")
    return store
