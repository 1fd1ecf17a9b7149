"""One measurement of one cell, whatever happens in it: the runner's Result, or a failed Result
that carries the reason. Shared by campaigns and the CLI commands (``executor``).

- A ``UserError`` or ``CheckFailed`` from the runner, or a failed Result, is a failed cell with
  its reason (the system under test failed, or was never reachable).
- A result that measured nothing (no sample, no counter) is never ``ok``.
- An unexpected exception is a bug: ``contain_bugs`` (a campaign, whose other cells must not be
  lost to it) records it as a failed Result with its traceback in the notes; otherwise (a CLI
  command, exit 3) it propagates with its traceback.
- ``Interrupted`` always propagates (it is a BaseException).
"""

from __future__ import annotations

import time
import traceback
from typing import Callable

from ..errors import CheckFailed, UserError
from ..result import Result


def measure(fn: Callable, kind: str, benchmark: str, params: dict, contain_bugs: bool = True) -> Result:
    """One measurement; every failure of the system under test becomes a failed Result."""
    started = time.time()
    try:
        result = fn(dict(params))
    except (UserError, CheckFailed) as e:
        return failed(kind, benchmark, params, started, str(e))
    except Exception as e:   # a bug in a runner must not cost the rest of the campaign
        if not contain_bugs:
            raise
        r = failed(kind, benchmark, params, started,
                   f"internal error in the {kind} runner: {type(e).__name__}: {e}")
        r.notes.append(traceback.format_exc())
        return r
    if not isinstance(result, Result):
        if not contain_bugs:
            raise TypeError(f"the {kind} runner returned {type(result).__name__}, not a Result")
        return failed(kind, benchmark, params, started,
                      f"internal error: the {kind} runner returned {type(result).__name__}, not a Result")
    if not result.params:
        result.params = dict(params)
    if result.finished is None:
        result.finish(result.status, result.error)
    if result.status != "ok" and not result.error:
        result.error = "failed without a reason"
    if result.status == "ok" and measured_nothing(result):
        result.status, result.error = "failed", "measured nothing (no sample, no counter)"
    return result


def measured_nothing(result: Result) -> bool:
    """True when a result carries no sample (every one lost) and no counter: never an ok run."""
    samples = [v for s in result.series for v in s.values]
    if samples:
        return all(v is None for v in samples)
    return not any(v for v in result.counters.values() if isinstance(v, (int, float)))


def failed(kind: str, benchmark: str, params: dict, started: float, error: str) -> Result:
    r = Result(kind=kind, benchmark=benchmark, params=dict(params), started=started)
    return r.finish("failed", error)
