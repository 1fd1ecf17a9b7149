"""Which OpenFlow version a switch uses with a controller, found before anything runs.

Negotiation is the engine's, in one place: ``sdnbench-engine hello`` (``crates/engine/src/front/
hello.rs``) says HELLO as an emulated switch does, with the switch's own code (``ofswitch``,
``ofwire::negotiate``, OpenFlow 1.3.5 §6.3.1, and the plain 1.0 HELLO retried for a controller
that closes on the bitmap one, ``switch/hello_fallback.rs``), and reports the controller's
answer and the version agreed. Every engine result records what its sessions then negotiated
(``of_negotiated``). This module only puts the answer in words: ``--of`` forces one version; a
controller that does not speak it is one line naming ``--of``, before anything runs, instead of
a run that ends with nothing answered and no reason.

Commands ask before their first run when what they build depends on the version (the launched
controller's config and the northbound checks of discovery, provisioning, re-provisioning and
failover; the attacker's bytes of a robustness case; ``net run``'s Open vSwitch), or when
``--of`` forces one (``controller bench``, ``capacity``, ``search``: without ``--of`` their runs
negotiate per session and say themselves when no version fits, so they ask nothing more).
(``ofhello.py`` only says whether a controller answers a HELLO at all: readiness.)"""

from __future__ import annotations

import json
import subprocess
from typing import Optional

from .. import paths
from . import ofhello
from ..errors import UserError
from .parsed import WIRE_VERSIONS

OFFERED = ("1.0", "1.3")           # what the engine's switches speak, lowest first
# OpenFlow wire version bytes (OpenFlow 1.3.5 §7.1; 1.4, 1.5 for controllers that offer them).
WIRE = WIRE_VERSIONS


def wire_name(wire: int) -> str:
    return {v: k for k, v in WIRE.items()}.get(wire, f"wire version {wire}")


def negotiate(host: str, port: int, offered: list, timeout: float = 2.0, tls=None) -> tuple:
    """(version, answered): the version a switch offering ``offered`` (lowest first, e.g.
    ["1.0", "1.3"]) uses with this controller, and the version byte of the controller's HELLO,
    as the engine's switch finds them (``sdnbench-engine hello``). version None: none fits;
    answered None: no HELLO came back. ``tls``: the switch's files (``TlsFiles``) for a TLS
    controller: the engine's ``--tls-*`` flags (TLS-CONTRACT.md section 3)."""
    engine = paths.built_binary()
    over = [] if tls is None else ["--tls-ca", str(tls.ca), "--tls-cert", str(tls.cert), "--tls-key", str(tls.key)]
    cp = subprocess.run([str(engine), "hello", "--controller", ofhello.host_port(host, port), "--of", ",".join(offered),
                         "--timeout-ms", str(max(1, int(timeout * 1000))), *over],
                        capture_output=True, text=True, timeout=timeout * 2 + 10)
    if cp.returncode != 0:
        lines = (cp.stderr or cp.stdout).strip().splitlines()
        raise UserError(lines[-1] if lines else f"sdnbench-engine hello exited {cp.returncode}")
    a = json.loads(cp.stdout)
    return a["version"], a["answered"]


def session_version(host: str, port: int, forced: Optional[str], label: str, need: Optional[str] = None,
                    hello=negotiate, tls=None) -> Optional[str]:
    """The version the switches will use with the controller at host:port: ``forced`` (checked)
    or the negotiated one. None when no HELLO came back (the run itself then says why; the
    engine offers both versions). ``need``: why only ``forced`` will do (e.g. roles need 1.3),
    said instead of suggesting another ``--of``. ``hello`` is injectable for tests."""
    offered = [forced] if forced else list(OFFERED)
    got, answered = hello(host, port, offered, tls=tls) if tls is not None else hello(host, port, offered)
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
    got, answered = negotiate(host, port, of.split(","))
    if answered is None:
        return f"the controller at {host}:{port} did not answer a HELLO"
    if got is not None:
        return None
    speaks = wire_name(answered)
    return f"the controller answered HELLO with {speaks} only and the switches were forced to {of}; use --of {speaks}"
