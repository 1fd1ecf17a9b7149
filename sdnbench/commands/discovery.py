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

from .. import output
from ..controllers import launch
from ..discovery import change, record
from ..discovery.setup import agree_version, api_for, engine_params, make_setup
from ..discovery.size import search, start_size, with_size
from ..discovery.trial import run_trial
from ..errors import UserError
from ..engine.params import launch_of_version


def add_to(s, common) -> None:
    d = s.add_parser("discovery", help="RFC 8456 §5.1.1 topology discovery time (§5.2.2 size with --size-search)",
                     description=__doc__)
    _flags(d, common, poll_s=3.0)
    d.add_argument("--reps", type=int, default=3, help="trials (3; the RFC asks for 10)")
    d.add_argument("--size-search", action="store_true",
                   help="§5.2.2: double the topology's size until discovery fails or passes the deadline, then bisect")
    d.add_argument("--max-switches", type=int, default=100_000, help="size search limit (100000)")
    d.set_defaults(func=run_discovery)
    c = s.add_parser("topology-change", help="RFC 8456 §5.1.8 topology change detection time (a link down, then up)",
                     description=__doc__)
    _flags(c, common, poll_s=0.5)
    c.add_argument("--link", help="the link to take down, DPID:PORT-DPID:PORT (the middle one)")
    c.add_argument("--down-at-s", type=float, default=10.0, help="seconds after go the link goes down (10)")
    c.add_argument("--up-after-s", type=float, default=10.0, help="seconds it stays down (10)")
    c.set_defaults(func=run_change)


def _flags(p, common, poll_s: float) -> None:
    common(p)
    p.set_defaults(controller="osken:topology", of_version=None)
    p.add_argument("--topo", default="ring,10", help="topology spec or file (ring,10)")
    p.add_argument("--verify", default="northbound", choices=["northbound", "southbound"],
                   help="northbound: poll the controller's view; southbound: every link carried probes both ways")
    p.add_argument("--api", help="northbound API: osken, ryu, floodlight, onos, odl (from the controller)")
    p.add_argument("--api-url", help="the API's base URL (a managed controller's own)")
    p.add_argument("--poll-s", type=float, default=poll_s, help=f"northbound poll interval ({poll_s:g} s)")
    p.add_argument("--deadline-s", type=float, default=60.0, help="a trial's time limit (60 s)")
    p.add_argument("--stable", type=int, default=3, help="identical answers that end a stalled discovery (3)")


def _trial(args, topo: str, quiet: bool) -> tuple:
    """Launch the controller, run one trial on ``topo``, stop the controller: (trial, controller info)."""
    p = engine_params(topo, args.controller, args.of_version, args.deadline_s, args.workers)
    with launch(args.controller, of_version=launch_of_version(p)) as ctl:
        p, info = agree_version(p, ctl, args.of_version)
        adapter, url = api_for(args.controller, args.api, args.api_url, ctl.api_url, args.verify)
        s = make_setup(p, adapter, url, args.poll_s, args.deadline_s, args.stable, quiet)
        t = run_trial(s, f"{ctl.host}:{ctl.port}", ctl.pid)
        ctl.check_alive()
        return t, info, adapter


def run_discovery(args) -> int:
    if args.reps < 1:
        raise UserError("--reps must be at least 1")
    if args.size_search:
        return _size_search(args)
    trials, info, adapter = [], {}, None
    for rep in range(args.reps):
        t, info, adapter = _trial(args, args.topo, quiet=args.json)
        t["rep"] = rep
        trials.append(t)
        _save(args, _result(args, "topology-discovery", trials, info, adapter))  # a later failure loses nothing
        if not args.json:
            print(f"trial {rep + 1}/{args.reps}: {record.describe(t)}", file=sys.stderr)
    r = _result(args, "topology-discovery", trials, info, adapter)
    if not args.json:
        _table(r)
    return _finish(args, r)


def _result(args, benchmark: str, trials: list, info: dict, adapter, extra: dict = None):
    t = next((x for x in reversed(trials) if x.get("switches")), trials[-1])
    fields = record.rfc_fields(info, args.topo, t["switches"], t["links"], t.get("verification", args.verify),
                               adapter.name if adapter else None, args.of_version)
    params = {"controller": args.controller, "topo": args.topo, "verify": args.verify, "poll_s": args.poll_s,
              "deadline_s": args.deadline_s, "stable": args.stable, "of_version": args.of_version, **(extra or {})}
    return record.to_result(benchmark, {k: v for k, v in params.items() if v is not None}, trials, info, fields)


def _table(r) -> None:
    rows = [[t["rep"] if "rep" in t else "-", t["state"], t.get("verification"),
             "-" if t.get("discovery_s") is None else f"{t['discovery_s']:.3f}",
             "-" if t["southbound"].get("rfc_dt_s") is None else f"{t['southbound']['rfc_dt_s']:.3f}",
             f"{t.get('seen', 0)}/{t.get('want', 0)}"] for t in r.counters["trials"]]
    m, v = r.counters["discovery_mean_s"], r.counters["discovery_variance_s2"]
    rows.append(["average", "", "", "-" if m is None else f"{m:.3f}", "", ""])
    rows.append(["variance", "", "", "-" if v is None else f"{v:.4f}", "", ""])
    print(output.table(["trial", "state", "verified", "discovery s", "RFC DT s", "link dirs"], rows))
    for n in r.notes:
        print(f"note: {n}", file=sys.stderr)


def _size_search(args) -> int:
    start = start_size(args.topo)
    seen: list = []
    info, adapter = {}, None

    def ok(n: int) -> bool:
        nonlocal info, adapter
        topo = with_size(args.topo, n)
        try:
            t, info, adapter = _trial(args, topo, quiet=True)
        except UserError as e:   # too large for this machine: a failure at this size, said why
            t = {"state": "failed", "note": str(e), "discovery_s": None, "southbound": {}, "switches": None, "links": None}
        t["topo"], t["size"] = topo, n
        seen.append(t)
        _save(args, _result(args, "topology-discovery-size", seen, info, adapter, {"size_search": True}))
        # a trial that fell back to southbound-only does not count for a northbound search
        good = (t["state"] == "complete" and t.get("verification") == args.verify
                and t["discovery_s"] is not None and t["discovery_s"] <= args.deadline_s)
        if not args.json:
            print(f"size {topo}: {record.describe(t)}", file=sys.stderr)
        return good

    res = search(start, ok, args.max_switches)
    r = _result(args, "topology-discovery-size", seen, info, adapter,
                {"size_search": True, "largest": res["largest"], "first_failure": res["first_failure"]})
    r.counters.update({"largest_size": res["largest"], "first_failure_size": res["first_failure"],
                       "size_tried": res["tried"]})
    if res["largest"] is not None and r.status != "ok":
        r.status, r.error = "ok", None
    if not args.json:
        # a southbound-only trial of a northbound search shows its verification: it did not count
        print(output.table(["topology", "state", "verified by", "discovery s"],
                           [[t["topo"], t["state"], t.get("verification") or "-",
                             "-" if t.get("discovery_s") is None else f"{t['discovery_s']:.3f}"] for t in seen]))
        print(f"largest size discovered within {args.deadline_s:g} s: "
              f"{'none' if res['largest'] is None else with_size(args.topo, res['largest'])}"
              + (f" (first failure: {with_size(args.topo, res['first_failure'])})" if res["first_failure"] else ""))
    return _finish(args, r)


def run_change(args) -> int:
    from ..discovery.cell import _change
    r = _change(sys.modules[__name__], args)
    if not args.json:
        print(change.describe(r.counters))
    return _finish(args, r)


def _save(args, r) -> None:
    from .controller import _save as save
    save(args, [r])


def _finish(args, r) -> int:
    from .controller import _finish as finish
    return finish(args, [r])
