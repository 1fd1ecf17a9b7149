"""The ``switch`` campaign kind: one scenario cell = one test against one target, as one Result.

Cell parameters are ``switch bench``'s (``params.SwitchBench``: ``target``, ``flows``,
``barrier``, ``tables``, ``reps``, ``duration``, ``table_limit``, ``max_flows``, ``batch``,
``probe_pps``, ``of``, ...) with one ``test`` where the command takes several. A test that
yields several parts (insertion per flow count and barrier mode, pipeline per depth) is merged: every series keeps its labels, and counters are keyed
``name[labels]``, so nothing is summed away.
"""

from __future__ import annotations

from ..errors import UserError
from ..kind import Kind
from ..result import Result
from . import runner
from .driver import SwitchbenchInterrupted
from .params import cell, check_cell, validate_param
from .targets import parse_target


def _label(labels: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in labels.items())


def merge(test: str, params: dict, parts: list) -> Result:
    first = parts[0]
    r = Result(kind="switch", benchmark=test, params=params, topology=first.topology,
               versions=first.versions)
    for p in parts:
        r.series += p.series
        r.notes += p.notes
        key = _label({k: v for k, v in p.params.items() if k in ("flows", "barrier", "tables")})
        for k, v in p.counters.items():
            r.counters[f"{k}[{key}]" if key and len(parts) > 1 else k] = v
    failed = [p for p in parts if p.status != "ok"]
    return r.finish("failed", "; ".join(p.error or "failed" for p in failed)) if failed else r.finish()


def run_switch(params: dict) -> Result:
    target = params.get("target", "ovs")
    with parse_target(target) as built:
        return run_test(built, params)


def run_test(target, params: dict, progress=None) -> Result:
    """One cell on a ``target`` built already (``switch bench`` builds one for all its tests):
    the test ``params["test"]`` in a session of its own, its parts merged. On Ctrl-C/SIGTERM the
    ``Interrupted`` carries the parts finished before it as a failed ``result``."""
    p = cell(params)
    [test] = p.tests
    try:
        parts = runner.run_on(target, p.target, p, progress)
    except SwitchbenchInterrupted as e:
        if getattr(e, "results", None):
            e.result = merge(test, dict(params), e.results).finish(
                "failed", "interrupted: the test was cut short; the parts it finished are kept")
        raise
    if not parts:
        raise UserError(f"switch test {test} produced no result")
    return merge(test, dict(params), parts)


KIND = Kind("switch", "sdnbench.switchbench.cell", "run_switch", ("root", "netns", "ovs", "switchbench"),
            "switch under test: sdnbench as controller and traffic (insertion, barrier, packet-in/out, ...)",
            validate_param, check_cell)
