"""The ``provisioning`` campaign kind: one cell = one trial (the campaign's repetitions are the
RFC's trials), ``test: reactive`` (§5.1.4/§5.1.6), ``proactive`` (§5.1.5/§5.1.7, through the
controller's northbound API), ``table-capacity`` or ``table-capacity-proactive`` (§5.2.3), with
its controller launched for the cell. Parameters and defaults are the CLI's
(``sdnbench controller provisioning`` / ``table-capacity``)."""

from __future__ import annotations

from argparse import Namespace
from typing import Any, Optional

from ..result import Result

DEFAULTS = {"controller": "osken:learning", "of_version": None, "topo": "linear,2", "flows": 100,
            "concurrency": 1, "rate": 0.0, "timeout_ms": 1000, "announce_ms": 1000, "deadline": 30.0,
            "table_size": 0, "test": "reactive"}
TESTS = {"reactive": "provisioning-reactive", "proactive": "provisioning-proactive",
         "table-capacity": "table-capacity-reactive", "table-capacity-proactive": "table-capacity-proactive"}


def validate_param(name: str, value: Any) -> Optional[str]:
    if name in ("name", "rep", "repetition"):
        return None
    if name not in DEFAULTS:
        return f"unknown provisioning parameter {name!r}; known: {', '.join(sorted(DEFAULTS))}"
    if name == "test" and value not in TESTS:
        return f"test must be one of {', '.join(TESTS)}"
    if name in ("flows", "concurrency", "timeout_ms") and not (isinstance(value, int) and value >= 1):
        return f"{name} must be a whole number, 1 or more"
    if name in ("rate", "announce_ms", "table_size", "deadline") and not (isinstance(value, (int, float)) and value >= 0):
        return f"{name} must be a number, 0 or more"
    if name == "of_version" and value not in ("1.0", "1.3"):
        return "of_version must be 1.0 or 1.3"
    return None


def run_provisioning(params: dict) -> Result:
    from ..commands.provisioning import trial
    from .provisioning import check_args
    args = Namespace(**{**DEFAULTS, **{k: v for k, v in params.items() if k in DEFAULTS}})
    args.mode = "proactive" if "proactive" in args.test else "reactive"
    check_args(args.flows, args.concurrency, args.rate, args.timeout_ms, 1, args.table_size)
    return trial(args, TESTS[args.test], int(params.get("rep", params.get("repetition", 0)) or 0))
