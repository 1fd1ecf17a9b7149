"""The parameters of the resilience suite (``controller reprovisioning``, ``failover``, the
``resilience`` campaign kind), checked in one place before any controller or engine starts
(``check``); campaigns check key by key (``validate_param``) and cell by cell (``check_cell``).

The topology is checked by building the trial's network (pure): re-provisioning needs a link
whose failure leaves a path around it (``reprovisioning.trial_network`` refuses ``linear,3``),
failover needs two hosts to stream between."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Union

from ..controllers.spec import DEFAULT_SPEC, parse_spec, sibling
from ..errors import UserError
from ..kind import Kind
from ..net.engine_network import network_for
from ..paramcheck import ParamError, apply, choice, columns, flag_of, number, param, raises, whole
from . import failover as fo, reprovisioning as rp
from .reprovisioning import parse_link


def _link(v: Any) -> None:
    try:
        parse_link(v if isinstance(v, str) else repr(v))
    except UserError:
        raise UserError(f"want the link as DPID-DPID (e.g. 1-2), got {v!r}") from None


def _topo(v: Any) -> None:
    network_for(v if isinstance(v, str) else repr(v))


@dataclass(frozen=True)
class Streams:
    """What both tests' streams take, each parameter once: type, default, rule, its flag's help
    (the flag is generated, ``paramcheck.add_flags``)."""
    of_version: Optional[str] = param("1.3", choice(("1.0", "1.3")), flag="--of")
    interval_us: int = param(1000, whole(50, what="µs between frames"),
                             help="one frame per pair every this many µs (%(default)s)")
    warmup_ms: int = param(3000, whole(1, what="ms"),
                           help="time for the controller to learn the network before the streams start (%(default)s)")
    fail_after_ms: int = param(1000, whole(1, what="ms"), help="streams run this long before the failure (%(default)s)")
    after_ms: int = param(2000, whole(1, what="ms"), help="and this long after it (%(default)s)")
    reps: int = param(3, whole(1, what="trials"), cli_only=True, help="trials (%(default)s)")


@dataclass(frozen=True)
class Reprovisioning(Streams):
    """§5.4.2's parameters: what ``controller reprovisioning`` and a ``resilience`` cell build."""
    controller: str = param(sibling(DEFAULT_SPEC, "reroute"), raises(parse_spec))
    topo: str = param("ring,6", raises(_topo), help="topology with a redundant path (%(default)s)")
    link: Optional[str] = param(None, raises(_link),
                                help="the link to fail, DPID-DPID (the first link some host pair depends on)")


@dataclass(frozen=True)
class Failover(Streams):
    """§5.4.1's parameters: what ``controller failover`` and a ``resilience`` cell build."""
    controller: str = param(sibling(DEFAULT_SPEC, "takeover"), raises(parse_spec))
    topo: str = param("linear,3", raises(_topo), help="topology; streams run between its farthest hosts (%(default)s)")
    flow_rate: float = param(100.0, number(0, "of new flows per second", above=True),
                             help="new flows per second across the kill (%(default)g)")


TYPES = {"reprovisioning": Reprovisioning, "failover": Failover}
_COLUMNS = {t: columns(c) for t, c in TYPES.items()}        # (defaults, cli-only, rules, flags)
DEFAULTS = {t: c[0] for t, c in _COLUMNS.items()}
CLI_ONLY = _COLUMNS["reprovisioning"][1]                      # the streams' (``--reps``), both tests'
KNOWN = {"test"} | set(DEFAULTS["reprovisioning"]) | set(DEFAULTS["failover"])
FLAG = flag_of({k: v for c in _COLUMNS.values() for k, v in c[3].items()} | {"test": "test"})
RULES = {"test": choice(tuple(TYPES)), **{k: v for c in _COLUMNS.values() for k, v in c[2].items()}}


def _together(test: str, p: dict) -> list:
    """The checks that need the test and more than one key (each key is fine on its own)."""
    if test == "failover":
        steps = (("of_version", lambda: fo.check_of(p["of_version"])),
                 ("controller", lambda: fo.check_pair(p["controller"])),
                 ("topo", lambda: fo.trial_network(p["topo"])))
    else:
        link = rp.parse_link(p["link"]) if p.get("link") else None
        steps = (("link" if link else "topo", lambda: rp.trial_network(p["topo"], link)),)
    for key, step in steps:
        try:
            step()
        except UserError as e:
            return [(key, str(e).removeprefix("failover: "))]
    return []


def problems(test: str, params: dict) -> list:
    p = {**DEFAULTS[test], **params}
    out = [(k, "unknown resilience parameter; known: " + ", ".join(sorted(KNOWN)))
           for k in params if k not in KNOWN and k not in CLI_ONLY and k not in ("name", "rep", "repetition")]
    out += apply(RULES, p)
    return out or _together(test, p)


def check(test: str, params: dict, cli: bool = True) -> dict:
    """The parameters of ``test`` with defaults filled in, or ``ParamError`` naming every
    problem by flag (``cli``) or by key."""
    found = problems(test, params)
    if found:
        raise ParamError(found, FLAG if cli else None)
    return {**DEFAULTS[test], **params}


def build(test: str, params: dict, cli: bool = True) -> Union[Reprovisioning, Failover]:
    """``test``'s typed parameters, checked as ``check`` does (``reps`` the command line's)."""
    p = check(test, params, cli)
    return TYPES[test](**{k: v for k, v in p.items() if k in DEFAULTS[test] or k in CLI_ONLY})


def cell(test: str, p: Union[Reprovisioning, Failover]) -> dict:
    """The ``resilience`` cell of typed parameters: ``test`` and the keys whose value is not the
    table's default (``None``: unset, the version negotiated)."""
    return {"test": test, **{k: v for k, v in vars(p).items() if k in DEFAULTS[test] and v != DEFAULTS[test][k]}}


def validate_param(name: str, value: Any) -> Optional[str]:
    """One scenario key on its own (the ``resilience`` campaign kind)."""
    if name in ("name", "rep", "repetition"):
        return None
    if name not in KNOWN:
        return f"unknown resilience parameter {name!r}; known: {', '.join(sorted(KNOWN))}"
    found = apply(RULES, {name: value})
    return found[0][1] if found else None


def check_cell(params: dict) -> list:
    test = params.get("test", "reprovisioning")
    if test not in DEFAULTS:
        return []                  # reported key by key
    p = {**DEFAULTS[test], **{k: v for k, v in params.items() if k in DEFAULTS[test]}}
    return [] if apply(RULES, p) else _together(test, p)

KIND = Kind("resilience", "sdnbench.rfc8456.resilience_cell", "run_resilience", ("engine",),
            "RFC 8456 network re-provisioning time (§5.4.2, a link fails) or controller failover time "
            "(§5.4.1, the master is killed) on the emulated network", validate_param, check_cell)
