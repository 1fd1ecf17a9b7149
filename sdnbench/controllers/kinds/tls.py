"""``tls:HOST:PORT``: a controller started elsewhere that takes OpenFlow over TLS only. Like
``tcp:``, sdnbench starts and stops nothing; the readiness probe is the HELLO inside a TLS
session made with the switch's files (``tlsprobe``), never a plain HELLO, which a TLS port
takes as garbage. The pre-flight is connect-only (``listeners``): it cannot refuse a TLS port."""

from __future__ import annotations

import dataclasses

from ...errors import UserError
from ..parsed import ControllerSpec
from . import tcp
from .base import ControllerKind


def parse(text: str, rest: str) -> ControllerSpec:
    try:
        spec = tcp.parse(text, rest)
    except UserError:
        raise UserError(f"bad controller address in {text!r}: expected tls:HOST:PORT, "
                        "e.g. tls:127.0.0.1:6653") from None
    return dataclasses.replace(spec, kind="tls", tls=True)


KIND = ControllerKind("tls", "tls:HOST:PORT", parse, precheck=tcp.precheck)
