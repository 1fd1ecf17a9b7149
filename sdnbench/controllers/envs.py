"""One isolated virtualenv per installable controller, under ``<state dir>/venvs/NAME``.

Why separate environments: Faucet pins an older os_ken than the one sdnbench's apps are written
for, and Ryu 4.34 needs an old setuptools to build at all. None of them may see the project's own
venv or Debian's site-packages, so each is made with ``/usr/bin/python3 -m venv`` (no
``--system-site-packages``).

Invariants:
- An environment counts as installed only when its manifest (``sdnbench-env.json``) exists and
  matches the current recipe; the manifest is written last, so a half-finished install is never
  taken for a working one, and the next install starts that directory afresh.
- Installs of one environment are serialised with a lock file, so ``make setup`` and a user's
  ``sdnbench controllers install`` cannot interleave.
- Nothing is written outside the state directory. Faucet's installer copies configs to
  /etc/faucet and creates /var/log/faucet when run as root unless ``DEBINSTALL=1``; we set it and
  check afterwards that neither directory was created.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from .. import paths
from ..errors import UserError
from ..result import write_json_atomic

BASE_PYTHON = "/usr/bin/python3"
MANIFEST = "sdnbench-env.json"
FAUCET_SYSTEM_DIRS = (Path("/etc/faucet"), Path("/var/log/faucet"))


@dataclass(frozen=True)
class Recipe:
    name: str                    # environment name: osken, ryu, faucet
    package: str                 # the distribution whose version we record
    version: str                 # pinned, so every machine benchmarks the same code
    steps: tuple                 # pip argument lists, run in order
    module: str                  # importable once installed (the health check)
    env: dict = field(default_factory=dict)
    post: Optional[Callable] = None   # fix-up run after the pip steps, given the venv dir

    def fingerprint(self) -> str:
        text = json.dumps([self.version, [list(s) for s in self.steps], self.env,
                           self.post.__name__ if self.post else None])
        return hashlib.sha1(text.encode()).hexdigest()[:12]


_ALREADY_HANDLED_IMPORT = "    from eventlet.wsgi import ALREADY_HANDLED\n"
_ALREADY_HANDLED_FIX = ("    ALREADY_HANDLED = []  # sdnbench: gone from eventlet.wsgi; eventlet's websocket "
                        "handler marks the request handled itself\n")


def fix_ryu_eventlet(venv: Path) -> str:
    """Ryu 4.34's wsgi module imports ``eventlet.wsgi.ALREADY_HANDLED``, which newer eventlet
    removed; ryu-manager imports that module at start-up, so it fails before loading any app.
    Newer eventlet's websocket handler flags the request as handled itself and expects an empty
    body back, so the constant becomes ``[]``. Idempotent: returns what it did.

    Pinning an eventlet that still has the constant is not an option: 0.30.2, the last one,
    fails to import on Python 3.11 ("cannot set 'is_timeout' attribute of immutable type
    'TimeoutError'")."""
    target = next(venv.glob("lib/python3*/site-packages/ryu/app/wsgi.py"), None)
    if target is None:
        raise UserError(f"{venv}: ryu/app/wsgi.py not found after installing Ryu")
    text = target.read_text()
    if _ALREADY_HANDLED_FIX in text:
        return "eventlet ALREADY_HANDLED fix already applied"
    if _ALREADY_HANDLED_IMPORT not in text:
        raise UserError(f"{target}: unexpected content; cannot apply the eventlet ALREADY_HANDLED fix")
    target.write_text(text.replace(_ALREADY_HANDLED_IMPORT, _ALREADY_HANDLED_FIX))
    for pyc in target.parent.glob("__pycache__/wsgi.*.pyc"):
        pyc.unlink()
    return f"applied the eventlet ALREADY_HANDLED fix to {target}"


RECIPES = {r.name: r for r in (
    Recipe("osken", "os-ken", "4.2.2",
           steps=(("install", "os-ken==4.2.2"),), module="os_ken"),
    Recipe("ryu", "ryu", "4.34",
           steps=(("install", "setuptools<67", "pbr", "wheel"),
                  ("install", "--no-build-isolation", "ryu==4.34")),
           module="ryu", post=fix_ryu_eventlet),
    Recipe("faucet", "faucet", "1.10.12",
           steps=(("install", "--upgrade", "pip", "wheel"),
                  ("install", "faucet==1.10.12")),
           module="faucet", env={"DEBINSTALL": "1"}),
)}


def venv_dir(name: str) -> Path:
    return paths.state_dir() / "venvs" / name


def bin_path(name: str, program: str = "python") -> Path:
    return venv_dir(name) / "bin" / program


def recipe(name: str) -> Recipe:
    try:
        return RECIPES[name]
    except KeyError:
        raise UserError(f"unknown controller environment {name!r}; installable: "
                        f"{', '.join(RECIPES)}") from None


def manifest(name: str) -> Optional[dict]:
    """The install record of an environment, or None unless it is installed and current."""
    r = recipe(name)
    path = venv_dir(name) / MANIFEST
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if data.get("fingerprint") != r.fingerprint() or not bin_path(name).exists():
        return None
    return data


def require(name: str) -> dict:
    """The manifest of an installed environment, or a one-line UserError saying how to install it."""
    data = manifest(name)
    if data is None:
        raise UserError(f"{recipe(name).package} is not installed for sdnbench: "
                        f"run `sdnbench controllers install {name}` (or `make setup`)")
    return data


def install(name: str, force: bool = False, say: Callable[[str], None] = print) -> dict:
    """Create or refresh one environment; returns its manifest. Idempotent."""
    r = recipe(name)
    venvs = paths.state_dir() / "venvs"
    venvs.mkdir(parents=True, exist_ok=True)
    with _locked(venvs / f".{name}.lock"):
        current = manifest(name)
        if current and not force:
            say(f"{name}: {r.package} {current['version']} already installed in {venv_dir(name)}")
            return current
        return _install(r, say)


def _install(r: Recipe, say: Callable[[str], None]) -> dict:
    d = venv_dir(r.name)
    log = d.parent / f"{r.name}-install.log"
    if d.exists():
        say(f"{r.name}: removing the incomplete or outdated environment {d}")
        shutil.rmtree(d)
    pre_existing = {p for p in FAUCET_SYSTEM_DIRS if p.exists()}
    say(f"{r.name}: creating {d} from {BASE_PYTHON} (isolated, no system site-packages)")
    _run([BASE_PYTHON, "-m", "venv", str(d)], log, r)
    for step in r.steps:
        say(f"{r.name}: pip {' '.join(step)}")
        _run([str(d / "bin" / "python"), "-m", "pip", "--disable-pip-version-check", "-q", *step], log, r)
    if r.post:
        say(f"{r.name}: {r.post(d)}")
    leaked = [str(p) for p in FAUCET_SYSTEM_DIRS if p.exists() and p not in pre_existing]
    if leaked:
        raise UserError(f"{r.name}: the installer wrote outside the state directory: {', '.join(leaked)}")
    data = _describe(r, d)
    write_json_atomic(d / MANIFEST, data)
    say(f"{r.name}: {r.package} {data['version']} installed in {d}")
    return data


def _run(argv: list, log: Path, r: Recipe) -> None:
    env = dict(os.environ, **r.env)
    env.pop("PYTHONPATH", None)
    env.pop("VIRTUAL_ENV", None)
    with open(log, "ab") as f:
        f.write(f"$ {' '.join(argv)}\n".encode())
        f.flush()
        cp = subprocess.run(argv, stdout=f, stderr=subprocess.STDOUT, env=env, stdin=subprocess.DEVNULL)
    if cp.returncode != 0:
        tail = log.read_text(errors="replace").strip().splitlines()
        raise UserError(f"installing {r.name} failed at `{' '.join(argv[-3:])}`: "
                        f"{tail[-1] if tail else cp.returncode} (full log: {log})")


def _describe(r: Recipe, d: Path) -> dict:
    py = str(d / "bin" / "python")
    probe = ("import importlib.metadata as m, json, platform, importlib; "
             f"importlib.import_module({r.module!r}); "
             "print(json.dumps({'version': m.version(%r), 'python': platform.python_version(), "
             "'packages': {x.metadata['Name']: x.version for x in m.distributions()}}))" % r.package)
    cp = subprocess.run([py, "-c", probe], capture_output=True, text=True, timeout=120)
    if cp.returncode != 0:
        last = (cp.stderr.strip().splitlines() or ["?"])[-1]
        raise UserError(f"{r.name}: installed, but `import {r.module}` fails: {last}")
    info = json.loads(cp.stdout)
    return {"name": r.name, "package": r.package, "version": info["version"],
            "python": info["python"], "packages": dict(sorted(info["packages"].items())),
            "fingerprint": r.fingerprint(), "path": str(d), "installed_at": time.time()}


@contextlib.contextmanager
def _locked(path: Path):
    with open(path, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def version_of(package: str, name: str) -> Optional[str]:
    """The recorded version of ``package`` inside environment ``name`` (None if not installed)."""
    data = manifest(name)
    if not data:
        return None
    wanted = re.sub(r"[-_.]+", "-", package).lower()
    for k, v in data.get("packages", {}).items():
        if re.sub(r"[-_.]+", "-", k).lower() == wanted:
            return v
    return None
