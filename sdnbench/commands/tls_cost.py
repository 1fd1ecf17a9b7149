"""``sdnbench controller tls-cost``: what TLS costs a controller (issue 51), one run.

    sdnbench controller tls-cost --controller osken:learning --switches 4 --max 1000 --reps 2
    sdnbench controller tls-cost --controller ovs-testcontroller --switches 4 --max 16

The controller is measured over TCP (the spec as given) and over TLS (the spec with ``;tls``,
sdnbench's certificates or --tls-ca/--tls-cert/--tls-key) in each mode (``--modes``: throughput,
latency, capacity), the two transports back to back and their order alternating from one
repetition to the next (ABBA). Each measurement starts the controller afresh, so its memory per
session is its peak RSS above its RSS at the start. The table: per mode and figure, TCP, TLS and
TLS / TCP; CPU per answered request or per session of both sides (the engine's: its process
tree's CPU time, getrusage; the controller's: its process tree's, /proc), bytes per session.

A command of its own rather than ``controller bench --compare-tls``: one run covers three modes
(capacity is not a ``bench`` mode) and two launches of the controller (os-ken on TLS opens no TCP
listener), and its table is a comparison, not a list of runs.
"""

from __future__ import annotations

import argparse
import resource
import sys
import threading

from ..outputs import Outputs
from .. import output
from ..campaign.plan import one_benchmark
from ..controllers import launch
from ..controllers.resources import snapshot
from ..engine.params import check, launch_of_version, launch_spec, launch_tls
from ..engine.runner import measure
from ..result import Result
from ..tlscost import figures, plan
from ._flags import at_least, tls_params
from ._results import end, run_plan

OURS = ("tls_cost_mode", "tls_cost_transport")


GROUP = "controller"      # a `sdnbench controller` subcommand (commands/_parser.members)


def add_to(s, common) -> None:
    t = s.add_parser("tls-cost", help="what TLS costs a controller: each mode over TCP and TLS, ABBA, ratios",
                     description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    common(t, tls=True)
    t.add_argument("--modes", default=",".join(plan.MODES), help="of throughput,latency,capacity (all)")
    t.add_argument("--switches", type=at_least(1), default=4, help="switches of the throughput mode (4)")
    t.add_argument("--max", type=at_least(1), default=1000, help="capacity: sessions to bring up (1000; ovs-testcontroller: 16)")
    t.add_argument("--hold-ms", type=at_least(0), help="capacity: hold the sessions this long (the engine's default)")
    t.add_argument("--loops", type=at_least(1), default=5, help="measured loops of throughput and latency (5)")
    t.add_argument("--loop-ms", type=at_least(100), default=1000, help="length of a loop, ms (1000)")
    t.add_argument("--reps", type=at_least(1), default=2, help="repetitions, each TCP and TLS (2: ABBA)")
    t.set_defaults(func=run_tls_cost)


def _params(args, mode: str, transport: str, spec: str) -> dict:
    p = {"controller": spec, "of_version": args.of_version, "mode": mode, "workers": args.workers}
    if transport == "tls":
        p.update(tls_params(args))
    if mode == "capacity":
        p.update(switches=args.max, hold_ms=args.hold_ms, loops=1)
    else:
        p.update(switches=args.switches if mode == "throughput" else 1, loops=args.loops, loop_ms=args.loop_ms)
    return {k: v for k, v in p.items() if v is not None}


def _cells(args, specs: dict) -> list:
    cells = []
    for rep, mode, transport in plan.order(args.reps, plan.modes_of(args.modes)):
        p = dict(_params(args, mode, transport, specs[transport]), tls_cost_mode=mode, tls_cost_transport=transport)
        [c] = one_benchmark(f"tls-cost-{mode}", "controller", p)
        cells.append(type(c)(f"{c.key}/{transport}/{rep}", c.benchmark, c.kind, c.params, rep))
    return cells


def _cpu_s(pid) -> float:
    return sum(s.cpu_seconds for s in snapshot(pid).values()) if pid else 0.0


def _rss(pid) -> int:
    return sum(s.rss for s in snapshot(pid).values()) if pid else 0


class _PeakRss:
    """The controller tree's peak RSS while a measurement runs (every 0.1 s)."""

    def __init__(self, pid):
        self.pid, self.peak, self.stop = pid, _rss(pid), threading.Event()
        self.t = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self.stop.wait(0.1):
            self.peak = max(self.peak, _rss(self.pid))

    def __enter__(self):
        self.t.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.t.join()


def measure_one(params: dict) -> Result:
    """One cell: the controller started for it, one engine run, both sides' CPU and the
    controller's memory read around it (``tlscost_*`` counters)."""
    p = check({k: v for k, v in params.items() if k not in OURS})
    with launch(launch_spec(p), of_version=launch_of_version(p), tls=launch_tls(p)) as ctl:
        rss0, cpu0 = _rss(ctl.pid), _cpu_s(ctl.pid)
        ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        with _PeakRss(ctl.pid) as peak:
            r = measure(p, ctl)
        ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu1 = _cpu_s(ctl.pid)
    eng_rss = [max(s.values) for s in r.resources if s.metric == "engine_rss_bytes" and s.values]
    r.counters.update({
        "tlscost_engine_cpu_s": (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime),
        "tlscost_controller_cpu_s": cpu1 - cpu0 if ctl.pid else None,
        "tlscost_controller_rss_delta_bytes": peak.peak - rss0 if ctl.pid else None,
        "tlscost_engine_rss_peak_bytes": sum(eng_rss) or None})
    r.params.update({k: params[k] for k in OURS})
    return r


def run_tls_cost(args, outputs: Outputs) -> int:
    specs = {"tcp": args.controller, "tls": plan.tls_twin(args.controller)}
    cells = _cells(args, specs)
    for c in cells:                              # bad input fails here, before anything starts
        check({k: v for k, v in c.params.items() if k not in OURS})

    def row(r: Result) -> None:
        if not outputs.json:
            f = figures.one(r) if r.status == "ok" else {}
            shown = "  ".join(f"{k} {_num(v)}" for k, v in f.items())
            print(f"{r.params['tls_cost_mode']:<10} {r.params['tls_cost_transport']}  rep {r.params.get('rep', 0) + 1}: "
                  f"{shown or r.status}", file=sys.stderr)
    results = run_plan(outputs, cells, measure_one, on_result=row, reps_in_params=True)
    if not outputs.json:
        print(output.table(["mode", "figure", "TCP", "TLS", "TLS / TCP", "pairs"],
                           [[m, f, _num(a), _num(b), "-" if q is None else f"{q:.2f}", n]
                            for m, f, a, b, q, n in figures.table(results)]))
        for t, pairs in figures.negotiated(results).items():
            print(f"{t}: negotiated " + "; ".join(" ".join(str(x) for x in pr if x) or "not reported" for pr in pairs))
    return end(outputs, results)


def _num(v) -> str:
    if v is None:
        return "-"
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.2f}"

