"""Run a campaign: plan it into the store, then measure its cells one by one (``executor``, the
orchestration the CLI commands share; the store, the progress display and the schedule of
warm-ups and pauses are its sinks here).

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
from dataclasses import dataclass
from typing import Callable, Iterator, Optional

from .. import doctor
from ..errors import UserError
from ..result import Result
from ..store import PENDING, RUNNING, Store
from . import kinds
from .executor import Sink, execute_cells
from .measure import measure
from .plan import Overrides, label, plan
from .progress import Progress
from .scenario import Scenario
from .store_sink import StoreSink


@dataclass
class Outcome:
    run_id: int
    total: int
    ok: int
    failed: int
    measured: int            # cells measured in this session


def check_components(scenario: Scenario) -> dict:
    """``doctor.require`` every check the scenario needs, and each controller it names
    (``check_controllers``); returns tool versions to record."""
    check_controllers(scenario)
    names = kinds.requirements(scenario)
    if not names:
        return {}
    checks = doctor.require(*names)
    # Only checks that name a version (the results add the engine's and the controllers' own).
    return {n: c.data["version"] for n, c in checks.items() if c.data.get("version")}


def check_controllers(scenario: Scenario) -> None:
    """Each controller the cells name, by its kind's precheck (a ``tcp:`` address has a listener,
    a ``cmd:`` program exists): one line before the run is stored, not a failed cell per trial."""
    from ..controllers.lifecycle import precheck
    from ..controllers.spec import parse_spec
    specs = {c.params["controller"] for c in plan(scenario, 0) if isinstance(c.params.get("controller"), str)}
    for spec in sorted(specs):
        try:
            parse_spec(spec)
        except UserError:
            continue             # a kind's own value (net's `standalone`), checked by that kind
        try:
            precheck(spec)
        except UserError as e:
            raise UserError(f"{scenario.source}: {e}") from None


def load_runners(scenario: Scenario) -> dict:
    """kind -> runner function, resolved before anything runs (a missing part fails here)."""
    return {b.kind: kinds.get(b.kind).load() for b in scenario.benchmarks}


def start(store: Store, scenario: Scenario, overrides: Optional[Overrides] = None,
          versions: Optional[dict] = None) -> int:
    overrides = overrides or Overrides()
    seed = scenario.seed if scenario.seed is not None else secrets.randbelow(2 ** 31)
    with store.transaction():       # a run is never there without its plan
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
    store.set_run_status(run_id, "running")
    try:
        execute_cells(todo, runners, [_Schedule(benches, runners, overrides, progress, sleep),
                                      _Shown(benches, progress), StoreSink(store, run_id)])
    finally:
        progress.close()
    counts = store.run(run_id).counts
    return Outcome(run_id, len(cells), counts.get("ok", 0), counts.get("failed", 0), len(todo))


class _Shown(Sink):
    """The progress display: each cell's label as it begins, its outcome as it ends."""

    def __init__(self, benches: dict, progress: Progress):
        self.benches, self.progress = benches, progress

    def begin(self, cell) -> None:
        self.progress.begin(label(self.benches[cell.benchmark], cell.params, cell.repetition))

    def commit(self, cell, result: Result) -> None:
        name = label(self.benches[cell.benchmark], cell.params, cell.repetition)
        self.progress.end(name, result.status == "ok", result.error)


class _Schedule(Sink):
    """A campaign's schedule around its cells: the pause between two cells (of the one before),
    the warm-up runs before the first cell of each combination (discarded)."""

    def __init__(self, benches: dict, runners: dict, overrides: Overrides, progress: Progress,
                 sleep: Callable[[float], None]):
        self.benches, self.runners, self.overrides = benches, runners, overrides
        self.progress, self.sleep = progress, sleep
        self.warmed: set = set()
        self.previous = None

    def begin(self, cell) -> None:
        if self.previous is not None:
            bench = self.benches[self.previous.benchmark]
            pause = self.overrides.pause if self.overrides.pause is not None else bench.pause
            if pause:
                self.sleep(pause)
        self.previous = cell
        bench = self.benches[cell.benchmark]
        warmup = self.overrides.warmup if self.overrides.warmup is not None else bench.warmup
        combo = json.dumps([cell.benchmark, cell.params], sort_keys=True)
        if warmup and combo not in self.warmed:
            self.warmed.add(combo)
            name = label(bench, cell.params, cell.repetition)
            _warm_up(self.runners[cell.kind], cell.params, warmup, name, self.progress)


def _warm_up(fn: Callable, params: dict, count: int, name: str, progress: Progress) -> None:
    for k in range(count):
        progress.note(f"warm-up {k + 1}/{count}: {name.rsplit(' #', 1)[0]} (discarded)")
        r = measure(fn, "warm-up", "warm-up", params)
        if r.status != "ok":
            progress.note(f"warm-up failed (measuring anyway): {r.error}")
