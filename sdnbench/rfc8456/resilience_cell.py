"""The ``resilience`` campaign kind: one cell = one trial (the campaign's repetitions are the
RFC's trials) of ``test: reprovisioning`` (§5.4.2, a link fails) or ``failover`` (§5.4.1, the
master controller is killed), with its controllers launched for the cell. Parameters and
defaults are the CLI's (``sdnbench controller reprovisioning`` / ``failover``)."""

from __future__ import annotations

from argparse import Namespace
from typing import Any, Optional

from ..result import Result

COMMON = {"of_version": "1.3", "interval_us": 1000, "warmup_ms": 3000, "fail_after_ms": 1000, "after_ms": 2000}
DEFAULTS = {
    "reprovisioning": {**COMMON, "controller": "osken:reroute", "topo": "ring,6", "link": None},
    "failover": {**COMMON, "controller": "osken:takeover", "topo": "linear,3", "flow_rate": 100.0},
}
KNOWN = {"test"} | set(DEFAULTS["reprovisioning"]) | set(DEFAULTS["failover"])


def validate_param(name: str, value: Any) -> Optional[str]:
    if name in ("name", "rep", "repetition"):
        return None
    if name not in KNOWN:
        return f"unknown resilience parameter {name!r}; known: {', '.join(sorted(KNOWN))}"
    if name == "test" and value not in DEFAULTS:
        return f"test must be one of {', '.join(DEFAULTS)}"
    if name in ("interval_us", "warmup_ms", "fail_after_ms", "after_ms") and not (isinstance(value, int) and value >= 1):
        return f"{name} must be a whole number, 1 or more"
    if name == "flow_rate" and not (isinstance(value, (int, float)) and value > 0):
        return "flow_rate must be a number above 0"
    if name == "of_version" and value not in ("1.0", "1.3"):
        return "of_version must be 1.0 or 1.3"
    if name == "link" and not (value is None or isinstance(value, str)):
        return "link must be DPID-DPID, e.g. \"1-2\""
    return None


def run_resilience(params: dict) -> Result:
    from ..commands import failover, resilience
    test = params.get("test", "reprovisioning")
    defaults = DEFAULTS[test]
    args = Namespace(**{**defaults, **{k: v for k, v in params.items() if k in defaults}}, reps=1)
    resilience.check_args(args)
    rep = int(params.get("rep", params.get("repetition", 0)) or 0)
    if test == "failover":
        return failover.trial(args, rep)
    return resilience.reprovisioning_trial(args, rep)
