"""What ``controller reprovisioning`` and ``controller failover`` share: the stream flags, the
check of every flag before any controller starts, the trial loop and the ending."""

from __future__ import annotations

import sys

from ..result import write_json_atomic
from ..rfc8456 import resilience_params as params
from ._results import finish as finish_results


def stream_flags(p) -> None:
    d = params.DEFAULTS["reprovisioning"]       # each default once, in the suite's table
    p.add_argument("--interval-us", type=int, default=d["interval_us"],
                   help="one frame per pair every this many µs (%(default)s)")
    p.add_argument("--warmup-ms", type=int, default=d["warmup_ms"],
                   help="time for the controller to learn the network before the streams start (%(default)s)")
    p.add_argument("--fail-after-ms", type=int, default=d["fail_after_ms"],
                   help="streams run this long before the failure (%(default)s)")
    p.add_argument("--after-ms", type=int, default=d["after_ms"], help="and this long after it (%(default)s)")
    p.add_argument("--reps", type=int, default=params.CLI_ONLY["reps"], help="trials (%(default)s)")


def build(args, test: str):
    """The test's typed parameters from the flags, every one checked
    (``rfc8456/resilience_params.py``) before any controller starts."""
    keys = set(params.DEFAULTS[test]) | set(params.CLI_ONLY)
    return params.build(test, {k: v for k, v in vars(args).items() if k in keys})


def trials(args, p, one) -> list:
    """``one(p, rep)`` for each of ``p.reps`` trials, ``-o`` rewritten after each."""
    results = []
    for rep in range(p.reps):
        results.append(one(p, rep))
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
