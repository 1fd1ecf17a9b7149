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

A store that fails during the run (its disk full, made read-only, locked by another process,
damaged: ``store.faults``) ends the run: the result it could not take goes to a rescue file, the
run is marked (``failed``; a campaign's ``interrupted``, to resume) in the room the store's
reserve kept, and one line (exit 2) names the fault, the rescue file and what the run keeps. A
result is never dropped and no run is left ``running``.
"""

from __future__ import annotations

import sqlite3
import sys
import time
from typing import Optional

from ..result import Result
from ..store import CellSpec, Store
from ..store.cli import rescue, rescued
from ..store.faults import WHY, StoreFault
from .executor import Sink
from .measure import failed
from .plan import cell_key


class StoreSink(Sink):
    def __init__(self, store: Store, run_id: Optional[int] = None, resumable: bool = True):
        self.store, self.run_id, self.resumable = store, run_id, resumable
        self.ids: dict = {}            # id(cell) -> the store's cell id (a command's cells)
        self.committed: set = set()
        self.broken = False            # the store failed: the run has ended (``_stop``)
        self.current = None            # the cell begun last

    def cell_id(self, cell) -> int:
        return cell.id if getattr(cell, "id", None) is not None else self.ids[id(cell)]

    def begin(self, cell) -> None:
        self.current = cell
        if getattr(cell, "id", None) is None:
            self._guarded(self._add, cell)
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
            return
        self._guarded(lambda c: self.store.finish_cell(self.cell_id(c), result), cell, result)
        self.committed.add(id(cell))

    def interrupted(self, cell, partial: Optional[Result]) -> None:
        if self.broken:
            return
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
        if self.broken:
            return
        if not completed:
            self._cut_short(self.current, None, "stopped by an error in sdnbench before it finished")
        if self.run_id is None or self.broken or self.store.run(self.run_id).status == "interrupted":
            return
        n_failed = self.store.run(self.run_id).counts.get("failed", 0)
        status = "done" if completed and not n_failed else "failed"
        self._guarded(lambda _: self.store.set_run_status(self.run_id, status), None)

    def _guarded(self, step, cell, result: Optional[Result] = None) -> None:
        """``step(cell)``; a storage fault in it ends the run (``_stop``), anything else is a bug."""
        try:
            step(cell)
        except (sqlite3.Error, OSError, StoreFault) as e:
            fault = self.store.fault(e)
            if fault is None:
                raise
            self._stop(cell, result, fault)

    def _stop(self, cell, result: Optional[Result], fault: StoreFault) -> None:
        """The store failed mid-run: ``result`` (what it could not take) to a rescue file, the cell
        kept failed saying where (a campaign's stays to be measured again) and the run marked,
        then the run ends with one line."""
        self.broken = True
        said = [str(fault)]
        if result is not None:
            said.append(rescued(rescue(self.store.dir, result)))
        if self.run_id is not None:
            status = "interrupted" if self.resumable else "failed"
            begun = cell is not None and (getattr(cell, "id", None) is not None or id(cell) in self.ids)
            where = said[-1] if result is not None else "nothing measured yet"
            failed_cell = (self.cell_id(cell), f"not stored ({WHY.get(fault.kind, fault.kind)}); {where}") \
                if begun and not self.resumable else None
            n = len(self.committed)
            kept = f"run {self.run_id} keeps the {n} result(s) stored before" if n else f"run {self.run_id} holds no result"
            try:
                self.store.set_run_status(self.run_id, status, failed_cell)
                said.append(f"{kept}, marked {status}")
            except (sqlite3.Error, OSError):
                said.append(f"{kept}; it could not be marked and still says running")
            if self.resumable:
                said.append(f"`sdnbench run --resume {self.run_id} --store {self.store.dir}` measures the "
                            "rest once the store is fixed")
        measured = result is not None or bool(self.committed)
        raise StoreFault(fault.kind, "; ".join(said), exit_code=2 if measured else 1) from fault
