"""The one orchestration of measurements: a list of cells (``CellSpec`` or the store's
``CellInfo``: benchmark, kind, params, repetition) measured in order, each through its kind's
runner (``measure``: the same failure handling everywhere), each handed to the sinks as it ends.

A campaign (``runner``) and a CLI command (``sdnbench controller bench``, ...) are both a plan of
cells executed here; they differ only in their sinks and in ``contain_bugs``:

- ``StoreSink`` (``store_sink``): each cell committed to the store in its own transaction as it
  ends; Ctrl-C/SIGTERM marks the run ``interrupted``;
- a campaign's progress display and schedule (warm-up, pause); a command's ``-o`` file and its
  printed rows (``commands/_results``).

Invariants: a sink sees ``begin(cell)``, then ``commit(cell, result)`` when the cell ends, or
``interrupted(cell, partial)`` on Ctrl-C/SIGTERM (cell None when the signal came between cells;
``partial`` what the runner measured before it: an ``Interrupted`` that carries a ``result``, as
the engine's does, or None); ``close(completed)`` last, always. ``Interrupted`` (and
KeyboardInterrupt) always propagates after every sink has seen it, so the measurement's own
``finally`` clean-ups have run and the caller exits with 128+signal.
"""

from __future__ import annotations

from typing import Optional

from ..errors import Interrupted
from ..proc import raise_if_swallowed
from ..result import Result
from .measure import measure


class Sink:
    """What sees the cells of a plan as they are measured; every method may be left out."""

    def begin(self, cell) -> None:
        pass

    def commit(self, cell, result: Result) -> None:
        pass

    def interrupted(self, cell, partial: Optional[Result]) -> None:
        pass

    def close(self, completed: bool) -> None:
        """The plan ended: ``completed`` when every cell was measured (not on an exception)."""


def execute_cells(cells: list, runners: dict, sinks: list, contain_bugs: bool = True) -> list:
    """[(cell, Result)] for every cell, in order; see the module doc."""
    done: list = []
    current = None
    completed = False
    try:
        for cell in cells:
            raise_if_swallowed()           # a signal a finalizer swallowed ends the plan here
            current = cell
            for s in sinks:
                s.begin(cell)
            result = measure(runners[cell.kind], cell.kind, cell.benchmark, cell.params, contain_bugs)
            for s in sinks:
                s.commit(cell, result)
            done.append((cell, result))
            current = None
        completed = True
    except (Interrupted, KeyboardInterrupt) as e:
        partial = getattr(e, "result", None)
        for s in sinks:
            s.interrupted(current, partial if isinstance(partial, Result) else None)
        raise
    finally:
        for s in sinks:
            s.close(completed)
    return done
