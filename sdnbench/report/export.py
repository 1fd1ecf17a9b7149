"""One entry point for the exporters: ``write(report, path, fmt)``."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..errors import UserError
from . import export_csv, export_html, export_json, export_md

EXPORTERS = {"md": export_md, "html": export_html, "csv": export_csv, "json": export_json}
SUFFIXES = {".md": "md", ".markdown": "md", ".html": "html", ".htm": "html", ".csv": "csv",
            ".json": "json"}


def format_for(path: Path, fmt: Optional[str]) -> str:
    """The format asked for, or the one the file name implies."""
    if fmt:
        if fmt not in EXPORTERS:
            raise UserError(f"unknown report format {fmt!r} (choose from {', '.join(EXPORTERS)})")
        return fmt
    guess = SUFFIXES.get(Path(path).suffix.lower())
    if not guess:
        raise UserError(f"cannot tell the format from {path}: pass --format md|html|csv|json")
    return guess


def write(report, path: Path, fmt: str) -> list:
    return EXPORTERS[fmt].write(report, Path(path))
