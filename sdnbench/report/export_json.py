"""JSON: the whole report as data (runs, tables, per-cell statistics, figure descriptions;
not the images). Schema ``sdnbench.report/1``."""

from __future__ import annotations

import json
from pathlib import Path

from .files import write_atomic
from .model import Report


def render(report: Report) -> str:
    return json.dumps(report.to_dict(), indent=1, default=str, allow_nan=False) + "\n"


def write(report: Report, path: Path) -> list:
    write_atomic(Path(path), render(report).encode())
    return [Path(path)]
