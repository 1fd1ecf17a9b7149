"""``tcp:HOST:PORT``: a controller started elsewhere. sdnbench starts and stops nothing; the
OpenFlow HELLO probe still gates the run (``lifecycle``)."""

from __future__ import annotations

from ...errors import UserError
from .. import listeners
from ..parsed import DEFAULT_SPEC, ControllerSpec
from .base import ControllerKind


def parse(text: str, rest: str) -> ControllerSpec:
    host, sep, port_s = rest.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port_s.isdigit() or not 0 < int(port_s) < 65536:
        raise UserError(f"bad controller address in {text!r}: expected tcp:HOST:PORT, "
                        "e.g. tcp:127.0.0.1:6653")
    return ControllerSpec(text, "tcp", host=host, port=int(port_s))


def not_answering(spec: ControllerSpec, why: str) -> UserError:
    return UserError(f"{spec.text}: no OpenFlow controller answering ({why}); start it first, "
                     f"or use a managed spec such as {DEFAULT_SPEC}")


def precheck(spec: ControllerSpec) -> None:
    """Something listens at the address (issue 13.8: fail at once, not after a wait), by the
    engine's rule (``listeners``): a JVM's IPv4-mapped listener is a listener."""
    refused = listeners.refusal(spec.host, spec.port)
    if refused:
        raise not_answering(spec, refused)


KIND = ControllerKind("tcp", "tcp:HOST:PORT", parse, precheck=precheck)
