"""How the rest of sdnbench finds installed systems, with no variable to set.

- ``variables()``: ``{"POX_DIR": "<state dir>/installed/pox"}`` for each install whose recipe
  names a variable; a ``cmd:`` controller spec's ``${POX_DIR}`` takes it when the user's
  environment does not set it (the user's value wins).
- ``with_installed_path(path)``: PATH with ``installed/bin`` appended (a command already on PATH
  wins), so ``ofdatapath``/``ofprotocol`` (Mininet's user switch, ``switch bench --target cpqd``)
  and ``cbench`` are found by name.
"""

from __future__ import annotations

import os

from ..errors import UserError
from .installer import bin_dir
from .manifest import installed


def variables() -> dict:
    return {m.variable[0]: m.variable[1] for m in installed() if m.variable}


def with_installed_path(path: str) -> str:
    try:
        b = bin_dir()
    except UserError:       # no usable state directory: nothing installed; a command needing it says so
        return path
    if not b.is_dir() or str(b) in path.split(os.pathsep):
        return path
    return f"{path}{os.pathsep}{b}" if path else str(b)
