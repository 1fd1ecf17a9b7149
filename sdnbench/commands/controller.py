"""``sdnbench controller``: benchmark an OpenFlow controller with the load engine.

    sdnbench controller bench --controller osken:learning --mode throughput --switches 1,4,16
    sdnbench controller capacity --controller tcp:127.0.0.1:6653
    sdnbench controller tls-cost --controller osken:learning      (TCP and TLS in one run, ratios)
    sdnbench controller search --controller ovs-testcontroller --of 1.0 --switches 4
    sdnbench controller cbench -c 127.0.0.1 -p 6653 -s 16 -l 10 -t      (cbench's flags and RESULT line)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path
from typing import Optional

from ..outputs import Outputs
from .. import fmt, output
from ..controllers import launch
from ..controllers.negotiation import session_version
from ..controllers.spec import DEFAULT_SPEC, OF_VERSIONS
from ..campaign.plan import one_benchmark
from ..errors import UserError
from ..paramcheck import once_each
from ..result import Result
from ..store.cli import add_store_flag
from ..engine import driver
from ..engine.params import (DEFAULT_MODE, MODES, check, engine_defaults, launch_of_version, launch_spec,
                             launch_tls)
from ..engine.runner import against
from ..engine.rate_search import run_search as run_search_on
from ..engine.search import parse_step
from ..engine.stored import EngineCounters
from ._parser import members
from ._flags import above_zero, add_tls_flags, at_least, tls_params
from ._results import MEASURED, end, run_plan


# engine modes that are a command of their own, not a `bench --mode`
OWN_COMMAND = {"capacity": "`controller capacity`", "network": "the topology and provisioning tests"}


def register(sub) -> None:
    p = sub.add_parser("controller", help="benchmark a controller with emulated switches (load engine)",
                       description=__doc__)
    s = p.add_subparsers(dest="controller_cmd", metavar="COMMAND", required=True)

    b = s.add_parser("bench", help="throughput / latency / fixed-rate over switch counts and repetitions",
                     formatter_class=EngineDefaultsHelp)
    _common(b, tls=True)
    b.add_argument("--mode", default=DEFAULT_MODE, choices=[m for m in MODES if m not in OWN_COMMAND],
                   help=f"the engine's mode (default {DEFAULT_MODE}); its others are run elsewhere: "
                        + ", ".join(f"{m} by {c}" for m, c in OWN_COMMAND.items()))
    b.add_argument("--switches", default="1,4,16", help="comma-separated switch counts (1,4,16)")
    _engine_flag(b, "macs", "hosts per switch, cbench's -M")
    _engine_flag(b, "loops", "measured loops (intervals), after the warm-up")
    _engine_flag(b, "loop_ms", "length of a loop, ms")
    _engine_flag(b, "warmup", "warm-up loops before them, left out of the figures")
    b.add_argument("--reps", type=int, default=3, help="repetitions per switch count (3)")
    b.add_argument("--frame-size", type=int, help="packet-in frame bytes (RFC 8456: 128, 512, 1508)")
    b.add_argument("--window", type=int, help="requests in flight per switch (throughput)")
    b.add_argument("--rate", type=float, help="offered requests/s over all switches (fixed-rate)")
    b.add_argument("--strict", action="store_true", help="a lost session fails the run")
    b.add_argument("--traffic", help="packet-in traffic profile: cbench, unique-pairs, new-flows, faucet (unique-pairs; faucet: packet-ins as Faucet's pipeline raises them, docs/engine-workloads)")
    b.set_defaults(func=run_bench)

    c = s.add_parser("capacity", help="RFC 8456 §5.2.1 control-session capacity", formatter_class=EngineDefaultsHelp)
    _common(c, tls=True)
    c.add_argument("--max", type=int, default=1000, help="stop after this many sessions (1000)")
    _engine_flag(c, "hold_ms", "hold all sessions this long (ms), then count")
    c.set_defaults(func=run_capacity)

    r = s.add_parser("search", help="RFC 8456 §5.1.3 maximum and loss-free rate search",
                     formatter_class=EngineDefaultsHelp)
    _common(r, tls=True)
    r.add_argument("--switches", type=int, default=4, help="emulated switches (4)")
    _engine_flag(r, "macs", "hosts per switch, cbench's -M")
    r.add_argument("--loops", type=int, default=3, help="measured loops per trial (3: short trials)")
    _engine_flag(r, "loop_ms", "length of a loop, ms")
    r.add_argument("--step", default="10%", help="rate step: absolute or a percentage of the max (10%%)")
    r.add_argument("--confirm", type=above_zero, default=5.0, metavar="P", help="trials must agree within ±P%% (5)")
    r.add_argument("--max-trials", type=at_least(2), default=20,
                   help="trial budget (20; 2 or more: a maximum is two trials that agree)")
    r.set_defaults(func=run_search)

    k = s.add_parser("cbench", help="cbench-compatible: same flags, same RESULT line",
                     description="Runs `sdnbench-engine cbench` with these arguments (cbench's flags).")
    k.add_argument("args", nargs="*", help="cbench flags, e.g. -c 127.0.0.1 -p 6653 -s 16 -t "
                   "(put them after --)")
    k.set_defaults(func=run_cbench)

    for suite in members("controller"):     # each suite's module adds its own (GROUP = "controller")
        suite.add_to(s, _common)


# A flag named for an engine config field whose default is the engine's (``Config::default()``,
# its one definition) has no default here: left out, the engine's check fills its value in
# (``engine.params.check``), and the params (and so the results) record it; --help reads the
# number from the engine.
def _engine_flag(p, key: str, text: str) -> None:
    p.add_argument("--" + key.replace("_", "-"), type=int, help=text).engine_key = key


class EngineDefaultsHelp(argparse.RawDescriptionHelpFormatter):
    """Help that shows an engine-defaulted flag's default, asked of the engine when help is printed."""

    def _get_help_string(self, action):
        key = getattr(action, "engine_key", None)
        if key is None:
            return action.help
        try:
            shown = engine_defaults()[key]
        except UserError:           # the engine is not built: help still prints
            shown = "the engine's default"
        return f"{action.help} ({shown})"


def _common(p, multi_controller: bool = False, tls: bool = False, of_version: Optional[str] = None) -> None:
    """The flags every engine command shares. ``tls``: its runs carry the switch's TLS files
    to the engine (bench, capacity, search); the others refuse a TLS spec (``_flags.preflight``).
    ``of_version``: the command's default ``--of`` (None: negotiated)."""
    if multi_controller:
        p.add_argument("--controller", action="append", metavar="SPEC",
                       help=f"controller spec, repeat for a column each ({DEFAULT_SPEC})")
    else:
        p.add_argument("--controller", default=DEFAULT_SPEC, help=f"controller spec ({DEFAULT_SPEC})")
    # Without --of the engine offers every version it speaks and uses what the controller picks
    # (a launched controller is configured for its launch default); --of forces one on both sides.
    p.add_argument("--of", dest="of_version", choices=list(OF_VERSIONS), default=of_version,
                   help="force this OpenFlow version on the engine and the launched controller "
                        f"(default: {of_version or 'negotiated'})")
    if tls:
        add_tls_flags(p)
    p.set_defaults(_takes_tls=tls)
    p.add_argument("--workers", type=at_least(1), help="engine worker processes (auto)")
    output.add_json_flag(p)
    # the CLI convention (sdnbench.output): -o/--output FILE; dest stays `out` for the callers
    p.add_argument("-o", "--output", dest="out", type=Path, metavar="FILE",
                   help=f"write the results (a list) to FILE: {MEASURED.help()}")
    output.add_renamed_flags(p, "--out", "--protocols")
    add_store_flag(p)
    p.set_defaults(_output=MEASURED)


def _agree(ctl, args) -> None:
    """A controller that cannot speak --of is one line naming --of before any run (the engine's
    ``hello``). Without --of nothing is asked: the engine's switches negotiate per session, and a
    run whose sessions find no common version says so itself, naming the --of that fixes it."""
    if args.of_version:
        session_version(ctl.host, ctl.port, args.of_version, ctl.info.get("name") or args.controller,
                        tls=ctl.switch_tls)


def _switch_counts(text: str) -> list:
    try:
        counts = [int(x) for x in text.split(",")]
    except ValueError:
        raise UserError(f"--switches: not a comma-separated list of whole numbers: {text!r}")
    if not counts or min(counts) < 1:
        raise UserError("--switches: give at least one count, each 1 or more")
    return once_each("--switches", counts)


def _params(args, **extra) -> dict:
    p = {"controller": args.controller, "of_version": args.of_version, **tls_params(args), **extra}
    if args.workers is not None:
        p["workers"] = args.workers
    return {k: v for k, v in p.items() if v is not None}


def _row(r: Result) -> list:
    thr = r.find("throughput")
    v = thr[0].values if thr else []
    c = EngineCounters.of(r)
    mean = statistics.fmean(v) if v else None
    sd = statistics.stdev(v) if len(v) > 1 else 0.0
    cpu = [s for s in r.resources if s.metric == "cpu_percent"]
    ctl_cpu = statistics.fmean(cpu[0].values) if cpu and cpu[0].values else None
    return [r.params.get("switches"), r.params.get("rep"),
            f"{mean:,.0f} ± {sd:,.0f}" if mean is not None else "-",
            c.requests_answered, c.requests_lost,
            f"{c.extra_per_answered or 0:.2f}", f"{c.latency_p50_us or 0:.1f}",
            f"{c.latency_p99_us or 0:.1f}", None if ctl_cpu is None else f"{ctl_cpu:.0f}",
            r.status]


HEADERS = ["switches", "rep", "answered/s (mean ± σ)", "answered", "lost", "extra/ans",
           "p50 µs", "p99 µs", "ctl CPU %", "status"]


def bench_params(args) -> dict:
    """``controller bench``'s params as given, but for the switch count (the engine's check fills
    in the rest)."""
    return _params(args, mode=args.mode, macs=args.macs, loops=args.loops, loop_ms=args.loop_ms, warmup=args.warmup,
                   frame_size=args.frame_size, window=args.window, rate=args.rate, strict=args.strict or None,
                   traffic=args.traffic)


def search_params(args) -> dict:
    """``controller search``'s params as given, but for the mode and rate of a trial."""
    return _params(args, macs=args.macs, loops=args.loops, loop_ms=args.loop_ms, switches=args.switches)


def run_bench(args, outputs: Outputs) -> int:
    counts = _switch_counts(args.switches)
    if args.reps < 1:
        raise UserError("--reps must be at least 1")
    base = bench_params(args)
    # one engine check per switch count, before anything starts: bad input fails here, and the
    # resolved params are what every repetition runs and records (one engine run each; the
    # runner's check of a cell's params is the answer remembered, no second engine call)
    resolved = {n: check(dict(base, switches=n)) for n in counts}
    cells = one_benchmark(base["mode"], "controller", base, {"switches": counts}, args.reps)
    live = sys.stderr.isatty() and not outputs.json
    shown: list = []

    def row(r: Result) -> None:
        shown.append(r)
        if not outputs.json:
            text = output.table(HEADERS, [_row(r)])
            print(text.splitlines()[-1] if len(shown) > 1 else text)
    # faucet:auto: Faucet configured for the largest switch count
    top = resolved[max(counts)]
    with launch(launch_spec(top), of_version=launch_of_version(base), tls=launch_tls(top)) as ctl:
        _agree(ctl, args)
        results = run_plan(outputs, cells, against(ctl, live=live), on_result=row, reps_in_params=True)
    if not outputs.json:
        _summary(results)
    return end(outputs, results)


def _summary(results: list) -> None:
    by_n: dict = {}
    for r in results:
        by_n.setdefault(r.params.get("switches"), []).extend(
            [statistics.fmean(s.values) for s in r.find("throughput") if s.values])
    for n, means in by_n.items():
        if not means:
            continue
        mode = results[0].params.get("mode", "throughput")
        print(fmt.summary_line(fmt.plural(n, "switch"), f"{mode} mode, answered requests/s", means))
    for r in results:
        for note in r.notes:
            print(f"note: {note}", file=sys.stderr)


def run_capacity(args, outputs: Outputs) -> int:
    if args.max < 1:
        raise UserError("--max must be at least 1")
    given = _params(args, mode="capacity", switches=args.max, hold_ms=args.hold_ms, loops=1)
    p = check(given)
    with launch(launch_spec(p), of_version=launch_of_version(p), tls=launch_tls(p)) as ctl:
        _agree(ctl, args)
        [r] = run_plan(outputs, one_benchmark("capacity", "controller", given), against(ctl))
    c = EngineCounters.of(r)
    if not outputs.json:
        print(f"sessions held: {c.capacity_held} (established {c.capacity_established}, "
              f"attempted {c.capacity_attempted}) in {c.capacity_establish_s or 0:.2f} s; "
              f"stopped by: {c.capacity_first_failure or 'the requested maximum'}")
    return end(outputs, [r])


def run_search(args, outputs: Outputs) -> int:
    parse_step(args.step, 1.0)                # a bad --step is refused before anything starts
    given = search_params(args)
    p = check(dict(given, mode="throughput"))
    searched: list = []

    def rate_search(params: dict) -> Result:
        r, res = run_search_on(check(dict(params, mode="throughput")), ctl, args.step, args.confirm,
                               args.max_trials, on_trial=None if outputs.json else _print_trial)
        searched.append(res)
        return r
    with launch(launch_spec(p), of_version=launch_of_version(p), tls=launch_tls(p)) as ctl:
        _agree(ctl, args)
        [r] = run_plan(outputs, one_benchmark("rate-search", "controller", given), rate_search)
    if not outputs.json and searched:
        _print_search(searched[0])
    return end(outputs, [r])


def _print_search(res) -> None:
    print(output.table(["offered/s", "sent/s", "APR/s", "loss", "late", "lost", "in flight", "marker", "not stable because"],
                       [[f"{t.offered:,.0f}", f"{t.sent:,.0f}", f"{t.apr:,.0f}", f"{t.loss:.4%}", t.late, t.lost,
                         t.in_flight, t.marker, t.unstable] for t in res.trials]))
    mx = "-" if res.max_rate is None else f"{res.max_rate:,.0f}"
    lf = "-" if res.loss_free_rate is None else f"{res.loss_free_rate:,.0f}"
    print(f"maximum rate {mx}/s, loss-free rate {lf}/s" + (f" ({res.stopped})" if res.stopped else ""))


def _print_trial(t) -> None:
    print(f"trial: offered {t.offered:,.0f}/s  sent {t.sent:,.0f}/s  APR {t.apr:,.0f}/s  "
          f"loss {t.loss:.4%}" + (f"  not stable: {t.unstable}" if t.unstable else "  stable"))


def run_cbench(args, outputs: Outputs) -> int:
    argv = [str(driver.binary()), "cbench", *args.args]
    sys.stdout.flush()
    os.execv(argv[0], argv)
    return 0  # not reached
