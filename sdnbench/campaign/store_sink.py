"""The store as a sink of the executor: each cell committed with its Result in its own
transaction as soon as it ends, the run's status kept true (``running``, then ``done`` or
``failed``; ``interrupted`` on Ctrl-C/SIGTERM).

Two kinds of run, one sink:
- a campaign's run was planned whole into the store before its first measurement (its cells have
  ids); it is ``resumable``: a cell cut short by a signal stays ``running`` and ``resume``
  measures it again, so its partial result is not kept;
- a command's run (kind ``single``, ``sdnbench controller bench --store DIR``) is created when
  its first cell begins and gets each cell as it begins; nothing resumes it, so the cell cut
  short is kept as failed, with what it measured before the signal ("interrupted: ...").

A command's store that cannot take a result after all (a full disk, made read-only during the
run) gets it in a rescue file beside it, whose path is printed: a result is never dropped.
"""

from __future__ import annotations

import sqlite3
import sys
import time
from typing import Optional

from ..errors import UserError
from ..result import Result
from ..store import CellSpec, Store
from ..store.cli import rescue
from .executor import Sink
from .measure import failed
from .plan import cell_key


class StoreSink(Sink):
    def __init__(self, store: Store, run_id: Optional[int] = None, resumable: bool = True):
        self.store, self.run_id, self.resumable = store, run_id, resumable
        self.ids: dict = {}            # id(cell) -> the store's cell id (a command's cells)
        self.committed: set = set()
        self.broken = False            # a command's store failed: the rest goes to rescue files
        self.current = None            # the cell begun last

    def cell_id(self, cell) -> int:
        return cell.id if getattr(cell, "id", None) is not None else self.ids[id(cell)]

    def begin(self, cell) -> None:
        self.current = cell
        if self.broken:
            return
        if getattr(cell, "id", None) is None:
            self._guarded(self._add, cell)
        if not self.broken:
            self._guarded(lambda c: self.store.mark_running(self.cell_id(c)), cell)

    def _add(self, cell) -> None:
        if self.run_id is None:
            self.run_id = self.store.create_run("single", f"{cell.kind}:{cell.benchmark}")
            print(f"saved as run {self.run_id} in {self.store.dir} (see `sdnbench results show {self.run_id} "
                  f"--store {self.store.dir}`)", file=sys.stderr)
        key = cell_key(cell.benchmark, cell.params, cell.repetition)
        self.store.add_cells(self.run_id, [CellSpec(key, cell.benchmark, cell.kind, dict(cell.params),
                                                    cell.repetition)])
        self.ids[id(cell)] = self.store.conn.execute("SELECT id FROM cells WHERE run_id=? AND key=?",
                                                     (self.run_id, key)).fetchone()[0]

    def commit(self, cell, result: Result) -> None:
        if self.broken:
            rescue(self.store.dir, result, "the store failed earlier in this run")
            return
        self._guarded(lambda c: self.store.finish_cell(self.cell_id(c), result), cell, result)
        self.committed.add(id(cell))

    def interrupted(self, cell, partial: Optional[Result]) -> None:
        self._cut_short(cell, partial, "interrupted before it measured anything")
        if self.run_id is None or self.broken:
            return
        self.store.set_run_status(self.run_id, "interrupted")
        if not self.resumable:
            n = len(self.committed)
            print(f"sdnbench: {n} result(s) kept in run {self.run_id} of {self.store.dir}, marked interrupted",
                  file=sys.stderr)

    def _cut_short(self, cell, partial: Optional[Result], why: str) -> None:
        """A command's cell that began and did not end is kept as failed (a campaign's stays
        ``running``, for ``resume``)."""
        begun = cell is not None and (getattr(cell, "id", None) is not None or id(cell) in self.ids)
        if not self.resumable and begun and id(cell) not in self.committed:
            self.commit(cell, partial or failed(cell.kind, cell.benchmark, cell.params, time.time(), why))

    def close(self, completed: bool) -> None:
        if not completed:
            self._cut_short(self.current, None, "stopped by an error in sdnbench before it finished")
        if self.run_id is None or self.broken or self.store.run(self.run_id).status == "interrupted":
            return
        n_failed = self.store.run(self.run_id).counts.get("failed", 0)
        self.store.set_run_status(self.run_id, "done" if completed and not n_failed else "failed")

    def _guarded(self, step, cell, result: Optional[Result] = None) -> None:
        """A campaign's store failing is fatal (its plan lives there); a command's store failing
        sends this result and the later ones to rescue files."""
        if self.resumable:
            step(cell)
            return
        try:
            step(cell)
        except (UserError, sqlite3.Error, OSError) as e:
            self.broken = True
            if result is not None:
                rescue(self.store.dir, result, e)
