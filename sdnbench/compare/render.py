"""Render comparison rows: terminal table, Markdown, CSV, JSON, and the transposed layout.

Renderers only serialize. Parameters that are the same in every row are printed once above the
table; only the varying ones get columns. ``transpose`` puts configurations in columns and
mean A / mean B / gap / ratio / mark in rows, which is the layout of the campus study's Table 3.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Optional, Sequence

from ..output import table
from .core import SYMBOL, Row, fmt_num


def _varying(rows: list) -> tuple:
    keys: list = []
    for r in rows:
        keys += [k for k in r.params if k not in keys]
    varying = [k for k in keys if len({json.dumps(r.params.get(k), default=str) for r in rows}) > 1]
    fixed = {k: rows[0].params.get(k) for k in keys if k not in varying} if rows else {}
    return varying, fixed


def _metric(r: Row) -> str:
    return f"{r.metric} ({r.unit})" if r.unit else r.metric


def _mark(r: Row) -> str:
    return f"{SYMBOL[r.mark]} {r.mark}"


def _fmt_ratio(x: Optional[float]) -> str:
    return "-" if x is None else f"{x:.3f}"


def _fmt_change(x: Optional[float]) -> str:
    return "-" if x is None else f"{x * 100:+.1f}%"


def _fmt_p(x: Optional[float]) -> str:
    if x is None:
        return "-"
    if x == 0:
        return "<1e-300"          # below double precision: scipy returns 0
    return f"{x:.3g}" if x >= 1e-4 else f"{x:.1e}"


def _headers_and_cells(rows: list, names: tuple) -> tuple:
    varying, fixed = _varying(rows)
    benches = len({r.benchmark for r in rows}) > 1
    headers = (["benchmark"] if benches else []) + varying + \
        ["metric", f"mean {names[0]}", f"mean {names[1]}", "gap", "ratio", "change", "p", "mark"]
    cells = []
    for r in rows:
        cells.append(([r.benchmark] if benches else []) + [str(r.params.get(k, "-")) for k in varying] + [
            _metric(r), fmt_num(r.a.mean if r.a else None), fmt_num(r.b.mean if r.b else None),
            fmt_num(r.gap), _fmt_ratio(r.ratio), _fmt_change(r.change), _fmt_p(r.p_value), _mark(r)])
    return headers, cells, fixed


def _transposed(rows: list, names: tuple) -> tuple:
    varying, fixed = _varying(rows)
    metrics = len({r.metric for r in rows}) > 1
    benches = len({r.benchmark for r in rows}) > 1
    cols = []
    for r in rows:
        parts = ([r.benchmark] if benches else []) + [str(r.params.get(k, "-")) for k in varying]
        if metrics:
            parts.append(r.metric)
        cols.append(" ".join(parts) or r.metric)
    unit = rows[0].unit if rows and len({r.unit for r in rows}) == 1 else ""
    corner = f"({unit})" if unit else ""
    lines = [
        [f"mean {names[0]}"] + [fmt_num(r.a.mean if r.a else None) for r in rows],
        [f"mean {names[1]}"] + [fmt_num(r.b.mean if r.b else None) for r in rows],
        ["gap"] + [fmt_num(r.gap) for r in rows],
        ["ratio"] + [_fmt_ratio(r.ratio) for r in rows],
        ["mark"] + [SYMBOL[r.mark] for r in rows],
    ]
    return [corner] + cols, lines, fixed


def caption(rows: list, names: tuple, sources: tuple, fixed: dict) -> str:
    out = []
    if names != sources:
        out.append(f"{names[0]} = {sources[0]}; {names[1]} = {sources[1]}")
    benches = sorted({r.benchmark for r in rows})
    if len(benches) == 1:
        fixed = {"benchmark": benches[0], **fixed}
    if fixed:
        out.append("; ".join(f"{k}={v}" for k, v in fixed.items()))
    return "\n".join(out)


def legend(per: str) -> str:
    test = ("Wilcoxon signed-rank on the paired" if per == "paired"
            else f"Mann-Whitney U on the {per}")
    return (f"gap = |mean B - mean A|, ratio = B/A; mark: two-sided {test} "
            "samples at alpha 0.05: - better, + worse, ~ not significant, ! failed")


def render(rows: list, fmt: str, names: tuple, sources: tuple, transpose: bool = False,
           per: str = "raw", only: Sequence = ()) -> str:
    """``only``: the cells one side has and the other not (``core.unmatched``), shown in every
    format, named by the side labels the reader sees."""
    label = dict(zip(sources, names))
    if fmt == "json":
        return json.dumps({"a": sources[0], "b": sources[1], "names": list(names), "per": per,
                           "rows": [r.to_dict() for r in rows],
                           "unmatched": [dict(u.to_dict(), side=label.get(u.side, u.side)) for u in only]},
                          indent=1, default=str) + "\n"
    if fmt == "csv":
        return _csv(rows, only, label)
    tail = _unmatched_lines(only, label, fmt == "md")
    if not rows:
        return "nothing in common to compare\n" + tail
    headers, cells, fixed = (_transposed if transpose else _headers_and_cells)(rows, names)
    cap = caption(rows, names, sources, fixed)
    if fmt == "md":
        body = _markdown(headers, cells)
        return (f"{cap}\n\n" if cap else "") + body + "\n" + tail
    return ((f"{cap}\n" if cap else "") + table(headers, cells) + "\n" + legend(per) + "\n"
            + advice(rows, per) + tail)


def _unmatched_lines(only: Sequence, label: dict, markdown: bool) -> str:
    if not only:
        return ""
    head = f"{len(only)} cell(s) on one side only, not compared:"
    lines = [f"only in {label.get(u.side, u.side)}: {u.benchmark} "
             + " ".join(f"{k}={v}" for k, v in u.params.items()) for u in only]
    if markdown:
        return f"\n{head}\n\n" + "".join(f"- {line.strip()}\n" for line in lines)
    return head + "\n" + "".join(f"  {line.strip()}\n" for line in lines)


def advice(rows: list, per: str) -> str:
    """Warn when a mark could not have been anything but "~": with 3 samples against 3 the
    smallest two-sided Mann-Whitney p is 2/C(6,3) = 0.1 (3 against 4: 2/35 = 0.057)."""
    small = [r for r in rows if r.a and r.b and min(r.a.n, r.b.n) < 4 and r.mark != "failed"]
    if not small:
        return ""
    what = "repetitions" if per == "rep" else "samples"
    return (f"note: {len(small)} row(s) have fewer than 4 {what} on a side, too few for a "
            "significant mark; consider more repetitions\n")


def _markdown(headers: list, cells: list) -> str:
    def esc(s: str) -> str:
        return str(s).replace("|", "\\|")
    lines = ["| " + " | ".join(esc(h) for h in headers) + " |",
             "|" + "|".join("---" if i == 0 else "---:" for i in range(len(headers))) + "|"]
    lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in cells]
    return "\n".join(lines)


CSV_FIELDS = ["benchmark", "params", "metric", "unit", "n_a", "mean_a", "stdev_a", "n_b", "mean_b",
              "stdev_b", "gap", "ratio", "change", "p_value", "mark", "higher_is_better"]


def _csv(rows: list, only: Sequence = (), label: Optional[dict] = None) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for r in rows:
        w.writerow([r.benchmark, json.dumps(r.params, sort_keys=True), r.metric, r.unit,
                    r.a.n if r.a else 0, _opt(r.a and r.a.mean), _opt(r.a and r.a.stdev),
                    r.b.n if r.b else 0, _opt(r.b and r.b.mean), _opt(r.b and r.b.stdev),
                    _opt(r.gap), _opt(r.ratio), _opt(r.change), _opt(r.p_value), r.mark,
                    r.higher_is_better])
    for u in only:      # cells one side only has: mark "only in NAME", no numbers
        w.writerow([u.benchmark, json.dumps(u.params, sort_keys=True), "-", "", "", "", "", "", "",
                    "", "", "", "", "", f"only in {(label or {}).get(u.side, u.side)}", ""])
    return buf.getvalue()


def _opt(x) -> str:
    return "" if x is None else repr(float(x))
