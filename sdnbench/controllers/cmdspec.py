"""``cmd:`` controllers: any controller given by its command line.

    cmd:COMMAND ARGS...[;key=value[;key=value...]]

The command is split like a shell would (``shlex``) but no shell runs it. Placeholders:
``{port}`` (required: the OpenFlow port sdnbench picked, on 127.0.0.1), ``{host}`` (127.0.0.1)
and ``{http_port}`` (a second free port, for a northbound API); with ``;tls`` (OpenFlow over TLS,
docs/tls.md) ``{tls_ca}``, ``{tls_cert}`` and ``{tls_key}``, the controller's certificate files. ``$VAR`` and ``${VAR}`` are taken
from sdnbench's environment when the controller starts; an unset one is a one-line error naming it.

| option          | meaning                                                      | default      |
|-----------------|--------------------------------------------------------------|--------------|
| ``cwd=DIR``     | working directory                                            | a scratch dir|
| ``env=K=V``     | an environment variable (repeatable)                         |              |
| ``of=1.0,1.3``  | OpenFlow versions it speaks (a run asking another is refused)| unknown      |
| ``http=URL``    | also wait until this URL answers (a northbound API)          |              |
| ``stop=SIG``    | the signal that asks it to stop (TERM, INT, HUP, QUIT)       | TERM         |
| ``grace=SECS``  | how long it has to exit before SIGKILL                       | 5            |
| ``ready=SECS``  | how long it has to start listening (and ``http=`` to answer) | 60           |
|                 | before it is refused; shorten it for a quick failure         |              |
| ``name=LABEL``  | its name in results (``pox``, ``floodlight``)                | the program  |
| ``version=V``   | its version in results                                       | unknown      |
| ``tls``         | it listens for OpenFlow over TLS (no ``=``; docs/tls.md)     | plain TCP    |
| ``port=N``      | a fixed OpenFlow port, for controllers whose port is set in  | ``{port}``   |
|                 | their own config (ONOS, OpenDaylight); refused if taken      |              |

Parsing is pure; expanding variables and finding the program happen in ``plan``.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..errors import UserError
from ..install import by_variable

OPTIONS = ("cwd", "env", "of", "http", "stop", "grace", "ready", "name", "version", "port")
MAX_READY_S = 3600.0
SIGNALS = {"TERM": signal.SIGTERM, "INT": signal.SIGINT, "HUP": signal.SIGHUP,
           "QUIT": signal.SIGQUIT}
_VAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")


@dataclass(frozen=True)
class Command:
    argv: tuple                      # as written, placeholders and $VARs unexpanded
    cwd: Optional[str] = None
    env: tuple = ()                  # (key, value) pairs
    of_versions: tuple = ()
    http: Optional[str] = None
    stop_signal: int = signal.SIGTERM
    grace: float = 5.0
    ready: Optional[float] = None    # ready=SECS: its start-up limit (None: the launch's, 60 s)
    label: Optional[str] = None
    version: Optional[str] = None
    port: Optional[int] = None       # port=N: its fixed OpenFlow port (else {port} is required)

    @property
    def program(self) -> str:
        return Path(self.argv[0]).name


def parse_command(text: str, body: str) -> Command:
    """Parse what follows ``cmd:``; errors name the spec and what is valid."""
    command, *opts = split_options(body)
    try:
        argv = tuple(shlex.split(command))
    except ValueError as e:
        raise UserError(f"{text!r}: cannot split the command line: {e}") from None
    if not argv:
        raise UserError("cmd: needs a command line, e.g. "
                        "'cmd:python3 pox.py openflow.of_01 --port={port} forwarding.l2_learning'")
    kw: dict = {"env": []}
    for opt in (o.strip() for o in opts):
        if opt:
            _option(text, opt, kw)
    if not any("{port}" in a for a in argv) and kw.get("port") is None:
        raise UserError(f"{text!r}: the command must say where to listen with {{port}} "
                        "(sdnbench picks a free port on 127.0.0.1), e.g. --port={port}; or give "
                        "the port it is configured for with ;port=6653")
    kw["env"] = tuple(kw["env"])
    return Command(argv=argv, **kw)


def split_options(body: str) -> list:
    """Split at the ``;`` that are outside quotes (a quoted ``;`` belongs to the command)."""
    parts, current, quote = [], [], None
    for ch in body:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == ";":
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
    return parts + ["".join(current)]


def _option(text: str, opt: str, kw: dict) -> None:
    key, sep, value = opt.partition("=")
    key = key.strip()
    if not sep or key not in OPTIONS:
        raise UserError(f"{text!r}: unknown option {opt!r}; options are "
                        f"{', '.join(k + '=' for k in OPTIONS)} (separated by ';')")
    value = value.strip()
    if key == "env":
        k, sep2, v = value.partition("=")
        if not sep2 or not k:
            raise UserError(f"{text!r}: env= takes KEY=VALUE, not {value!r}")
        kw["env"].append((k, v))
    elif key == "of":
        kw["of_versions"] = _of_versions(text, value)
    elif key == "stop":
        name = value.upper().removeprefix("SIG")
        if name not in SIGNALS:
            raise UserError(f"{text!r}: stop= takes one of {', '.join(SIGNALS)}, not {value!r}")
        kw["stop_signal"] = SIGNALS[name]
    elif key == "grace":
        kw["grace"] = _seconds(value)
        if not 0 < kw["grace"] <= 600:
            raise UserError(f"{text!r}: grace= takes seconds between 0 and 600, not {value!r}")
    elif key == "ready":
        kw["ready"] = _seconds(value)
        if not 0 < kw["ready"] <= MAX_READY_S:
            raise UserError(f"{text!r}: ready= takes seconds between 0 and {MAX_READY_S:g}, not {value!r}")
    elif key == "port":
        if not value.isdigit() or not 0 < int(value) < 65536:
            raise UserError(f"{text!r}: port= takes a TCP port, not {value!r}")
        kw["port"] = int(value)
    elif key == "http":
        if not value.startswith("http://"):
            raise UserError(f"{text!r}: http= takes a URL such as http://{{host}}:{{http_port}}/")
        kw["http"] = value
    else:
        kw[{"cwd": "cwd", "name": "label", "version": "version"}[key]] = value


def _seconds(value: str) -> float:
    """A number of seconds, or -1 (refused by the caller's range) when it is not a number."""
    try:
        v = float(value)
    except ValueError:
        return -1.0
    return v if v == v else -1.0


def _of_versions(text: str, value: str) -> tuple:
    versions = tuple(v.strip() for v in value.split(",") if v.strip())
    bad = [v for v in versions if v not in ("1.0", "1.3")]
    if not versions or bad:
        raise UserError(f"{text!r}: of= takes 1.0, 1.3 or 1.0,1.3, not {value!r}")
    return versions


def expand(text: str, value: str, environ: Optional[dict] = None) -> str:
    """Replace ``$VAR``/``${VAR}``; an unset variable is a one-line error naming it."""
    environ = os.environ if environ is None else environ

    def sub(m: re.Match) -> str:
        name = m.group(1) or m.group(2)
        if not environ.get(name):
            known = by_variable(name)
            hint = f" or `sdnbench install {known.name} --from DIR`" if known else ""
            raise UserError(f"{name} is not set: {text!r} needs it (e.g. export {name}=/path/to/"
                            f"your/copy{hint})")
        return environ[name]

    return _VAR.sub(sub, value)


TLS_PLACEHOLDERS = ("{tls_ca}", "{tls_cert}", "{tls_key}")


def fill(value: str, host: str, port: int, http_port: int, tls: Optional[dict] = None) -> str:
    """Put the ports (and with ``tls``, placeholder -> path, the certificate files) into one
    argument; only the known placeholders are touched."""
    value = (value.replace("{port}", str(port)).replace("{host}", host)
             .replace("{http_port}", str(http_port)))
    for k, v in (tls or {}).items():
        value = value.replace(k, v)
    return value
