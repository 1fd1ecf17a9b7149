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

REPO = Path(__file__).resolve().parent.parent


def state_dir() -> Path:
    env = os.environ.get("SDNBENCH_HOME")
    if env:
        p = Path(env)
    elif os.geteuid() == 0:
        p = Path("/var/lib/sdnbench")
    else:
        p = Path.home() / ".local" / "share" / "sdnbench"
    p.mkdir(parents=True, exist_ok=True)
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


def default_results_dir() -> Path:
    return Path(os.environ.get("SDNBENCH_RESULTS", "sdnbench-results"))
