"""The campaign kind ``robustness``: one case against one controller per cell, as ``sdnbench
controller robustness`` runs it: the OpenFlow version negotiated per launch (as ``controller
bench``; ``of_version`` forces one) and the case repeated ``reps`` times (3), each repetition
against a fresh launch of the controller (so a crash is isolated by construction); the cell's
verdict is the stable one over the repetitions (``stable.combine``). Parameters:
``controller``, ``case`` (a name of ``sdnbench-engine robust-cases``), and optionally
``of_version`` (1.0 or 1.3; default negotiated), ``reps`` (3), ``rate``, ``switches`` and
``workers`` (the background load), ``drop``, ``hung_ms``, ``syn_rate`` (syn-flood): the table
of ``params.py``, which the commands build from too."""

from __future__ import annotations

from ..errors import UserError
from ..kind import Kind
from ..result import Result
from . import runner, stable
from .params import build, check_cell, validate_param
from .stored import RobustnessCounters


def run_case(params: dict) -> Result:
    """One cell: its case ``reps`` times, each against a fresh launch (``params.Robustness``)."""
    p = build(params, cli=False)
    if p.case is None:
        raise UserError("a robustness cell needs a case")
    pairs = runner.run_cases(p.controller, [p.case], of_version=p.of_version, background=p.background,
                             drop=p.drop, hung_ms=p.hung_ms, syn_rate=p.syn_rate, reps=p.reps)
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
    r.counters["robustness_reps"] = [dict(RobustnessCounters.of(x).robustness or {}, rep=x.params.get("rep", i),
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
            validate_param, check_cell)
