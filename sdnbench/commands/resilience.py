"""``sdnbench controller reprovisioning`` and ``sdnbench controller failover``: RFC 8456 §5.4.2
network re-provisioning time and §5.4.1 controller failover time, with sequence-numbered streams
on the engine's emulated network (docs/rfc8456-provisioning.md).

    sdnbench controller reprovisioning --controller osken:reroute --topo ring,6 --reps 3
    sdnbench controller failover --controller osken:takeover --topo linear,3 --reps 3

Exit 2 when a trial saw no traffic before the failure, none after it, or broke an invariant;
what was measured is kept (printed, -o, --store)."""

from __future__ import annotations

import sys

from .. import output
from ..controllers import launch
from ..controllers.negotiation import session_version
from ..errors import UserError
from ..result import Result, write_json_atomic
from ..rfc8456 import reprovisioning as rp
from ..rfc8456 import streams
from ..rfc8456.provisioning import stats


def add_to(s, common) -> None:
    p = s.add_parser("reprovisioning", help="RFC 8456 §5.4.2 network re-provisioning time (a link fails)",
                     description=__doc__)
    common(p)
    p.add_argument("--topo", default="ring,6", help="topology with a redundant path (ring,6)")
    p.add_argument("--link", help="the link to fail, DPID-DPID (the first link some host pair depends on)")
    _stream_flags(p, after_ms=2000)
    p.set_defaults(func=run_reprovisioning, controller="osken:reroute", of_version=None)  # negotiated
    from . import failover
    failover.add_to(s, common, _stream_flags)


def _stream_flags(p, after_ms: int) -> None:
    p.add_argument("--interval-us", type=int, default=1000, help="one frame per pair every this many µs (1000)")
    p.add_argument("--warmup-ms", type=int, default=3000,
                   help="time for the controller to learn the network before the streams start (3000)")
    p.add_argument("--fail-after-ms", type=int, default=1000, help="streams run this long before the failure (1000)")
    p.add_argument("--after-ms", type=int, default=after_ms, help=f"and this long after it ({after_ms})")
    p.add_argument("--reps", type=int, default=3, help="trials (3)")


def check_args(args) -> None:
    for name in ("interval_us", "warmup_ms", "fail_after_ms", "after_ms", "reps"):
        low = 50 if name == "interval_us" else 1
        if getattr(args, name) < low:
            raise UserError(f"--{name.replace('_', '-')}: {getattr(args, name)} (must be {low} or more)")


def reprovisioning_trial(args, rep: int) -> Result:
    """One trial with its own controller launch."""
    link = rp.parse_link(args.link) if getattr(args, "link", None) else None
    net, l, pairs, fail_ms = rp.trial_network(args.topo, link, args.interval_us, args.warmup_ms,
                                              args.fail_after_ms, args.after_ms)
    forced = getattr(args, "forced_of", args.of_version)
    args.forced_of = forced
    with launch(args.controller, of_version=forced or "1.3", topology=args.topo) as ctl:
        # the version the switches and the controller agree on (--of: checked), as net run does
        args.of_version = session_version(ctl.host, ctl.port, forced, ctl.info.get("name") or args.controller)
        doc = streams.run_engine([f"{ctl.host}:{ctl.port}"], net, args.of_version, rp.run_seconds(net))
        s = rp.summarize(doc, net)
        r = _result(args, rep, l, net, s, doc)
        ctl.record(r)
    return r


def _result(args, rep: int, link: list, net: dict, s: dict, doc: dict) -> Result:
    params = {"controller": args.controller, "of_version": args.of_version, "topo": args.topo,
              "link": f"{link[0]}-{link[2]}", "interval_us": args.interval_us, "warmup_ms": args.warmup_ms,
              "fail_after_ms": args.fail_after_ms, "after_ms": args.after_ms, "rep": rep, "workload": "reprovisioning"}
    r = Result(kind="controller", benchmark="reprovisioning", params=params,
               topology={"spec": args.topo, "link": list(link), "pairs": [[p["src"], p["dst"]] for p in
                                                                          streams.stream_section(doc)["pairs"]]},
               versions={"sdnbench-engine": (doc.get("engine") or {}).get("version", "unknown")})
    rows = s["pairs"]
    done = all(x["rfc_ms"] is not None for x in rows)
    if done:
        r.add("reprovisioning_time", "ms", [x["reprovisioning_ms"] for x in rows], rep=rep, per="pair")
        r.add("rfc_reprovisioning_time", "ms", [s["rfc_reprovisioning_ms"]], rep=rep)
        r.add("frames_lost", "frames", [x["lost"] for x in rows], rep=rep, per="pair")
    r.counters = {k: v for k, v in s.items() if k != "pairs"}
    r.counters.update(verdict=rp.verdict(s), pairs=rows)
    r.notes.append("RFC 8456 §5.4.2: (FDRT + RDRT) / 2 with each term the first frame after the gap minus the "
                   "last before it at the receiving host; forward loss counted at the second host (the RFC's "
                   "labels look swapped); re-provisioning time = first frame after the failure - the failure")
    bad = [x for x in (s["invariant"], s["network_invariant"]) if x != "ok"]
    if not done:
        return r.finish("failed", f"{args.controller}: {rp.verdict(s)}")
    if bad:
        return r.finish("failed", f"invariant broken: {'; '.join(map(str, bad))}")
    return r.finish()


def trials(args, one) -> list:
    check_args(args)
    results = []
    for rep in range(args.reps):
        results.append(one(args, rep))
        if args.out:
            write_json_atomic(args.out, [x.to_dict() for x in results])  # rewritten per trial
    return results


def _print(results: list) -> None:
    rows = []
    for r in results:
        for p in r.counters["pairs"]:
            rows.append([r.params["rep"], p["pair"], f"{p['received']}/{p['sent']}", _f(p["reprovisioning_ms"]),
                         _f(p["rfc_ms"]), "-" if p["lost"] is None else p["lost"], r.counters["verdict"]])
    head = ["trial", "pair", "received", "reprov ms", "T2-T1 ms", "lost", "verdict"]
    print(output.table(head, rows, align="rlrrrrl"))
    vals = [s.values[0] for r in results for s in r.find("rfc_reprovisioning_time")]
    st = stats(vals)
    if st["trials"]:
        print(f"RFC 8456 §5.4.2 re-provisioning time (ms, (FDRT+RDRT)/2): average {st['average']:.3f}, "
              f"variance {st['variance']:.4g}, trials {st['trials']}")


def _f(x) -> str:
    return "-" if x is None else f"{x:.3f}"


def finish(args, results: list, printer) -> int:
    from .controller import _finish
    if not args.json:
        printer(results)
        for r in results:
            if r.error:
                print(f"trial {r.params['rep']}: {r.error}", file=sys.stderr)
    return _finish(args, results)


def run_reprovisioning(args) -> int:
    return finish(args, trials(args, reprovisioning_trial), _print)
