"""§5.3.1 Exception Handling as one cell of the ``rfc8456`` campaign kind: the controller launched
once, the same load run clean, with 1 % and with 2 % invalid packet-ins, interleaved
(``sdnbench.robustness.exceptions``, as ``sdnbench controller exceptions`` does with ``--reps 1``).
Counters: each variant's answered/s and the drop against clean.

Its ``Test`` record (``suite.py``) carries ``Params`` and ``trial``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ..paramcheck import param
from ..result import Result
from ..robustness import exceptions
from ..robustness import exceptions_trial
from .cell_rules import controller, whole_1


@dataclass(frozen=True)
class Params:
    """The keys an exceptions cell takes, with each key's rule; the values left out are the
    command's (``robustness.exceptions_trial.DEFAULTS``)."""
    controller: Optional[str] = param(None, controller)
    of_version: Any = param(None)
    switches: Optional[int] = param(None, whole_1("switches"))
    loops: Optional[int] = param(None, whole_1("loops"))
    loop_ms: Optional[int] = param(None, whole_1("loop_ms"))
    warmup: Any = param(None)
    mode: Any = param(None)
    rate: Any = param(None)
    workers: Any = param(None)
    traffic: Any = param(None)



KEYS = frozenset(Params.__dataclass_fields__)


def trial(params: dict, defaults: dict) -> Result:
    """One trial; ``defaults``: the record's (unused: the command's defaults apply, as before)."""
    runs, of = exceptions_trial.run({k: v for k, v in params.items() if k in KEYS}, reps=1)
    rows = settle(exceptions.summarize(runs), {v: x.status for v, [x] in runs.items()})
    clean = runs["clean"][0]
    r = Result(kind="rfc8456", benchmark="exceptions", params=dict(params, of_session=of), controller=clean.controller,
               topology=clean.topology, versions=clean.versions, started=clean.started)
    for v, [x] in runs.items():
        r.add("answered", "requests/s", exceptions.per_loop(x), variant=v)
        r.notes += [n for n in x.notes if n not in r.notes]
    r.counters = {"exceptions_summary": rows,
                  **{f"answered_per_s_{w['variant']}": w["answered_per_s"] for w in rows},
                  **{f"drop_{w['variant']}": w["drop"] for w in rows if w["variant"] != "clean"},
                  "invalid_sent": sum(w["invalid_sent"] for w in rows),
                  "sessions_lost": sum(w["sessions_lost"] for w in rows)}
    for v, [x] in runs.items():
        if v != "clean" and x.status != "ok":
            r.notes.append(f"with {v} invalid packet-ins: {x.error}")
    # Only the clean run failing fails the trial: the invalid variants losing sessions (os-ken,
    # Ryu and Faucet reset a session on a wrong-version packet-in) is what §5.3.1 measures.
    return r.finish("failed", clean.error) if clean.status != "ok" else r.finish()


def settle(rows: list, status: dict) -> list:
    """A variant whose run failed with nothing answered lost every session: it answered 0/s, a
    drop of 100 %; that is §5.3.1's finding, not a missing value."""
    for w in rows:
        if w["variant"] != "clean" and w["answered_per_s"] is None and status.get(w["variant"]) != "ok":
            w["answered_per_s"], w["drop"] = 0.0, 1.0
    return rows
