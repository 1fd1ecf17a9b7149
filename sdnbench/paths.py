"""Where sdnbench keeps things.

- The repository (for the engine binary built by ``cargo build --release``).
- The state directory, ``$SDNBENCH_HOME`` or ``/var/lib/sdnbench`` as root
  (``~/.local/share/sdnbench`` otherwise): controller virtualenvs, controller logs and config,
  and everything else a run writes outside the results store.
- The results store, ``./sdnbench-results`` unless the user names another.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import UserError

REPO = Path(__file__).resolve().parent.parent


def state_dir() -> Path:
    env = os.environ.get("SDNBENCH_HOME")
    if env:
        p = Path(env)
    elif os.geteuid() == 0:
        p = Path("/var/lib/sdnbench")
    else:
        p = Path.home() / ".local" / "share" / "sdnbench"
    where = f"SDNBENCH_HOME={env!r}" if env else f"the state directory {p}"
    if env and not env.isprintable():
        raise UserError(f"{where}: not a path (control characters); point it at a directory, or unset it")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise UserError(f"{where}: a file, not a directory; point SDNBENCH_HOME at a directory") from None
    except OSError as e:
        raise UserError(f"{where}: cannot make it ({e.strerror}); point SDNBENCH_HOME at a writable directory") \
            from None
    if not os.access(p, os.W_OK | os.X_OK):
        raise UserError(f"{where}: not writable; point SDNBENCH_HOME at a writable directory")
    return p


def runtime_dir(kind: str) -> Path:
    """A per-kind scratch directory inside the state directory (logs, captures, configs)."""
    p = state_dir() / "run" / kind
    p.mkdir(parents=True, exist_ok=True)
    return p


def engine_binary(name: str = "sdnbench-engine") -> Path:
    """The release build of a workspace binary, or ``$SDNBENCH_ENGINE`` for the engine."""
    if name == "sdnbench-engine" and os.environ.get("SDNBENCH_ENGINE"):
        return Path(os.environ["SDNBENCH_ENGINE"])
    return REPO / "target" / "release" / name


def built_binary(name: str = "sdnbench-engine") -> Path:
    """``engine_binary(name)``, checked: a program sdnbench can run, else one line saying why."""
    b = engine_binary(name)
    env = os.environ.get("SDNBENCH_ENGINE") if name == "sdnbench-engine" else None
    if env:
        why = ("no such file" if not b.exists() else "a directory" if b.is_dir() else
               "not executable" if not os.access(b, os.X_OK) else None)
        if why:
            raise UserError(f"SDNBENCH_ENGINE={env!r}: {why}; point it at an sdnbench-engine binary, or unset it "
                            "to use the build in this repository")
    elif not b.is_file():
        raise UserError(f"{b} is not built: run `cargo build --release` (or `make setup`)")
    return b


def check_environment() -> None:
    """The variables the user set, checked before anything starts (issue 49): a broken one is one
    line naming it, not a failure in every cell of a run."""
    if os.environ.get("SDNBENCH_HOME"):
        state_dir()
    if os.environ.get("SDNBENCH_ENGINE"):
        built_binary()


def no_such_file(p: Path) -> str:
    """Why ``p`` cannot be opened when it does not exist: missing, or a symlink to nowhere."""
    return "a symbolic link that leads nowhere (a loop, or its target is gone)" if p.is_symlink() \
        else "no such file"


def default_results_dir() -> Path:
    return Path(os.environ.get("SDNBENCH_RESULTS", "sdnbench-results"))
