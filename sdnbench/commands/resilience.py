"""``sdnbench controller reprovisioning`` and ``sdnbench controller failover``: RFC 8456 §5.4.2
network re-provisioning time and §5.4.1 controller failover time, with sequence-numbered streams
on the engine's emulated network (docs/rfc8456-provisioning.md).

    sdnbench controller reprovisioning --controller osken:reroute --topo ring,6 --reps 3
    sdnbench controller failover --controller osken:takeover --topo linear,3 --reps 3

Exit 2 when a trial saw no traffic before the failure, none after it, or broke an invariant;
what was measured is kept (printed, -o, --store)."""

from __future__ import annotations

from ..outputs import Outputs
from .. import output
from ..rfc8456 import resilience_params as params
from ..rfc8456.reprovisioning_trial import reprovisioning_trial
from ..rfc8456.provisioning import stats
from ..rfc8456.stored import ReprovisioningCounters
from . import failover
from ._resilience import build, finish, ms, test_flags, trials


GROUP = "controller"      # a `sdnbench controller` subcommand (commands/_parser.members)


def add_to(s, common) -> None:
    p = s.add_parser("reprovisioning", help="RFC 8456 §5.4.2 network re-provisioning time (a link fails)",
                     description=__doc__)
    common(p)
    test_flags(p, params.Reprovisioning)
    p.set_defaults(func=run_reprovisioning, controller=params.DEFAULTS["reprovisioning"]["controller"])
    failover.add_to(s, common)


def _print(results: list) -> None:
    rows = []
    for r in results:
        c = ReprovisioningCounters.of(r)
        for p in c.pairs:
            rows.append([r.params["rep"], p["pair"], f"{p['received']}/{p['sent']}", ms(p["reprovisioning_ms"]),
                         ms(p["rfc_ms"]), "-" if p["lost"] is None else p["lost"], c.verdict])
    head = ["trial", "pair", "received", "reprov ms", "T2-T1 ms", "lost", "verdict"]
    print(output.table(head, rows, align="rlrrrrl"))
    vals = [s.values[0] for r in results for s in r.find("rfc_reprovisioning_time")]
    st = stats(vals)
    if st["trials"]:
        print(f"RFC 8456 §5.4.2 re-provisioning time (ms, (FDRT+RDRT)/2): average {st['average']:.3f}, "
              f"variance {st['variance']:.4g}, trials {st['trials']}")


def run_reprovisioning(args, outputs: Outputs) -> int:
    return finish(outputs, trials(outputs, "reprovisioning", build(args, "reprovisioning"), reprovisioning_trial), _print)
