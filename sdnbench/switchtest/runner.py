"""One ``switch bench`` run: build the target, start ``sdnbench-switch`` listening on a loopback
port, point the switch at it, run the tests, tear everything down, convert to Results.

``params`` is pure data (``check`` validates it; ``binary_args`` is the one mapping to the
binary's flags), so campaigns and the CLI share it.
"""

from __future__ import annotations

from typing import Optional

from .. import __version__
from ..controllers.ofhello import free_port
from ..errors import Interrupted, UserError
from . import convert, driver, invariants
from .targets import parse_target

TESTS = ("insertion", "barrier", "packet-in", "packet-out", "capacity", "stats", "first-packet", "pipeline")

DEFAULTS = {"tests": ["insertion"], "flows": [1, 100], "barrier": False, "tables": 4, "reps": 100,
            "duration": 2.0, "batch": 1000, "max_flows": 100_000, "table_limit": None,
            "probe_pps": 20_000, "of": "1.3", "timeout": 10.0, "accept_timeout": 30.0,
            "stats_interval_ms": 0, "frame_size": 60}


def table_range(value) -> tuple:
    """``4`` or ``"4"`` -> (1, 4); ``"2..4"`` -> (2, 4)."""
    text = str(value)
    a, _, b = text.partition("..") if ".." in text else ("1", "", text)
    try:
        lo, hi = int(a), int(b)
    except ValueError:
        raise UserError(f"--tables: want N or A..B, got {value!r}")
    if not 1 <= lo <= hi <= 254:
        raise UserError(f"--tables: want N or A..B with 1 <= A <= B <= 254, got {value!r}")
    return lo, hi


def check(params: dict) -> dict:
    p = {**DEFAULTS, **{k: v for k, v in params.items() if v is not None}}
    bad = [t for t in p["tests"] if t not in TESTS]
    if bad or not p["tests"]:
        raise UserError(f"--test: unknown {', '.join(bad) or 'nothing'} (known: {','.join(TESTS)})")
    if p["of"] not in ("1.0", "1.3"):
        raise UserError(f"--of: want 1.0 or 1.3, got {p['of']!r}")
    lo, hi = table_range(p["tables"])
    p["tables"] = hi if lo == 1 else f"{lo}..{hi}"
    if "pipeline" in p["tests"] and p["of"] == "1.0" and hi > 1:
        raise UserError("--test pipeline with --tables > 1 needs --of 1.3 (OpenFlow 1.0 has one table)")
    if not p["flows"] or any(not isinstance(f, int) or f < 1 or f > 1 << 24 for f in p["flows"]):
        raise UserError(f"--flows: want positive counts up to 16777216, got {p['flows']}")
    if p["reps"] < 1 or p["duration"] <= 0:
        raise UserError("--reps and --duration must be positive")
    if not 60 <= p["frame_size"] <= 1514:
        raise UserError(f"--frame-size: want 60 to 1514 bytes, got {p['frame_size']}")
    if p["table_limit"] is not None and p["table_limit"] < 1:
        raise UserError("--table-limit must be positive")
    for key, low in (("batch", 1), ("max_flows", 1), ("probe_pps", 0), ("stats_interval_ms", 0)):
        if not isinstance(p[key], int) or isinstance(p[key], bool) or p[key] < low:
            raise UserError(f"--{key.replace('_', '-')}: want a whole number, {low} or more, got {p[key]!r}")
    for key in ("timeout", "accept_timeout"):
        if not isinstance(p[key], (int, float)) or not p[key] > 0:
            raise UserError(f"--{key.replace('_', '-')}: want a number of seconds above 0, got {p[key]!r}")
    return p


def binary_args(p: dict, specs: list, port: int) -> list:
    args = ["--listen", f"127.0.0.1:{port}", "--of", p["of"], "--test", ",".join(p["tests"]),
            "--flows", ",".join(str(f) for f in p["flows"]), "--tables", str(p["tables"]),
            "--reps", str(p["reps"]), "--duration", str(p["duration"]), "--batch", str(p["batch"]),
            "--max-flows", str(p["max_flows"]), "--probe-pps", str(p["probe_pps"]),
            "--timeout", str(p["timeout"]), "--accept-timeout", str(p["accept_timeout"]),
            "--stats-interval-ms", str(p["stats_interval_ms"]), "--frame-size", str(p["frame_size"])]
    if p["barrier"]:
        args.append("--barrier")
    for s in specs:
        args += ["--if", s]
    return args


def run(target_spec: str, params: dict, target=None, progress=None) -> list:
    """Runs the tests of ``params`` against ``target_spec`` (or an already built ``target``)."""
    p = check(params)
    target = target or parse_target(target_spec)
    with target:
        return run_on(target, target_spec, p, progress)


def run_on(target, target_spec: str, p: dict, progress=None) -> list:
    """The tests of the checked ``p`` in one ``sdnbench-switch`` session against ``target``,
    built already (inside its block): the switch is pointed at the session, the session ends with
    the tests. ``SwitchbenchInterrupted`` carries the tests finished before the signal
    (``results``)."""
    port = getattr(target, "port", None) or free_port()
    say = progress or (lambda _msg: None)
    if p["table_limit"] is not None:
        target.set_flow_limit(p["table_limit"])
    with driver.Switchbench(binary_args(p, target.probe_specs, port)) as sb:
        say(f"sdnbench-switch listening on {sb.address}; waiting for the switch")
        try:
            # the switch may connect, and tests finish, before set-controller returns
            target.attach(sb.address)
            doc = sb.wait(timeout=_budget(p))
        except Interrupted as interrupt:
            e = interrupt if isinstance(interrupt, driver.SwitchbenchInterrupted) else sb.interrupted(interrupt.signum)
            if e.doc is not None:
                e.results = convert.to_results(e.doc, target.describe(), _recorded(p, target_spec), _versions())
            raise e
    results = convert.to_results(doc, target.describe(), _recorded(p, target_spec), _versions())
    for r in results:
        r.notes += [f"invariant broken: {v}" for v in invariants.violations(r)]
    return results


def _recorded(p: dict, target_spec: str) -> dict:
    return {"target_spec": target_spec, "tests": list(p["tests"]), "flow_counts": list(p["flows"]),
            "with_barrier": p["barrier"], "table_limit": p["table_limit"], "max_flows": p["max_flows"],
            "frame_size": p["frame_size"]}


def _versions() -> dict:
    return {"sdnbench": __version__}


def _budget(p: dict) -> Optional[float]:
    """A generous wall-clock limit for the whole run, so a wedged switch cannot hang us."""
    per_test = p["timeout"] * 4 + p["duration"] * 3 * table_range(p["tables"])[1] + p["reps"] * 0.05
    flows = sum(p["flows"]) * (2 if p["barrier"] else 1) * 0.002 + p["max_flows"] * 0.0005
    return p["accept_timeout"] + 30 + len(p["tests"]) * per_test * max(len(p["flows"]), 1) + flows
