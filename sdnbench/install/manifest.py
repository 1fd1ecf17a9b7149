"""The record of one install: ``<state dir>/installed/NAME/manifest.json``.

Fields: name, title, version (the tree's git commit, or "unknown"), pinned (version is the
recipe's pin), pin, source (the directory or URL it came from), installed_at (UTC, ISO 8601),
copy_seconds (how long the install took), entries (entry point -> absolute path), variable
(``[NAME, path]`` for cmd: specs, or null).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Optional

from ..paths import state_dir

FILE = "manifest.json"


def installed_root() -> Path:
    return state_dir() / "installed"


def install_dir(name: str) -> Path:
    return installed_root() / name


@dataclass
class Manifest:
    name: str
    title: str
    version: str
    pinned: bool
    pin: str
    source: str
    installed_at: str
    copy_seconds: float
    entries: dict
    variable: Optional[list] = None
    notes: list = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


def write(m: Manifest, directory: Path) -> Path:
    path = directory / FILE
    path.write_text(json.dumps(m.to_dict(), indent=2, sort_keys=True) + "\n")
    return path


def read(name: str) -> Optional[Manifest]:
    """The manifest of an installed system, or None (not installed, or an unreadable record)."""
    path = install_dir(name) / FILE
    try:
        data = json.loads(path.read_text())
        return Manifest(**data)
    except (OSError, ValueError, TypeError):
        return None


def installed() -> list:
    root = installed_root()
    if not root.is_dir():
        return []
    found = (read(d.name) for d in sorted(root.iterdir()) if d.is_dir() and d.name != "bin")
    return [m for m in found if m is not None]
