"""``--store DIR`` of a measuring command, and what happens to a result the store cannot take.

Every measuring command stores through the campaigns' executor (``commands/_results.run_plan``
and ``campaign/store_sink.py``), each cell as it ends, into a run of kind ``single`` in the same
store campaigns use, so ``sdnbench results``, ``compare`` and the reports see it like any other
run. The directory reaches the executor on the command's ``outputs.Outputs`` (``store``), built
once by ``cli.main``. Here: the flag (``add_store_flag``), and the rescue file of a result the
store could not take after all (``rescue``, ``rescued``).
"""

from __future__ import annotations

from typing import Optional

from ..output import add_store_flag as add
from ..result import Result


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
