"""The campaign kind ``robustness``: one case against one controller per cell, as ``sdnbench
controller robustness`` runs it: the OpenFlow version negotiated per launch (as ``controller
bench``; ``of_version`` forces one) and the case repeated ``reps`` times (3), each repetition
against a fresh launch of the controller (so a crash is isolated by construction); the cell's
verdict is the stable one over the repetitions (``stable.combine``). Parameters:
``controller``, ``case`` (a name of ``sdnbench-engine robust-cases``), and optionally
``of_version`` (1.0 or 1.3; default negotiated), ``reps`` (3), ``rate`` and ``switches`` (the
background load), ``drop``, ``hung_ms``, ``syn_rate`` (syn-flood)."""

from __future__ import annotations

from typing import Any, Optional

from ..controllers.spec import DEFAULT_SPEC, validate_controller_param
from ..errors import UserError
from ..kind import Kind
from ..result import Result
from . import runner, stable
from .cases import select
from .verdicts import DROP, HUNG_MS

PARAMS = {"controller", "case", "of_version", "reps", "rate", "switches", "drop", "hung_ms", "syn_rate", "name", "rep",
          "repetition"}
REPS = 3   # as ``sdnbench controller robustness --reps``


def validate_param(name: str, value: Any) -> Optional[str]:
    if name not in PARAMS:
        return f"unknown robustness parameter {name!r}; known: {', '.join(sorted(PARAMS - {'name', 'rep', 'repetition'}))}"
    if name == "case":
        try:
            select(str(value), None)
        except UserError as e:
            return str(e).replace("--cases: ", "")
    if name == "controller":
        return validate_controller_param(name, value)
    if name == "of_version" and str(value) not in ("1.0", "1.3"):
        return f"robustness of_version must be 1.0 or 1.3 (or left out: negotiated), not {value!r}"
    if name == "reps" and not (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
        return f"robustness reps must be a whole number of at least 1, not {value!r}"
    if name == "hung_ms" and not (isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0):
        return f"robustness hung_ms must be a number of milliseconds above 0, not {value!r}"
    return None


def run_case(params: dict) -> Result:
    if "case" not in params:
        raise UserError("a robustness cell needs a case")
    of = params.get("of_version")
    bg = {k: params[k] for k in ("rate", "switches") if k in params}
    pairs = runner.run_cases(params.get("controller", DEFAULT_SPEC), [params["case"]],
                             of_version=str(of) if of is not None else None, background=bg,
                             drop=float(params.get("drop", DROP)), hung_ms=float(params.get("hung_ms", HUNG_MS)),
                             syn_rate=int(params.get("syn_rate", runner.SYN_RATE)), reps=int(params.get("reps", REPS)))
    return cell_result(pairs)


def cell_result(pairs: list) -> Result:
    """The cell's one Result from its repetitions [(Result, Verdict)], in order: the last
    repetition's Result, carrying the stable verdict (``robustness_verdict``,
    ``robustness_stable``) and every repetition's own ``robustness`` record and OpenFlow
    version (``robustness_reps``); its status is the first repetition's that was not ok."""
    if not pairs:
        raise ValueError("cell_result needs at least one repetition")
    s = stable.combine([v for _, v in pairs])
    r = pairs[-1][0]
    r.counters["robustness_reps"] = [dict(x.counters.get("robustness", {}), rep=x.params.get("rep", i),
                                          of_version=x.params.get("of_version"), status=x.status)
                                     for i, (x, _) in enumerate(pairs)]
    r.counters["robustness_stable"] = s.to_dict()
    r.counters["robustness_verdict"] = s.verdict
    r.params["reps"] = len(pairs)
    bad = next((x for x, _ in pairs if x.status != "ok"), None)
    if bad is not None:
        r.finish(bad.status, bad.error)
    return r

KIND = Kind("robustness", "sdnbench.robustness.cell", "run_case", ("engine",),
            "robustness case (issue 16, RFC 8456 §5.3): a verdict for one malformed message or attack",
            validate_param)
