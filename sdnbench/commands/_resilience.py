"""What ``controller reprovisioning`` and ``controller failover`` share: the stream flags, the
typed parameters checked before any controller starts, the trials as a plan and the ending."""

from __future__ import annotations

from dataclasses import fields

from ..campaign.plan import one_benchmark
from ..outputs import Outputs
from ..paramcheck import add_flags
from ..rfc8456 import resilience_params as params
from ._results import end, run_trials


def test_flags(p, typed) -> None:
    """The test's own flags, then the streams' (``resilience_params``: each flag's type, default
    and help once, in its table)."""
    add_flags(p, typed, skip=STREAMS)
    add_flags(p, params.Streams)


STREAMS = tuple(f.name for f in fields(params.Streams))


def build(args, test: str):
    """The test's typed parameters from the flags, every one checked
    (``rfc8456/resilience_params.py``) before any controller starts."""
    keys = set(params.DEFAULTS[test]) | set(params.CLI_ONLY)
    return params.build(test, {k: v for k, v in vars(args).items() if k in keys})


def trials(outputs: Outputs, test: str, p, one) -> list:
    """``one(p, rep)`` for each of ``p.reps`` trials, as a one-benchmark plan on the campaigns'
    executor (``_results.run_trials``): the cells a ``resilience`` campaign of these parameters
    would plan, each Result in ``-o`` and ``--store`` as it ends, Ctrl-C/SIGTERM as a campaign's."""
    cells = one_benchmark(test, "resilience", params.cell(test, p), repetitions=p.reps)
    return run_trials(outputs, cells, lambda cell: one(p, cell.repetition), reps_in_params=True)


def finish(outputs: Outputs, results: list, printer) -> int:
    if not outputs.json:
        printer(results)               # a failed trial's reason was said as it ended
    return end(outputs, results)


def ms(x) -> str:
    return "-" if x is None else f"{x:.3f}"
