"""How a ``controller`` subcommand keeps and ends with its results: written to ``-o``, printed with
``--json``, saved with ``--store``, and the exit code (0 when every result is ok, else 2). Shared by
``controller`` and the suites it registers (discovery, provisioning, resilience), which is why
it is a module of its own: they import it, ``controller`` imports them.

Nothing measured is lost (issue 40): ``save`` runs after every finished repetition, so ``-o`` holds
every one so far and ``--store`` gets each as it ends; a file that cannot be written after all goes
to a rescue file beside it (its path printed); Ctrl-C stores what finished and marks the run
``interrupted``."""

from __future__ import annotations

import json
import sys

from .. import output
from ..store.cli import save_if_asked


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


def interrupted(args, results: list) -> None:
    """Ctrl-C or SIGTERM: every finished result kept (``-o`` and ``--store``), the run marked
    ``interrupted`` in the store, then the caller re-raises."""
    save(args, results, finished=True)
    run_id = getattr(args, "_saved_run", None)
    if run_id is not None:
        from ..store.store import Store
        with Store(args.store) as store:
            store.set_run_status(run_id, "interrupted")
        print(f"sdnbench: {len(results)} result(s) kept in run {run_id} of {args.store}, marked interrupted",
              file=sys.stderr)


def finish(args, results: list) -> int:
    save(args, results, finished=True)
    if args.json:
        output.print_json([r.to_dict() for r in results])
    return 0 if all(r.status == "ok" for r in results) else 2
