"""The ``rfc8456`` campaign kind: the two RFC 8456 tests that had a command but no cell.

- ``test: exceptions`` (§5.3.1): one trial = the controller launched once, the same load run
  clean, with 1 % and with 2 % invalid packet-ins, interleaved (``sdnbench.robustness.exceptions``,
  as ``sdnbench controller exceptions`` does with ``--reps 1``). Counters: each variant's
  answered/s and the drop against clean.
- ``test: discovery-size`` (§5.2.2): one trial = the size search of ``sdnbench controller
  discovery --size-search`` (doubling, then bisection), each size with its controller launched.

Every other suite test runs through its own kind (``controller``, ``discovery``, ...).
"""

from __future__ import annotations

from typing import Any, Optional

from ..controllers.spec import validate_controller_param
from ..discovery import launched
from ..discovery import params as discovery_params
from ..errors import UserError
from ..kind import Kind
from ..result import Result
from ..robustness import exceptions
from ..robustness import exceptions_trial as trial
from .suite import BY_SLUG

TESTS = ("exceptions", "discovery-size")
EXC_KEYS = {"controller", "of_version", "switches", "loops", "loop_ms", "warmup", "mode", "rate", "workers",
            "traffic"}
SIZE_KEYS = {"controller", "of_version", "topo", "max_switches", "poll_s", "deadline_s", "stable", "api",
             "api_url", "workers"}
# a discovery-size cell's own defaults, the suite's default profile (``suite.py``); the rest are
# the discovery suite's (``discovery/params.py``)
SIZE_DEFAULTS = {k: v for k, v in BY_SLUG["discovery-size"].params.items() if k != "test"}
KNOWN = {"test"} | EXC_KEYS | SIZE_KEYS


def validate_param(name: str, value: Any) -> Optional[str]:
    if name in ("name", "rep", "repetition"):
        return None
    if name not in KNOWN:
        return f"unknown rfc8456 parameter {name!r}; known: {', '.join(sorted(KNOWN))}"
    if name == "test" and value not in TESTS:
        return f"test must be one of {', '.join(TESTS)}"
    if name in ("switches", "loops", "loop_ms", "max_switches") and not (isinstance(value, int) and value >= 1):
        return f"{name} must be a whole number, 1 or more"
    if name in ("poll_s", "deadline_s") and not (isinstance(value, (int, float)) and value > 0):
        return f"{name} must be a positive number of seconds"
    if name == "controller":
        return validate_controller_param(name, value)
    return None


def run_test(params: dict) -> Result:
    test = params.get("test")
    if test == "exceptions":
        return exceptions_trial(params)
    if test == "discovery-size":
        return size_trial(params)
    raise UserError(f"an rfc8456 cell needs test: {' or '.join(TESTS)}")


def exceptions_trial(params: dict) -> Result:
    runs, of = trial.run({k: v for k, v in params.items() if k in EXC_KEYS}, reps=1)
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


def _as_size_search(params: dict) -> dict:
    """A discovery-size cell as ``controller discovery --size-search`` takes it, unchecked."""
    return {**SIZE_DEFAULTS, **{k: v for k, v in params.items() if k in SIZE_KEYS}, "size_search": True}


def size_params(params: dict) -> discovery_params.Discovery:
    """A discovery-size cell's typed parameters (the discovery suite's), this test's defaults
    filled in, checked by the discovery suite before anything starts (``ParamError`` names every
    problem)."""
    return discovery_params.build(_as_size_search(params), cli=False)


def check_cell(params: dict) -> list:
    """Every problem of one cell's combination of keys (``run --dry-run``): a discovery-size
    cell is judged as ``controller discovery --size-search`` judges it; keys are checked one by
    one first (``validate_param``)."""
    if params.get("test") != "discovery-size":
        return []
    return discovery_params.problems(_as_size_search(params))


def size_trial(params: dict) -> Result:
    p = size_params(params)
    res, seen, info, adapter = launched.size_search(p, p.max_switches)
    largest = res["largest"]
    r = launched.size_result(p, res, seen, info, adapter)
    r.kind, r.params = "rfc8456", dict(params)
    biggest = next((t for t in seen if t.get("size") == largest), None)
    r.counters.update({"largest_size": largest, "first_failure_size": res["first_failure"],
                       "size_tried": res["tried"],
                       "largest_switches": biggest.get("switches") if biggest else None,
                       "largest_links": biggest.get("links") if biggest else None,
                       "stopped": res.get("stopped")})
    if largest is not None:
        r.add("largest-size", "switches", [biggest.get("switches") if biggest else largest])
        r.status, r.error = "ok", None
    elif r.status == "ok":
        r.status, r.error = "failed", f"even {p.topo} was not discovered within {p.deadline_s:g} s"
    return r

KIND = Kind("rfc8456", "sdnbench.rfc8456.suite_cell", "run_test", ("engine",),
            "RFC 8456 exception handling (§5.3.1, clean/1%/2% invalid) or network discovery size "
            "(§5.2.2, a size search) as one trial of `sdnbench rfc8456`", validate_param, check_cell)
