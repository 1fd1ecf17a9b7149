"""A history for people (a table, alert lines), for programs (JSON) and as a plot."""

from __future__ import annotations

import time
from pathlib import Path

from .. import fmt
from ..history.alerts import Alert
from ..history.collect import History
from .files import write_atomic


def alert_line(h: History, a: Alert) -> str:
    (before, after), unit = fmt.scale_all([a.step.before, a.step.after], h.unit)
    b, c = fmt.column([before, after])
    change = f"{a.step.change:+.0%}" if abs(a.step.change) != float("inf") else "from 0"
    return (f"{a.word.upper()}: {h.metric}, {a.condition}: {b} → {c} {unit} ({change}), "
            f"beginning at run {a.run_id} (after run {a.previous_run})")


def text(h: History, found: list, width=None) -> str:
    factor, unit = fmt.scale_factor([v for r in h.runs for v in r.values.values()], h.unit)
    starts = {(a.condition, a.run_id): ("▼" if a.regression else "▲") for a in found}
    cols = [fmt.column([r.values[c] / factor if c in r.values else None for r in h.runs])
            for c in h.conditions]
    rows = []
    for i, r in enumerate(h.runs):
        row = [str(r.run_id), time.strftime("%Y-%m-%d %H:%M", time.localtime(r.created))]
        for k, c in enumerate(h.conditions):
            row.append(cols[k][i] + " " + starts.get((c, r.run_id), " "))
        rows.append(row)
    head = (f"{h.metric} ({unit or 'no unit'}) over {fmt.plural(len(h.runs), 'run')} of "
            f"{h.scenario}, {fmt.plural(len(h.conditions), 'condition')}")
    table = fmt.table(["run", "date"] + h.conditions, rows, width=width)
    lines = [head, "", table, ""]
    lines += [alert_line(h, a) for a in found] or ["no step changes detected"]
    return "\n".join(lines)


def as_json(h: History, found: list) -> dict:
    return {
        "scenario": h.scenario, "metric": h.metric, "unit": fmt.unit_name(h.unit),
        "conditions": h.conditions,
        "runs": [{"run": r.run_id, "created": r.created, "values": r.values} for r in h.runs],
        "steps": [{"condition": a.condition, "run": a.run_id, "after_run": a.previous_run,
                   "before": a.step.before, "after": a.step.after, "change": a.step.change,
                   "kind": a.word} for a in found],
    }


def figure(h: History, found: list):
    """The history as a report ``Figure`` (800×450 PNG, the report's style): one line per
    condition, a dashed line before each step's first run."""
    from . import plots

    factor, unit = fmt.scale_factor([v for r in h.runs for v in r.values.values()], h.unit)
    fig, (ax,) = plots._new()
    for i, cond in enumerate(h.conditions):
        ids, vals = h.series(cond)
        ax.plot(ids, [v / factor for v in vals], label=cond, **plots.style(i))
    for a in found:
        colour = "#D55E00" if a.regression else "#009E73"
        ax.axvline(a.run_id - 0.5, color=colour, ls="--", lw=1.2)
        ax.annotate(f"{a.word} from run {a.run_id} ({a.step.change:+.0%})",
                    xy=(a.run_id - 0.5, a.step.after / factor), xytext=(6, 8),
                    textcoords="offset points", fontsize=8, color=colour)
    ax.set_xlabel("run")
    ax.set_ylabel(f"{h.metric} ({unit})" if unit else h.metric)
    ax.xaxis.get_major_locator().set_params(integer=True)
    if len(h.conditions) > 1:
        ax.legend(fontsize=7)
    title = f"{h.metric} over {fmt.plural(len(h.runs), 'run')} of {h.scenario}"
    ax.set_title(title)
    alt = title + "; " + ("; ".join(alert_line(h, a) for a in found) or "no step changes")
    return plots._render(fig, title, "history", alt)


def plot(h: History, found: list, path: Path) -> Path:
    """Write the history plot; the format follows the file's extension (png, svg, pdf)."""
    path = Path(path)
    if path.suffix.lower() == ".png":
        write_atomic(path, figure(h, found).png)
        return path
    import matplotlib.pyplot as plt
    from . import plots
    fig, (ax,) = plots._new()
    for i, cond in enumerate(h.conditions):
        ids, vals = h.series(cond)
        ax.plot(ids, vals, label=cond, **plots.style(i))
    ax.set_xlabel("run")
    ax.set_ylabel(h.metric)
    fig.savefig(path)
    plt.close(fig)
    return path
