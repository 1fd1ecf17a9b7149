"""The ``synthetic`` benchmark kind: made-up samples (Gaussian noise), for testing campaigns. It is
never among the real kinds: the tests register it (``sdnbench/conftest.py`` in process,
``python -m sdnbench.testing.cli`` in a subprocess), and the built package does not have it.

It exercises everything around a measurement — planning, progress, the store, resume, failure
recording, statistics — without controllers or networks, so campaign logic can be tested fast
and in a real subprocess. Its numbers mean nothing and say so in the Result's notes.

Parameters (all optional): ``value`` (mean, default 100), ``spread`` (default 1), ``samples``
(default 5), ``metric`` (default "throughput"), ``unit`` ("flows/s"), ``seconds`` (time to spend,
default 0), ``fail`` (true → a UserError, as a crashed controller would give), ``seed``, and
``journal`` (a file to which ``start KEY`` and ``done KEY`` lines are appended, so tests can count
executions).
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from ..errors import UserError
from ..result import Result


def run_synthetic(params: dict) -> Result:
    key = json.dumps(params, sort_keys=True)
    journal = params.get("journal")
    _journal(journal, "start", key)
    seconds = float(params.get("seconds", 0))
    if seconds > 0:
        time.sleep(seconds)
    if params.get("fail"):
        raise UserError(f"synthetic failure ({params.get('fail')})")
    # Repetitions have identical params, so they must not share a stream: mix in the clock.
    rng = random.Random(f"{params.get('seed', 0)}:{key}:{time.time_ns()}")
    value, spread = float(params.get("value", 100)), float(params.get("spread", 1))
    r = Result(kind="synthetic", benchmark=str(params.get("benchmark", "synthetic")), params=dict(params))
    r.add(str(params.get("metric", "throughput")), str(params.get("unit", "flows/s")),
          [rng.gauss(value, spread) for _ in range(int(params.get("samples", 5)))])
    r.notes.append("synthetic kind: made-up numbers for testing, not a measurement")
    _journal(journal, "done", key)
    return r.finish()


def _journal(path: Any, what: str, key: str) -> None:
    if path:
        with open(path, "a") as f:
            f.write(f"{what} {key}\n")
            f.flush()


def kind():
    from sdnbench.kind import Kind
    return Kind("synthetic", "sdnbench.testing.synthetic", "run_synthetic", (),
                "made-up numbers for testing the campaign machinery (never a measurement)")


def register() -> None:
    from sdnbench.campaign.kinds import CAMPAIGN_KINDS
    CAMPAIGN_KINDS["synthetic"] = kind()
