"""The counters of a stored switch test tool run (``runner.run``), declared once
(``sdnbench.counters``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..counters import View, counter


@dataclass(frozen=True)
class SwitchTestCounters(View):
    tests: Optional[int] = counter("tests", "test outcomes the tool reported")
    ok: Optional[int] = counter("tests", "of those, OK")
    error: Optional[int] = counter("tests", "of those, not OK (ERROR or any other outcome)")
    selected: Optional[int] = counter("tests", "tests the selected pattern files hold")
    seconds: Optional[float] = counter("s", "wall time of the run, rounded to 0.1 s")
