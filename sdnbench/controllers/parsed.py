"""A parsed controller spec, the default spec, and the OpenFlow version names: the leaf every
controller kind (``kinds/``) builds on. ``spec.parse_spec`` makes a ``ControllerSpec``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..errors import UserError
from .cmdspec import Command

# The option that puts a managed or cmd: controller on TLS: osken:learning;tls (docs/tls.md)
TLS_OPTION = "tls"
# The controller every command runs when none is named: written here once.
DEFAULT_SPEC = "osken:learning"
# OpenFlow version name -> the version byte on the wire: the one map (negotiation.py reads it too).
WIRE_VERSIONS = {"1.0": 0x01, "1.3": 0x04, "1.4": 0x05, "1.5": 0x06}
# the versions a controller spec may name (``of_version``)
OF_VERSIONS = {v: WIRE_VERSIONS[v] for v in ("1.0", "1.3")}


@dataclass(frozen=True)
class ControllerSpec:
    text: str                       # the spec as the user wrote it
    kind: str                       # a name of kinds.CONTROLLER_KINDS
    app: Optional[str] = None       # osken/ryu app, or the faucet config path
    host: Optional[str] = None      # tcp: only
    port: Optional[int] = None      # tcp: only
    command: Optional[Command] = None   # cmd: only
    tls: bool = False               # OpenFlow over TLS: tls:HOST:PORT, or ";tls" on a managed/cmd: spec

    @property
    def name(self) -> str:
        """A short label for logs and errors: ``osken:learning``, ``tcp:127.0.0.1:6653``."""
        return self.text


def wire_version(of_version: str) -> int:
    """The OpenFlow wire version byte for "1.0" or "1.3"."""
    try:
        return OF_VERSIONS[str(of_version)]
    except KeyError:
        raise UserError(f"unsupported OpenFlow version {of_version!r}: use 1.0 or 1.3") from None


def version_bitmap(of_versions) -> int:
    """The version bitmap offering ``of_versions`` ("1.0", "1.3"): bit n for wire version n, as a
    HELLO's bitmap element and the engine's ``versions`` (ofwire's ``Versions``)."""
    return sum(1 << wire_version(v) for v in set(of_versions))
