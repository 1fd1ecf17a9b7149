"""Paths in a scenario are relative to the scenario file, not to the working directory.

A topology file (``topo: topo.yaml``, ``topo: mytopo.py:Ring,4``) or a controller's config
(``controller: faucet:faucet.yaml``) named in a scenario is looked up beside the scenario first;
when it exists there, the cell gets the absolute path. Anything else is left as written (so a
missing file is still reported by the part that reads it). The stored scenario text is never
changed, and resumed runs use the cells' stored (already resolved) parameters.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

FILE_ENDINGS = (".yaml", ".yml", ".py", ".json", ".conf", ".cfg")
PATH_KEYS = ("topo", "controller", "topology", "config")


def resolve(value: Any, base: Path) -> Any:
    """``value`` with a relative file path in it made absolute against ``base`` when the file
    exists there. Handles ``FILE``, ``FILE:REST`` (topology module) and ``KIND:FILE[,...]``."""
    if not isinstance(value, str) or not value.strip():
        return value
    head, sep, tail = value.partition(":")
    for before, path, after in ((head and "", head, sep + tail), (head + sep, *_split_tail(tail))):
        if path and path.endswith(FILE_ENDINGS) and not Path(path).is_absolute():
            candidate = base / path
            if candidate.is_file():
                return f"{before}{candidate}{after}"
    return value


def _split_tail(tail: str) -> tuple:
    for i, ch in enumerate(tail):
        if ch in ",:":
            return tail[:i], tail[i:]
    return tail, ""


def resolve_data(data: Any, base: Path) -> Any:
    """The parsed scenario document with path-like parameters of every benchmark resolved
    (before validation, so the checks see the files where they are)."""
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        return data
    for b in data["benchmarks"]:
        if not isinstance(b, dict):
            continue
        for section in ("params", "matrix"):
            block = b.get(section)
            if not isinstance(block, dict):
                continue
            for k in PATH_KEYS:
                if k in block:
                    v = block[k]
                    block[k] = [resolve(x, base) for x in v] if isinstance(v, list) else resolve(v, base)
    return data
