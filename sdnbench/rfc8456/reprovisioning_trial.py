"""One re-provisioning trial (§5.4.2) with its controller launched for it, a link failed:
what ``controller reprovisioning`` and the ``resilience`` campaign kind run. ``p`` is the
suite's typed parameters (``resilience_params.Reprovisioning``), already checked."""

from __future__ import annotations

from ..controllers import launch
from ..controllers.negotiation import session_version
from ..net.topology import parse_topology
from ..engine.result_types import engine_result
from ..result import Result
from . import reprovisioning as rp
from . import streams
from .resilience_params import Reprovisioning


def reprovisioning_trial(p: Reprovisioning, rep: int) -> Result:
    """One trial with its own controller launch."""
    link = rp.parse_link(p.link) if p.link else None
    net, l, pairs, fail_ms = rp.trial_network(p.topo, link, p.interval_us, p.warmup_ms, p.fail_after_ms, p.after_ms)
    with launch(p.controller, of_version=p.of_version or "1.3", topology=parse_topology(p.topo)) as ctl:
        # the version the switches and the controller agree on (--of: checked), as net run does
        of = session_version(ctl.host, ctl.port, p.of_version, ctl.info.get("name") or p.controller)
        doc = streams.run_engine([ctl.target], net, of, rp.run_seconds(net))
        s = rp.summarize(doc, net)
        r = _result(p, of, rep, l, net, s, doc)
        ctl.record(r)
    return r


def _result(p: Reprovisioning, of, rep: int, link: list, net: dict, s: dict, doc: dict) -> Result:
    """``of``: the OpenFlow version the session ran at (negotiated), recorded as ``of_version``."""
    params = {"controller": p.controller, "of_version": of, "topo": p.topo,
              "link": f"{link[0]}-{link[2]}", "interval_us": p.interval_us, "warmup_ms": p.warmup_ms,
              "fail_after_ms": p.fail_after_ms, "after_ms": p.after_ms, "rep": rep, "workload": "reprovisioning"}
    r = Result(kind="controller", benchmark="reprovisioning", params=params,
               topology={"spec": p.topo, "link": list(link),
                         "pairs": [[x.src, x.dst] for x in streams.stream_section(doc).pairs]},
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
        return r.finish("failed", f"{p.controller}: {rp.verdict(s)}")
    if bad:
        return r.finish("failed", f"invariant broken: {'; '.join(map(str, bad))}")
    return r.finish()
