"""``sdnbench controller failover`` (RFC 8456 §5.4.1): two instances of a controller, the master
killed by its PID at a recorded instant; how long until every switch sees the standby as
master, until new flows are provisioned again, and what the streams lost
(``sdnbench/rfc8456/failover.py``; the parser is added by ``resilience``)."""

from __future__ import annotations

from .. import output
from ..controllers import launch
from ..controllers.negotiation import session_version
from ..controllers.ofhello import free_port
from ..result import Result
from ..rfc8456 import failover as fo
from ..rfc8456.provisioning import stats


def add_to(s, common, stream_flags) -> None:
    p = s.add_parser("failover", help="RFC 8456 §5.4.1 controller failover time (the master is killed)",
                     description=__doc__)
    common(p)
    p.add_argument("--topo", default="linear,3", help="topology; streams run between its farthest hosts (linear,3)")
    p.add_argument("--flow-rate", type=float, default=100.0, help="new flows per second across the kill (100)")
    stream_flags(p, after_ms=2000)
    p.set_defaults(func=run_failover, controller="osken:takeover")


def trial(args, rep: int) -> Result:
    """One trial: A and B launched for it, A killed."""
    fo.check_of(args.of_version)
    spec_a, spec_b = fo.instance_specs(args.controller, free_port())
    net, pairs, kill_ms = fo.trial_network(args.topo, args.interval_us, args.warmup_ms, args.fail_after_ms,
                                           args.after_ms, args.flow_rate)
    with launch(spec_a, of_version="1.3") as a:
        session_version(a.host, a.port, "1.3", a.info.get("name") or args.controller,
                        need="failover needs OpenFlow 1.3 (master and slave roles, RFC 8456 §5.4.1)")
        with launch(spec_b, of_version="1.3") as b:
            doc, kill_mono = fo.run(a, b, net, kill_ms)
            s = fo.summarize(doc, net, kill_mono)
            r = _result(args, rep, pairs, s, doc)
            b.record(r)
            r.controller["killed_master"] = dict(a.info)
    return r


def _result(args, rep: int, pairs: list, s: dict, doc: dict) -> Result:
    params = {"controller": args.controller, "of_version": "1.3", "topo": args.topo, "flow_rate": args.flow_rate,
              "interval_us": args.interval_us, "warmup_ms": args.warmup_ms, "fail_after_ms": args.fail_after_ms,
              "after_ms": args.after_ms, "rep": rep, "workload": "failover"}
    r = Result(kind="controller", benchmark="failover", params=params,
               topology={"spec": args.topo, "pairs": [list(p) for p in pairs]},
               versions={"sdnbench-engine": (doc.get("engine") or {}).get("version", "unknown")})
    v = fo.verdict(s)
    if s["role_change_ms"] is not None:
        r.add("role_change_time", "ms", [x["b_master_ms"] for x in s["roles"].values()], rep=rep, per="switch")
    if s["new_flow_ms"] is not None:
        r.add("new_flow_time", "ms", [s["new_flow_ms"]], rep=rep)
    if s["rfc_failover_ms"] is not None:
        r.add("failover_time", "ms", [s["rfc_failover_ms"]], rep=rep)
        r.add("frames_lost", "frames", [x["lost"] for x in s["pairs"]], rep=rep, per="pair")
    r.counters = dict(s, verdict=v)
    r.notes.append("RFC 8456 §5.4.1: failover_time = T2 - T1 on the streams (0: no break, the installed paths "
                   "kept forwarding); role_change_time = kill -> each switch sees the standby as MASTER; "
                   "new_flow_time = kill -> the first flow started after it is delivered")
    bad = [x for x in (s["invariant"], s["network_invariant"], s["provisioning_invariant"]) if x != "ok"]
    if v != "taken over":
        return r.finish("failed", f"{args.controller}: {v}")
    if bad:
        return r.finish("failed", f"invariant broken: {'; '.join(map(str, bad))}")
    return r.finish()


def _print(results: list) -> None:
    rows = []
    for r in results:
        c = r.counters
        lost = "/".join("-" if p["lost"] is None else str(p["lost"]) for p in c["pairs"])
        rows.append([r.params["rep"], _f(c["role_change_first_ms"]), _f(c["role_change_ms"]), _f(c["new_flow_ms"]),
                     _f(c["rfc_failover_ms"]), lost, f"{c['flows_provisioned']}/{c['flows']}", c["verdict"]])
    head = ["trial", "B master first ms", "all ms", "new flow ms", "T2-T1 ms", "lost fwd/rev", "flows", "verdict"]
    print(output.table(head, rows, align="rrrrrrrl"))
    for name, metric in (("time until every switch sees B as master", "role_change_time"),
                         ("time until new flows are provisioned", "new_flow_time"),
                         ("failover time T2-T1 on the streams", "failover_time")):
        vals = [max(x.values) for r in results for x in r.find(metric)]
        st = stats(vals)
        if st["trials"]:
            print(f"RFC 8456 §5.4.1 {name} (ms): average {st['average']:.3f}, variance {st['variance']:.4g}, "
                  f"trials {st['trials']}")


def _f(x) -> str:
    return "-" if x is None else f"{x:.3f}"


def run_failover(args) -> int:
    from .resilience import finish, trials
    fo.check_of(args.of_version)
    return finish(args, trials(args, trial), _print)
