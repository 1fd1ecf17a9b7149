"""Controller spec strings: the one way every command names a controller under test.

| spec                 | kind                 | what runs                                          |
|----------------------|----------------------|----------------------------------------------------|
| ``osken:APP``        | ``osken``            | os-ken 4.x with an app sdnbench ships (``apps/``)  |
| ``ryu:APP``          | ``ryu``              | Ryu 4.34's ryu-manager with ``ryu.app.APP``        |
| ``faucet:PATH.yaml`` | ``faucet``           | Faucet with that config file                       |
| ``faucet:auto``      | ``faucet``           | Faucet with a config generated for the network     |
| ``ovs-testcontroller``| ``ovs-testcontroller``| Open vSwitch's test controller (learning switch) |
| ``tcp:HOST:PORT``    | ``tcp``              | a controller started elsewhere; nothing is run     |
| ``cmd:COMMAND;opts`` | ``cmd``              | any controller, by its command line (``cmdspec``)  |

Parsing is pure: it checks the shape of the string and the names it can check without touching
the machine (app names, OpenFlow versions). Whether a controller is installed is the launcher's
business (``envs``), so that ``parse_spec`` works in unit tests and in ``--help`` paths alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from ..errors import UserError
from .catalog import OSKEN_APPS, RYU_APPS
from .cmdspec import Command, parse_command

DEFAULT_SPEC = "osken:learning"
KINDS = ("osken", "ryu", "faucet", "ovs-testcontroller", "tcp", "cmd")
OF_VERSIONS = {"1.0": 0x01, "1.3": 0x04}

_RYU_APP = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


@dataclass(frozen=True)
class ControllerSpec:
    text: str                       # the spec as the user wrote it
    kind: str                       # one of KINDS
    app: Optional[str] = None       # osken/ryu app, or the faucet config path
    host: Optional[str] = None      # tcp: only
    port: Optional[int] = None      # tcp: only
    command: Optional[Command] = None   # cmd: only

    @property
    def name(self) -> str:
        """A short label for logs and errors: ``osken:learning``, ``tcp:127.0.0.1:6653``."""
        return self.text


def parse_spec(spec: str) -> ControllerSpec:
    """Parse a controller spec; a malformed one is a one-line ``UserError`` saying what is valid."""
    text = (spec or "").strip()
    if not text:
        raise UserError(f"empty controller spec; try {DEFAULT_SPEC!r} (see `sdnbench controllers list`)")
    if text == "ovs-testcontroller":
        return ControllerSpec(text, "ovs-testcontroller")
    kind, sep, rest = text.partition(":")
    if not sep or kind not in KINDS:
        raise UserError(f"unknown controller spec {text!r}: expected one of osken:APP, ryu:APP, "
                        "faucet:CONFIG.yaml, ovs-testcontroller, tcp:HOST:PORT, cmd:COMMAND")
    if kind == "osken":
        return _parse_osken(text, rest)
    if kind == "ryu":
        return _parse_ryu(text, rest)
    if kind == "faucet":
        if not rest:
            raise UserError("faucet needs a config: faucet:PATH.yaml, or faucet:auto for one "
                            "generated from the network's topology")
        return ControllerSpec(text, "faucet", app=rest)
    if kind == "cmd":
        return ControllerSpec(text, "cmd", command=parse_command(text, rest))
    if kind == "tcp":
        host, port = _parse_host_port(text, rest)
        return ControllerSpec(text, "tcp", host=host, port=port)
    raise UserError(f"{text!r}: ovs-testcontroller takes no argument")


def _parse_osken(text: str, app: str) -> ControllerSpec:
    if app not in OSKEN_APPS:
        raise UserError(f"unknown os-ken app {app!r} in {text!r}; sdnbench ships: "
                        f"{', '.join(sorted(OSKEN_APPS))}")
    return ControllerSpec(text, "osken", app=app)


def _parse_ryu(text: str, app: str) -> ControllerSpec:
    # ryu:simple_switch_13 means ryu.app.simple_switch_13; a dotted name is taken as a module path.
    if not app or not _RYU_APP.match(app):
        raise UserError(f"bad Ryu app in {text!r}: expected ryu:APP, e.g. ryu:simple_switch_13 "
                        f"(known: {', '.join(sorted(RYU_APPS))})")
    return ControllerSpec(text, "ryu", app=app)


def _parse_host_port(text: str, rest: str) -> tuple:
    host, sep, port_s = rest.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port_s.isdigit() or not 0 < int(port_s) < 65536:
        raise UserError(f"bad controller address in {text!r}: expected tcp:HOST:PORT, "
                        "e.g. tcp:127.0.0.1:6653")
    return host, int(port_s)


def validate_controller_param(name: str, value) -> Optional[str]:
    """A scenario's ``controller`` key: the spec's syntax, as a problem line (other keys: None)."""
    if name != "controller":
        return None
    if not isinstance(value, str):
        return f"a controller spec is text such as osken:learning, got {value!r}"
    try:
        parse_spec(value)
    except UserError as e:
        return str(e)
    return None


def display_name(spec: str) -> str:
    """A short label for tables and legends: a ``cmd:`` spec by its ``name=`` (else its program
    and first argument); every other spec as written."""
    text = (spec or "").strip()
    if not text.startswith("cmd:"):
        return text
    try:
        c = parse_spec(text).command
    except UserError:
        return text
    if c.label:
        return c.label
    words = [c.program] + [a.rsplit("/", 1)[-1] for a in c.argv[1:2]]
    return "cmd:" + " ".join(words)


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


def ryu_module(app: str) -> str:
    """The module ryu-manager loads for ``ryu:APP``."""
    return app if "." in app else f"ryu.app.{app}"
