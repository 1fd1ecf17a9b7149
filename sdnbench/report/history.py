"""The report's history section: when the store holds earlier runs of a reported run's scenario,
each headline metric over those runs, with its step alerts (``sdnbench.history``)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..errors import UserError
from ..history.alerts import alerts
from ..history.collect import collect
from ..store.store import Store
from .builder import _metric_rank
from .history_render import alert_line, figure
from .model import Section

MIN_RUNS = 3          # fewer runs of a scenario make no history worth a section
MAX_METRICS = 3


def history_section(runs: list, store_dir: Optional[Path], with_plots: bool = True) -> Optional[Section]:
    """``None`` unless some reported run came from the store with earlier runs of its scenario."""
    wanted = [(r.meta["scenario"], int(r.id)) for r in runs
              if r.meta.get("scenario") and str(r.id).isdigit()]
    if not wanted:
        return None
    s = Section(title="History")
    with Store(store_dir, read_only=True) as store:
        for scenario, upto in dict.fromkeys(wanted):
            for metric in _headline_metrics(runs, scenario):
                try:
                    h = collect(store, scenario, metric)
                except UserError:
                    continue
                h.runs = [p for p in h.runs if p.run_id <= upto]
                if len(h.runs) < MIN_RUNS:
                    continue
                found = alerts(h)
                s.text.append(f"{metric} over {len(h.runs)} runs of {scenario} (up to run {upto}): "
                              + ("; ".join(alert_line(h, a) for a in found)
                                 or "no step changes detected."))
                if with_plots:
                    s.figures.append(figure(h, found))
    return s if s.text else None


def _headline_metrics(runs: list, scenario: str) -> list:
    metrics = {x.metric for r in runs if r.meta.get("scenario") == scenario
               for res in r.results for x in res.series}
    ranked = sorted((m for m in metrics if _metric_rank(m)[0] != 2), key=_metric_rank)
    return ranked[:MAX_METRICS]
