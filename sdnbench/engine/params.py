"""Engine parameters: the one dict a campaign cell or a CLI command gives, turned into the engine's
JSON config and checked BY THE ENGINE (``sdnbench-engine check --config -``). The engine's
``Config`` struct (crates/engine/src/config/mod.rs, documented in crates/engine/SCHEMA.md under
``params``) is the one definition of every engine parameter: its names, types, defaults and
ranges. Adding a parameter = one Rust field (+ its check) and, only if the driver must treat it
specially, one line here.

Keys handled here (not engine config fields):

- ``controller``: the controller *spec* (default ``osken:learning``); the engine gets its address.
  ``faucet:auto`` is Faucet configured for the emulated switches (``launch_spec``), and with a
  ``faucet:`` controller the traffic profile defaults to ``faucet`` (Faucet takes no other
  packet-ins: docs/robustness.md, "Faucet");
- ``of_version``: "1.0" or "1.3" forces that OpenFlow version (engine and launched controller);
  absent, the engine offers what a ``cmd:`` spec's ``of=`` declares (``of=1.0``: a plain 1.0
  HELLO, as a 1.0 switch says it), else both (HELLO version bitmap) and uses what the controller
  picks;
- ``tls_ca``, ``tls_cert``, ``tls_key``: the switches' certificate files for a TLS controller
  spec (``tls:HOST:PORT``, ``osken:learning;tls``; docs/tls.md), each left out being sdnbench's
  own (``sdnbench certs``); ``check`` turns them into the engine's ``tls`` field
  (``{"ca", "cert", "key"}``, TLS-CONTRACT.md section 3), and a TLS spec gets it always;
- ``links``: "linear" or "none", a named layout the engine expands (``--links``; "linear" numbers
  ports as ``linear,N`` in ``net/topology.py``: 1:2-2:2, 2:3-3:2, ...);
- ``name``, ``rep``, ``repetition``: campaign bookkeeping.

Every other key is an engine config field, passed as it is: ``mode``, ``traffic``, ``switches``,
``macs``, ``ports``, ``loops``, ``loop_ms``, ``warmup``, ``frame_size``, ``window``, ``rate``,
``timeout_ms``, ``learn``, ``settle_ms``, ``buffered``, ``keep_flows``, ``workers``,
``source_addrs``, ``strict``, ``connect_parallel``, ``hold_ms``, ``echo_interval_ms``,
``connect_timeout_ms``, ...

One trip to the engine: ``check`` asks the engine once and returns the params **resolved**, every
engine field with the value the engine gave it (its defaults filled in: ``window``,
``frame_size``, ``timeout_ms``, ``versions``, ...). That is the config a run is given
(``config``) and what its ``Result.params`` records; checking resolved params again asks the
engine nothing (the engine's answer for a config is remembered: it is a pure function of it).
"""

from __future__ import annotations

import copy
import functools
import json
import subprocess
from pathlib import Path
from typing import Any, Optional, get_args

from ..controllers.faucet_config import faucet_config_for
from ..controllers.spec import (DEFAULT_SPEC, OF_VERSIONS, needed_traffic, parse_spec, spoken_versions,
                                version_bitmap)
from ..controllers.kinds import kind_of
from ..controllers.tlsfiles import switch_files
from ..errors import UserError
from ..tls.files import TlsFiles
from .driver import binary
from .result_types import Mode

LINKS = ("none", "linear")
DRIVER_KEYS = {"controller", "of_version", "links"}
TLS_KEYS = ("tls_ca", "tls_cert", "tls_key")      # the switch's files as given, -> the engine's ``tls``
BOOKKEEPING = {"name", "rep", "repetition"}
# Fields of the resolved config that belong to one run, not to what is measured: the launched
# controller's address and PID, the agents' peers. Never recorded in the params.
PER_RUN = {"controllers", "controller_pid", "net_peers"}
DEFAULT_CONTROLLER = DEFAULT_SPEC
# The engine's modes (its Config's `mode`, through the types generated from its schema) and the
# one a config without `mode` runs (`Config::default()`; test_params checks it against the engine).
MODES = get_args(Mode)
DEFAULT_MODE = "throughput"
# The address used while checking (the real one is known once the controller runs).
_CHECK_ADDRESS = "127.0.0.1:6653"


def check(params: dict) -> dict:
    """Return a normalized copy of ``params`` or raise UserError naming every bad key (one line).

    The engine validates its own fields; only the driver's keys are checked here."""
    p = dict(params)
    p.setdefault("controller", DEFAULT_CONTROLLER)
    p.setdefault("mode", DEFAULT_MODE)
    needed = needed_traffic(p["controller"])
    if needed and not p.get("traffic"):
        p["traffic"] = needed
    if p.get("traffic") is None:
        p.pop("traffic", None)
    if "of_version" in p and p["of_version"] is not None:
        if of_version_problem(p["of_version"]):
            raise UserError(f"of_version {of_version_problem(p['of_version'])}")
        p["of_version"] = str(p["of_version"])
    else:
        p.pop("of_version", None)
    if links_problem(p.get("links", "none")):
        raise UserError(f"links {links_problem(p['links'])}")
    if p["mode"] == "fixed-rate" and "rate" not in p:
        raise UserError("mode fixed-rate needs a rate (requests/s over all switches)")
    _tls(p)
    resolved, errors = _engine_answer(config(p, _CHECK_ADDRESS))
    if errors:
        raise UserError("; ".join(_named(e) for e in errors))
    out = with_resolved(p, resolved)
    # checking the resolved params again is the same answer: remembered, not asked again
    _ANSWERS.setdefault(_key(config(out, _CHECK_ADDRESS)), (resolved, []))
    return out


def of_version_problem(v: Any) -> Optional[str]:
    """A forced ``of_version``: 1.0 or 1.3 (text or a number), or None (not forced)."""
    return None if v is None or str(v) in OF_VERSIONS else f"must be 1.0 or 1.3, not {v!r}"


def links_problem(v: Any) -> Optional[str]:
    return None if v in LINKS else f"must be {' or '.join(reversed(LINKS))}, not {v!r}"


def _tls(p: dict) -> None:
    """``tls_ca``/``tls_cert``/``tls_key`` -> the engine's ``tls`` field, for a TLS spec only."""
    given = {k[4:]: p.pop(k) for k in TLS_KEYS if p.get(k) is not None}
    for k in TLS_KEYS:
        p.pop(k, None)
    tls = parse_spec(str(p["controller"])).tls
    if given and not tls:
        k = next(iter(given))
        raise UserError(f"--tls-{k} (tls_{k}): the controller {p['controller']} is not on TLS; "
                        "add ;tls to a managed spec, or use tls:HOST:PORT")
    if tls and (given or not p.get("tls")):
        p["tls"] = switch_files(**given).as_engine()
    elif not tls:
        p.pop("tls", None)


def launch_tls(p: dict) -> Optional[TlsFiles]:
    """The switches' files of checked params ``p`` (its ``tls``), for ``controllers.launch``."""
    t = p.get("tls")
    return TlsFiles(*(Path(t[k]) for k in ("ca", "cert", "key"))) if t else None


def with_resolved(p: dict, resolved: dict) -> dict:
    """``p`` with every field of the engine's resolved config (``check``'s or a run's
    ``params``) that a measurement is defined by: not the driver's own keys (``links`` is a
    layout name here), not what belongs to one run (``PER_RUN``), not a field left unset."""
    out = dict(p)
    out.update({k: v for k, v in resolved.items() if k not in PER_RUN and k not in DRIVER_KEYS and v is not None})
    return out


def _named(error: str) -> str:
    """An engine error ``key: problem`` named both ways, as a scenario key and as the command
    line's flag (``workers (--workers): 0 is too small``); other lines unchanged."""
    key, sep, rest = error.partition(": ")
    if sep and key.isidentifier():
        return f"{key} (--{key.replace('_', '-')}):" + " " + rest
    return error


def launch_of_version(p: dict) -> str:
    """The OpenFlow version a launched controller is configured for: the forced one, else 1.3,
    or 1.0 for a controller known to speak only that (a ``cmd:`` spec's ``of=1.0``); the engine
    offers 1.0 and 1.3 and follows the controller."""
    if p.get("of_version"):
        return p["of_version"]
    known = spoken_versions(parse_spec(p["controller"])) if p.get("controller") else ()
    return "1.3" if not known or "1.3" in known else known[-1]


def config(p: dict, address: str) -> dict:
    """The engine's JSON config for checked params ``p`` against ``address`` (HOST:PORT)."""
    c = {k: v for k, v in p.items() if k not in DRIVER_KEYS and k not in BOOKKEEPING}
    c["controllers"] = [address]
    offered = [p["of_version"]] if p.get("of_version") else declared_versions(p)
    if offered:
        c["versions"] = version_bitmap(offered)
    return c


def declared_versions(p: dict) -> tuple:
    """The OpenFlow versions a ``cmd:`` spec's ``of=`` declares for the controller (() when it
    declares none, or for another kind): what the engine's switches then offer."""
    spec = parse_spec(p["controller"]) if p.get("controller") else None
    return spec.command.of_versions if spec is not None and spec.command else ()


def launch_spec(p: dict) -> str:
    """The controller spec to launch for checked params ``p``. ``faucet:auto`` becomes Faucet
    configured for the emulated switches: datapath ids ``first_dpid`` .. one past the last
    switch (a robustness case's attacker), ports 1..``ports``, one VLAN, and no host limit
    (each ``faucet`` request is a new host: Faucet's default limits of 255 hosts per port and
    256 per VLAN would ban learning after that many requests)."""
    spec = p["controller"]
    parsed = parse_spec(spec)
    if parsed.app != "auto" or kind_of(parsed).resolve is None:        # faucet:auto[;tls]
        return spec
    c = p if "first_dpid" in p and "ports" in p else engine_resolved(config(p, _CHECK_ADDRESS))
    first, n, ports = int(c["first_dpid"]), int(c["switches"]), int(c["ports"])
    made = faucet_config_for(list(range(first, first + n + 1)), ports=range(1, ports + 1), max_hosts=0)
    return f"faucet:{made}" + (";tls" if parsed.tls else "")


def engine_args(p: dict) -> list:
    """Flags that go beside ``--config`` (named layouts the engine expands itself)."""
    return ["--links", p["links"]] if p.get("links", "none") != "none" else []


# The engine's answer to a config, by the config's JSON (a pure function of it): (resolved or
# None, errors). Bounded: a campaign checks at most a few configs per cell.
_ANSWERS: dict = {}
_MAX_ANSWERS = 256


def _key(cfg: dict) -> str:
    return json.dumps(cfg, sort_keys=True, separators=(",", ":"))


def _engine_answer(cfg: dict) -> tuple:
    """(resolved config, []) when ``cfg`` is valid, else (None, one line per bad field): asked of
    ``sdnbench-engine check`` once per distinct config."""
    key = _key(cfg)
    if key not in _ANSWERS:
        cp = subprocess.run([str(binary()), "check", "--config", "-"], input=key,
                            capture_output=True, text=True, timeout=30)
        if cp.returncode == 0:
            answer = (json.loads(cp.stdout), [])
        else:
            lines = [ln for ln in (cp.stdout + cp.stderr).splitlines() if ln.strip()]
            answer = (None, lines or [f"sdnbench-engine check exited {cp.returncode}"])
        if len(_ANSWERS) >= _MAX_ANSWERS:
            _ANSWERS.clear()
        _ANSWERS[key] = answer
    return copy.deepcopy(_ANSWERS[key])    # callers may change what they get


def engine_check(cfg: dict) -> list:
    """Ask the engine to validate ``cfg``: [] when valid, else one line per bad field."""
    return _engine_answer(cfg)[1]


def engine_resolved(cfg: dict) -> dict:
    """The engine's own reading of a valid ``cfg``, defaults filled in (its one definition)."""
    resolved, errors = _engine_answer(cfg)
    if errors:
        raise UserError("; ".join(errors))
    return resolved


@functools.lru_cache(maxsize=1)
def engine_defaults() -> dict:
    """The engine's ``Config::default()`` (an empty config, read by the engine): what a key left
    out of the params becomes. UserError when the engine is not built."""
    return engine_resolved({})
