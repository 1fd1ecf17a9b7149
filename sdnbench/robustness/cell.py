"""The campaign kind ``robustness``: one case against one controller per cell, the controller
launched for the cell (so a crash is isolated by construction). Parameters: ``controller``,
``case`` (a name of ``sdnbench-engine robust-cases``), and optionally ``of_version`` (1.3),
``rate`` and ``switches`` (the background load), ``drop``, ``hung_ms``, ``syn_rate`` (syn-flood)."""

from __future__ import annotations

from typing import Any, Optional

from ..errors import UserError
from ..result import Result
from .verdicts import DROP, HUNG_MS

PARAMS = {"controller", "case", "of_version", "rate", "switches", "drop", "hung_ms", "syn_rate", "name", "rep",
          "repetition"}


def validate_param(name: str, value: Any) -> Optional[str]:
    if name not in PARAMS:
        return f"unknown robustness parameter {name!r}; known: {', '.join(sorted(PARAMS - {'name', 'rep', 'repetition'}))}"
    if name == "case":
        from .cases import select
        try:
            select(str(value))
        except UserError as e:
            return str(e).replace("--cases: ", "")
    if name == "controller":
        from ..campaign.kinds import validate_controller_param
        return validate_controller_param(name, value)
    return None


def run_case(params: dict) -> Result:
    from .runner import SYN_RATE, run_cases
    if "case" not in params:
        raise UserError("a robustness cell needs a case")
    of = str(params.get("of_version", "1.3"))
    bg = {k: params[k] for k in ("rate", "switches") if k in params}
    [(r, _)] = run_cases(params.get("controller", "osken:learning"), [params["case"]], of_version=of,
                         background=bg, drop=float(params.get("drop", DROP)),
                         hung_ms=float(params.get("hung_ms", HUNG_MS)),
                         syn_rate=int(params.get("syn_rate", SYN_RATE)))
    return r
