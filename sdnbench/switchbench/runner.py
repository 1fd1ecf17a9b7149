"""One ``switch bench`` run: build the target, start ``sdnbench-switch`` listening on a loopback
port, point the switch at it, run the tests, tear everything down, convert to Results.

``params.SwitchBench`` is the typed parameters (``params.build`` checks them; ``binary_args`` is
the one mapping to the binary's flags), so campaigns and the CLI share them.
"""

from __future__ import annotations

from typing import Optional, Union

from .. import __version__
from ..controllers.ofhello import free_port
from ..errors import Interrupted
from . import convert, driver, invariants
from .params import SwitchBench, build
from .targets import parse_target

def binary_args(p: SwitchBench, specs: list, port: int) -> list:
    args = ["--listen", f"127.0.0.1:{port}", "--of", p.of, "--test", ",".join(p.tests),
            "--flows", ",".join(str(f) for f in p.flows), "--tables", str(p.tables),
            "--reps", str(p.reps), "--duration", str(p.duration), "--batch", str(p.batch),
            "--max-flows", str(p.max_flows), "--probe-pps", str(p.probe_pps),
            "--timeout", str(p.timeout), "--accept-timeout", str(p.accept_timeout),
            "--stats-interval-ms", str(p.stats_interval_ms), "--frame-size", str(p.frame_size)]
    if p.barrier:
        args.append("--barrier")
    for s in specs:
        args += ["--if", s]
    return args


def run(target_spec: str, params: Union[dict, SwitchBench], target=None, progress=None) -> list:
    """Runs the tests of ``params`` against ``target_spec`` (or an already built ``target``)."""
    p = params if isinstance(params, SwitchBench) else build(params)
    target = target or parse_target(target_spec)
    with target:
        return run_on(target, target_spec, p, progress)


def run_on(target, target_spec: str, p: SwitchBench, progress=None) -> list:
    """The tests of the checked ``p`` in one ``sdnbench-switch`` session against ``target``,
    built already (inside its block): the switch is pointed at the session, the session ends with
    the tests. ``SwitchbenchInterrupted`` carries the tests finished before the signal
    (``results``)."""
    port = getattr(target, "port", None) or free_port()
    say = progress or (lambda _msg: None)
    if p.table_limit is not None:
        target.set_flow_limit(p.table_limit)
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


def _recorded(p: SwitchBench, target_spec: str) -> dict:
    return {"target_spec": target_spec, "tests": list(p.tests), "flow_counts": list(p.flows),
            "with_barrier": p.barrier, "table_limit": p.table_limit, "max_flows": p.max_flows,
            "frame_size": p.frame_size}


def _versions() -> dict:
    return {"sdnbench": __version__}


def _budget(p: SwitchBench) -> Optional[float]:
    """A generous wall-clock limit for the whole run, so a wedged switch cannot hang us."""
    per_test = p.timeout * 4 + p.duration * 3 * p.depth[1] + p.reps * 0.05
    flows = sum(p.flows) * (2 if p.barrier else 1) * 0.002 + p.max_flows * 0.0005
    return p.accept_timeout + 30 + len(p.tests) * per_test * max(len(p.flows), 1) + flows
