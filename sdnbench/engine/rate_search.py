"""``controller search`` as a measurement: the RFC 8456 §5.1.3 rate search (``search.py``, pure)
run against a launched controller, one engine run per trial, and its ``Result``.

The trials share one config, resolved by the engine once (``params.check``): a trial changes only
the mode and the offered rate, so it is one engine run and no check (the engine refuses a bad
rate itself, as bad input, exit 1).
"""

from __future__ import annotations

from typing import Callable, Optional

from ..result import Result
from .runner import measure
from .search import SearchResult, Trial, search, trial_from
from .stored import EngineCounters


def trial_params(p: dict, rate: Optional[float]) -> dict:
    """The resolved params ``p`` of a trial: maximum load (throughput mode, ``rate`` None) or
    open loop at ``rate``."""
    return dict(p, mode="throughput") if rate is None else dict(p, mode="fixed-rate", rate=rate)


def run_search(p: dict, ctl, step: str, confirm: float, max_trials: int,
               on_trial: Optional[Callable[[Trial], None]] = None) -> tuple:
    """(Result, SearchResult): the search with resolved params ``p`` against the launched
    controller ``ctl``; ``on_trial`` sees each trial's row as it ends."""
    engine: list = []          # the engine's version, as each trial's document gives it

    def trial(rate: Optional[float]) -> Trial:
        r = measure(trial_params(p, rate), ctl)
        engine.append(r.versions.get("sdnbench-engine", "unknown"))
        thr, sent = r.find("throughput"), r.find("sent_rate")
        t = trial_from(rate, EngineCounters.of(r), sent[0].values if sent else [], thr[0].values if thr else [])
        if on_trial:
            on_trial(t)
        return t
    res = search(trial, step=step, p_pct=confirm, max_trials=max_trials)
    params = {k: v for k, v in p.items() if k not in ("mode", "rate")}
    return search_result(res, dict(params, step=step, confirm=confirm), dict(ctl.info), engine[-1]), res


def search_result(res: SearchResult, params: dict, controller: dict, engine_version: str) -> Result:
    """The search as one Result: every trial's row as series (raw, in trial order), the two
    rates and the markers as counters. Pure."""
    r = Result(kind="controller", benchmark="rate-search", params=params)
    r.controller = controller
    r.add("search_offered", "flows/s", [t.offered for t in res.trials])
    r.add("search_apr", "flows/s", [t.apr for t in res.trials])
    r.add("search_loss", "ratio", [t.loss for t in res.trials])
    r.add("search_sent", "flows/s", [t.sent for t in res.trials])
    r.add("search_late", "requests", [t.late for t in res.trials])
    r.add("search_lost", "requests", [t.lost for t in res.trials])
    r.add("search_in_flight_at_stop", "requests", [t.in_flight for t in res.trials])
    r.counters.update({"max_rate": res.max_rate, "loss_free_rate": res.loss_free_rate,
                       "trials": len(res.trials)})
    r.counters["markers"] = [t.marker for t in res.trials]
    r.counters["unstable"] = [t.unstable for t in res.trials]
    if res.stopped:
        r.notes.append(res.stopped)
    r.versions["sdnbench-engine"] = engine_version
    return r.finish()
