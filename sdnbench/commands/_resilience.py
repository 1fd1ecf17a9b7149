"""What ``controller reprovisioning`` and ``controller failover`` share: the stream flags, the
check of every flag before any controller starts, the trial loop and the ending."""

from __future__ import annotations

import sys

from ..result import write_json_atomic
from ..rfc8456 import resilience_params as params
from ._results import finish as finish_results


def stream_flags(p, after_ms: int) -> None:
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


def finish(args, results: list, printer) -> int:
    if not args.json:
        printer(results)
        for r in results:
            if r.error:
                print(f"trial {r.params['rep']}: {r.error}", file=sys.stderr)
    return finish_results(args, results)


def ms(x) -> str:
    return "-" if x is None else f"{x:.3f}"
