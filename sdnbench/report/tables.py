"""Pure builders for the tables the studies print. Inputs are cells (raw samples), outputs
``Table`` values; nothing here reads files or draws.

- ``per_row_table``: one row per switch, one column per packet size, then avg/stdev/var rows
  (campus study, tables 1, 2, 4, 5, 7, 8).
- ``gap_table``: "Avg. A", "Avg. B" and the absolute gap per column (campus study, tables 3, 6, 9).
- ``trials_table``: one row per trial, then the average and variance rows (RFC 8456 §4.7).
- ``distribution_table``: min/max/median/stdev per set-up (controller study, table 3).
- ``best_scenario_table``: each set-up's best condition (controller study, table 4).
- ``summary_table``: n, mean ± stdev, median, percentiles per cell, for everything else.
"""

from __future__ import annotations

from typing import Any, Optional

from .model import Table
from .observations import sort_key
from .summary import ALPHA, best_scenario, describe


def _mean(xs: list) -> Optional[float]:
    return sum(xs) / len(xs) if xs else None


def per_row_table(values: dict, title: str, row_name: str, col_name: str,
                  unit: Optional[str] = None, summary: bool = True) -> Table:
    """``values`` maps (row, column) -> per-repetition values; each body cell is their mean.

    The avg/stdev/var rows are taken over the rows of each column, as the campus study does
    (sample statistics, n−1). Without ``summary`` it is a plain two-way table (the Zodiac FX
    study's flow type × application table)."""
    rows_k = sorted({r for r, _ in values}, key=sort_key)
    cols_k = sorted({c for _, c in values}, key=sort_key)
    body = []
    for r in rows_k:
        body.append([r] + [_mean(values.get((r, c), [])) for c in cols_k])
    stats = [describe([row[i + 1] for row in body if row[i + 1] is not None])
             for i in range(len(cols_k))]
    rows = [["avg"] + [s["mean"] for s in stats],
            ["stdev"] + [s["stdev"] for s in stats],
            ["var"] + [s["var"] for s in stats]] if summary else []
    return Table(title=title, columns=[row_name] + [col_label(c, col_name) for c in cols_k],
                 rows=body, summary_rows=rows, unit=unit, kind="per_row" if summary else "pivot")


def col_label(c: Any, col_name: str) -> str:
    col_name = col_name.rsplit(".", 1)[-1]
    if col_name in ("size", "packet_size", "payload", "frame_size", "length", "bytes"):
        return f"{c} byte"
    if col_name in ("switches", "n_switches", "num_switches"):
        return f"{c} sw"
    return str(c)


def gap_table(a_name: str, a: dict, b_name: str, b: dict, title: str, col_name: str,
              unit: Optional[str] = None) -> Table:
    """``a`` and ``b`` map column -> average; the gap is |a − b| per column."""
    cols = sorted(set(a) | set(b), key=sort_key)
    gap = [abs(a[c] - b[c]) if c in a and c in b else None for c in cols]
    return Table(title=title, columns=[""] + [col_label(c, col_name) for c in cols],
                 rows=[[f"Avg. {a_name}"] + [a.get(c) for c in cols],
                       [f"Avg. {b_name}"] + [b.get(c) for c in cols]],
                 summary_rows=[["Gap"] + gap], unit=unit, kind="gap")


def trials_table(columns: dict, title: str, unit: Optional[str] = None,
                 note: Optional[str] = None) -> Table:
    """``columns`` maps a column label -> one value per trial (in trial order).

    One row per trial, then "average" and "variance" (n−1), as RFC 8456 §4.7 asks."""
    labels = list(columns)
    n = max((len(v) for v in columns.values()), default=0)
    body = [[i + 1] + [columns[k][i] if i < len(columns[k]) else None for k in labels]
            for i in range(n)]
    stats = [describe(columns[k]) for k in labels]
    summary = [["average"] + [s["mean"] for s in stats],
               ["variance"] + [s["var"] for s in stats]]
    return Table(title=title, columns=["trial"] + labels, rows=body, summary_rows=summary,
                 unit=unit, note=note, kind="trials")


def distribution_table(columns: dict, title: str, unit: Optional[str] = None) -> Table:
    """``columns`` maps a set-up -> samples; rows are the statistics (controller study table 3)."""
    labels = list(columns)
    stats = [describe(columns[k]) for k in labels]
    names = [("n", "n"), ("minimum", "min"), ("maximum", "max"), ("median", "median"),
             ("mean", "mean"), ("stdev", "stdev")]
    rows = [[label] + [s[key] for s in stats] for label, key in names]
    return Table(title=title, columns=[""] + labels, rows=rows, unit=unit, kind="distribution")


def best_scenario_table(per_setup: dict, higher: bool, title: str, cond_name: str,
                        unit: Optional[str] = None) -> Table:
    """``per_setup`` maps set-up -> {condition -> per-repetition values}; one row per set-up
    with its best condition chosen by the controller study's procedure (``sdnbench.stats``)."""
    rows = []
    for setup, samples in per_setup.items():
        b = best_scenario(samples, higher)
        if b is None:
            continue
        d = describe(samples[b.value])
        tests = "; ".join(f"{lead} vs {other}: {test} {alt} p={p:.3g}"
                          for lead, other, test, alt, p in b.p_values() if p is not None)
        rows.append([setup, b.value, b.median, d["max"] if higher else d["min"], b.decided_by,
                     ", ".join(str(t) for t in b.tied_with) or "–", tests or "–"])
    peak = "maximum" if higher else "minimum"
    return Table(title=title, columns=["set-up", f"best {cond_name}", "median", peak,
                                       "decided by", "tied with", "tests"],
                 rows=rows, unit=unit, kind="best",
                 note=f"The controller benchmark study's procedure (α={ALPHA}): neighbouring "
                      "conditions compared two-sided, then one-sided, then by median.")


def summary_table(cells: list, keys: list, title: str, unit: Optional[str] = None) -> Table:
    """One row per cell: its factors, then n, mean, stdev, min, median, p90, p99, max."""
    cols = list(keys) + ["n", "mean", "stdev", "min", "median", "p90", "p99", "max"]
    rows = []
    for c in cells:
        d = describe(c.samples)
        rows.append([c.factors.get(k) for k in keys] +
                    [d["n"], d["mean"], d["stdev"], d["min"], d["median"], d["p90"],
                     d["p99"], d["max"]])
    return Table(title=title, columns=cols, rows=rows, unit=unit, kind="summary")
