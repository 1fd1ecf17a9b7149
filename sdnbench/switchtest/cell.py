"""The ``switch`` campaign kind: one scenario cell = one test against one target, as one Result.

Cell parameters are ``switch bench``'s (``target``, ``test``, ``flows``, ``barrier``,
``tables``, ``reps``, ``duration``, ``table_limit``, ``max_flows``, ``batch``, ``probe_pps``,
``of``, ...). A test that yields several parts (insertion per flow count and barrier mode,
pipeline per depth) is merged: every series keeps its labels, and counters are keyed
``name[labels]``, so nothing is summed away.
"""

from __future__ import annotations

from typing import Any, Optional

from ..errors import UserError
from ..kind import Kind
from ..result import Result
from . import runner
from .driver import SwitchbenchInterrupted
from .targets import parse_target

OPTIONS = set(runner.DEFAULTS) - {"tests"} | {"target", "test"}


def validate_param(name: str, value: Any) -> Optional[str]:
    if name not in OPTIONS:
        return f"unknown switch parameter {name!r} (known: {', '.join(sorted(OPTIONS))})"
    if name == "test" and value not in runner.TESTS:
        return f"unknown switch test {value!r} (known: {', '.join(runner.TESTS)})"
    if name == "target":
        return None if isinstance(value, str) else f"a switch target is text such as ovs, got {value!r}"
    if name == "flows":
        value = [value] if isinstance(value, int) else value
    try:
        runner.check({name: value} if name != "test" else {"tests": [value]})
    except UserError as e:
        return str(e)
    return None


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
    p = dict(params)
    spec = p.pop("target", "ovs")
    test = p.pop("test", None)
    if test is None:
        raise UserError("a switch cell needs `test:` (one of " + ", ".join(runner.TESTS) + ")")
    if isinstance(p.get("flows"), int):
        p["flows"] = [p["flows"]]
    try:
        parts = runner.run_on(target, spec, runner.check({**p, "tests": [test]}), progress)
    except SwitchbenchInterrupted as e:
        if getattr(e, "results", None):
            e.result = merge(test, dict(params), e.results).finish(
                "failed", "interrupted: the test was cut short; the parts it finished are kept")
        raise
    if not parts:
        raise UserError(f"switch test {test} produced no result")
    return merge(test, dict(params), parts)


KIND = Kind("switch", "sdnbench.switchtest.cell", "run_switch", ("root", "netns", "ovs", "switchbench"),
            "switch under test: sdnbench as controller and traffic (insertion, barrier, packet-in/out, ...)",
            validate_param)
