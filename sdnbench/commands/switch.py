"""``sdnbench switch``: measure an OpenFlow switch, with sdnbench as its controller and traffic.

    sdnbench switch bench --target ovs --test insertion,barrier --flows 1,100,10000 --barrier
    sdnbench switch bench --target ovs --test packet-in,packet-out,first-packet --reps 200
    sdnbench switch bench --target ovs --test capacity --table-limit 5000
    sdnbench switch bench --target ovs --test stats,pipeline --tables 4 --of 1.3
    sdnbench switch bench --target remote:6653,eth1,eth2 --test insertion   (a switch that connects to us)
    sdnbench switch clean [--dry-run]     (leftovers of switch runs killed with kill -9; never `mn -c`)
    sdnbench switch conformance --target ovs,emulated --of 1.0,1.3   (os-ken's switch test tool)

Targets: ``ovs`` (Open vSwitch, userspace datapath here, kernel datapath where the module is
loaded), ``ovs-netdev``/``ovs-system``, ``cpqd`` (ofsoftswitch13 where installed),
``remote:PORT,IF1,IF2`` (sdnbench listens on 127.0.0.1:PORT; IF1 sends probes into the switch,
IF2 captures them). Every test is confirmed on the data plane by probe frames sdnbench sends and
captures with kernel timestamps. See ``crates/switchbench/SCHEMA.md`` for every figure.
"""

from __future__ import annotations

import statistics
import sys

from ..outputs import Outputs
from .. import output
from ..campaign.plan import cell_key
from ..errors import CheckFailed, UserError
from ..paramcheck import add_flags, once_each
from ..store import CellSpec
from ..store.cli import add_store_flag
from ..switchbench import wiring
from ..switchbench.cell import run_test
from ..switchbench.params import PARAMS, TESTS, SwitchBench, build
from ..switchbench.targets import parse_target
from ._results import MEASURED, run_trials
from ._switchtesttool import register as register_conformance


# the flags written from the table (``add_flags``): those with help text but the target
FLAGGED = ("reps", "duration", "max_flows", "batch", "table_limit", "probe_pps", "frame_size",
           "accept_timeout", "timeout")
default = PARAMS.default


def register(sub) -> None:
    p = sub.add_parser("switch", help="benchmark an OpenFlow switch (sdnbench as controller and traffic)",
                       description=__doc__)
    s = p.add_subparsers(dest="switch_cmd", metavar="COMMAND", required=True)
    b = s.add_parser("bench", help="flow insertion, barriers, packet-in/out, capacity, stats, first packet, "
                                   "pipeline depth", description=__doc__)
    add_flags(b, SwitchBench, only=("target",))
    b.add_argument("--test", default="insertion",
                   help=f"comma-separated tests: {','.join(TESTS)} (insertion)")
    b.add_argument("--flows", default="1,100", help="flow counts for insertion/barrier (1,100); "
                                                    "stats uses the largest, pipeline the first")
    b.add_argument("--barrier", action="store_true", help="insertion also with a barrier after every flow-mod")
    b.add_argument("--tables", default="4", help="pipeline depths: N for 1..N, or A..B (4)")
    add_flags(b, SwitchBench, skip=("target",))
    b.add_argument("--of", default=default("of"), choices=["1.0", "1.3"])
    b.add_argument("--json", action="store_true", help="print the results as JSON on stdout")
    b.add_argument("-o", "--output", metavar="FILE", help=f"write the results to FILE: {MEASURED.help()}")
    add_store_flag(b)
    b.set_defaults(func=run_bench, _output=MEASURED)
    c = s.add_parser("clean", help="remove namespaces, veths and bridges left by switch runs that were killed")
    c.add_argument("--dry-run", action="store_true", help="only list what would be removed")
    c.set_defaults(func=run_clean)
    register_conformance(s)


def run_clean(args, outputs: Outputs) -> int:
    items = wiring.stale()
    for kind, name in items:
        print(f"{'would remove' if args.dry_run else 'removing'} {kind} {name}")
    if not args.dry_run:
        wiring.sweep(items)
        still = set(wiring.stale())
        left = [n for item in items if item in still for n in [item[1]]]
        if left:
            raise UserError(f"could not remove {', '.join(left)}")
    if not items:
        print("nothing left by earlier switch runs")
    return 0


def _ints(flag: str, text: str) -> list:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise UserError(f"{flag}: want comma-separated integers, got {text!r}")


def params_from_args(args) -> SwitchBench:
    """The typed parameters of the flags, checked (one line naming every bad flag)."""
    return build({"target": args.target,
                  "tests": once_each("--test", [t.strip() for t in args.test.split(",") if t.strip()]),
                  "flows": once_each("--flows", _ints("--flows", args.flows)), "barrier": args.barrier,
                  "tables": args.tables, "of": args.of,
                  **{k: getattr(args, k) for k in FLAGGED}})


def run_bench(args, outputs: Outputs) -> int:
    """Each test a cell on the campaigns' executor (``_results.run_trials``), as a ``switch``
    campaign's cell, all against one target built once: kept as it ends (``-o`` rewritten,
    ``--store`` committed); Ctrl-C/SIGTERM keeps the tests finished, as ``controller bench``. A
    switch that fails the session (never connected) ends the command, exit 2."""
    params = params_from_args(args)
    say = lambda m: print(m, file=sys.stderr)  # noqa: E731
    common = {k: list(v) if isinstance(v, tuple) else v for k, v in vars(params).items() if k != "tests"}
    cells = [CellSpec(cell_key(t, {**common, "test": t}, 0), t, "switch", {**common, "test": t}, 0)
             for t in params.tests]
    with parse_target(args.target) as target:
        if target.processes():
            say(f"switch under test: {target.processes()}")
        results = run_trials(outputs, cells, lambda cell: _watched(target, cell, say), quiet=lambda r: True,
                             stops=(UserError, CheckFailed))
    if outputs.path and not outputs.rescued:
        print(f"wrote {outputs.path}", file=sys.stderr)
    if outputs.json:
        output.print_json([r.to_dict() for r in results])
    else:
        _print(results)
    failed = [r for r in results if r.status != "ok"]
    for r in failed:
        print(f"sdnbench: {r.benchmark} failed: {r.error}", file=sys.stderr)
    return 2 if failed else 0


def _watched(target, cell, say):
    """One test, then (also when it failed) whether the switch still lives: a switch that died
    ends the command (``CheckFailed``, exit 2) with how it died, the test it died in keeping what
    it measured; the tests before it are kept as they ended."""
    try:
        result = run_test(target, cell.params, say)
    except (UserError, CheckFailed) as e:
        died = target.dead()
        if died:
            raise CheckFailed(f"the switch died during test {cell.benchmark}: {died}") from e
        raise
    died = target.dead()
    if died:
        err = CheckFailed(f"the switch died during test {cell.benchmark}: {died}")
        err.result = result.finish("failed", str(err))
        raise err
    return result


HEADERS = ["test", "metric", "labels", "n", "median", "p95", "max", "unit"]


def rows(results: list) -> list:
    out = []
    for r in results:
        for s in r.series:
            v = sorted(s.values)
            if not v:
                out.append([r.benchmark, s.metric, _labels(s.labels), 0, None, None, None, s.unit])
                continue
            p95 = v[min(len(v) - 1, int(round(0.95 * (len(v) - 1))))]
            out.append([r.benchmark, s.metric, _labels(s.labels), len(v), statistics.median(v), p95, v[-1], s.unit])
    return out


def _labels(labels: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in labels.items()) or "-"


def _print(results: list) -> None:
    if results:
        ident = results[0].topology.get("switch", {})
        print(f"switch: {ident.get('manufacturer')} / {ident.get('hardware')} / {ident.get('software')} "
              f"(dpid {ident.get('datapath_id')}, {ident.get('n_tables')} tables), "
              f"OpenFlow {results[0].topology.get('of_version')}")
    print(output.table(HEADERS, rows(results)))
    for r in results:
        if r.counters:
            which = _labels({k: r.params[k] for k in ("flows", "barrier", "tables") if k in r.params})
            print(f"{r.benchmark}" + (f" ({which})" if which != "-" else "") + ": "
                  + ", ".join(f"{k}={v}" for k, v in r.counters.items()))
        for n in r.notes:
            print(f"  note: {n}")
