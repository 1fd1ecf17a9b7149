"""How a measuring command measures, keeps and ends with its results: written to ``-o``,
printed with ``--json``, saved with ``--store``, and the exit code (0 when every result is ok, else
2). Shared by ``controller`` and the suites it registers (discovery, provisioning, resilience),
``net run`` and ``switch``, which is why it is a module of its own: they import it, ``controller``
imports them.

``run_plan``: every measuring command is a plan of cells executed by the campaigns' executor
(``campaign.executor``): ``controller bench/search/capacity``, and through ``run_trials`` the
RFC 8456 suites' commands (``provisioning``, ``table-capacity``, ``reprovisioning``,
``failover``, ``discovery``, ``topology-change``), whose cells are those their campaign kinds
take; ``net run`` (a cell per repetition, ``-o`` the run as one Result), ``switch bench`` (a
cell per test, as the ``switch`` kind's), ``switch conformance`` (a cell per target and
version), ``controller robustness``/``dos`` (a cell per case and repetition) and ``controller
exceptions`` (a cell per variant and repetition). The same ``measure`` and failure handling, the same per-cell commit to
the store (``--store``: a run of kind ``single``), the same Ctrl-C/SIGTERM handling (what finished
is kept, the run marked ``interrupted``, the part of the cell cut short kept as failed). What is
the command's own: ``-o`` rewritten after every cell, its printed rows, and a bug propagating
(exit 3) instead of becoming a failed cell.

Where the results go is the ``outputs.Outputs`` value ``cli.main`` built from the arguments
(``-o`` and its format, ``--store``, ``--json``); the command passes it here, and a ``-o``
rescued elsewhere is recorded on it (``Outputs.rescue``), not on the arguments.

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
from ..formats import Output
from ..outputs import Outputs
from ..result import Result
from ..store.store import Store


def run_plan(outputs: Outputs, cells: list, runner: Callable, on_result: Optional[Callable] = None,
             reps_in_params: bool = False, sinks: tuple = (), quiet: Optional[Callable] = None,
             document: Optional[Callable] = None, kind: Optional[str] = None) -> list:
    """The Results of ``cells`` (``CellSpec``, all of one kind) measured by ``runner(params)``;
    ``on_result(result)`` sees each as it ends. With ``reps_in_params`` the results written and
    returned carry their repetition as the param ``rep`` (the store has it as the cell's).
    ``sinks``: more that see each cell first; ``quiet(result)``: a failed result the file sink
    does not report on stderr; ``document(results)``: what ``-o`` holds (the list of results).
    ``cells`` may be any iterable (a plan that ends early: ``controller robustness``) when
    ``kind`` names their kind."""
    files = _File(outputs, reps_in_params, on_result, quiet, document)
    with contextlib.ExitStack() as stack:
        every: list = [*sinks, files]       # the store last: one that fails ends the run after -o has the cell
        if outputs.store is not None:
            every.append(StoreSink(stack.enter_context(Store(outputs.store)), resumable=False))
        with contextlib.suppress(_Stopped):
            execute_cells(cells, {kind or cells[0].kind: runner}, every, contain_bugs=False)
    return files.results


def run_trials(outputs: Outputs, cells: list, one: Callable[[object], Result], on_result: Optional[Callable] = None,
               reps_in_params: bool = False, failure_ends: bool = False, quiet: Optional[Callable] = None,
               document: Optional[Callable] = None, stops: tuple = (UserError,), kind: Optional[str] = None) -> list:
    """``run_plan`` for a suite whose command built its typed parameters already: each cell is
    measured by ``one(cell)`` (the trial of ``cell.repetition``); the cell's params are what the
    store records as asked. With ``failure_ends`` no cell begins after one that failed (``net
    run``: what failed one repetition, a controller gone, would fail the next).

    A ``UserError`` inside a trial (a controller that does not speak the forced ``--of``, an API
    URL that does not answer) ends the command as the user's error, one line and exit 1, as it
    did before the executor: that cell is kept as failed with the reason (``-o``, ``--store``),
    no later cell starts, and the error is raised once the sinks are closed. ``stops`` names the
    exceptions that do so (``switch bench`` adds ``CheckFailed``: a switch that never connected
    fails every later test too; exit 2)."""
    stop = _Stop(failure_ends)

    def runner(_params: dict) -> Result:
        try:
            return one(stop.cell)
        except stops as e:
            stop.error = e        # what the trial measured before it, if it says (``e.result``), is kept
            stop.result = getattr(e, "result", None) or failed(stop.cell.kind, stop.cell.benchmark,
                                                                stop.cell.params, time.time(), str(e))
            return stop.result
    results = run_plan(outputs, cells, runner, on_result, reps_in_params, sinks=(stop,),
                       quiet=lambda r: stop.said(r) or bool(quiet and quiet(r)), document=document, kind=kind)
    if stop.error is not None:
        raise stop.error
    return results


class _Stopped(Exception):
    """The cell after one whose trial raised a ``UserError`` (or, with ``failure_ends``,
    failed): not started."""


class _Stop(Sink):
    """The cell being measured (what ``run_trials`` hands its trial); once a trial raised a
    ``UserError`` (or failed, with ``failure_ends``) no other cell begins. Put first among the
    sinks, so none sees that cell."""

    def __init__(self, failure_ends: bool = False):
        self.cell, self.error, self.result = None, None, None
        self.failure_ends, self.failed = failure_ends, False

    def begin(self, cell) -> None:
        if self.error is not None or self.failed:
            raise _Stopped()
        self.cell = cell

    def commit(self, cell, result: Result) -> None:
        self.failed = self.failure_ends and result.status != "ok"

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

    def __init__(self, outputs: Outputs, reps_in_params: bool, on_result: Optional[Callable],
                 quiet: Optional[Callable] = None, document: Optional[Callable] = None):
        self.outputs, self.reps, self.on_result, self.quiet = outputs, reps_in_params, on_result, quiet
        self.document = document
        self.results: list = []

    def commit(self, cell, result: Result) -> None:
        self.results.append(labelled(cell, result) if self.reps else result)
        save(self.outputs, self.results, document=self.document)
        if result.status != "ok" and not (self.quiet and self.quiet(result)):
            print(f"sdnbench: {cell.benchmark}" + (f" #{cell.repetition + 1}" if self.reps else "")
                  + f" {result.status}: {result.error}", file=sys.stderr)
        if self.on_result:
            self.on_result(self.results[-1])

    def interrupted(self, cell, partial: Optional[Result]) -> None:
        if cell is not None and partial is not None:
            save(self.outputs, self.results + [labelled(cell, partial) if self.reps else partial],
                 document=self.document)


def save(outputs: Outputs, results: list, document: Optional[Callable] = None) -> None:
    """``-o`` rewritten with ``results`` (or ``document(results)``). A file that cannot be written
    goes beside it (``output.write_or_beside``): recorded on ``outputs.rescue``, said once."""
    out = outputs.path
    if out:
        doc = document(results) if document else [r.to_dict() for r in results]
        data = (json.dumps(doc, indent=2) + "\n").encode()
        where = output.write_or_beside(out, data)
        if where != str(out) and outputs.rescue.record(where):
            print(f"sdnbench: could not write {out}; the results are in {where}", file=sys.stderr)


# what a measuring command's -o holds, and its writer (rewritten after every result)
MEASURED = Output("the results", {"json": save})


def end(outputs: Outputs, results: list) -> int:
    """``--json`` printed; the exit code: 0 when every result is ok, else 2 (the system under test
    failed)."""
    if outputs.json:
        output.print_json([r.to_dict() for r in results])
    return 0 if all(r.status == "ok" for r in results) else 2
