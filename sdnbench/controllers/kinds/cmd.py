"""``cmd:COMMAND;options``: any controller, by its command line (grammar: ``cmdspec``; plan:
``cmdplan``). Started, sampled, watched and stopped like the others."""

from __future__ import annotations

from ..cmdplan import cmd_plan
from ..cmdspec import parse_command
from ..parsed import ControllerSpec
from .base import ControllerKind


def parse(text: str, rest: str) -> ControllerSpec:
    return ControllerSpec(text, "cmd", command=parse_command(text, rest))


def precheck(spec: ControllerSpec) -> None:
    """The program and its ``cwd=`` exist (``cmd_plan`` refuses them otherwise)."""
    cmd_plan(spec, 0)


KIND = ControllerKind(
    "cmd", "cmd:COMMAND", parse,
    plan=lambda spec, port, of_version, scratch: cmd_plan(spec, port),
    versions=lambda spec: spec.command.of_versions,
    precheck=precheck,
    api_at_launch=lambda spec, api: spec.command.http is not None,   # its ;http= URL
    ready_hint="; a cmd: spec sets this wait with ;ready=SECONDS",
)
