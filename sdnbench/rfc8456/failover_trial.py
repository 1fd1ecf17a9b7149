"""One controller-failover trial (§5.4.1) with its two controllers launched for it, the master
killed: what ``controller failover`` and the ``resilience`` campaign kind run. ``p`` is the
suite's typed parameters (``resilience_params.Failover``), already checked."""

from __future__ import annotations

from ..controllers import launch
from ..controllers.negotiation import session_version
from ..controllers.ofhello import free_port
from ..engine.result_types import engine_result
from ..result import Result
from . import failover as fo
from .resilience_params import Failover


def trial(p: Failover, rep: int) -> Result:
    """One trial: A and B launched for it, A killed."""
    fo.check_of(p.of_version)
    spec_a, spec_b = fo.instance_specs(p.controller, free_port())
    net, pairs, kill_ms = fo.trial_network(p.topo, p.interval_us, p.warmup_ms, p.fail_after_ms,
                                           p.after_ms, p.flow_rate)
    with launch(spec_a, of_version="1.3") as a:
        session_version(a.host, a.port, "1.3", a.info.get("name") or p.controller,
                        need="failover needs OpenFlow 1.3 (master and slave roles, RFC 8456 §5.4.1)")
        with launch(spec_b, of_version="1.3") as b:
            doc, kill_mono = fo.run(a, b, net, kill_ms)
            s = fo.summarize(doc, net, kill_mono)
            r = _result(p, rep, pairs, s, doc)
            b.record(r)
            r.controller["killed_master"] = dict(a.info)
    return r


def _result(p: Failover, rep: int, pairs: list, s: dict, doc: dict) -> Result:
    params = {"controller": p.controller, "of_version": "1.3", "topo": p.topo, "flow_rate": p.flow_rate,
              "interval_us": p.interval_us, "warmup_ms": p.warmup_ms, "fail_after_ms": p.fail_after_ms,
              "after_ms": p.after_ms, "rep": rep, "workload": "failover"}
    r = Result(kind="controller", benchmark="failover", params=params,
               topology={"spec": p.topo, "pairs": [list(x) for x in pairs]},
               versions={"sdnbench-engine": engine_result(doc).engine.version})
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
        return r.finish("failed", f"{p.controller}: {v}")
    if bad:
        return r.finish("failed", f"invariant broken: {'; '.join(map(str, bad))}")
    return r.finish()
