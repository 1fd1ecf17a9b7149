"""The evaluation as a report in the RFC's form (``sdnbench.report.model.Report``, so the
Markdown, one-file HTML and JSON exporters serialize it unchanged):

1. "Headline", the first page: one row per test figure, one column per controller, the
   figure with its unit (mean ± the 95 % t half-interval, or the single trial), and the better
   controller where the difference is significant; then the tests that cannot apply, with why.
2. One section per test: the §4.8 fields for each controller (test set-up, controller and
   version, southbound and northbound interfaces, topology, test traffic, trials), and its
   trial table: one row per trial, then the average and the variance (§4.7).
3. The machine: what it is and how loaded it was while the trials ran.
"""

from __future__ import annotations

import time
from typing import Optional

from ..report.fields import NOT_RECORDED, encryption, fmt_time
from ..report.headline import merge_notes
from ..discovery.stored import DiscoveryCounters
from ..fmt import num as fmt_number
from ..report.model import Report, Section, Table
from .evaluation import column, compare, title
from .suite import BY_SLUG, TESTS, TRIALS

def build(meta: dict, cells: dict, run_info: dict, now: Optional[float] = None) -> Report:
    ctls = meta["controllers"]
    rep = Report(title="RFC 8456 evaluation: " + " vs ".join(column(c) for c in ctls),
                 generated=now or time.time(), runs=[_run_header(run_info, cells)])
    rep.sections.append(first_page(meta, cells, run_info))
    for t in TESTS:
        mine = [cells[(t.slug, c)] for c in ctls if (t.slug, c) in cells]
        if any(c.spec is not None for c in mine):
            rep.sections.append(test_section(t.slug, mine))
    rep.sections.append(machine_section(cells, run_info))
    rep.cells = [_cell_dict(c) for c in cells.values()]
    return rep


def first_page(meta: dict, cells: dict, run_info: dict) -> Section:
    ctls = meta["controllers"]
    prof = meta["profile"]
    s = Section("Headline")
    flag = "" if prof == "default" else f" --{prof}"
    s.text.append(f"RFC 8456 (benchmarking methodology for SDN controllers) run by `sdnbench rfc8456{flag}`"
                  f" ({prof} profile,"
                  f" {TRIALS[prof]} trial{'s' if TRIALS[prof] > 1 else ''} per test; the RFC asks for 10) on "
                  f"{fmt_time(run_info.get('started'))} – {fmt_time(run_info.get('finished'))}, run "
                  f"{run_info.get('id')}. Each cell: the mean of the trials ± the half-width of its 95 % "
                  "t interval (one trial: its value). ★ marks the better controller where a one-sided test "
                  "of its trials against every other controller's is significant (p < 0.05; with this many "
                  "rows, about one in twenty is marked by chance). A discovery time is known to the poll "
                  "interval; the RFC's DT beside it is timed at the southbound interface. ≥: every trial "
                  "reached the test's own limit (all sessions offered held, the size search's maximum), so "
                  "the controller's is at least that.")
    load = load_text(cells)
    if load:
        s.text.append(load)
    rows = []
    for t in TESTS:
        for i, f in enumerate(t.figures):
            if not any(cells.get((t.slug, c)) and cells[(t.slug, c)].spec for c in ctls):
                continue            # applies to none: only in the table of tests that cannot apply
            v = compare(cells, t.slug, i, ctls)
            row = [f"§{t.sections} {t.title}", f"{f.name} ({f.unit}, {'higher' if f.higher else 'lower'} is better)"]
            for c in ctls:
                row.append(_glance(cells.get((t.slug, c)), i, c == v.better))
            row.append(f"{column(v.better)} (p = {v.p_value:.2g}, {v.test})" if v.better else (v.note or "–"))
            rows.append(row)
    s.tables.append(Table("One row per test figure, one column per controller",
                          ["test", "figure"] + [column(c) for c in ctls] + ["better (significant)"], rows,
                          kind="rfc8456-glance"))
    na = [[f"§{BY_SLUG[c.slug].sections} {BY_SLUG[c.slug].title}", column(c.controller), c.reason]
          for c in cells.values() if c.spec is None]
    if na:
        s.tables.append(Table("Tests that cannot apply", ["test", "controller", "why"], na, kind="not-applicable"))
    return s


def _glance(cell, i: int, better: bool) -> str:
    if cell is None:
        return "–"
    if cell.spec is None:
        return "n/a"
    f = cell.figures[i] if cell.figures else None
    if f is None or f.mean is None:
        failed = [t for t in cell.trials if t.result.status != "ok"]
        return f"failed ({len(failed)}/{len(cell.trials)})" if failed else ("no value" if cell.trials else "not run")
    text = fmt_number(f.mean)
    if cell.trials and all(BY_SLUG[cell.slug].at_limit(t.result) for t in cell.trials):
        text = "≥ " + text                  # every trial stopped at the test's own limit
    if f.ci is not None:
        text += f" ± {fmt_number((f.ci[1] - f.ci[0]) / 2)}"
    text += f" {f.unit} (n={f.n})"
    return ("★ " + text) if better else text


def test_section(slug: str, mine: list) -> Section:
    s = Section(title(slug))
    for c in mine:
        if c.spec is None:
            s.text.append(f"{column(c.controller)}: not applicable: {c.reason}.")
            continue
        s.tables.append(fields_table(slug, c))
        s.tables.append(trial_table(slug, c))
        notes = merge_notes([n for t in c.trials for n in (t.result.notes or []) if len(n) < 400])
        s.text += [f"{column(c.controller)}: {n}" for n in notes[:6]]
    return s


def fields_table(slug: str, c) -> Table:
    r = next((t.result for t in c.trials if t.result.status == "ok"), c.trials[0].result if c.trials else None)
    ctl = (r.controller or {}) if r else {}
    rfc = (DiscoveryCounters.of(r).rfc8456 or {}) if r else {}
    topo = (r.topology or {}) if r else {}
    ok = sum(1 for t in c.trials if t.result.status == "ok")
    rows = [
        ["test set-up", "cluster of 2 instances (§3.2), the master killed" if BY_SLUG[slug].role == "takeover" else
         "standalone (§3.1): one controller on 127.0.0.1, the forwarding plane emulated by sdnbench-engine"],
        ["controller and version", f"{ctl.get('name') or c.spec} {ctl.get('version') or ''}".strip()
         + f" (app run: {c.spec})"],
        ["southbound interface", f"OpenFlow {ctl.get('of_version') or (r.params.get('of_version') if r else '?')}"],
        ["connection encrypted", encryption(r) if r else NOT_RECORDED],
        ["northbound interface", _northbound(slug, rfc, c.spec)],
        ["topology", _topology(topo, r)],
        ["network device type", "emulated (sdnbench-engine switches)"],
        ["test traffic", BY_SLUG[slug].traffic],
        ["trials", f"{len(c.trials)} run, {ok} successful" + (f", {c.planned} planned" if c.planned else "")],
        ["parameters", ", ".join(f"{k}={v}" for k, v in sorted((r.params if r else {}).items())
                                 if k not in ("controller", "repetition", "rep") and not isinstance(v, (dict, list)))],
    ]
    return Table(f"{column(c.controller)}: report fields (RFC 8456 §4.8)", ["field", "value"], rows, kind="fields")


def _northbound(slug: str, rfc: dict, spec: str) -> str:
    role = BY_SLUG[slug].role          # what the test needs of the controller (roles.py)
    if role == "topology":
        return f"{rfc.get('northbound') or '?'} topology API, polled (the view is verified northbound)"
    if role == "proactive":
        return f"{spec}'s flow-push API (HTTP JSON), one request per switch of a path"
    return "none used (southbound only)"


def _topology(topo: dict, r) -> str:
    if not topo:
        return "–"
    parts = [f"{k} {topo[k]}" for k in ("switches", "links", "hosts_per_switch") if topo.get(k) is not None]
    return f"{topo.get('spec', '?')}" + (f" ({', '.join(parts)})" if parts else "")


def trial_table(slug: str, c) -> Table:
    figs = BY_SLUG[slug].figures
    rows = [[t.repetition + 1] + [t.values[i] for i in range(len(figs))] + [t.detail] for t in c.trials]
    avg = ["average"] + [f.mean for f in c.figures] + [""]
    var = ["variance"] + [f.variance for f in c.figures] + [""]
    ci = ["95 % CI"] + [f"{fmt_number(f.ci[0])} – {fmt_number(f.ci[1])}" if f.ci else "–" for f in c.figures] + [""]
    return Table(f"{column(c.controller)}: trials", ["trial"] + [f"{f.name} ({f.unit})" for f in figs] + ["trial notes"],
                 rows, summary_rows=[avg, var, ci], kind="rfc8456-trials",
                 note="average = Σx/n, variance = Σ(x − average)²/(n − 1) over the trials with a value (§4.7)")


def load_text(cells: dict) -> str:
    loads = [l for c in cells.values() for t in c.trials
             for l in ((t.result.machine or {}).get("loadavg_before"), (t.result.machine or {}).get("loadavg_after"))
             if isinstance(l, (int, float))]
    if not loads:
        return ""
    return (f"The machine ({_cores(cells)} cores) was shared with other work while these trials ran: 1-minute load "
            f"average {min(loads):.2f} – {max(loads):.2f} (median {sorted(loads)[len(loads) // 2]:.2f}); "
            "rates and times on a quiet machine would differ.")


def _cores(cells: dict) -> str:
    for c in cells.values():
        for t in c.trials:
            n = (t.result.machine or {}).get("cores")
            if n:
                return str(n)
    return "?"


def machine_section(cells: dict, run_info: dict) -> Section:
    s = Section("The machine")
    m = next((t.result.machine for c in cells.values() for t in c.trials if t.result.machine), {}) or {}
    mem = m.get("memory_bytes")
    s.text.append(f"{m.get('cpu_model', '?')}, {m.get('cores', '?')} cores, "
                  f"{mem / 2**30:.1f} GiB, {m.get('os', '?')} (kernel {m.get('kernel', '?')})." if mem else
                  "Machine not recorded.")
    load = load_text(cells)
    if load:
        s.text.append(load)
    s.text.append(f"Store run {run_info.get('id')} ({run_info.get('status')}); resume an interrupted evaluation "
                  f"with `sdnbench rfc8456 --resume {run_info.get('id')}`.")
    return s


def _run_header(info: dict, cells: dict) -> dict:
    rs = [t.result for c in cells.values() for t in c.trials]
    failed = [r for r in rs if r.status != "ok"]
    return {"id": str(info.get("id")), "label": info.get("name", "rfc8456"), "meta": {"status": info.get("status")},
            "results": len(rs), "failed": len(failed), "errors": [r.error for r in failed if r.error][:5],
            "started": info.get("started"), "finished": info.get("finished"),
            "controller": "; ".join(sorted({f"{(r.controller or {}).get('name')} {(r.controller or {}).get('version')}"
                                            for r in rs if r.controller})),
            "topology": "per test (see each test's fields)", "machine": "see “The machine”",
            "versions": {k: v for r in rs for k, v in (r.versions or {}).items()}, "notes": []}


def _cell_dict(c) -> dict:
    return {"test": c.slug, "sections": BY_SLUG[c.slug].sections, "controller": c.controller, "app": c.spec,
            "status": c.status, "reason": c.reason or None,
            "figures": [{"name": f.name, "unit": f.unit, "higher_is_better": f.higher, "n": f.n, "mean": f.mean,
                         "variance": f.variance, "ci95": list(f.ci) if f.ci else None} for f in c.figures],
            "trials": [{"trial": t.repetition + 1, "status": t.result.status, "error": t.result.error,
                        "values": t.values, "detail": t.detail} for t in c.trials]}
