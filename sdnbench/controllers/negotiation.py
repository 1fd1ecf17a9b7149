"""Which OpenFlow version the engine's switches use with a controller, for the commands that
must know it before the engine runs (discovery, topology-change, provisioning, table-capacity,
reprovisioning, failover).

One mechanism, the one ``net run`` and ``controller bench`` rely on: the switches offer OpenFlow
1.0 and 1.3 and use the highest version the controller's HELLO allows
(``ofhello.negotiate``, OpenFlow 1.3.5 §6.3.1). ``--of`` forces one version; a controller that
does not speak it is one line naming ``--of``, before anything runs, instead of a run that
ends with nothing answered and no reason.

A controller that speaks 1.0 only and drops the switches' HELLO (1.3 header, version bitmap)
instead of answering at 1.0 gives the same answer both ways: the probe reads the controller's
own 1.0 HELLO, and the engine retries such a session with a plain 1.0 HELLO
(``crates/engine/src/switch/hello_fallback.rs``; ``engine/test_hello_fallback.py``)."""

from __future__ import annotations

from typing import Optional

from ..errors import UserError
from .ofhello import WIRE, negotiate

OFFERED = ("1.0", "1.3")           # what the engine's switches speak, lowest first


def wire_name(wire: int) -> str:
    return {v: k for k, v in WIRE.items()}.get(wire, f"wire version {wire}")


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
