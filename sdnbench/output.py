"""Printing helpers shared by commands: JSON to stdout, plain aligned tables."""

from __future__ import annotations

import json
import sys
from typing import Any, Iterable, Sequence


def print_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=2, default=lambda o: o.to_dict() if hasattr(o, "to_dict") else str(o))
    sys.stdout.write("\n")


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]], align: str = "") -> str:
    """A plain text table; ``align`` gives 'l' or 'r' per column (default: numbers right)."""
    rows = [[_cell(c) for c in r] for r in rows]
    widths = [len(h) for h in headers]
    for r in rows:
        for i, c in enumerate(r):
            widths[i] = max(widths[i], len(c))

    def fmt(r: Sequence[str], is_header: bool = False) -> str:
        out = []
        for i, c in enumerate(r):
            a = align[i] if i < len(align) else ("l" if is_header or not _numeric(c) else "r")
            out.append(c.ljust(widths[i]) if a == "l" else c.rjust(widths[i]))
        return "  ".join(out).rstrip()

    lines = [fmt(headers, True), "  ".join("-" * w for w in widths)]
    lines += [fmt(r) for r in rows]
    return "\n".join(lines)


def _cell(c: Any) -> str:
    if c is None:
        return "-"
    if isinstance(c, float):
        return f"{c:.4g}" if abs(c) < 1e6 else f"{c:.4e}"
    return str(c)


def _numeric(s: str) -> bool:
    try:
        float(s.replace("%", "").replace("±", ""))
        return True
    except ValueError:
        return False


def add_json_flag(parser) -> None:
    parser.add_argument("--json", action="store_true", help="print the result as JSON on stdout")
