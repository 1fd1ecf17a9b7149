"""The ``controller`` campaign kind's parameters as one typed value, ``ControllerParams``.

Two parts, each defined once:

- the driver's own keys (``Driver``): the controller spec, a forced OpenFlow version, a named
  link layout, the switches' TLS files (``engine/params.py`` says what each does);
- every engine field, typed by ``result_types.Config``: generated from the engine's schema
  (``crates/engine/schema/engine-result.schema.json``, its ``params``), which schemars derives
  from the Rust ``Config`` struct (``crates/engine/src/config/mod.rs``), the one definition of
  every engine parameter. Its field names are the keys a scenario may set; their types and
  ranges are checked by the engine (``params.check``), whose resolved answer (defaults filled
  in) is read into ``Config``.

``validate_param`` checks one scenario key (an unknown one is named with the nearest known key);
``build`` checks a cell and returns its typed value, which the kind's runner takes.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, fields
from typing import Any, Optional

from ..controllers.spec import DEFAULT_SPEC, validate_controller_param
from ..errors import UserError
from ..kind import Kind
from ..paramcheck import ParamError
from .params import (_CHECK_ADDRESS, BOOKKEEPING, PER_RUN, TLS_KEYS, check, config, engine_resolved, links_problem,
                     of_version_problem)
from .result_types import Config

# the engine fields a scenario may set: the generated Config's, but what sdnbench sets per run
ENGINE_KEYS = frozenset(f.name for f in fields(Config)) - PER_RUN


def _file(v: Any) -> Optional[str]:
    return None if v is None or (isinstance(v, str) and v.strip()) else f"expected a file name, got {v!r}"


@dataclass(frozen=True)
class Driver:
    """The keys sdnbench handles itself (not engine fields), as a cell gives them."""
    controller: str = DEFAULT_SPEC
    of_version: Optional[str] = None
    links: str = "none"
    tls_ca: Optional[str] = None
    tls_cert: Optional[str] = None
    tls_key: Optional[str] = None


RULES = {"controller": lambda v: validate_controller_param("controller", v), "of_version": of_version_problem,
         "links": links_problem, **{k: _file for k in TLS_KEYS}}
DRIVER_KEYS = tuple(f.name for f in fields(Driver))
assert set(RULES) == set(DRIVER_KEYS)


@dataclass(frozen=True)
class ControllerParams:
    """One cell of the ``controller`` kind: ``driver`` and ``engine`` typed; ``params`` the same
    checked and resolved, as the run is given them and its ``Result.params`` records them."""
    driver: Driver
    engine: Config
    params: dict


def _unknown(name: str) -> str:
    near = difflib.get_close_matches(name, sorted(ENGINE_KEYS | set(DRIVER_KEYS)), n=1)
    return ("unknown parameter" + (f" (did you mean {near[0]}?)" if near else "")
            + "; known: the engine's Config fields (crates/engine/SCHEMA.md, `params`) and "
            + ", ".join(DRIVER_KEYS))


def validate_param(name: str, value: Any) -> Optional[str]:
    """One cell key: a driver key by its rule, an engine field by the engine's own check."""
    if name in BOOKKEEPING:
        return None
    if name in RULES:
        return RULES[name](value)
    if name not in ENGINE_KEYS:
        return _unknown(name)
    try:
        check({name: value})
    except UserError as e:
        named = f"{name} (--{name.replace('_', '-')}): "      # the scenario reader names the key itself
        return str(e)[len(named):] if str(e).startswith(named) else str(e)
    return None


def build(params: dict) -> ControllerParams:
    """The typed value of one cell's params: every key known and every driver key checked
    (``ParamError``, one line naming each), then the engine's check (``params.check``)."""
    problems = [(k, _unknown(k)) for k in params if k not in BOOKKEEPING and k not in RULES and k not in ENGINE_KEYS]
    problems += [(k, m) for k, v in params.items() if k in RULES for m in [RULES[k](v)] if m]
    if problems:
        raise ParamError(problems)
    p = check(params)
    engine = Config.from_json(engine_resolved(config(p, _CHECK_ADDRESS)))     # the answer check remembered
    given = {**params, **{k: p[k] for k in ("controller", "of_version") if k in p}}   # tls_*: as given
    driver = Driver(**{k: given[k] for k in DRIVER_KEYS if given.get(k) is not None})
    return ControllerParams(driver, engine, p)


KIND = Kind("controller", "sdnbench.engine.runner", "run_engine", ("engine",),
            "controller benchmark with the Rust load engine (throughput, latency, capacity, ...)",
            validate_param)
