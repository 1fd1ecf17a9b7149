"""The ``discovery`` campaign kind: one cell = one trial (the campaign's repetitions are the
RFC's trials), ``test: discovery`` (§5.1.1) or ``test: topology-change`` (§5.1.8), each with its
controller launched for the cell. Parameters and defaults are the CLI's (``sdnbench controller
discovery`` / ``topology-change``)."""

from __future__ import annotations

from argparse import Namespace
from typing import Any, Optional

from ..result import Result

DEFAULTS = {"controller": "osken:topology", "topo": "ring,10", "verify": "northbound", "api": None,
            "api_url": None, "poll_s": 3.0, "deadline_s": 60.0, "stable": 3, "of_version": None,
            "workers": None, "test": "discovery", "link": None, "down_at_s": 10.0, "up_after_s": 10.0}
TESTS = ("discovery", "topology-change")


def validate_param(name: str, value: Any) -> Optional[str]:
    if name in ("name", "rep", "repetition"):
        return None
    if name not in DEFAULTS:
        return f"unknown discovery parameter {name!r}; known: {', '.join(sorted(DEFAULTS))}"
    if name == "test" and value not in TESTS:
        return f"test must be one of {', '.join(TESTS)}"
    if name == "verify" and value not in ("northbound", "southbound"):
        return "verify must be northbound or southbound"
    if name in ("poll_s", "deadline_s", "down_at_s", "up_after_s") and not (isinstance(value, (int, float)) and value > 0):
        return f"{name} must be a positive number of seconds"
    return None


def run_discovery(params: dict) -> Result:
    from ..commands import discovery as cmd
    args = Namespace(**{**DEFAULTS, **{k: v for k, v in params.items() if k in DEFAULTS}})
    if args.test == "topology-change":
        return _change(cmd, args)
    t, info, adapter = cmd._trial(args, args.topo, quiet=True)
    return cmd._result(args, "topology-discovery", [t], info, adapter)


def _change(cmd, args) -> Result:
    from ..controllers import launch
    from ..engine.params import launch_of_version
    from . import change
    from .setup import agree_version, api_for, engine_params, make_setup
    p0 = engine_params(args.topo, args.controller, args.of_version, args.deadline_s, args.workers)
    link = change.pick_link(p0["network"], args.link)
    deadline = args.down_at_s + args.up_after_s + args.deadline_s
    p = engine_params(args.topo, args.controller, args.of_version, deadline, args.workers,
                      change.events(link, args.down_at_s, args.up_after_s))
    with launch(args.controller, of_version=launch_of_version(p)) as ctl:
        p, info = agree_version(p, ctl, args.of_version)
        adapter, url = api_for(args.controller, args.api, args.api_url, ctl.api_url, args.verify)
        t = change.run(make_setup(p, adapter, url, args.poll_s, deadline, args.stable, True),
                       f"{ctl.host}:{ctl.port}", link, ctl.pid)
    return change.to_result(args, t, info, adapter)
