"""Run a campaign: plan it into the store, then measure its cells one by one.

Invariants:
- The whole plan is written (one transaction) before the first measurement; after that the store
  alone says what is left, so ``resume`` needs nothing but the run id.
- Each cell is committed with its Result in its own transaction as soon as it ends. SIGKILL
  loses at most the cell in progress (left ``running``; a resume measures it again). Ctrl-C or
  SIGTERM (``Interrupted``) marks the run ``interrupted`` and propagates, so every ``finally``
  in the measurement runs its clean-up first.
- One process measures a run at a time (an flock per run in the store directory).
- A cell that fails (a ``UserError`` from the runner, a failed Result, or an unexpected exception)
  is stored as failed with its reason and the campaign goes on. A failed cell is final: resuming
  does not repeat it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import time
import traceback
from dataclasses import dataclass
from typing import Callable, Iterator, Optional

from .. import doctor
from ..errors import CheckFailed, Interrupted, UserError
from ..result import Result
from ..store import PENDING, RUNNING, Store
from . import kinds
from .plan import Overrides, label, plan
from .progress import Progress
from .scenario import Scenario


@dataclass
class Outcome:
    run_id: int
    total: int
    ok: int
    failed: int
    measured: int            # cells measured in this session


def check_components(scenario: Scenario) -> dict:
    """``doctor.require`` every check the scenario needs; returns tool versions to record."""
    names = kinds.requirements(scenario)
    if not names:
        return {}
    checks = doctor.require(*names)
    # Only checks that name a version (the results add the engine's and the controllers' own).
    return {n: c.data["version"] for n, c in checks.items() if c.data.get("version")}


def load_runners(scenario: Scenario) -> dict:
    """kind -> runner function, resolved before anything runs (a missing part fails here)."""
    return {b.kind: kinds.get(b.kind).load() for b in scenario.benchmarks}


def start(store: Store, scenario: Scenario, overrides: Optional[Overrides] = None,
          versions: Optional[dict] = None) -> int:
    overrides = overrides or Overrides()
    seed = scenario.seed if scenario.seed is not None else secrets.randbelow(2 ** 31)
    run_id = store.create_run("campaign", scenario.name, scenario.description, scenario.text,
                              scenario.source, seed, versions, options=overrides.to_dict())
    store.add_cells(run_id, plan(scenario, seed, overrides))
    return run_id


def execute(store: Store, run_id: int, scenario: Scenario, runners: dict,
            progress: Optional[Progress] = None, overrides: Optional[Overrides] = None,
            sleep: Callable[[float], None] = time.sleep) -> Outcome:
    overrides = overrides or Overrides()
    with run_lock(store, run_id):
        return _execute(store, run_id, scenario, runners, progress, overrides, sleep)


@contextlib.contextmanager
def run_lock(store: Store, run_id: int) -> Iterator[None]:
    """One process at a time per run: two resumes of one run would measure cells twice. The
    lock is an flock, so the kernel releases it when its holder dies, even by SIGKILL."""
    path = store.dir / f".run-{run_id}.lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            raise UserError(f"run {run_id} is being measured by another process (pid {holder}); "
                            "wait for it or stop it first")
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(fd)


def _execute(store: Store, run_id: int, scenario: Scenario, runners: dict,
             progress: Optional[Progress], overrides: Overrides,
             sleep: Callable[[float], None]) -> Outcome:
    cells = store.cells(run_id)
    todo = [c for c in cells if c.status in (PENDING, RUNNING)]
    progress = progress or Progress(total=len(cells), done=len(cells) - len(todo))
    benches = {b.name: b for b in scenario.benchmarks}
    warmed: set = set()
    store.set_run_status(run_id, "running")
    try:
        for i, cell in enumerate(todo):
            bench = benches[cell.benchmark]
            name = label(bench, cell.params, cell.repetition)
            warmup = overrides.warmup if overrides.warmup is not None else bench.warmup
            combo = json.dumps([cell.benchmark, cell.params], sort_keys=True)
            if warmup and combo not in warmed:
                warmed.add(combo)
                _warm_up(runners[cell.kind], cell.params, warmup, name, progress)
            progress.begin(name)
            store.mark_running(cell.id)
            result = measure(runners[cell.kind], cell.kind, cell.benchmark, cell.params)
            store.finish_cell(cell.id, result)
            progress.end(name, result.status == "ok", result.error)
            pause = overrides.pause if overrides.pause is not None else bench.pause
            if pause and i + 1 < len(todo):
                sleep(pause)
        failed = store.run(run_id).counts.get("failed", 0)
        store.set_run_status(run_id, "failed" if failed else "done")
    except (Interrupted, KeyboardInterrupt):
        store.set_run_status(run_id, "interrupted")
        raise
    finally:
        progress.close()
    counts = store.run(run_id).counts
    return Outcome(run_id, len(cells), counts.get("ok", 0), counts.get("failed", 0), len(todo))


def measure(fn: Callable, kind: str, benchmark: str, params: dict) -> Result:
    """One measurement; every failure becomes a failed Result carrying the reason."""
    started = time.time()
    try:
        result = fn(dict(params))
    except (UserError, CheckFailed) as e:
        return _failed(kind, benchmark, params, started, str(e))
    except Exception as e:   # a bug in a runner must not cost the rest of the campaign
        r = _failed(kind, benchmark, params, started,
                    f"internal error in the {kind} runner: {type(e).__name__}: {e}")
        r.notes.append(traceback.format_exc())
        return r
    if not isinstance(result, Result):
        return _failed(kind, benchmark, params, started,
                       f"internal error: the {kind} runner returned {type(result).__name__}, not a Result")
    if not result.params:
        result.params = dict(params)
    if result.finished is None:
        result.finish(result.status, result.error)
    if result.status != "ok" and not result.error:
        result.error = "failed without a reason"
    if result.status == "ok" and measured_nothing(result):
        result.status, result.error = "failed", "measured nothing (no sample, no counter)"
    return result


def measured_nothing(result: Result) -> bool:
    """True when a result carries no sample (every one lost) and no counter: never an ok run."""
    samples = [v for s in result.series for v in s.values]
    if samples:
        return all(v is None for v in samples)
    return not any(v for v in result.counters.values() if isinstance(v, (int, float)))


def _failed(kind: str, benchmark: str, params: dict, started: float, error: str) -> Result:
    r = Result(kind=kind, benchmark=benchmark, params=dict(params), started=started)
    return r.finish("failed", error)


def _warm_up(fn: Callable, params: dict, count: int, name: str, progress: Progress) -> None:
    for k in range(count):
        progress.note(f"warm-up {k + 1}/{count}: {name.rsplit(' #', 1)[0]} (discarded)")
        r = measure(fn, "warm-up", "warm-up", params)
        if r.status != "ok":
            progress.note(f"warm-up failed (measuring anyway): {r.error}")
