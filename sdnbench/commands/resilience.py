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
from ..result import write_json_atomic
from ..rfc8456 import resilience_params as params
from ..rfc8456.reprovisioning_trial import reprovisioning_trial
from ..rfc8456.provisioning import stats
from . import failover
from ._results import finish as finish_results


def add_to(s, common) -> None:
    p = s.add_parser("reprovisioning", help="RFC 8456 §5.4.2 network re-provisioning time (a link fails)",
                     description=__doc__)
    common(p)
    p.add_argument("--topo", default="ring,6", help="topology with a redundant path (ring,6)")
    p.add_argument("--link", help="the link to fail, DPID-DPID (the first link some host pair depends on)")
    _stream_flags(p, after_ms=2000)
    p.set_defaults(func=run_reprovisioning, controller="osken:reroute", of_version=None)  # negotiated
    failover.add_to(s, common, _stream_flags)


def _stream_flags(p, after_ms: int) -> None:
    p.add_argument("--interval-us", type=int, default=1000, help="one frame per pair every this many µs (1000)")
    p.add_argument("--warmup-ms", type=int, default=3000,
                   help="time for the controller to learn the network before the streams start (3000)")
    p.add_argument("--fail-after-ms", type=int, default=1000, help="streams run this long before the failure (1000)")
    p.add_argument("--after-ms", type=int, default=after_ms, help=f"and this long after it ({after_ms})")
    p.add_argument("--reps", type=int, default=3, help="trials (3)")


def check(args, test: str) -> None:
    """Every flag checked (``rfc8456/resilience_params.py``) before any controller starts."""
    keys = set(params.DEFAULTS[test]) | set(params.CLI_ONLY)
    params.check(test, {k: v for k, v in vars(args).items() if k in keys})


def trials(args, one) -> list:
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
    if not args.json:
        printer(results)
        for r in results:
            if r.error:
                print(f"trial {r.params['rep']}: {r.error}", file=sys.stderr)
    return finish_results(args, results)


def run_reprovisioning(args) -> int:
    check(args, "reprovisioning")
    return finish(args, trials(args, reprovisioning_trial), _print)
