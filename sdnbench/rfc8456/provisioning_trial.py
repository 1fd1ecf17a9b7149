"""One provisioning trial (§5.1.4-§5.1.7, §5.2.3) with its own controller launch: what
``controller provisioning`` / ``table-capacity`` and the ``provisioning`` campaign kind run.
``p`` is the suite's typed parameters (``provisioning_params.Provisioning``), already checked."""

from __future__ import annotations

from ..controllers import launch
from ..controllers.negotiation import session_version
from ..controllers.spec import parse_spec, spoken_versions
from ..net.topology import parse_topology
from ..engine.result_types import engine_result
from ..result import Result
from . import proactive as pro
from . import provisioning as prov
from .flow_push import adapter_for
from .provisioning_params import Provisioning


def default_of(controller: str, proactive: bool) -> str:
    """Without --of: reactive tests prefer OpenFlow 1.0 (a miss goes to the controller with no
    table-miss entry to install), proactive ones 1.3; a managed controller that speaks only the
    other version gets that one."""
    want = "1.3" if proactive else "1.0"
    spec = parse_spec(controller)
    known = spoken_versions(spec)
    return want if not known or want in known else known[-1]


def trial(p: Provisioning, rep: int) -> Result:
    """One trial with its own controller launch (trials do not share learned state)."""
    net, pairs, k = prov.trial_network(p.topo, p.flows, p.concurrency, p.rate, p.timeout_ms,
                                       p.announce_ms, p.table_size)
    with launch(p.controller, of_version=p.of_version or default_of(p.controller, p.proactive),
                topology=parse_topology(p.topo)) as ctl:
        address = ctl.target
        # the version the switches and the controller agree on (--of: checked), as net run does
        label = ctl.info.get("name") or p.controller
        of = session_version(ctl.host, ctl.port, p.of_version, label) or default_of(p.controller, p.proactive)
        if p.proactive:
            adapter = adapter_for(p.controller, p.api_url or ctl.api_url, p.api or "")
            s, doc = pro.run(adapter, address, net, of, p.deadline, until_refused=p.test.startswith("table-capacity"))
        else:
            doc = prov.run_trial(address, net, of, p.deadline)
            s = prov.summarize(doc, net)
        r = _result(p, of, rep, k, pairs, s, doc)
        ctl.record(r)
    return r


def _result(p: Provisioning, of: str, rep: int, k: int, pairs: list, s: dict, doc: dict) -> Result:
    """``of``: the OpenFlow version the session ran at (negotiated), recorded as ``of_version``."""
    benchmark = p.benchmark
    params = {"controller": p.controller, "of_version": of, "topo": p.topo, "flows": p.flows,
              "concurrency": p.concurrency, "rate": p.rate, "timeout_ms": p.timeout_ms,
              "announce_ms": p.announce_ms, "table_size": p.table_size, "rep": rep, "workload": benchmark}
    r = Result(kind="controller", benchmark=benchmark, params=params,
               topology={"spec": p.topo, "k": k, "pairs": [list(p) for p in pairs]},
               versions={"sdnbench-engine": engine_result(doc).engine.version})
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
        return r.finish("failed", f"{p.controller}: {prov.verdict(s)}")
    if bad:
        return r.finish("failed", f"invariant broken: {'; '.join(map(str, bad))}")
    return r.finish()
