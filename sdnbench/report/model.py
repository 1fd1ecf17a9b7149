"""The values a report is made of. Builders create them; exporters only serialize them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from .. import fmt


@dataclass
class RunData:
    """One stored run: its id, a short label for legends, its metadata and its results."""

    id: str
    label: str
    results: list                      # list[sdnbench.result.Result]
    meta: dict = field(default_factory=dict)


@dataclass
class Table:
    """A table as the studies print it.

    ``rows`` hold the body; ``summary_rows`` the rows that follow it (avg/stdev/var, or the
    average and variance rows RFC 8456 §4.7 asks for), which exporters set apart.
    Cells are numbers, strings or None (no data).
    """

    title: str
    columns: list
    rows: list
    summary_rows: list = field(default_factory=list)
    unit: Optional[str] = None
    note: Optional[str] = None
    kind: str = "table"

    def to_dict(self) -> dict:
        return {"title": self.title, "kind": self.kind, "unit": self.unit, "note": self.note,
                "columns": list(self.columns), "rows": [list(r) for r in self.rows],
                "summary_rows": [list(r) for r in self.summary_rows]}


@dataclass
class Figure:
    """A rendered plot: PNG bytes plus what a reader (or a screen reader) needs to know."""

    title: str
    kind: str                          # "lines", "boxplot", "gap", "cdf", "resources"
    png: bytes
    width_px: int
    height_px: int
    alt: str = ""

    def to_dict(self) -> dict:
        return {"title": self.title, "kind": self.kind, "width_px": self.width_px,
                "height_px": self.height_px, "alt": self.alt}


@dataclass
class Section:
    title: str
    text: list = field(default_factory=list)      # paragraphs (plain text)
    tables: list = field(default_factory=list)    # list[Table]
    figures: list = field(default_factory=list)   # list[Figure]

    def to_dict(self) -> dict:
        return {"title": self.title, "text": list(self.text),
                "tables": [t.to_dict() for t in self.tables],
                "figures": [f.to_dict() for f in self.figures]}


@dataclass
class Report:
    title: str
    generated: float
    runs: list                          # list[dict]: id, label, meta, result counts
    sections: list = field(default_factory=list)
    cells: list = field(default_factory=list)     # list[dict]: one summary per cell (csv/json)

    def to_dict(self) -> dict:
        return {"schema": "sdnbench.report/1", "title": self.title, "generated": self.generated,
                "runs": self.runs, "sections": [s.to_dict() for s in self.sections],
                "cells": self.cells}

    def all_tables(self) -> list:
        return [t for s in self.sections for t in s.tables]

    def all_figures(self) -> list:
        return [f for s in self.sections for f in s.figures]


def formatted_rows(t: "Table") -> tuple:
    """The body and summary rows as text, each column sharing one number of decimals
    (``sdnbench.fmt.column``): what Markdown and HTML tables print."""
    rows = [list(r) for r in t.rows]
    width = max((len(r) for r in rows), default=0)
    cols = []
    for i in range(width):
        col = [r[i] if i < len(r) else None for r in rows]
        cols.append(fmt.column(col))
    body = [[cols[i][k] for i in range(len(rows[k]))] for k in range(len(rows))]
    # Summary rows (average, stdev, variance) are each their own quantity: each cell keeps
    # its own significant digits.
    summary = [[fmt.num(c) if not isinstance(c, str) else c for c in r] for r in t.summary_rows]
    return body, summary


def fmt_number(v: Any) -> str:
    """Numbers as the studies print them: 3 decimals below 100 (2.434), fewer above, and an
    exponent only for very large or very small magnitudes."""
    if v is None or (isinstance(v, float) and v != v):
        return "–"
    if isinstance(v, (bool, int, str)):
        return str(v)
    a = abs(v)
    if a == 0:
        return "0"
    if a >= 1e7 or a < 1e-3:
        return f"{v:.3e}"
    decimals = 3 if a < 100 else (1 if a < 1000 else 0)
    return f"{v:.{decimals}f}"
