"""The launch plan of a ``cmd:`` controller: its argv, environment and directory, checked.

A ``cmd:`` controller is the user's own program, so it keeps the caller's environment (JAVA_HOME,
PYTHONPATH of their installation) plus the ``env=`` options, and runs in ``cwd=`` when given.
A program that cannot be found is refused here, with the command, before anything starts.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Optional

from ..errors import UserError
from ..install import variables as installed_variables
from .cmdspec import TLS_PLACEHOLDERS, expand, fill
from .launchplan import HOST, LaunchPlan
from .ofhello import free_port
from .parsed import ControllerSpec
from .tlsfiles import placeholders


def cmd_plan(spec: ControllerSpec, port: int, environ: Optional[dict] = None) -> LaunchPlan:
    c = spec.command
    # ${POX_DIR} and the like: the user's variable, else what `sdnbench install` installed
    environ = dict({**installed_variables(), **os.environ} if environ is None else environ)
    http_port = free_port(HOST)
    _check_tls_placeholders(spec)
    tls = placeholders(spec)
    argv = [fill(expand(spec.text, a, environ), HOST, port, http_port, tls) for a in c.argv]
    cwd = _cwd(spec, environ)
    env = dict(environ, PYTHONUNBUFFERED="1")
    env.update((k, fill(expand(spec.text, v, environ), HOST, port, http_port, tls)) for k, v in c.env)
    argv[0] = _program(spec, argv[0], cwd, env.get("PATH", ""))
    url = fill(expand(spec.text, c.http, environ), HOST, port, http_port) if c.http else None
    plan = LaunchPlan(c.label or Path(c.argv[0]).name, c.version or "unknown", None, argv, env,
                      stop_signal=c.stop_signal, grace=c.grace, cwd=cwd, ready_url=url,
                      ready_s=c.ready, show_command=True)
    if url:
        plan.api_port = http_port if str(http_port) in url else None
    return plan


def _check_tls_placeholders(spec: ControllerSpec) -> None:
    used = [p for p in TLS_PLACEHOLDERS if any(p in a for a in spec.command.argv + tuple(v for _, v in spec.command.env))]
    if used and not spec.tls:
        raise UserError(f"{spec.text}: {used[0]} is only filled in for a controller on TLS; add ;tls to the spec")


def _cwd(spec: ControllerSpec, environ: dict) -> Optional[Path]:
    if not spec.command.cwd:
        return None
    cwd = Path(expand(spec.text, spec.command.cwd, environ)).expanduser().resolve()
    if not cwd.is_dir():
        raise UserError(f"{spec.text}: cwd={cwd} is not a directory")
    return cwd


def _program(spec: ControllerSpec, program: str, cwd: Optional[Path], path: str) -> str:
    """The program as an absolute path; relative names are looked up in cwd, then on PATH."""
    if "/" in program:
        candidate = Path(program).expanduser()
        if not candidate.is_absolute() and cwd is not None:
            candidate = cwd / candidate
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate.absolute())   # not resolve(): a venv python is a symlink
    else:
        found = shutil.which(program, path=path)
        if found:
            return found
    where = "" if "/" in program else " on PATH"
    raise UserError(f"{spec.text}: no such program {program!r}{where} (nothing was started)")
