"""Self-contained HTML: one file, CSS inline, plots as base64 PNG ``data:`` URIs, no script.

The page's Content-Security-Policy forbids every fetch except ``data:`` images, so a report
cannot reach the network even if something slipped a URL in; the browser check would see the
blocked fetch as a console error.

Structure the browser check relies on: a ``header#run-meta``; one ``table.report-table`` per
table (``data-kind`` = the table's kind); one ``figure.plot`` per plot, holding an ``img`` with
its intrinsic ``width``/``height`` attributes.
"""

from __future__ import annotations

import base64
from html import escape
from pathlib import Path

from .fields import fmt_time
from .files import write_atomic
from .model import Report, Table, formatted_rows

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"

CSS = """
body{font:15px/1.45 system-ui,-apple-system,"DejaVu Sans",sans-serif;margin:0;color:#111;background:#fff}
main{max-width:1100px;margin:0 auto;padding:0 1.2em 3em}
header#run-meta{background:#f2f2f2;border-bottom:1px solid #ccc;padding:1em 1.2em}
header h1{margin:.1em 0 .4em;font-size:1.5em}
div.runs{display:flex;flex-wrap:wrap;gap:.8em}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.15em 1em;margin:.4em 0;
  background:#fff;border:1px solid #ccc;padding:.5em .8em;flex:1 1 30em}
dl.meta dt{font-weight:600}dl.meta dd{margin:0}
h2{border-bottom:2px solid #333;padding-bottom:.2em;margin-top:2em}
.table-wrap{overflow-x:auto;margin:1em 0}
table.report-table{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:.9em}
table.report-table caption{caption-side:top;text-align:left;font-weight:600;padding:.3em 0}
table.report-table th,table.report-table td{border:1px solid #bbb;padding:.2em .55em;text-align:left}
table.report-table td.num{text-align:right}
table.report-table thead th{background:#e6e6e6}
table.report-table tbody.summary td{background:#f6f6f6;font-weight:600}
table.report-table tbody.summary tr:first-child td{border-top:2px solid #333}
p.note{font-size:.85em;color:#444;margin:.2em 0}
figure.plot{margin:1.2em 0}
figure.plot img{display:block;max-width:100%;height:auto;border:1px solid #ddd}
figure.plot figcaption{font-size:.9em;color:#333}
.notes li{color:#8a3b00}
p.warning{color:#8a3b00;font-weight:600}
div.headline{background:#f4f8fc;border:1px solid #9bb8d3;padding:.2em 1em}
h1.title{font-size:1.5em;margin:.8em 0 .2em}
nav ol{columns:2;margin:.5em 0}nav a{color:#0b4f8a}
"""


def table_html(t: Table) -> str:
    cols = "".join(f"<th scope=col>{escape(str(c))}</th>" for c in t.columns)
    body_text, summary_text = formatted_rows(t)
    body = "".join(_row(r, s) for r, s in zip(t.rows, body_text))
    summary = "".join(_row(r, s) for r, s in zip(t.summary_rows, summary_text))
    note = f'<p class="note">{escape(t.note)}</p>' if t.note else ""
    return (f'<div class="table-wrap"><table class="report-table" data-kind="{escape(t.kind)}">'
            f"<caption>{escape(t.title)}</caption><thead><tr>{cols}</tr></thead>"
            f"<tbody>{body}</tbody>"
            + (f'<tbody class="summary">{summary}</tbody>' if summary else "")
            + f"</table>{note}</div>")


def _row(r: list, text: list) -> str:
    return "<tr>" + "".join(
        f"<td class=num>{escape(s)}</td>"
        if isinstance(c, (int, float)) and not isinstance(c, bool) else f"<td>{escape(s)}</td>"
        for c, s in zip(r, text)) + "</tr>"


def _header(report: Report) -> str:
    parts = ['<header id="run-meta"><h2>Metadata</h2>',
             f"<p>Generated {escape(fmt_time(report.generated))} by sdnbench.</p>",
             '<div class="runs">']
    for run in report.runs:
        items = [("run", f"{run['label']} ({run['id']})"),
                 ("started", fmt_time(run.get("started"))),
                 ("finished", fmt_time(run.get("finished"))),
                 ("results", f"{run['results']} ({run['failed']} failed)"),
                 ("controller", run["controller"]), ("topology", run["topology"]),
                 ("machine", run["machine"]),
                 ("versions", ", ".join(f"{k} {v}" for k, v in sorted(run["versions"].items())) or "–"),
                 ("sdnbench", run.get("sdnbench_version") or "–")]
        items += [(k, str(v)) for k, v in sorted((run.get("meta") or {}).items())
                  if isinstance(v, (str, int, float))]
        parts.append('<dl class="meta">' + "".join(
            f"<dt>{escape(k)}</dt><dd>{escape(str(v))}</dd>" for k, v in items) + "</dl>")
        msgs = [f"failed: {e}" for e in run.get("errors") or []] + list(run.get("notes") or [])
        if msgs:
            parts.append('<ul class="notes">' + "".join(f"<li>{escape(m)}</li>" for m in msgs) + "</ul>")
    parts.append("</div></header>")
    return "".join(parts)


def render(report: Report) -> str:
    sections = []
    toc = "".join(f'<li><a href="#s{i}">{escape(s.title)}</a></li>'
                  for i, s in enumerate(report.sections, 1))
    for i, s in enumerate(report.sections, 1):
        html = [f'<section id="s{i}"><h2>{escape(s.title)}</h2>']
        if s.title == "Headline":
            html.append('<div class="headline" data-role="headline">')
        html += [f'<p class="warning">{escape(p)}</p>' if p.startswith("Warning:")
                 else f"<p>{escape(p)}</p>" for p in s.text]
        html += [table_html(t) for t in s.tables]
        for f in s.figures:
            data = base64.b64encode(f.png).decode("ascii")
            html.append(f'<figure class="plot" data-kind="{escape(f.kind)}">'
                        f'<img src="data:image/png;base64,{data}" width="{f.width_px}" '
                        f'height="{f.height_px}" alt="{escape(f.alt or f.title)}">'
                        f"<figcaption>{escape(f.title)}</figcaption></figure>")
        html.append("</div></section>" if s.title == "Headline" else "</section>")
        sections.append("".join(html))
    return ("<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            '<meta name=viewport content="width=device-width,initial-scale=1">'
            f"<title>{escape(report.title)}</title><style>{CSS}</style></head><body>"
            f'<main><h1 class="title">{escape(report.title)}</h1>{sections[0] if sections else ""}'
            f"<nav><h2>Contents</h2><ol>{toc}</ol></nav>"
            f"{''.join(sections[1:])}{_header(report)}</main></body></html>\n")


def write(report: Report, path: Path) -> list:
    write_atomic(Path(path), render(report).encode("utf-8"))
    return [Path(path)]
