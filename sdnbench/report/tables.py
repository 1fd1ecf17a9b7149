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
from .summary import ALPHA, describe, p_better


def _mean(xs: list) -> Optional[float]:
    return sum(xs) / len(xs) if xs else None


def per_row_table(values: dict, title: str, row_name: str, col_name: str,
                  unit: Optional[str] = None) -> Table:
    """``values`` maps (row, column) -> per-repetition values; each body cell is their mean.

    The avg/stdev/var rows are taken over the rows of each column, as the campus study does
    (sample statistics, n−1)."""
    rows_k = sorted({r for r, _ in values}, key=sort_key)
    cols_k = sorted({c for _, c in values}, key=sort_key)
    body = []
    for r in rows_k:
        body.append([r] + [_mean(values.get((r, c), [])) for c in cols_k])
    stats = [describe([row[i + 1] for row in body if row[i + 1] is not None])
             for i in range(len(cols_k))]
    summary = [["avg"] + [s["mean"] for s in stats],
               ["stdev"] + [s["stdev"] for s in stats],
               ["var"] + [s["var"] for s in stats]]
    return Table(title=title, columns=[row_name] + [col_label(c, col_name) for c in cols_k],
                 rows=body, summary_rows=summary, unit=unit, kind="per_row")


def col_label(c: Any, col_name: str) -> str:
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


def best_scenario(samples: dict, higher: bool) -> dict:
    """The best condition of one set-up, following the controller study (§4.1):

    rank conditions by median; the best is the top one unless another is not significantly
    worse (one-sided rank-sum test at ALPHA), in which case those are reported as ties.
    ``samples`` maps condition -> samples (one per repetition)."""
    ranked = sorted(samples, key=lambda c: _median(samples[c]), reverse=higher)
    best = ranked[0]
    ties, pvalues = [], {}
    for other in ranked[1:]:
        p = p_better(samples[best], samples[other], higher)
        pvalues[other] = p
        if p is None or p >= ALPHA:
            ties.append(other)
    d = describe(samples[best])
    return {"best": best, "median": d["median"], "peak": d["max"] if higher else d["min"],
            "ties": ties, "p": pvalues}


def _median(xs: list) -> float:
    return describe(xs)["median"]


def best_scenario_table(per_setup: dict, higher: bool, title: str, cond_name: str,
                        unit: Optional[str] = None) -> Table:
    """``per_setup`` maps set-up -> {condition -> samples}; one row per set-up."""
    rows = []
    for setup, samples in per_setup.items():
        if not samples:
            continue
        b = best_scenario(samples, higher)
        ties = ", ".join(f"{t} (p={b['p'][t]:.3g})" if b["p"].get(t) is not None else str(t)
                         for t in b["ties"]) or "none"
        rows.append([setup, b["best"], b["median"], b["peak"], ties])
    peak = "maximum" if higher else "minimum"
    return Table(title=title, columns=["set-up", f"best {cond_name}", "median", peak,
                                       f"not significantly worse (α={ALPHA})"],
                 rows=rows, unit=unit, kind="best",
                 note="Wilcoxon rank-sum (Mann–Whitney U), one-sided, as in the controller "
                      "benchmark study; ties are conditions the best one does not beat.")


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
