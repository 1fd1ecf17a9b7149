"""The counters of a stored ``controller tls-cost`` result: the engine's (``EngineCounters``) and
the ``tlscost_*`` ones the command reads around each measurement (``commands/tls_cost.py``),
declared once (``sdnbench.counters``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..counters import counter
from ..engine.stored import EngineCounters


@dataclass(frozen=True)
class TlsCostCounters(EngineCounters):
    tlscost_engine_cpu_s: Optional[float] = counter("s", "the engine's CPU time over the measurement (rusage)")
    tlscost_controller_cpu_s: Optional[float] = counter("s", "the controller's CPU time over it (None: not ours)")
    tlscost_controller_rss_delta_bytes: Optional[int] = counter("B", "the controller's peak RSS minus its RSS before")
    tlscost_engine_rss_peak_bytes: Optional[int] = counter("B", "the engine processes' peak RSS (None: not sampled)")
