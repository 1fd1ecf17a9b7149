"""Writing report files: whole or not at all (a crash never leaves half a report)."""

from __future__ import annotations

from pathlib import Path

from ..output import write_file


def write_atomic(path: Path, data: bytes) -> None:
    """``output.write_file``: no temp file left on failure, an error naming ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_file(path, data)
