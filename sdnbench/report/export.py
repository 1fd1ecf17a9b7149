"""One entry point for the exporters: ``write(report, path, fmt)``; ``REPORT`` offers them.

Each exporter module (``export_md``, ...) has ``write(report, path)`` and, when its format can go
to stdout (``formats.FORMATS``), ``render(report)``.
"""

from __future__ import annotations

from pathlib import Path

from ..formats import Output
from . import export_csv, export_html, export_json, export_md

REPORT = Output("the report", {"md": export_md, "html": export_html, "csv": export_csv, "json": export_json})
# the RFC 8456 evaluation report: the same exporters, without CSV
EVALUATION = REPORT.only("html", "md", "json", what="the evaluation report")


def write(report, path: Path, fmt: str) -> list:
    return REPORT.writer(fmt).write(report, Path(path))
