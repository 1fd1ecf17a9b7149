"""Which OpenFlow version a switch uses with a controller, found before anything runs: the one
place of version negotiation in Python (``ofhello.py`` only says whether a controller answers).

One mechanism, the one ``net run`` and ``controller bench`` rely on: the switches offer OpenFlow
1.0 and 1.3 and use the highest version the controller's HELLO allows (``negotiate``, OpenFlow
1.3.5 §6.3.1). ``--of`` forces one version; a controller that does not speak it is one line
naming ``--of``, before anything runs, instead of a run that ends with nothing answered and no
reason.

Why Python keeps this probe beside the engine's own negotiation (``ofwire::hello::negotiate``,
which every emulated switch runs per session, and whose outcome each engine result records:
``of_negotiated``): some commands must know the version before the engine starts, because what
they build depends on it (the launched controller's config and the northbound checks of
discovery, provisioning, re-provisioning and failover; the attacker's bytes of a robustness
case), and ``net run`` drives Open vSwitch, with no engine at all. A pre-run engine call for it
would be one more engine process per command; one TCP connection is enough.

A controller that speaks 1.0 only and drops the switches' HELLO (1.3 header, version bitmap)
instead of answering at 1.0 gives the same answer both ways: the probe reads the controller's
own 1.0 HELLO, and the engine retries such a session with a plain 1.0 HELLO
(``crates/engine/src/switch/hello_fallback.rs``; ``engine/test_hello_fallback.py``)."""

from __future__ import annotations

from typing import Optional

from ..errors import UserError
from .ofhello import probe

OFFERED = ("1.0", "1.3")           # what the engine's switches speak, lowest first
# OpenFlow wire version bytes (OpenFlow 1.3.5 §7.1; 1.4, 1.5 for controllers that offer them).
WIRE = {"1.0": 1, "1.3": 4, "1.4": 5, "1.5": 6}


def wire_name(wire: int) -> str:
    return {v: k for k, v in WIRE.items()}.get(wire, f"wire version {wire}")


def negotiate(host: str, port: int, offered: list, timeout: float = 2.0) -> tuple:
    """(version, answered): the version a switch offering ``offered`` (lowest first, e.g.
    ["1.0", "1.3"]) uses with this controller, found as a switch finds it: a HELLO with the
    highest offered version; the controller's HELLO carries its highest (``answered``, the wire
    byte), and the session uses the highest offered version at or below it (OpenFlow 1.3.5
    §6.3.1). version None: none fits; answered None: no HELLO came back."""
    got = probe(host, port, WIRE[offered[-1]], timeout=timeout)
    if got is None:
        return None, None
    fits = [v for v in offered if WIRE[v] <= got]
    return (fits[-1] if fits else None), got


def session_version(host: str, port: int, forced: Optional[str], label: str, need: Optional[str] = None,
                    hello=negotiate) -> Optional[str]:
    """The version the switches will use with the controller at host:port: ``forced`` (checked)
    or the negotiated one. None when no HELLO came back (the run itself then says why; the
    engine offers both versions). ``need``: why only ``forced`` will do (e.g. roles need 1.3),
    said instead of suggesting another ``--of``. ``hello`` is injectable for tests."""
    got, answered = hello(host, port, [forced] if forced else list(OFFERED))
    if answered is None:
        return forced
    if got is not None and (not forced or got == forced):
        return got
    speaks = wire_name(answered)
    if need:
        raise UserError(f"{label} answered HELLO with OpenFlow {speaks}: {need}")
    hint = f"use --of {speaks}" if speaks in OFFERED else "sdnbench speaks OpenFlow 1.0 and 1.3"
    tail = ", or leave --of out to negotiate" if forced else ""
    raise UserError(f"{label} answered HELLO with OpenFlow {speaks}, not {forced or ' or '.join(OFFERED)}: "
                    f"{hint}{tail}")


def mismatch(host: str, port: int, of: str) -> Optional[str]:
    """Why switches offering ``of`` ("1.3", "1.0,1.3") found no version with the controller at
    host:port, in words naming the fix; None when the versions overlap (the cause is elsewhere)."""
    offered = of.split(",")
    got, answered = negotiate(host, port, offered)
    if answered is None:
        return f"the controller at {host}:{port} did not answer a HELLO"
    if answered >= WIRE[offered[0]]:
        return None
    speaks = wire_name(answered)
    return f"the controller answered HELLO with {speaks} only and the switches were forced to {of}; use --of {speaks}"
