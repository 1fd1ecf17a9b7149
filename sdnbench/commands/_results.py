"""How a ``controller`` subcommand measures, keeps and ends with its results: written to ``-o``,
printed with ``--json``, saved with ``--store``, and the exit code (0 when every result is ok, else
2). Shared by ``controller`` and the suites it registers (discovery, provisioning, resilience),
which is why it is a module of its own: they import it, ``controller`` imports them.

``run_plan``: a command is a plan of cells executed by the campaigns' executor
(``campaign.executor``): the same ``measure`` and failure handling, the same per-cell commit to
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
from typing import Callable, Optional

from .. import output
from ..campaign.executor import Sink, execute_cells
from ..campaign.store_sink import StoreSink
from ..result import Result
from ..store.cli import save_if_asked
from ..store.store import Store


def run_plan(args, cells: list, runner: Callable, on_result: Optional[Callable] = None,
             reps_in_params: bool = False) -> list:
    """The Results of ``cells`` (``CellSpec``, all of one kind) measured by ``runner(params)``;
    ``on_result(result)`` sees each as it ends. With ``reps_in_params`` the results written and
    returned carry their repetition as the param ``rep`` (the store has it as the cell's)."""
    files = _File(args, reps_in_params, on_result)
    with contextlib.ExitStack() as stack:
        sinks: list = [files]
        if getattr(args, "store", None) is not None:
            sinks.insert(0, StoreSink(stack.enter_context(Store(args.store)), resumable=False))
        execute_cells(cells, {cells[0].kind: runner}, sinks, contain_bugs=False)
    return files.results


def labelled(cell, result: Result) -> Result:
    """``result`` (not changed) with its cell's repetition as the param ``rep``."""
    out = copy.copy(result)
    out.params = dict(result.params, rep=cell.repetition)
    return out


class _File(Sink):
    """``-o`` rewritten after every cell (and with the partial cell on Ctrl-C), a failed cell's
    reason on stderr, the command's row."""

    def __init__(self, args, reps_in_params: bool, on_result: Optional[Callable]):
        self.args, self.reps, self.on_result = args, reps_in_params, on_result
        self.results: list = []

    def commit(self, cell, result: Result) -> None:
        self.results.append(labelled(cell, result) if self.reps else result)
        save(self.args, self.results)
        if result.status != "ok":
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
