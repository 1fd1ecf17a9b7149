"""The parameters of the provisioning suite (``controller provisioning``, ``table-capacity``, the
``provisioning`` campaign kind), checked in one place before any controller or engine starts
(``check``); campaigns check key by key (``validate_param``) and cell by cell (``check_cell``).

The topology is checked by building the trial's network (``provisioning.trial_network``, pure),
so a topology the trial could not use is refused here, not after the controller started."""

from __future__ import annotations

from typing import Any, Optional

from ..controllers.spec import parse_spec
from ..paramcheck import ParamError, apply, choice, flag_of, number, raises, url, whole

DEFAULTS = {"controller": "osken:learning", "of_version": None, "topo": "linear,2", "flows": 100,
            "concurrency": 1, "rate": 0.0, "timeout_ms": 1000, "announce_ms": 1000, "deadline": 30.0,
            "table_size": 0, "test": "reactive", "api": None, "api_url": None}
CLI_ONLY = {"reps": 3}
TESTS = {"reactive": "provisioning-reactive", "proactive": "provisioning-proactive",
         "table-capacity": "table-capacity-reactive", "table-capacity-proactive": "table-capacity-proactive"}
FLOW_APIS = ("floodlight", "onos")
MAX_FLOWS = 1 << 20
FLAG = flag_of({"of_version": "--of", "test": "--mode"})


def _topo(v: Any) -> None:
    from .provisioning import trial_network
    if not isinstance(v, str):
        from ..errors import UserError
        raise UserError(f"a topology is text such as linear,2, got {v!r}")
    trial_network(v, 1)


RULES = {
    "controller": raises(parse_spec), "of_version": choice(("1.0", "1.3")), "topo": raises(_topo),
    "flows": whole(1, MAX_FLOWS, "new flows per trial"), "concurrency": whole(1),
    "rate": number(0, "of new paths per second (0: as fast as --concurrency allows)"),
    "timeout_ms": whole(1, what="ms"), "announce_ms": number(0, "of ms"),
    "deadline": number(0, "of seconds", above=True, hi=86_400), "table_size": whole(0, what="0: unlimited"),
    "test": choice(tuple(TESTS)), "api": choice(FLOW_APIS), "api_url": url, "reps": whole(1, what="trials"),
}


def proactive(p: dict) -> bool:
    return "proactive" in p["test"]


def _together(p: dict) -> list:
    """A proactive run needs a flow API it can reach: the managed controller's own
    (``ryu:*``, ``osken:flowpush``) or ``--api`` with ``--api-url``."""
    if not proactive(p):
        return [(k, "is for --mode proactive only") for k in ("api", "api_url") if p[k] is not None]
    if p["api"] is not None and p["api_url"] is None:
        return [("api_url", f"--api {p['api']} needs it (the flow API's base URL, e.g. http://127.0.0.1:8080)")]
    own = p["controller"].startswith("ryu:") or p["controller"] == "osken:flowpush"
    if not own and p["api"] is None:
        return [("api", f"{p['controller']} has no flow API sdnbench knows; give --api "
                        f"({', '.join(FLOW_APIS)}) with --api-url, or use ryu:ofctl_rest or osken:flowpush")]
    return []


def problems(params: dict) -> list:
    p = {**DEFAULTS, **params}
    out = [(k, "unknown provisioning parameter; known: " + ", ".join(sorted(DEFAULTS)))
           for k in params if k not in DEFAULTS and k not in CLI_ONLY and k not in ("name", "rep", "repetition")]
    out += apply(RULES, p)
    return out or _together(p)


def check(params: dict, cli: bool = True) -> dict:
    """The parameters with defaults filled in, or ``ParamError`` naming every problem by flag
    (``cli``) or by key."""
    found = problems(params)
    if found:
        raise ParamError(found, FLAG if cli else None)
    return {**DEFAULTS, **params}


def validate_param(name: str, value: Any) -> Optional[str]:
    """One scenario key on its own (the ``provisioning`` campaign kind)."""
    if name in ("name", "rep", "repetition"):
        return None
    if name not in DEFAULTS:
        return f"unknown provisioning parameter {name!r}; known: {', '.join(sorted(DEFAULTS))}"
    found = apply(RULES, {name: value})
    return found[0][1] if found else None


def check_cell(params: dict) -> list:
    p = {**DEFAULTS, **{k: v for k, v in params.items() if k in DEFAULTS}}
    return [] if apply(RULES, p) else _together(p)
