"""``--store DIR`` for single CLI commands whose loop is their own (``controller robustness``,
``discovery``, ...); ``controller bench``, ``search`` and ``capacity`` store through the
campaigns' executor instead (``campaign/store_sink.py``), each cell as it ends.

    from sdnbench.store.cli import add_store_flag, save_if_asked
    add_store_flag(parser)                     # in register(); adds --store DIR (default: none)
    ...
    save_if_asked(args, result)                # after the measurement; prints "saved as run N"

The result becomes a run of kind ``single`` in the same store campaigns use, so ``sdnbench
results``, ``compare`` and the reports see it like any other run.
"""

from __future__ import annotations

import sqlite3
import sys
from typing import Optional

from ..output import add_store_flag as add
from ..errors import UserError
from ..result import Result
from .faults import StoreFault
from .store import Store


def add_store_flag(parser, default_off: bool = True) -> None:
    """``--store DIR`` (the one definition is ``sdnbench.output.add_store_flag``)."""
    add(parser, help="also save the result into the results store in DIR (e.g. ./sdnbench-results)"
        if default_off else "")


def rescue(directory, result: Result) -> Optional[str]:
    """The store could not take ``result`` after all (a full disk, a store made read-only during
    the run): it goes to a rescue file, beside the store if there is room, else in the working
    directory or /tmp; it is never dropped. Returns where, or None if nowhere could hold it."""
    import json
    import time
    from pathlib import Path

    from ..output import write_or_beside
    target = Path(directory) / f"rescued-{time.strftime('%Y%m%dT%H%M%S')}-{id(result):x}.json"
    try:
        return write_or_beside(target, (json.dumps(result.to_dict(), indent=2) + "\n").encode())
    except OSError:
        return None


def rescued(where: Optional[str]) -> str:
    """What the line of a store that failed says about the result it could not take."""
    if where is None:
        return "the result could not be written anywhere either"
    return f"the result is in {where} (`sdnbench report {where}` reads it)"


def save_if_asked(args, result: Result, name: Optional[str] = None) -> Optional[int]:
    """Save ``result`` if ``--store`` was given; returns the run id (or None).

    The results of one command go into one run: the first call creates it, later calls with the
    same ``args`` add cells to it, so ``controller dos --reps 3`` is stored as 3 repetitions of
    each case (a ``rep`` parameter becomes the cell's repetition). A store that cannot take it
    ends the command (``StoreFault``, exit 2) with the result in a rescue file the line names."""
    directory = getattr(args, "store", None)
    if directory is None:
        return None
    run_id = getattr(args, "_saved_run", None)
    try:
        with Store(directory) as store:
            result_id = store.save_result(result, run=run_id, name=name)
            run_id = store.conn.execute("SELECT run_id FROM results WHERE id=?", (result_id,)).fetchone()[0]
            if result.status != "ok":
                store.set_run_status(run_id, "failed")
    except (UserError, sqlite3.Error, OSError) as e:
        where = rescue(directory, result)
        if not isinstance(e, UserError):
            raise                  # not a storage fault: a bug, with its traceback (the result is kept)
        raise StoreFault(getattr(e, "kind", ""), f"{e}; {rescued(where)}", exit_code=2) from e
    if getattr(args, "_saved_run", None) is None:
        print(f"saved as run {run_id} in {directory} (see `sdnbench results show {run_id} --store {directory}`)",
              file=sys.stderr)
    args._saved_run = run_id
    return run_id

