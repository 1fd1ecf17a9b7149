"""Controller spec strings: the one way every command names a controller under test.

Each kind is one record of ``kinds.CONTROLLER_KINDS`` (the table of spec forms is there); this module
splits the string at the first ':' and hands the rest to the record. Parsing is pure: it checks
the shape of the string and the names it can check without touching the machine (app names,
OpenFlow versions). Whether a controller is installed is the launcher's business (``envs``), so
that ``parse_spec`` works in unit tests and in ``--help`` paths alike.
"""

from __future__ import annotations

import dataclasses
from typing import Optional

from ..errors import UserError
from ..redact import MASK
from .cmdspec import split_options
from .kinds import CONTROLLER_KINDS, kind_of, spoken_versions
from .parsed import DEFAULT_SPEC, OF_VERSIONS, TLS_OPTION, ControllerSpec, version_bitmap, wire_version

__all__ = ["DEFAULT_SPEC", "OF_VERSIONS", "ControllerSpec", "display_name", "needed_traffic", "parse_spec",
           "sibling", "spoken_versions", "validate_controller_param", "version_bitmap", "wire_version"]


def parse_spec(spec: str) -> ControllerSpec:
    """Parse a controller spec; a malformed one is a one-line ``UserError`` saying what is valid."""
    text = (spec or "").strip()
    if not text:
        raise UserError(f"empty controller spec; try {DEFAULT_SPEC!r} (see `sdnbench controllers list`)")
    if f":{MASK}@" in text:
        # the password was taken out at the door (sdnbench.redact): the program would get the mask
        raise UserError(f"controller spec {text!r}: no password in a URL here (sdnbench keeps none for a "
                        "controller's command line); put it in the controller's own configuration")
    bare, tls = _without_tls(text)
    name, sep, rest = bare.partition(":")
    kind = CONTROLLER_KINDS.get(name)
    if kind is None or (not sep and ":" in kind.form):
        raise UserError(f"unknown controller spec {text!r}: expected one of "
                        f"{', '.join(k.form for k in CONTROLLER_KINDS.values())}")
    if tls and not kind.starts:
        raise UserError(f"{text!r}: ;{TLS_OPTION} is for a controller sdnbench starts; a TLS controller "
                        "started elsewhere is tls:HOST:PORT")
    parsed = kind.parse(bare, rest if sep else None)
    return dataclasses.replace(parsed, text=text, tls=True) if tls else parsed


def _without_tls(text: str) -> tuple:
    """(the spec without its ``;tls`` options, whether it had one): the one place ``;tls`` is read,
    for every kind (``osken:learning;tls``, ``cmd:... {port};of=1.3;tls``)."""
    parts = split_options(text)
    kept = [parts[0]] + [p for p in parts[1:] if p.strip() != TLS_OPTION]
    return ";".join(kept), len(kept) < len(parts)


def validate_controller_param(name: str, value) -> Optional[str]:
    """A scenario's ``controller`` key: the spec's syntax, as a problem line (other keys: None)."""
    if name != "controller":
        return None
    if not isinstance(value, str):
        return f"a controller spec is text such as {DEFAULT_SPEC}, got {value!r}"
    try:
        parse_spec(value)
    except UserError as e:
        return str(e)
    return None


def needed_traffic(spec: str) -> Optional[str]:
    """The engine traffic profile the controller's packet-in tests need (its kind's record:
    Faucet takes only the packet-ins its own pipeline raises, ``faucet``), else None; None also
    for a spec that does not parse (its check reports it)."""
    try:
        return kind_of(parse_spec(str(spec))).traffic
    except UserError:
        return None


def sibling(spec: str, role: str) -> Optional[str]:
    """The spec of the app of ``spec``'s controller that plays RFC 8456 ``role`` (its kind's
    record: ``osken:learning``, "topology" -> ``osken:topology``), or None."""
    kind = kind_of(parse_spec(spec))
    return f"{kind.name}:{kind.roles[role]}" if role in kind.roles else None


def display_name(spec: str) -> str:
    """A short label for tables and legends: a ``cmd:`` spec by its ``name=`` (else its program
    and first argument); every other spec as written."""
    text = (spec or "").strip()
    try:
        c = parse_spec(text).command
    except UserError:
        return text
    if c is None:
        return text
    if c.label:
        return c.label
    words = [c.program] + [a.rsplit("/", 1)[-1] for a in c.argv[1:2]]
    return "cmd:" + " ".join(words)
