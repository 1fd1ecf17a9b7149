"""One provisioning trial (§5.1.4-§5.1.7, §5.2.3) with its own controller launch: what
``controller provisioning`` / ``table-capacity`` and the ``provisioning`` campaign kind run.
``args`` carries the suite's parameters (``provisioning_params``), already checked."""

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


def default_of(controller: str, proactive: bool) -> str:
    """Without --of: reactive tests prefer OpenFlow 1.0 (a miss goes to the controller with no
    table-miss entry to install), proactive ones 1.3; a managed controller that speaks only the
    other version gets that one."""
    want = "1.3" if proactive else "1.0"
    spec = parse_spec(controller)
    known = spoken_versions(spec)
    return want if not known or want in known else known[-1]


def trial(args, benchmark: str, rep: int) -> Result:
    """One trial with its own controller launch (trials do not share learned state)."""
    net, pairs, k = prov.trial_network(args.topo, args.flows, args.concurrency, args.rate, args.timeout_ms,
                                       args.announce_ms, args.table_size)
    proactive = getattr(args, "mode", "reactive") == "proactive"
    forced = getattr(args, "forced_of", args.of_version)
    args.forced_of = forced
    with launch(args.controller, of_version=forced or default_of(args.controller, proactive), topology=parse_topology(args.topo)) as ctl:
        address = f"{ctl.host}:{ctl.port}"
        # the version the switches and the controller agree on (--of: checked), as net run does
        label = ctl.info.get("name") or args.controller
        args.of_version = session_version(ctl.host, ctl.port, forced, label) or default_of(args.controller, proactive)
        if proactive:
            adapter = adapter_for(args.controller, getattr(args, "api_url", None) or ctl.api_url, getattr(args, "api", None) or "")
            s, doc = pro.run(adapter, address, net, args.of_version, args.deadline,
                             until_refused=benchmark.startswith("table-capacity"))
        else:
            doc = prov.run_trial(address, net, args.of_version, args.deadline)
            s = prov.summarize(doc, net)
        r = _result(args, benchmark, rep, k, pairs, s, doc)
        ctl.record(r)
    return r


def _result(args, benchmark: str, rep: int, k: int, pairs: list, s: dict, doc: dict) -> Result:
    params = {"controller": args.controller, "of_version": args.of_version, "topo": args.topo, "flows": args.flows,
              "concurrency": args.concurrency, "rate": args.rate, "timeout_ms": args.timeout_ms,
              "announce_ms": args.announce_ms, "table_size": args.table_size, "rep": rep, "workload": benchmark}
    r = Result(kind="controller", benchmark=benchmark, params=params,
               topology={"spec": args.topo, "k": k, "pairs": [list(p) for p in pairs]},
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
        return r.finish("failed", f"{args.controller}: {prov.verdict(s)}")
    if bad:
        return r.finish("failed", f"invariant broken: {'; '.join(map(str, bad))}")
    return r.finish()
