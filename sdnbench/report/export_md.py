"""Markdown: the tables as GitHub tables, figures as PNG files beside the report.

``-o report.md`` writes ``report.md`` and ``report_files/figN.png``; images are linked by a
relative path so the pair can be moved together.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from .fields import fmt_time
from .files import write_atomic
from .model import Report, Table, formatted_rows


def table_md(t: Table) -> str:
    head = f"**{t.title}**" + (f" — {t.note}" if t.note else "")
    cols = [str(c) for c in t.columns]
    lines = [head, "", "| " + " | ".join(cols) + " |",
             "|" + "|".join("---:" if _numeric(t, i) else "---" for i in range(len(cols))) + "|"]
    body, summary = formatted_rows(t)
    for r in body:
        lines.append("| " + " | ".join(_cell(c) for c in r) + " |")
    for r in summary:
        lines.append("| " + " | ".join(f"**{_cell(c)}**" if i == 0 else _cell(c)
                                       for i, c in enumerate(r)) + " |")
    return "\n".join(lines)


def _numeric(t: Table, i: int) -> bool:
    vals = [r[i] for r in t.rows if i < len(r) and r[i] is not None]
    return i > 0 and bool(vals) and all(isinstance(v, (int, float)) for v in vals)


def _cell(c: str) -> str:
    return c.replace("|", "\\|").replace("\n", " ")


def render(report: Report, figure_dir: Optional[str] = None) -> str:
    """The Markdown text; figures are linked as ``figure_dir/figN.png`` when a dir is given."""
    out = [f"# {report.title}", ""]
    n_fig = 0
    for s in report.sections:
        out += ["", f"## {s.title}", ""]
        out += [p + "\n" for p in s.text]
        for t in s.tables:
            out += [table_md(t), ""]
        for f in s.figures:
            n_fig += 1
            if figure_dir is not None:
                out += [f"![{f.title}]({figure_dir}/fig{n_fig}.png)", ""]
    out += ["", "## Metadata", "", f"Generated {fmt_time(report.generated)} by sdnbench.", ""]
    for run in report.runs:
        out.append(f"- run **{run['label']}** (`{run['id']}`): {run['results']} results, "
                   f"{run['failed']} failed; sdnbench {run.get('sdnbench_version') or '?'}; "
                   f"machine: {run['machine']}")
        for e in run.get("errors") or []:
            out.append(f"  - failed: {e}")
        for n in run.get("notes") or []:
            out.append(f"  - note: {n}")
    return "\n".join(out).rstrip() + "\n"


def write(report: Report, path: Path) -> list:
    """Write the Markdown file and its figures; return every path written."""
    path = Path(path)
    fig_dir = path.parent / f"{path.stem}_files"
    written = []
    figures = report.all_figures()
    if figures:
        fig_dir.mkdir(parents=True, exist_ok=True)
        for i, f in enumerate(figures, 1):
            p = fig_dir / f"fig{i}.png"
            write_atomic(p, f.png)
            written.append(p)
    text = render(report, fig_dir.name if figures else None)
    _write_text(path, text)
    return [path] + written


def _write_text(path: Path, text: str) -> None:
    write_atomic(path, text.encode())
