"""One re-provisioning trial (§5.4.2) with its controller launched for it, a link failed:
what ``controller reprovisioning`` and the ``resilience`` campaign kind run. ``args`` carries
the suite's parameters (``resilience_params``), already checked."""

from __future__ import annotations

from ..controllers import launch
from ..controllers.negotiation import session_version
from ..net.topology import parse_topology
from ..engine.result_types import engine_result
from ..result import Result
from . import reprovisioning as rp
from . import streams


def reprovisioning_trial(args, rep: int) -> Result:
    """One trial with its own controller launch."""
    link = rp.parse_link(args.link) if getattr(args, "link", None) else None
    net, l, pairs, fail_ms = rp.trial_network(args.topo, link, args.interval_us, args.warmup_ms,
                                              args.fail_after_ms, args.after_ms)
    forced = getattr(args, "forced_of", args.of_version)
    args.forced_of = forced
    with launch(args.controller, of_version=forced or "1.3", topology=parse_topology(args.topo)) as ctl:
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
               topology={"spec": args.topo, "link": list(link),
                         "pairs": [[p.src, p.dst] for p in streams.stream_section(doc).pairs]},
               versions={"sdnbench-engine": engine_result(doc).engine.version})
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
