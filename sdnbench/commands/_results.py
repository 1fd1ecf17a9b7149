"""How a ``controller`` subcommand measures, keeps and ends with its results: written to ``-o``,
printed with ``--json``, saved with ``--store``, and the exit code (0 when every result is ok, else
2). Shared by ``controller`` and the suites it registers (discovery, provisioning, resilience),
which is why it is a module of its own: they import it, ``controller`` imports them.

``run_plan``: a command is a plan of cells executed by the campaigns' executor
(``campaign.executor``): ``controller bench/search/capacity``, and through ``run_trials`` the
RFC 8456 suites' commands (``provisioning``, ``table-capacity``, ``reprovisioning``,
``failover``, ``discovery``, ``topology-change``), whose cells are those their campaign kinds
take. The same ``measure`` and failure handling, the same per-cell commit to
the store (``--store``: a run of kind ``single``), the same Ctrl-C/SIGTERM handling (what finished
is kept, the run marked ``interrupted``, the part of the cell cut short kept as failed). What is
the command's own: ``-o`` rewritten after every cell, its printed rows, and a bug propagating
(exit 3) instead of becoming a failed cell.

Nothing measured is lost (issue 40): ``-o`` holds every result so far; a file that cannot be
written after all goes to a rescue file beside it (its path printed), as does a result the store
cannot take."""

from __future__ import annotations

import contextlib
import copy
import json
import sys
import time
from typing import Callable, Optional

from .. import output
from ..campaign.executor import Sink, execute_cells
from ..campaign.measure import failed
from ..campaign.store_sink import StoreSink
from ..errors import UserError
from ..result import Result
from ..store.cli import save_if_asked
from ..store.store import Store


def run_plan(args, cells: list, runner: Callable, on_result: Optional[Callable] = None,
             reps_in_params: bool = False, sinks: tuple = (), quiet: Optional[Callable] = None) -> list:
    """The Results of ``cells`` (``CellSpec``, all of one kind) measured by ``runner(params)``;
    ``on_result(result)`` sees each as it ends. With ``reps_in_params`` the results written and
    returned carry their repetition as the param ``rep`` (the store has it as the cell's).
    ``sinks``: more that see each cell first; ``quiet(result)``: a failed result the file sink
    does not report on stderr."""
    files = _File(args, reps_in_params, on_result, quiet)
    with contextlib.ExitStack() as stack:
        every: list = [*sinks, files]       # the store last: one that fails ends the run after -o has the cell
        if getattr(args, "store", None) is not None:
            every.append(StoreSink(stack.enter_context(Store(args.store)), resumable=False))
        execute_cells(cells, {cells[0].kind: runner}, every, contain_bugs=False)
    return files.results


def run_trials(args, cells: list, one: Callable[[object], Result], on_result: Optional[Callable] = None,
               reps_in_params: bool = False) -> list:
    """``run_plan`` for a suite whose command built its typed parameters already: each cell is
    measured by ``one(cell)`` (the trial of ``cell.repetition``); the cell's params are what the
    store records as asked.

    A ``UserError`` inside a trial (a controller that does not speak the forced ``--of``, an API
    URL that does not answer) ends the command as the user's error, one line and exit 1, as it
    did before the executor: that cell is kept as failed with the reason (``-o``, ``--store``),
    no later cell starts, and the error is raised once the sinks are closed."""
    stop = _Stop()

    def runner(_params: dict) -> Result:
        try:
            return one(stop.cell)
        except UserError as e:
            stop.error = e        # what the trial measured before it, if it says (``e.result``), is kept
            stop.result = getattr(e, "result", None) or failed(cells[0].kind, stop.cell.benchmark,
                                                                stop.cell.params, time.time(), str(e))
            return stop.result
    try:
        results = run_plan(args, cells, runner, on_result, reps_in_params, sinks=(stop,), quiet=stop.said)
    except _Stopped:
        results = None
    if stop.error is not None:
        raise stop.error
    return results


class _Stopped(Exception):
    """The cell after one whose trial raised a ``UserError``: not started."""


class _Stop(Sink):
    """The cell being measured (what ``run_trials`` hands its trial); once a trial raised a
    ``UserError`` no other cell begins. Put first among the sinks, so none sees that cell."""

    def __init__(self):
        self.cell, self.error, self.result = None, None, None

    def begin(self, cell) -> None:
        if self.error is not None:
            raise _Stopped()
        self.cell = cell

    def said(self, result: Result) -> bool:
        """The failure is the user's error, said once by ``main``: not by the file sink too."""
        return result is self.result


def labelled(cell, result: Result) -> Result:
    """``result`` (not changed) with its cell's repetition as the param ``rep``."""
    out = copy.copy(result)
    out.params = dict(result.params, rep=cell.repetition)
    return out


class _File(Sink):
    """``-o`` rewritten after every cell (and with the partial cell on Ctrl-C), a failed cell's
    reason on stderr, the command's row."""

    def __init__(self, args, reps_in_params: bool, on_result: Optional[Callable], quiet: Optional[Callable] = None):
        self.args, self.reps, self.on_result, self.quiet = args, reps_in_params, on_result, quiet
        self.results: list = []

    def commit(self, cell, result: Result) -> None:
        self.results.append(labelled(cell, result) if self.reps else result)
        save(self.args, self.results)
        if result.status != "ok" and not (self.quiet and self.quiet(result)):
            print(f"sdnbench: {cell.benchmark}" + (f" #{cell.repetition + 1}" if self.reps else "")
                  + f" {result.status}: {result.error}", file=sys.stderr)
        if self.on_result:
            self.on_result(self.results[-1])

    def interrupted(self, cell, partial: Optional[Result]) -> None:
        if cell is not None and partial is not None:
            save(self.args, self.results + [labelled(cell, partial) if self.reps else partial])


def save(args, results: list, finished: bool = False) -> None:
    """``-o`` rewritten with ``results``; with ``finished`` (each result is a finished repetition,
    never rewritten later) the ones not yet stored go into ``--store`` too."""
    if args.out:
        data = (json.dumps([r.to_dict() for r in results], indent=2) + "\n").encode()
        where = output.write_or_beside(args.out, data)
        if where != str(args.out) and not getattr(args, "_rescued", False):
            print(f"sdnbench: could not write {args.out}; the results are in {where}", file=sys.stderr)
            args._rescued = True
    if finished:
        _store_new(args, results)


def _store_new(args, results: list) -> None:
    if getattr(args, "store", None) is None:
        return
    for r in results[getattr(args, "_stored", 0):]:
        save_if_asked(args, r)
    args._stored = len(results)


def finish(args, results: list) -> int:
    """The end of a command not yet on ``run_plan``: ``-o`` and ``--store`` once more, then ``end``."""
    save(args, results, finished=True)
    return end(args, results)


def end(args, results: list) -> int:
    """``--json`` printed; the exit code: 0 when every result is ok, else 2 (the system under test
    failed)."""
    if args.json:
        output.print_json([r.to_dict() for r in results])
    return 0 if all(r.status == "ok" for r in results) else 2
