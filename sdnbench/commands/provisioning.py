"""``sdnbench controller provisioning`` and ``sdnbench controller table-capacity``: RFC 8456
§5.1.4/§5.1.6 reactive path provisioning time and rate, and §5.2.3 forwarding-table capacity, on
the engine's emulated network (docs/rfc8456-provisioning.md).

    sdnbench controller provisioning --controller osken:learning --topo linear,4 --flows 200 --reps 3
    sdnbench controller provisioning --mode proactive --controller ryu:ofctl_rest --topo linear,4 --flows 100
    sdnbench controller table-capacity --controller osken:learning --topo linear,2 --flows 2000 --table-size 1000

Exit 2 when a trial provisioned no flow at all (the controller never provisions) or broke an
invariant; what was measured is kept (printed, -o, --store)."""

from __future__ import annotations

import sys

from .. import output
from ..controllers import launch
from ..controllers.negotiation import session_version
from ..result import Result, write_json_atomic
from ..rfc8456 import provisioning as prov


def add_to(s, common) -> None:
    p = s.add_parser("provisioning", help="RFC 8456 §5.1.4/§5.1.6 reactive path provisioning time and rate",
                     description=__doc__)
    common(p)
    p.add_argument("--mode", default="reactive", choices=["reactive", "proactive"],
                   help="reactive: the controller provisions on flow misses; proactive: paths requested "
                        "through its northbound API (ryu:ofctl_rest), misses dropped")
    _api_flags(p)
    _trial_flags(p, flows=100)
    p.set_defaults(func=run_provisioning, of_version=None)
    t = s.add_parser("table-capacity", help="RFC 8456 §5.2.3 forwarding-table capacity (reactive, proactive)",
                     description=__doc__)
    common(t)
    t.add_argument("--mode", default="reactive", choices=["reactive", "proactive"],
                   help="reactive: new flows until entries stop growing; proactive: push flows through the "
                        "northbound API until it refuses or the table is full")
    _api_flags(t)
    _trial_flags(t, flows=2000)
    t.set_defaults(func=run_table_capacity, of_version=None, concurrency=8)


def _api_flags(p) -> None:
    p.add_argument("--api", choices=["floodlight", "onos"],
                   help="proactive with a controller sdnbench does not launch (tcp:/cmd:): its flow API")
    p.add_argument("--api-url", help="proactive: the flow API's base URL (with --api)")


def _trial_flags(p, flows: int) -> None:
    p.add_argument("--topo", default="linear,2", help="topology spec; the farthest host pairs are used (linear,2)")
    p.add_argument("--flows", type=int, default=flows, help=f"new flows per trial ({flows})")
    p.add_argument("--concurrency", type=int, default=1, help="flows waiting for their path at once (1)")
    p.add_argument("--rate", type=float, default=0.0, help="new flows/s at most (0: as --concurrency allows)")
    p.add_argument("--timeout-ms", type=int, default=1000, help="a flow not across by then is not provisioned (1000)")
    p.add_argument("--announce-ms", type=int, default=1000, help="time after the destinations announce themselves (1000)")
    p.add_argument("--deadline", type=float, default=30.0, help="a trial stops after this many seconds (30)")
    p.add_argument("--table-size", type=int, default=0, help="flow entries per emulated switch (0: unlimited)")
    p.add_argument("--reps", type=int, default=3, help="trials (3)")


def default_of(controller: str, proactive: bool) -> str:
    """Without --of: reactive tests prefer OpenFlow 1.0 (a miss goes to the controller with no
    table-miss entry to install), proactive ones 1.3; a managed controller that speaks only the
    other version gets that one."""
    from ..controllers.catalog import of_versions_for
    from ..controllers.spec import parse_spec
    want = "1.3" if proactive else "1.0"
    spec = parse_spec(controller)
    known = of_versions_for(spec.kind, spec.app)
    return want if not known or want in known else known[-1]


def trial(args, benchmark: str, rep: int) -> Result:
    """One trial with its own controller launch (trials do not share learned state)."""
    net, pairs, k = prov.trial_network(args.topo, args.flows, args.concurrency, args.rate, args.timeout_ms,
                                       args.announce_ms, args.table_size)
    proactive = getattr(args, "mode", "reactive") == "proactive"
    forced = getattr(args, "forced_of", args.of_version)
    args.forced_of = forced
    with launch(args.controller, of_version=forced or default_of(args.controller, proactive), topology=args.topo) as ctl:
        address = f"{ctl.host}:{ctl.port}"
        # the version the switches and the controller agree on (--of: checked), as net run does
        label = ctl.info.get("name") or args.controller
        args.of_version = session_version(ctl.host, ctl.port, forced, label) or default_of(args.controller, proactive)
        if proactive:
            from ..rfc8456 import proactive as pro
            from ..rfc8456.flow_push import adapter_for
            adapter = adapter_for(args.controller, getattr(args, "api_url", None) or ctl.api_url, getattr(args, "api", None) or "")
            s, doc = pro.run(adapter, address, net, args.of_version, args.deadline,
                             until_refused=benchmark.startswith("table-capacity"))
        else:
            doc = prov.run_trial(address, net, args.of_version, args.deadline)
            s = prov.summarize(doc, net)
        r = _result(args, benchmark, rep, k, pairs, s, doc)
        ctl.record(r)
    return r


def _trials(args, benchmark: str) -> list:
    prov.check_args(args.flows, args.concurrency, args.rate, args.timeout_ms, args.reps, args.table_size)
    results = []
    for rep in range(args.reps):
        results.append(trial(args, benchmark, rep))
        if args.out:
            write_json_atomic(args.out, [x.to_dict() for x in results])  # rewritten per trial
    return results


def _result(args, benchmark: str, rep: int, k: int, pairs: list, s: dict, doc: dict) -> Result:
    params = {"controller": args.controller, "of_version": args.of_version, "topo": args.topo, "flows": args.flows,
              "concurrency": args.concurrency, "rate": args.rate, "timeout_ms": args.timeout_ms,
              "announce_ms": args.announce_ms, "table_size": args.table_size, "rep": rep, "workload": benchmark}
    r = Result(kind="controller", benchmark=benchmark, params=params,
               topology={"spec": args.topo, "k": k, "pairs": [list(p) for p in pairs]},
               versions={"sdnbench-engine": (doc.get("engine") or {}).get("version", "unknown")})
    r.add("provisioning_time", "ms", s["times_ms"], rep=rep, k=k)
    if s["rate_per_s"] is not None:
        r.add("provisioning_rate", "paths/s", [s["rate_per_s"]], rep=rep, k=k)
    entries, limit = prov.capacity(s)
    if benchmark.startswith("table-capacity"):
        r.add("table_capacity", "entries", [entries], rep=rep, limit=limit)
    r.counters = {key: v for key, v in s.items() if key not in ("times_ms", "entries_per_switch")}
    r.counters.update(verdict=prov.verdict(s), table_capacity=entries, table_limit=limit,
                      entries_per_switch={str(d): c for d, c in s["entries_per_switch"].items()})
    if s.get("refused"):
        r.notes.append(f"pushing stopped after {s['pushed']} paths: {s['refused']}")
    bad = [x for x in (s["invariant"], s["network_invariant"]) if x != "ok"]
    if s["provisioned"] == 0:
        return r.finish("failed", f"{args.controller}: {prov.verdict(s)}")
    if bad:
        return r.finish("failed", f"invariant broken: {'; '.join(map(str, bad))}")
    return r.finish()


def _print(results: list, capacity: bool) -> None:
    rows = []
    for r in results:
        c = r.counters
        t = r.find("provisioning_time")[0].values if r.find("provisioning_time") else []
        mean = sum(t) / len(t) if t else None
        rate = r.find("provisioning_rate")[0].values[0] if r.find("provisioning_rate") else None
        rows.append([r.params["rep"], r.topology["k"], f"{c['provisioned']}/{c['flows']}", _f(mean), _f(max(t, default=None)),
                     _f(rate), f"{c['entries_on_path_min']}..{c['entries_on_path_max']}", c["table_full"],
                     f"{c['table_capacity']} ({c['table_limit']})" if capacity else c["verdict"]])
    head = ["trial", "K", "provisioned", "mean ms", "max ms", "paths/s", "entries on path", "TABLE_FULL",
            "capacity (limit)" if capacity else "verdict"]
    print(output.table(head, rows, align="rrrrrrrrl"))
    means = [sum(v) / len(v) for r in results for s in r.find("provisioning_time") for v in [s.values] if v]
    rates = [s.values[0] for r in results for s in r.find("provisioning_rate")]
    for name, vals in (("time per path (ms, mean per trial)", means), ("rate (paths/s)", rates)):
        st = prov.stats(vals)
        if st["trials"]:
            print(f"RFC 8456 {name}: average {st['average']:.3f}, variance {st['variance']:.4g}, trials {st['trials']}")


def _f(x) -> str:
    return "-" if x is None else f"{x:.3f}" if x < 100 else f"{x:.0f}"


def _finish(args, results: list, capacity: bool) -> int:
    from .controller import _finish as finish
    if not args.json:
        _print(results, capacity)
        for r in results:
            if r.error:
                print(f"trial {r.params['rep']}: {r.error}", file=sys.stderr)
    return finish(args, results)


def run_provisioning(args) -> int:
    return _finish(args, _trials(args, f"provisioning-{args.mode}"), capacity=False)


def run_table_capacity(args) -> int:
    return _finish(args, _trials(args, f"table-capacity-{args.mode}"), capacity=True)

