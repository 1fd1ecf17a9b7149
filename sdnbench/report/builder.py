"""Which tables and plots a set of runs calls for: from ``RunData`` to a ``Report``.

One section per measured metric (kind × metric × unit; the benchmark is one of its factors). Its layout (x axis, table rows,
lines) comes from ``observations.layout_for``; then:

- packet size (or another x) and a per-switch factor: the campus study's per-switch tables;
- an x axis: mean ± stdev against x, boxplots of the repetitions per cell, and a summary table;
- two set-ups: a gap table and gap bars (campus study tables 3/6/9, figures 7–9);
- number of switches with repetitions: the per-trial table (RFC 8456 §4.7) and each set-up's
  best scenario (controller study, table 4);
- no x but repetitions: min/max/median/stdev per set-up (controller study, table 3);
- controller latencies: their CDF with p50/p90/p99 marked.

A last section plots the controllers' CPU and memory over time.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Optional

from .. import fmt
from ..controllers.spec import display_name
from ..paths import REPO
from . import plots
from .fields import fmt_time, report_fields, run_header
from .headline import headline
from .model import Report, Section, Table
from .observations import (axis_label, cells, group_by_metric, layout_for, line_name,
                           observations, sort_key)
from .study import study_section
from .summary import describe, higher_is_better
from .tables import (best_scenario_table, col_label, distribution_table, gap_table,
                     per_row_table, summary_table, trials_table)

SWITCH_COUNT_KEYS = ("switches", "n_switches", "num_switches")
MAX_TRIAL_COLUMNS = 24   # wider per-trial tables are unreadable; the CSV/JSON keep everything
MAX_TABLE_ROWS = 64      # per-switch tables of 256 switches belong in the CSV, not on a page


def build(runs: list, title: Optional[str] = None, now: Optional[float] = None,
          with_plots: bool = True, history: Optional[Section] = None) -> Report:
    """``history``: a section from ``report.history_section`` when the store holds earlier runs."""
    runs = list(runs)
    report = Report(title=title or _default_title(runs), generated=now or time.time(),
                    runs=[run_header(r) for r in runs])
    obs = observations(runs)
    groups = sorted(group_by_metric(obs).items(), key=lambda kv: _section_rank(*kv[0]))
    top = headline(runs, groups, _section_rank)
    if history is not None:      # a regression across runs changes how to read this one
        top.text += [f"Warning: {t}" for t in history.text if "REGRESSION" in t]
    report.sections.append(top)
    for (kind, metric, unit, mode), group in groups:
        section, cell_rows = _metric_section(kind, metric, unit, group, with_plots, mode)
        report.sections.append(section)
        report.cells.extend(cell_rows)
    fn = _first_next_section(obs, with_plots)
    if fn is not None:
        report.sections.append(fn)
    res = _resources_section(runs, with_plots)
    if res is not None:
        report.sections.append(res)
    if history is not None:
        report.sections.append(history)
    report.sections.append(_runs_section(runs))       # metadata after the answer
    study = study_section(runs, REPO / "scenarios")     # a seed scenario's report ends with the paper beside it
    if study is not None:
        report.sections.append(study)
    return report


# The order the studies present their results in: latency first, then throughput, then loss;
# bookkeeping counters (packets sent, retransmits) last. Others go between, alphabetically.
_METRIC_ORDER = ("rtt", "latency", "ditg_delay", "delay", "service_time", "first_packet_time",
                 "next_packet_time", "throughput", "tcp_throughput", "udp_throughput",
                 "ditg_bitrate", "bitrate", "sessions", "capacity", "udp_jitter", "ditg_jitter",
                 "jitter", "udp_loss", "ditg_loss", "loss")
_LAST = ("udp_lost", "udp_packets", "tcp_retransmits")


# Each engine mode's own measure comes before what it records on the side.
_HEADLINE = {"throughput": "throughput", "latency": "latency", "capacity": "sessions"}


def _section_rank(kind: str, metric: str, unit: str, mode: Optional[str]) -> tuple:
    side = mode is not None and _HEADLINE.get(mode) != metric
    return (side, _metric_rank(metric), mode or "")


def _metric_rank(metric: str) -> tuple:
    if metric in _METRIC_ORDER:
        return (0, _METRIC_ORDER.index(metric), metric)
    return (2 if metric in _LAST or metric.endswith("_warmup") else 1, 0, metric)


def _default_title(runs: list) -> str:
    names = [r.meta.get("scenario") or r.label for r in runs]
    return "sdnbench report: " + ", ".join(dict.fromkeys(str(n) for n in names))


def _runs_section(runs: list) -> Section:
    s = Section(title="Runs and metadata")
    rows = []
    for r in runs:
        h = run_header(r)
        rows.append([r.label, r.id, r.meta.get("scenario") or "–", fmt_time(h["started"]),
                     h["results"], h["failed"], h["controller"], h["topology"]])
    s.tables.append(Table(title="runs in this report",
                          columns=["run", "id", "scenario", "started", "results", "failed",
                                   "controller", "topology"], rows=rows, kind="runs"))
    for r in runs:
        if any(x.kind == "controller" for x in r.results):
            s.tables.append(report_fields(r))
    return s


def _metric_section(kind: str, metric: str, unit: str, group: list, with_plots: bool,
                    mode: Optional[str] = None):
    unit = fmt.unit_name(unit)
    lay = layout_for(group)
    keys = lay.lines + [k for k in (lay.row, lay.x) if k]
    by_key = cells(group, keys)
    benches = list(dict.fromkeys(o.benchmark for o in group))
    prefix = f"{benches[0]}: " if len(benches) == 1 else ""
    in_mode = f", {mode} mode" if mode else ""
    section = Section(title=f"{prefix}{metric.replace('_', ' ')} ({unit}{in_mode})")
    max_reps = max(len(c.reps) for c in by_key.values())
    section.text.append(_describe_layout(lay, len(group), max_reps))
    per_line = _per_line(by_key, lay, max_reps)
    # A gap compares two set-ups (runs, controllers, datapaths), not two benchmarks.
    gap = _gap(per_line) if lay.x and lay.lines and lay.lines != ["benchmark"] else None
    _metric_tables(section, kind, metric, unit, lay, keys, by_key, per_line, gap, max_reps)
    if with_plots:
        _metric_figures(section, kind, metric, lay, per_line, by_key, group, gap,
                        plots.ylabel(metric, unit), max_reps, higher_is_better(metric, unit))
    return section, [_cell_row(kind, c, keys) for c in by_key.values()]


def _per_line(by_key: dict, lay, max_reps: int) -> "OrderedDict[str, dict]":
    """line -> x -> values: one per repetition when there are several (or rows to pool),
    else the raw samples. Lines keep the order runs were given in, else sort naturally."""
    per_line: "OrderedDict[str, dict]" = OrderedDict()
    for c in by_key.values():
        name = line_name(c.factors, lay.lines)
        x = c.factors.get(lay.x) if lay.x else "all"
        vals = c.rep_values if max_reps > 1 or lay.row else c.samples
        per_line.setdefault(name, {}).setdefault(x, []).extend(vals)
    if lay.lines != ["run"]:
        per_line = OrderedDict(sorted(per_line.items(), key=lambda kv: sort_key(kv[0])))
    return per_line


def _metric_tables(section, kind, metric, unit, lay, keys, by_key, per_line, gap,
                   max_reps) -> None:
    n_rows = len({c.factors.get(lay.row) for c in by_key.values()}) if lay.row else 0
    # Per-switch tables are the campus study's (hosts behind each switch); for the load
    # engine's emulated switches the per-switch samples stay in the CSV/JSON.
    if lay.row and kind == "net" and n_rows <= MAX_TABLE_ROWS:
        _per_row_tables(section, by_key, lay, metric, unit)
    ordered = sorted(by_key.values(), key=lambda c: [sort_key(c.factors.get(k)) for k in keys])
    section.tables.append(summary_table(ordered, keys, f"{metric} per cell ({unit})", unit))
    if lay.x and max_reps > 1 and not lay.row:
        cols = {f"{name}, {col_label(x, lay.x)}": v for name, d in per_line.items()
                for x, v in sorted(d.items(), key=lambda kv: sort_key(kv[0]))}
        if len(cols) <= MAX_TRIAL_COLUMNS:
            section.tables.append(trials_table(cols, f"{metric} per trial ({unit})", unit,
                                               note="RFC 8456 §4.7: one row per trial, then "
                                                    "the average and the variance (n−1)."))
    if lay.x in SWITCH_COUNT_KEYS and max_reps > 1:
        section.tables.append(best_scenario_table(per_line, higher_is_better(metric, unit),
                                                  f"best scenario per set-up: {metric}",
                                                  "switches", unit))
    two_way = not lay.x and len(lay.lines) == 2
    if not lay.x and not lay.row and not two_way and (max_reps > 1 or len(per_line) > 1):
        section.tables.append(distribution_table({n: d["all"] for n, d in per_line.items()},
                                                 f"{metric}: distribution per set-up ({unit})", unit))
    if two_way:
        section.tables.append(_two_way(by_key, lay, metric, unit))
    if gap:
        (a, am), (b, bm) = gap
        section.tables.append(gap_table(a, am, b, bm, f"{metric}: average and gap ({unit})",
                                        lay.x, unit))


def _describe_layout(lay, n_obs: int, max_reps: int) -> str:
    parts = [fmt.plural(n_obs, "series", "series")]
    if lay.x:
        parts.append(f"x axis: {axis_label(lay.x)}")
    if lay.row:
        parts.append(f"one table row per {lay.row}")
    if lay.lines:
        parts.append("set-ups told apart by " + ", ".join(lay.lines))
    parts.append(f"up to {fmt.plural(max_reps, 'repetition')} per cell")
    return "; ".join(parts) + "."


def _per_row_tables(section: Section, by_key: dict, lay, metric: str, unit: str) -> None:
    per_setup: "OrderedDict[str, dict]" = OrderedDict()
    for c in by_key.values():
        name = line_name(c.factors, lay.lines)
        col = c.factors[lay.x] if lay.x else "mean"
        per_setup.setdefault(name, {})[(c.factors[lay.row], col)] = c.rep_values
    for name, values in per_setup.items():
        where = "" if name == "all" else f" on {name}"
        section.tables.append(per_row_table(values, f"{metric.replace('_', ' ')}{where} ({unit})",
                                            lay.row, lay.x or "", unit))


def _two_way(by_key: dict, lay, metric: str, unit: str):
    """Two set-up factors and no x axis: one across, one down (flow type × application)."""
    down, across = lay.lines
    values: dict = {}
    for c in by_key.values():
        values.setdefault((c.factors.get(down), c.factors.get(across)), []).extend(c.rep_values)
    return per_row_table(values, f"{metric.replace('_', ' ')}: {down} × {across} ({unit})",
                         down, across, unit, summary=False)


def _two_way_data(by_key: dict, lay) -> dict:
    down, across = lay.lines
    data: "OrderedDict[str, dict]" = OrderedDict()
    for c in by_key.values():
        data.setdefault(str(c.factors.get(across)), {}).setdefault(
            c.factors.get(down), []).extend(c.rep_values)
    return data


def _gap(per_line: dict):
    if len(per_line) != 2:
        return None
    (a, ad), (b, bd) = per_line.items()
    am = {x: describe(v)["mean"] for x, v in ad.items()}
    bm = {x: describe(v)["mean"] for x, v in bd.items()}
    if not set(am) & set(bm):
        return None
    return (a, am), (b, bm)


def _metric_figures(section, kind, metric, lay, per_line, by_key, group, gap, ylab, max_reps,
                    higher) -> None:
    xlab = axis_label(lay.x) if lay.x else ""
    xs = [x for d in per_line.values() for x in d]
    numeric = xs and all(isinstance(x, (int, float)) and x > 0 for x in xs)
    # Doubling series (64…8192 bytes, 1…256 switches) read best on a log2 axis, as in the studies.
    log2 = bool(numeric and (lay.x in SWITCH_COUNT_KEYS or max(xs) / min(xs) >= 8))
    per_rep = max_reps > 1 or lay.row
    err = ("±1 stdev over " + (f"{_plural(lay.row)} × repetitions" if lay.row else "repetitions")
           if per_rep else "interquartile range of the samples")
    what = metric.replace("_", " ")
    if lay.x:
        section.figures.append(plots.lines(per_line, f"{what} against {xlab.split(' (')[0]}",
                                           xlab, ylab, log2_x=log2, err_name=err,
                                           robust=not per_rep))
        reps = "repetitions" if max_reps > 1 or lay.row else "samples"
        section.figures.append(plots.boxplots(per_line, f"{what}: {reps} per cell", xlab, ylab))
    if not lay.x and len(lay.lines) == 2:
        down, across = lay.lines
        section.figures.append(plots.bars(_two_way_data(by_key, lay), f"{what} per {down} and {across}",
                                          down, ylab))
    if gap:
        (a, am), (b, bm) = gap
        section.figures.append(plots.gap_bars(a, am, b, bm, f"{what}: average and gap", xlab, ylab))
    if kind == "controller" and not higher:
        pooled: "OrderedDict[str, list]" = OrderedDict()
        for o in group:
            pooled.setdefault(line_name(o.factors, lay.lines) if lay.lines else "all", []).extend(o.values)
        section.figures.append(plots.cdf(pooled, f"{what}: distribution (CDF)", ylab))


def _first_next_section(obs: list, with_plots: bool) -> Optional[Section]:
    """The OVS vs CPqD study's comparison: a flow's first packet (through the controller)
    against the packets after it (the installed flow), per set-up."""
    first = [o for o in obs if o.metric == "first_packet_time"]
    nxt = [o for o in obs if o.metric == "next_packet_time"]
    if not first or not nxt:
        return None
    lines = [k for k in layout_for(first + nxt).lines if k != "benchmark"] or []
    data: "OrderedDict[str, dict]" = OrderedDict((("first packet", {}), ("next packets", {})))
    for name, group in (("first packet", first), ("next packets", nxt)):
        for o in group:
            data[name].setdefault(line_name(o.factors, lines), []).extend(o.values)
    rows = []
    for setup in sorted(data["first packet"], key=sort_key):
        f, n = describe(data["first packet"][setup]), describe(data["next packets"].get(setup, []))
        ratio = f["median"] / n["median"] if f["median"] and n["median"] else None
        rows.append([setup, f["n"], f["median"], n["n"], n["median"], ratio])
    unit = first[0].unit
    s = Section(title=f"first packet vs next packets ({unit})",
                text=["Per-packet service time in the switch, from captures on its ports: the "
                      "first packet of a flow goes to the controller (packet-in, flow-mod); the "
                      "next ones match the installed flow."])
    s.tables.append(Table(title=f"service time: first vs next packets ({unit})",
                          columns=["set-up", "first n", f"first median ({unit})", "next n",
                                   f"next median ({unit})", "first / next"],
                          rows=rows, unit=unit, kind="first_next"))
    if with_plots:
        s.figures.append(plots.bars({k: {setup: v for setup, v in d.items()} for k, d in data.items()},
                                    "service time: first vs next packets", "set-up",
                                    plots.ylabel("service time", unit)))
    return s


def _cell_row(kind: str, c, keys: list) -> dict:
    d = describe(c.samples)
    return {"kind": kind, "benchmark": c.benchmark, "metric": c.metric, "unit": c.unit,
            "factors": {k: c.factors.get(k) for k in keys}, "repetitions": len(c.reps),
            "rep_values": c.rep_values, **d}


def _resources_section(runs: list, with_plots: bool) -> Optional[Section]:
    """CPU and memory over time: per run and controller, the result sampled the longest."""
    chosen: "OrderedDict[str, dict]" = OrderedDict()
    for run in runs:
        for r in run.results:
            # The controller's own series (its sampler's), not the load engine's.
            cpu = next((s for s in r.resources if s.metric == "cpu_percent"), None)
            rss = next((s for s in r.resources if s.metric == "rss_bytes"), None)
            if not cpu and not rss:
                continue
            ctl = display_name((r.controller or {}).get("spec") or "") \
                or (r.controller or {}).get("name") or "controller"
            name = ctl if len(runs) == 1 else f"{run.label}: {ctl}"
            n = len((cpu or rss).values)
            if name not in chosen or n > chosen[name]["n"]:
                chosen[name] = {"n": n, "cpu": _ts(cpu), "rss": _ts(rss), "bench": r.benchmark}
    if not chosen:
        return None
    s = Section(title="Controller resources")
    rows = []
    for name, d in chosen.items():
        cpu = describe(d["cpu"][1]) if d["cpu"] else {}
        rss = describe(d["rss"][1]) if d["rss"] else {}
        rows.append([name, d["bench"], d["n"], cpu.get("mean"), cpu.get("max"),
                     (rss.get("max") or 0) / 2**20 if rss else None])
    s.tables.append(Table(title="controller CPU and memory (longest sampled result)",
                          columns=["controller", "benchmark", "samples", "CPU mean (%)",
                                   "CPU max (%)", "RSS max (MiB)"], rows=rows, kind="resources"))
    if with_plots:
        s.figures.append(plots.resources(chosen, "controller CPU and memory over time"))
    return s


def _ts(series) -> Optional[tuple]:
    if series is None:
        return None
    t = series.t if series.t is not None else list(range(len(series.values)))
    return (list(t), [float(v) for v in series.values])


def _plural(word: str) -> str:
    return word + ("es" if word.endswith(("s", "sh", "ch", "x")) else "s")
