"""``sdnbench controller failover`` (RFC 8456 §5.4.1): two instances of a controller, the master
killed by its PID at a recorded instant; how long until every switch sees the standby as
master, until new flows are provisioned again, and what the streams lost
(``sdnbench/rfc8456/failover.py``; the parser is added by ``resilience``)."""

from __future__ import annotations

from ..outputs import Outputs
from .. import output
from ..rfc8456 import resilience_params as params
from ..rfc8456.failover_trial import trial
from ..rfc8456.provisioning import stats
from ..rfc8456.stored import FailoverCounters
from ._resilience import build, finish, ms, test_flags, trials


def add_to(s, common) -> None:
    p = s.add_parser("failover", help="RFC 8456 §5.4.1 controller failover time (the master is killed)",
                     description=__doc__)
    common(p, of_version=params.DEFAULTS["failover"]["of_version"])     # roles need 1.3: not negotiated
    test_flags(p, params.Failover)
    p.set_defaults(func=run_failover, controller=params.DEFAULTS["failover"]["controller"])


def _print(results: list) -> None:
    rows = []
    for r in results:
        c = FailoverCounters.of(r)
        lost = "/".join("-" if p["lost"] is None else str(p["lost"]) for p in c.pairs)
        rows.append([r.params["rep"], ms(c.role_change_first_ms), ms(c.role_change_ms), ms(c.new_flow_ms),
                     ms(c.rfc_failover_ms), lost, f"{c.flows_provisioned}/{c.flows}", c.verdict])
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


def run_failover(args, outputs: Outputs) -> int:
    return finish(outputs, trials(outputs, "failover", build(args, "failover"), trial), _print)
