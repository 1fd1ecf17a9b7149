"""The counters of a stored robustness run (``runner.py``, one case; ``cell.py``, a campaign
cell's repetitions), declared once (``sdnbench.counters``): the engine's (``EngineCounters``; none
when the case could not run) and the case's record. The record is a ``verdicts.Verdict``
(``case``, ``verdict``, ``evidence``, ``phases``, ``restarted``, ``test``) with what was seen
around it (``observation``: the engine's, ``loadavg``, ``quiet_wait_s``, ``cpu_before_case``, the
SYN flood's ``listen_queue``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..counters import counter
from ..engine.stored import EngineCounters


@dataclass(frozen=True)
class RobustnessCounters(EngineCounters):
    robustness: Optional[dict] = counter("", "the case's record (a Verdict and what was seen around it)")
    robustness_verdict: Optional[str] = counter("", "the verdict (a cell: the stable one over its repetitions)")
    robustness_stable: Optional[dict] = counter("", "the stable verdict over the repetitions (stable.Stable)")
    robustness_reps: Optional[list] = counter("", "a cell: each repetition's record, rep, of_version and status")
