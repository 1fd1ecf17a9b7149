"""From ``Result`` objects to observations and cells: the only place that interprets labels.

An *observation* is one ``Series``: its metric, unit, raw values and *factors* (the run, the
result's scalar parameters, the controller and the series labels, later ones winning).
A *cell* is one metric under one set of factors with the repetition factor removed: it holds
the raw samples of every repetition, which is what boxplots and per-trial tables need.

Which factor is the x axis, the table row or the line is decided here from well-known names
(``size``, ``switches``, ``switch``, ...), so a new benchmark gets sensible reports by labelling
its series the usual way. Everything here is pure.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

from ..controllers.spec import display_name

# Factors that number repetitions: their values are pooled, never plotted as an axis.
REP_KEYS = ("rep", "repetition", "trial", "iteration", "repeat")
# Candidate x axes, most preferred first (packet size for the network studies, number of
# switches for the controller study, parallel streams for the iperf3 study).
X_KEYS = ("size", "packet_size", "payload", "frame_size", "length", "bytes", "switches",
          "n_switches", "num_switches", "macs", "streams", "parallel")
# Candidate table rows: "one row per switch" in the campus study.
ROW_KEYS = ("switch",)
# Factors that never distinguish set-ups (bookkeeping, not experimental conditions).
IGNORED_KEYS = ("seed", "started", "finished", "pid", "log_dir", "cell", "cell_id", "result_id")
_FRIENDLY = {"size": "packet size", "length": "datagram size", "packet_size": "packet size", "payload": "payload",
             "switches": "number of switches", "n_switches": "number of switches",
             "num_switches": "number of switches", "streams": "parallel streams",
             "parallel": "parallel streams", "frame_size": "frame size"}


@dataclass
class Observation:
    run: str
    kind: str
    benchmark: str
    metric: str
    unit: str
    factors: dict
    values: list
    t: Optional[list] = None


@dataclass
class Cell:
    """One metric under one set of factors; ``reps`` maps repetition -> raw samples."""

    benchmark: str
    metric: str
    unit: str
    factors: dict
    reps: "OrderedDict[Any, list]" = field(default_factory=OrderedDict)

    @property
    def samples(self) -> list:
        return [v for vs in self.reps.values() for v in vs]

    @property
    def rep_values(self) -> list:
        """One value per repetition (the mean of its samples): what a per-trial table shows."""
        return [sum(vs) / len(vs) for vs in self.reps.values() if vs]


def _scalar(v: Any) -> bool:
    return isinstance(v, (str, int, float, bool)) and not isinstance(v, bytes)


def factors_of(run_label: str, result, series) -> dict:
    # The benchmark is a factor like any other: a scenario that runs the same measurement under
    # several names (iperf3 forward, reverse, -P 5) compares them in one table.
    f: dict = {"benchmark": result.benchmark, "run": run_label}
    for k, v in (result.params or {}).items():
        if _scalar(v) and k not in IGNORED_KEYS:
            f[k] = v
        elif isinstance(v, dict):
            # One level of nested options, e.g. the Mininet runner's ``udp: {length: 512}``,
            # becomes ``udp.length``, so a scenario that sweeps it gets it as an axis.
            for k2, v2 in v.items():
                if _scalar(v2) and k2 not in IGNORED_KEYS:
                    f[f"{k}.{k2}"] = v2
    if result.controller:
        c = result.controller
        f["controller"] = display_name(c.get("spec") or "") or c.get("name") or "controller"
    if result.topology and result.topology.get("spec"):
        f.setdefault("topology", result.topology["spec"])
    for k, v in (series.labels or {}).items():
        if _scalar(v) and k not in IGNORED_KEYS:
            f[k] = v
    return f


def observations(runs: Iterable) -> list:
    """Every series of every ok result of every run, as observations (failed results skipped)."""
    out = []
    for run in runs:
        for r in run.results:
            if r.status != "ok":
                continue
            for s in r.series:
                # A lost probe is None; NaN/inf never reach a table (the store keeps them).
                values = [float(v) for v in s.values
                          if isinstance(v, (int, float)) and math.isfinite(v)]
                if not values:
                    continue
                out.append(Observation(run=run.label, kind=r.kind, benchmark=r.benchmark,
                                       metric=s.metric, unit=s.unit,
                                       factors=factors_of(run.label, r, s), values=values,
                                       t=s.t))
    return out


def group_by_metric(obs: list) -> "OrderedDict[tuple, list]":
    """Observations grouped by (kind, metric, unit, mode), in first-seen order.

    The load engine records latency in throughput mode too (under saturation) and throughput in
    latency mode (one request outstanding): each mode's numbers answer a different question, so
    they are never drawn on one axis."""
    groups: OrderedDict = OrderedDict()
    for o in obs:
        mode = o.factors.get("mode") if o.kind == "controller" else None
        groups.setdefault((o.kind, o.metric, o.unit, mode), []).append(o)
    return groups


def varying(obs: list) -> list:
    """Factor names whose value differs between observations (repetition keys excluded)."""
    seen: dict = {}
    for o in obs:
        for k, v in o.factors.items():
            seen.setdefault(k, set()).add(_hashable(v))
    keys = [k for k, vals in seen.items() if len(vals) > 1 and k not in REP_KEYS]
    # A factor missing from some observations also varies.
    for o in obs:
        for k in seen:
            if k not in o.factors and k not in keys and k not in REP_KEYS:
                keys.append(k)
    return keys


def _hashable(v: Any) -> Any:
    return v if isinstance(v, (str, int, float, bool)) or v is None else repr(v)


@dataclass
class Layout:
    """How one metric group is laid out: x axis, table rows, and the factors naming a line."""

    x: Optional[str]
    row: Optional[str]
    lines: list            # factor names that together name a line / set-up


def layout_for(obs: list) -> Layout:
    vary = varying(obs)
    # An axis needs a value in every observation: an option only some benchmarks set (iperf3's
    # parallel streams in the -P 5 runs) names those benchmarks rather than spanning an axis.
    # Parameters are normalised (every net cell has tcp.parallel, 1 by default), so "set in
    # every observation" is not enough: a factor fixed per benchmark is that benchmark's option.
    per_benchmark = "benchmark" in vary
    axis = [k for k in vary if all(o.factors.get(k) is not None for o in obs)
            and not (per_benchmark and k != "benchmark" and _determined_by(obs, k, "benchmark"))]
    x = next((k for name in X_KEYS for k in axis if _base(k) == name), None)
    row = next((k for name in ROW_KEYS for k in axis if _base(k) == name and k != x), None)
    lines: list = []
    for k in vary:
        if k in (x, row) or any(_determined_by(obs, k, by) for by in (x, row) if by):
            continue
        # A factor that only renames one already kept (a benchmark's own options) adds nothing.
        if not any(_determined_by(obs, k, kept) for kept in lines):
            lines.append(k)
    return Layout(x=x, row=row, lines=lines)


def _base(key: str) -> str:
    """``udp.length`` -> ``length``: nested options match the well-known names too."""
    return key.rsplit(".", 1)[-1]


def _determined_by(obs: list, key: str, by: str) -> bool:
    """True if ``key`` is just another name for ``by`` (e.g. the host pair of each switch):
    each value of ``by`` comes with one value of ``key``, so it must not split lines."""
    seen: dict = {}
    for o in obs:
        b, k = _hashable(o.factors.get(by)), _hashable(o.factors.get(key))
        if seen.setdefault(b, k) != k:
            return False
    return True


def cells(obs: list, keys: list) -> "OrderedDict[tuple, Cell]":
    """Cells keyed by the values of ``keys``; each pools the repetitions of its observations.

    Observations with the same key and the same repetition numbers are concatenated (e.g. the
    same switch measured from several hosts).
    """
    out: OrderedDict = OrderedDict()
    for o in obs:
        key = tuple(_hashable(o.factors.get(k)) for k in keys)
        cell = out.get(key)
        if cell is None:
            cell = Cell(benchmark=o.benchmark, metric=o.metric, unit=o.unit,
                        factors={k: o.factors.get(k) for k in keys})
            out[key] = cell
        # A repetition is named by every repetition number it carries: the campaign's (the
        # store cell's ``repetition``) and the runner's own (a series label ``rep``).
        rep = (o.run,) + tuple(o.factors[k] for k in REP_KEYS if k in o.factors)
        cell.reps.setdefault(rep, []).extend(o.values)
    return out


def line_name(factors: dict, lines: list) -> str:
    """A legend entry: the values of the line factors ("osken:learning, tree,2,2")."""
    if not lines:
        return "all"
    parts = [str(factors.get(k)) if len(lines) == 1 else f"{k}={factors.get(k)}" for k in lines]
    return ", ".join(parts)


def axis_label(key: Optional[str], unit: Optional[str] = None) -> str:
    base = _base(key or "")
    name = _FRIENDLY.get(base, key or "")
    if unit:
        return f"{name} ({unit})"
    if base in ("size", "packet_size", "payload", "frame_size", "length", "bytes"):
        return f"{name} (bytes)"
    return name


def sort_key(v: Any) -> tuple:
    """Numbers before strings, numbers numerically, strings naturally (s2 before s10)."""
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return (0, float(v), "")
    s = str(v)
    digits = "".join(ch for ch in s if ch.isdigit())
    return (1, float(digits) if digits else float("inf"), s)
