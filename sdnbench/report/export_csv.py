"""CSV: one row per cell (a metric under one set of factors, over its repetitions), tidy, for
spreadsheets and R/pandas. Factor columns are the union of every cell's factors."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from .files import write_atomic
from .model import Report

STATS = ["repetitions", "n", "mean", "stdev", "var", "min", "median", "p90", "p99", "max"]


def render(report: Report) -> str:
    factor_keys: list = []
    for c in report.cells:
        for k in c["factors"]:
            if k not in factor_keys:
                factor_keys.append(k)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["kind", "benchmark", "metric", "unit"] + factor_keys + STATS)
    for c in report.cells:
        w.writerow([c["kind"], c["benchmark"], c["metric"], c["unit"]] +
                   [_v(c["factors"].get(k)) for k in factor_keys] +
                   [_v(c.get(s)) for s in STATS])
    return buf.getvalue()


def _v(x):
    if x is None:
        return ""
    if isinstance(x, float):
        return repr(x)
    return x


def write(report: Report, path: Path) -> list:
    write_atomic(Path(path), render(report).encode())
    return [Path(path)]
