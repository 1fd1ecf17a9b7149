"""The discovery suite's trials with a controller launched for each: what ``controller
discovery`` / ``topology-change``, the ``discovery`` campaign kind and the ``rfc8456`` kind's
size search all run. ``cfg`` is the suite's typed parameters (``params.Discovery``), built and
checked by ``params.build``; commands only parse flags and print.
"""

from __future__ import annotations

from typing import Callable, Optional

from ..controllers import launch
from ..engine.params import launch_of_version
from ..errors import UserError
from ..result import Result
from . import change, record
from .params import Discovery
from .setup import agree_version, api_for, engine_params, make_setup
from .size import search, start_size, with_size
from .trial import run_trial


def trial(cfg: Discovery, topo: str, quiet: bool) -> tuple:
    """Launch the controller, run one trial on ``topo``, stop the controller:
    (trial, controller info, northbound adapter)."""
    p = engine_params(topo, cfg.controller, cfg.of_version, cfg.deadline_s, cfg.workers)
    with launch(cfg.controller, of_version=launch_of_version(p)) as ctl:
        p, info = agree_version(p, ctl, cfg.of_version)
        adapter, url = api_for(cfg.controller, cfg.api, cfg.api_url, ctl.api_url, cfg.verify)
        s = make_setup(p, adapter, url, cfg.poll_s, cfg.deadline_s, cfg.stable, quiet)
        t = run_trial(s, ctl.target, ctl.pid)
        ctl.check_alive()
        return t, info, adapter


def result(cfg: Discovery, benchmark: str, trials: list, info: dict, adapter, extra: Optional[dict] = None) -> Result:
    """The trials so far as one Result (the last trial that saw switches gives the §4.8 fields)."""
    t = next((x for x in reversed(trials) if x.get("switches")), trials[-1])
    fields = record.rfc_fields(info, cfg.topo, t["switches"], t["links"], t.get("verification", cfg.verify),
                               adapter.name if adapter else None, cfg.of_version)
    params = {"controller": cfg.controller, "topo": cfg.topo, "verify": cfg.verify, "poll_s": cfg.poll_s,
              "deadline_s": cfg.deadline_s, "stable": cfg.stable, "of_version": cfg.of_version, **(extra or {})}
    return record.to_result(benchmark, {k: v for k, v in params.items() if v is not None}, trials, info, fields)


def size_search(cfg: Discovery, max_switches: int, seen_one: Optional[Callable[[list, dict, object], None]] = None) -> tuple:
    """§5.2.2: doubling then bisection over the size of ``cfg.topo``, a launched trial per
    size. A size too large for this machine is a failure at that size, said why. A trial that
    fell back to southbound-only does not count for a northbound search. ``seen_one(seen,
    info, adapter)`` is called after each trial (to save or print progress). Returns
    (the search's answer, the trials, controller info, adapter)."""
    seen: list = []
    state: dict = {"info": {}, "adapter": None}

    def ok(n: int) -> bool:
        topo = with_size(cfg.topo, n)
        try:
            t, state["info"], state["adapter"] = trial(cfg, topo, quiet=True)
        except UserError as e:
            t = {"state": "failed", "note": str(e), "discovery_s": None, "southbound": {}, "switches": None, "links": None}
        t["topo"], t["size"] = topo, n
        seen.append(t)
        if seen_one:
            seen_one(seen, state["info"], state["adapter"])
        return (t["state"] == "complete" and t.get("verification") == cfg.verify
                and t["discovery_s"] is not None and t["discovery_s"] <= cfg.deadline_s)

    res = search(start_size(cfg.topo), ok, max_switches)
    return res, seen, state["info"], state["adapter"]


def size_result(cfg: Discovery, res: dict, seen: list, info: dict, adapter) -> Result:
    """The size search as one Result: the largest size discovered in time and the first failure."""
    r = result(cfg, "topology-discovery-size", seen, info, adapter,
               {"size_search": True, "largest": res["largest"], "first_failure": res["first_failure"]})
    r.counters.update({"largest_size": res["largest"], "first_failure_size": res["first_failure"],
                       "size_tried": res["tried"]})
    if res["largest"] is not None and r.status != "ok":
        r.status, r.error = "ok", None
    return r


def change_trial(cfg: Discovery) -> Result:
    """§5.1.8: discovery, then a link down and up again; detection time from the first poll
    that shows each change."""
    p0 = engine_params(cfg.topo, cfg.controller, cfg.of_version, cfg.deadline_s, cfg.workers)
    link = change.pick_link(p0["network"], cfg.link)
    deadline = cfg.down_at_s + cfg.up_after_s + cfg.deadline_s
    p = engine_params(cfg.topo, cfg.controller, cfg.of_version, deadline, cfg.workers,
                      change.events(link, cfg.down_at_s, cfg.up_after_s))
    with launch(cfg.controller, of_version=launch_of_version(p)) as ctl:
        p, info = agree_version(p, ctl, cfg.of_version)
        adapter, url = api_for(cfg.controller, cfg.api, cfg.api_url, ctl.api_url, cfg.verify)
        t = change.run(make_setup(p, adapter, url, cfg.poll_s, deadline, cfg.stable, True),
                       ctl.target, link, ctl.pid)
    return change.to_result(cfg, t, info, adapter)
