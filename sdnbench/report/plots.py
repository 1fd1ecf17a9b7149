"""The report's plots: matplotlib (Agg backend, no display), rendered to PNG bytes.

Every figure is the same size (``WIDTH_PX`` × ``HEIGHT_PX``), so a page can check it.
Lines and bars are told apart by colour *and* by marker, line style or hatch: the colours are
the Okabe–Ito palette (distinguishable by colour-blind readers), and the markers, dashes and
hatches keep them apart when printed in grayscale. Every axis label carries its unit.
"""

from __future__ import annotations

import io
from typing import Optional

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .model import Figure  # noqa: E402
from .observations import sort_key  # noqa: E402
from .summary import describe, ecdf  # noqa: E402

# Okabe & Ito (2008), "Color Universal Design": black first so the first line survives grayscale.
OKABE_ITO = ["#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00",
             "#CC79A7"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
DASHES = ["-", "--", "-.", ":", (0, (5, 1, 1, 1)), (0, (3, 1, 1, 1, 1, 1)), (0, (1, 2)), "-"]
HATCHES = ["", "///", "...", "xxx", "\\\\\\", "ooo", "+++", "---"]
DPI = 100
CDF_POINTS = 2000
WIDTH_PX, HEIGHT_PX = 800, 450


def style(i: int) -> dict:
    return {"color": OKABE_ITO[i % len(OKABE_ITO)], "marker": MARKERS[i % len(MARKERS)],
            "linestyle": DASHES[i % len(DASHES)]}


def _new(rows: int = 1):
    fig, axes = plt.subplots(rows, 1, figsize=(WIDTH_PX / DPI, HEIGHT_PX / DPI), dpi=DPI,
                             layout="constrained", squeeze=False)
    for ax in axes[:, 0]:
        ax.grid(True, color="#cccccc", linewidth=0.6)
        ax.set_axisbelow(True)
    return fig, list(axes[:, 0])


def _render(fig, title: str, kind: str, alt: str) -> Figure:
    buf = io.BytesIO()
    # Fixed size (no bbox "tight"): the HTML check relies on every figure being 800×450.
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    plt.close(fig)
    return Figure(title=title, kind=kind, png=buf.getvalue(), width_px=WIDTH_PX,
                  height_px=HEIGHT_PX, alt=alt)


def _xaxis(ax, xs: list, log2: bool) -> None:
    if log2 and all(isinstance(x, (int, float)) and x > 0 for x in xs):
        ax.set_xscale("log", base=2)
        ax.set_xticks(xs)
        ax.set_xticklabels([str(x) for x in xs])
        ax.minorticks_off()


def lines(data: dict, title: str, xlabel: str, ylabel: str, log2_x: bool = False,
          err_name: str = "±1 stdev of the repetitions", robust: bool = False) -> Figure:
    """``data`` maps a line name -> {x: values}; plots the mean with ±1 stdev error bars (the
    studies' way, over repetitions), or with ``robust`` the median with the interquartile range
    (raw samples such as per-packet delays are skewed: a stdev bar would reach below zero)."""
    fig, (ax,) = _new()
    all_x: set = set()
    categorical = any(not isinstance(x, (int, float)) for d in data.values() for x in d)
    cats = sorted({x for d in data.values() for x in d}, key=sort_key) if categorical else []
    for i, (name, by_x) in enumerate(data.items()):
        xs = sorted(by_x, key=sort_key)
        all_x.update(xs)
        pos = [cats.index(x) for x in xs] if categorical else xs
        y, yerr = centre_and_bars([by_x[x] for x in xs], robust)
        ax.errorbar(pos, y, yerr=yerr, label=name, capsize=3, markersize=6, linewidth=1.5,
                    **style(i))
    if categorical:
        ax.set_xticks(range(len(cats)))
        ax.set_xticklabels([str(c) for c in cats])
    else:
        _xaxis(ax, sorted(all_x), log2_x)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize="small", title=f"{'median' if robust else 'mean'}; bars: {err_name}",
              title_fontsize="x-small")
    return _render(fig, title, "lines", f"{ylabel} against {xlabel}, one line per set-up")


def centre_and_bars(groups: list, robust: bool) -> tuple:
    """Points and error bars for ``lines``: mean ± stdev, or the median with the distances to
    the first and third quartiles (asymmetric bars)."""
    if robust:
        q = np.array([np.percentile(np.asarray(g, dtype=float), [25, 50, 75]) for g in groups])
        return list(q[:, 1]), [list(q[:, 1] - q[:, 0]), list(q[:, 2] - q[:, 1])]
    stats = [describe(g) for g in groups]
    return [s["mean"] for s in stats], [s["stdev"] or 0 for s in stats]


def boxplots(data: dict, title: str, xlabel: str, ylabel: str) -> Figure:
    """``data`` maps a set-up -> {condition: samples}; boxes side by side at each condition."""
    fig, (ax,) = _new()
    conds = sorted({c for d in data.values() for c in d}, key=sort_key)
    k = max(len(data), 1)
    width = 0.8 / k
    handles = []
    for i, (_name, by_c) in enumerate(data.items()):
        pos = [j - 0.4 + width * (i + 0.5) for j, c in enumerate(conds) if c in by_c]
        vals = [by_c[c] for c in conds if c in by_c]
        st = style(i)
        bp = ax.boxplot(vals, positions=pos, widths=width * 0.85, patch_artist=True,
                        manage_ticks=False,
                        flierprops={"marker": st["marker"], "markersize": 4,
                                    "markeredgecolor": st["color"]},
                        medianprops={"color": "#000000" if i else "#ffffff", "linewidth": 1.5})
        for box in bp["boxes"]:
            box.set_facecolor(st["color"])
            box.set_alpha(0.75)
            box.set_hatch(HATCHES[i % len(HATCHES)])
            box.set_edgecolor("#333333")
        handles.append(bp["boxes"][0])
    ax.set_xticks(range(len(conds)))
    ax.set_xticklabels([str(c) for c in conds])
    ax.set_xlim(-0.6, len(conds) - 0.4)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if handles:
        ax.legend(handles, list(data), fontsize="small")
    return _render(fig, title, "boxplot", f"boxplots of {ylabel} per {xlabel}, one colour per set-up")


def gap_bars(a_name: str, a: dict, b_name: str, b: dict, title: str, xlabel: str,
             ylabel: str) -> Figure:
    """Averages of two set-ups side by side at each condition, and their absolute gap."""
    fig, (ax,) = _new()
    conds = sorted(set(a) & set(b), key=sort_key)
    x = np.arange(len(conds))
    w = 0.27
    series = [(f"Avg. {a_name}", [a[c] for c in conds]), (f"Avg. {b_name}", [b[c] for c in conds]),
              ("Gap |A − B|", [abs(a[c] - b[c]) for c in conds])]
    for i, (name, vals) in enumerate(series):
        ax.bar(x + (i - 1) * w, vals, w, label=name, color=OKABE_ITO[[0, 1, 5][i]],
               hatch=HATCHES[i], edgecolor="#333333", alpha=0.85 if i else 1.0)
    ax.set_xticks(x)
    ax.set_xticklabels([str(c) for c in conds])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize="small")
    return _render(fig, title, "gap", f"average {ylabel} of {a_name} and {b_name} and their gap")


def bars(data: dict, title: str, xlabel: str, ylabel: str) -> Figure:
    """``data`` maps a set-up -> {group: samples}: grouped bars of the means with ±1 stdev,
    one hatch and colour per set-up (the Zodiac FX study's flow types × applications)."""
    fig, (ax,) = _new()
    groups = sorted({g for d in data.values() for g in d}, key=sort_key)
    k = max(len(data), 1)
    w = 0.8 / k
    for i, (name, by_g) in enumerate(data.items()):
        xs = [j - 0.4 + w * (i + 0.5) for j, g in enumerate(groups) if g in by_g]
        stats = [describe(by_g[g]) for g in groups if g in by_g]
        ax.bar(xs, [s["mean"] for s in stats], w, yerr=[s["stdev"] or 0 for s in stats],
               capsize=3, label=name, color=OKABE_ITO[i % len(OKABE_ITO)],
               hatch=HATCHES[i % len(HATCHES)], edgecolor="#333333")
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels([str(g) for g in groups])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize="small", title="error bars: ±1 stdev", title_fontsize="x-small")
    return _render(fig, title, "bars", f"{ylabel} per {xlabel}, one bar per set-up")


def cdf(data: dict, title: str, xlabel: str, percentiles=(50, 90, 99)) -> Figure:
    """Empirical CDF of each set-up's samples, with its percentiles marked."""
    fig, (ax,) = _new()
    positive = all(min(v) > 0 for v in data.values() if len(v))
    for i, (name, samples) in enumerate(data.items()):
        xs, ys = ecdf(samples)
        if not xs.size:
            continue
        st = style(i)
        if xs.size > CDF_POINTS:
            # Millions of latencies draw the same curve as 2000 evenly spaced quantiles.
            ys = np.linspace(0, 1, CDF_POINTS)
            xs = np.quantile(np.asarray(samples, dtype=float), ys)
        ax.step(xs, ys, where="post", color=st["color"], linestyle=st["linestyle"],
                label=name, linewidth=1.5)
        ps = np.percentile(np.asarray(samples, dtype=float), percentiles)
        ax.plot(ps, [p / 100 for p in percentiles], linestyle="none", marker=st["marker"],
                color=st["color"], markersize=7)
    if positive and data:
        span = max(max(v) for v in data.values() if len(v)) / max(min(min(v) for v in data.values() if len(v)), 1e-12)
        if span > 50:
            ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("fraction of samples ≤ x")
    ax.set_title(title)
    ax.legend(fontsize="small", title="markers: p" + "/p".join(str(p) for p in percentiles),
              title_fontsize="x-small")
    return _render(fig, title, "cdf", f"cumulative distribution of {xlabel}")


def resources(data: dict, title: str) -> Figure:
    """``data`` maps a controller/run -> {"cpu": (t, percent), "rss": (t, bytes)}: CPU % and
    memory over time, one subplot each."""
    fig, (ax_cpu, ax_mem) = _new(rows=2)
    for i, (name, d) in enumerate(data.items()):
        st = dict(style(i), markevery=max(1, len(d.get("cpu", ([], []))[0]) // 12 or 1),
                  markersize=4)
        if d.get("cpu"):
            ax_cpu.plot(d["cpu"][0], d["cpu"][1], label=name, **st)
        if d.get("rss"):
            ax_mem.plot(d["rss"][0], [v / 2**20 for v in d["rss"][1]], label=name, **st)
    ax_cpu.set_ylabel("CPU (%)")
    ax_mem.set_ylabel("RSS (MiB)")
    ax_mem.set_xlabel("time since the run started (s)")
    ax_cpu.set_title(title)
    ax_cpu.legend(fontsize="x-small")
    return _render(fig, title, "resources", "controller CPU and resident memory over time")


def ylabel(metric: str, unit: Optional[str]) -> str:
    return f"{metric.replace('_', ' ')} ({unit})" if unit else metric.replace("_", " ")
