"""``sdnbench controller discovery`` and ``topology-change``: RFC 8456 §5.1.1 topology discovery
time, §5.2.2 discovery size (``--size-search``) and §5.1.8 topology change detection, on the
engine's emulated network (see docs/rfc8456-topology.md).

    sdnbench controller discovery --controller osken:topology --topo ring,10 --reps 3
    sdnbench controller discovery --controller ryu:rest_topology --topo fattree,4 --poll-s 1
    sdnbench controller discovery --controller tcp:127.0.0.1:6653 --verify southbound --topo linear,50
    sdnbench controller discovery --controller osken:topology --topo ring,10 --size-search
    sdnbench controller topology-change --controller osken:topology --topo ring,50
"""

from __future__ import annotations

import sys

from ..outputs import Outputs
from .. import output
from ..campaign.plan import one_benchmark
from ..discovery import change, launched, params, record
from ..discovery.size import with_size
from ..discovery.stored import DiscoveryCounters
from ..errors import Interrupted, UserError
from ._results import end, run_trials
from ._results import save as save_results

D = params.PARAMS.default       # each default once, in the suite's table


GROUP = "controller"      # a `sdnbench controller` subcommand (commands/_parser.members)


def add_to(s, common) -> None:
    d = s.add_parser("discovery", help="RFC 8456 §5.1.1 topology discovery time (§5.2.2 size with --size-search)",
                     description=__doc__)
    _flags(d, common, poll_s=D("poll_s"))
    d.add_argument("--reps", type=int, default=D("reps"), help="trials (%(default)s; the RFC asks for 10)")
    d.add_argument("--size-search", action="store_true",
                   help="§5.2.2: double the topology's size until discovery fails or passes the deadline, then bisect")
    d.add_argument("--max-switches", type=int, default=D("max_switches"), help="size search limit (%(default)s)")
    d.set_defaults(func=run_discovery)
    c = s.add_parser("topology-change", help="RFC 8456 §5.1.8 topology change detection time (a link down, then up)",
                     description=__doc__)
    _flags(c, common, poll_s=0.5)
    c.add_argument("--link", help="the link to take down, DPID:PORT-DPID:PORT (the middle one)")
    c.add_argument("--down-at-s", type=float, default=D("down_at_s"),
                   help="seconds after go the link goes down (%(default)g)")
    c.add_argument("--up-after-s", type=float, default=D("up_after_s"), help="seconds it stays down (%(default)g)")
    c.set_defaults(func=run_change)


def _flags(p, common, poll_s: float) -> None:
    common(p)
    p.set_defaults(controller=D("controller"))
    p.add_argument("--topo", default=D("topo"), help="topology spec or file (%(default)s)")
    p.add_argument("--verify", default=D("verify"), choices=["northbound", "southbound"],
                   help="northbound: poll the controller's view; southbound: every link carried probes both ways")
    p.add_argument("--api", help=f"northbound API: {', '.join(params.APIS)} (from the controller)")
    p.add_argument("--api-url", help="the API's base URL (a managed controller's own)")
    p.add_argument("--poll-s", type=float, default=poll_s, help="northbound poll interval (%(default)g s)")
    p.add_argument("--deadline-s", type=float, default=D("deadline_s"), help="a trial's time limit (%(default)g s)")
    p.add_argument("--stable", type=int, default=D("stable"),
                   help="identical answers that end a stalled discovery (%(default)s)")


def build(args, test: str) -> params.Discovery:
    """The suite's typed parameters from the flags, every one checked (``discovery/params.py``)
    before any controller or engine starts."""
    keys = set(params.DEFAULTS) | set(params.CLI_ONLY)
    return params.build({**{k: v for k, v in vars(args).items() if k in keys}, "test": test})


def run_discovery(args, outputs: Outputs) -> int:
    p = build(args, "discovery")
    if p.size_search:
        return end(outputs, [_plan(outputs, p, "topology-discovery-size", lambda: _size_search(outputs, p))])
    r = _plan(outputs, p, "topology-discovery", lambda: _trials(outputs, p))
    if not outputs.json:
        _table(r)
    return end(outputs, [r])


def _plan(outputs: Outputs, p: params.Discovery, benchmark: str, measure):
    """The command's one Result (every trial in it) as a one-benchmark plan of one cell on the
    campaigns' executor (``_results.run_trials``): the same store sink and Ctrl-C/SIGTERM
    handling as a campaign; ``-o`` is rewritten after every trial (``_save``) and the cell."""
    [r] = run_trials(outputs, one_benchmark(benchmark, "discovery", params.PARAMS.cell(p)), lambda cell: measure())
    return r


def _trials(outputs: Outputs, p: params.Discovery):
    trials, info, adapter = [], {}, None
    try:
        for rep in range(p.reps):
            t, info, adapter = launched.trial(p, p.topo, quiet=outputs.json)
            t["rep"] = rep
            trials.append(t)
            _save(outputs, launched.result(p, "topology-discovery", trials, info, adapter))  # a later failure loses nothing
            if not outputs.json:
                print(f"trial {rep + 1}/{p.reps}: {record.describe(t)}", file=sys.stderr)
    except (Interrupted, UserError) as e:
        if trials:      # the trials that ended: kept as the part measured before the signal or error
            why = str(e) if isinstance(e, UserError) else f"interrupted after {len(trials)} of {p.reps} trials"
            e.result = launched.result(p, "topology-discovery", trials, info, adapter).finish("failed", why)
        raise
    return launched.result(p, "topology-discovery", trials, info, adapter)


def _table(r) -> None:
    c = DiscoveryCounters.of(r)
    rows = [[t["rep"] if "rep" in t else "-", t["state"], t.get("verification"),
             "-" if t.get("discovery_s") is None else f"{t['discovery_s']:.3f}",
             "-" if t["southbound"].get("rfc_dt_s") is None else f"{t['southbound']['rfc_dt_s']:.3f}",
             f"{t.get('seen', 0)}/{t.get('want', 0)}"] for t in c.trials]
    m, v = c.discovery_mean_s, c.discovery_variance_s2
    rows.append(["average", "", "", "-" if m is None else f"{m:.3f}", "", ""])
    rows.append(["variance", "", "", "-" if v is None else f"{v:.4f}", "", ""])
    print(output.table(["trial", "state", "verified", "discovery s", "RFC DT s", "link dirs"], rows))
    for n in r.notes:
        print(f"note: {n}", file=sys.stderr)


def _size_search(outputs: Outputs, p: params.Discovery):
    def progress(seen: list, info: dict, adapter) -> None:
        _save(outputs, launched.result(p, "topology-discovery-size", seen, info, adapter, {"size_search": True}))
        if not outputs.json:
            print(f"size {seen[-1]['topo']}: {record.describe(seen[-1])}", file=sys.stderr)

    res, seen, info, adapter = launched.size_search(p, p.max_switches, progress)
    r = launched.size_result(p, res, seen, info, adapter)
    if not outputs.json:
        # a southbound-only trial of a northbound search shows its verification: it did not count
        print(output.table(["topology", "state", "verified by", "discovery s"],
                           [[t["topo"], t["state"], t.get("verification") or "-",
                             "-" if t.get("discovery_s") is None else f"{t['discovery_s']:.3f}"] for t in seen]))
        print(f"largest size discovered within {p.deadline_s:g} s: "
              f"{'none' if res['largest'] is None else with_size(p.topo, res['largest'])}"
              + (f" (first failure: {with_size(p.topo, res['first_failure'])})" if res["first_failure"] else ""))
    return r


def run_change(args, outputs: Outputs) -> int:
    p = build(args, "topology-change")
    r = _plan(outputs, p, "topology-change", lambda: launched.change_trial(p))
    if not outputs.json:
        print(change.describe(r.counters))
    return end(outputs, [r])


def _save(outputs: Outputs, r) -> None:
    save_results(outputs, [r])
