"""``sdnbench results list|show|export|best``: what the results store holds.

- ``list``: the runs, with cells ok/failed/left;
- ``show RUN``: a run's provenance (scenario, seed, machine, versions) and per-configuration
  statistics (n, mean ± stdev, 95% CI, median, min..max) computed from the raw samples;
- ``export RUN [-o FILE] [--format F]``: every raw sample (the formats: ``store.export.SAMPLES``);
- ``best RUN --vary PARAM``: each configuration's best value of PARAM (e.g. each controller's best
  switch count), chosen as in the controller study, with the p-values that chose it.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path

from ..outputs import Outputs
from ..errors import UserError
from ..formats import add_flags
from ..output import add_json_flag, add_store_flag, check_writable, print_json, table
from ..store import Store
from ..store.export import SAMPLES, export

# Statistics (scipy) are imported inside the actions that need them, not at CLI start-up.
PER = ("raw", "rep")
TESTS = ("auto", "mann-whitney-u", "welch-t")


def register(sub) -> None:
    p = sub.add_parser("results", help="list, show, export and analyse stored results",
                       description=__doc__)
    rs = p.add_subparsers(dest="results_command", metavar="ACTION", parser_class=type(p))
    lp = rs.add_parser("list", help="the runs in the store")
    add_store_flag(lp, read_only=True)
    add_json_flag(lp)
    lp.set_defaults(func=cmd_list)

    sp = rs.add_parser("show", help="a run's provenance and statistics")
    sp.add_argument("run", metavar="RUN", help="run id or `latest`")
    sp.add_argument("--per", choices=PER, default="raw", help="statistics over raw samples or per-repetition means")
    sp.add_argument("--resources", action="store_true", help="also summarize resource use (CPU %%, RSS)")
    add_store_flag(sp, read_only=True)
    add_json_flag(sp)
    sp.set_defaults(func=cmd_show)

    ep = rs.add_parser("export", help=f"every raw sample of a run ({', '.join(SAMPLES.formats)})")
    ep.add_argument("run", metavar="RUN", help="run id or `latest`")
    add_flags(ep, SAMPLES, default="without -o: CSV on stdout")
    add_json_flag(ep)
    add_store_flag(ep, read_only=True)
    ep.set_defaults(func=cmd_export)

    bp = rs.add_parser("best", help="best scenario per configuration, as in the controller study")
    bp.add_argument("run", metavar="RUN", help="run id or `latest`")
    bp.add_argument("--vary", required=True, metavar="PARAM", help="the parameter to choose (e.g. switches)")
    bp.add_argument("--metric", action="append", metavar="M", help="only these metrics")
    bp.add_argument("--per", choices=PER, default="rep",
                    help="test per-repetition means (rep, default, as the study) or raw samples")
    bp.add_argument("--test", choices=sorted(TESTS), default="auto",
                    help="auto: Welch's t if both samples pass Shapiro-Wilk, else Mann-Whitney U")
    add_store_flag(bp, read_only=True)
    add_json_flag(bp)
    bp.set_defaults(func=cmd_best)
    p.set_defaults(func=lambda args, outputs: (p.print_help(), 1)[1])


def _when(t) -> str:
    return dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime("%Y-%m-%d %H:%M") if t else "-"


def cmd_list(args, outputs: Outputs) -> int:
    with Store(args.store, read_only=True) as store:
        runs = store.runs()
    if args.json:
        print_json([{k: v for k, v in vars(r).items() if k != "scenario_text"} for r in runs])
        return 0
    if not runs:
        print("no runs yet")
        return 0
    rows = [(r.id, r.kind, r.name, r.status, _when(r.created), r.counts.get("ok", 0),
             r.counts.get("failed", 0), r.counts.get("pending", 0) + r.counts.get("running", 0),
             r.seed) for r in runs]
    print(table(["run", "kind", "name", "status", "created (UTC)", "ok", "failed", "left", "seed"], rows))
    return 0


def cmd_show(args, outputs: Outputs) -> int:
    from ..compare.core import fmt_num, sort_key
    from ..compare.samples import build_side, store_pairs
    from ..stats import summarize
    with Store(args.store, read_only=True) as store:
        info = store.run(args.run)
        pairs = store_pairs(store, info.id)
        failed = store.cells(info.id, "failed")
    side = build_side(f"run {info.id}", pairs, resources=args.resources)
    stats = []
    for (bench, pkey, metric), g in sorted(side.groups.items(), key=lambda kv: sort_key(kv[0])):
        s = summarize(g.values(args.per))
        stats.append({"benchmark": bench, "params": g.params, "metric": metric, "unit": g.unit,
                      "repetitions": side.ok_cells.get((bench, pkey), 0),
                      "failed": len(side.failures.get((bench, pkey), [])), "summary": s.to_dict()})
    if args.json:
        head = {k: v for k, v in vars(info).items()}
        print_json({"run": head, "statistics": stats,
                    "failed_cells": [{"params": c.params, "repetition": c.repetition, "error": c.error}
                                     for c in failed]})
        return 0
    _print_header(info)
    varying = _varying_keys([s["params"] for s in stats])
    rows = []
    for s in stats:
        m = s["summary"]
        ci = f"{fmt_num(m['ci_low'])}..{fmt_num(m['ci_high'])}" if m["ci_low"] is not None else "-"
        rows.append([s["benchmark"]] + [str(s["params"].get(k, "-")) for k in varying] +
                    [f"{s['metric']} ({s['unit']})", s["repetitions"], s["failed"], m["n"],
                     fmt_num(m["mean"]), fmt_num(m["stdev"]), ci, fmt_num(m["median"]),
                     f"{fmt_num(m['min'])}..{fmt_num(m['max'])}"])
    if rows:
        print()
        print(table(["benchmark"] + varying + ["metric", "reps", "failed", "n", "mean", "stdev",
                                               "95% CI", "median", "range"], rows))
        print(f"(n = {'raw samples' if args.per == 'raw' else 'repetitions'}; stdev with n-1; "
              "CI: Student's t)")
    if failed:
        print(f"\nfailed cells ({len(failed)}):")
        for c in failed:
            print(f"  {c.benchmark} {json.dumps(c.params, sort_keys=True)} #{c.repetition + 1}: {c.error}")
    return 0


def _print_header(info) -> None:
    m = info.machine
    left = info.counts.get("pending", 0) + info.counts.get("running", 0)
    print(f"run {info.id}: {info.name} ({info.kind}, {info.status}), created {_when(info.created)} UTC")
    if info.description:
        print(f"  {info.description}")
    print(f"  cells: {info.counts.get('ok', 0)} ok, {info.counts.get('failed', 0)} failed, {left} left;"
          f" seed {info.seed}; sdnbench {info.sdnbench_version}"
          + (f"; options {info.options}" if info.options else ""))
    print(f"  machine: {m.get('hostname')}, {m.get('cpu_model')}, {m.get('cores')} cores, "
          f"{(m.get('memory_bytes') or 0) / 2**30:.1f} GiB, kernel {m.get('kernel')}")
    if info.versions:
        print("  versions: " + ", ".join(f"{k} {v}" for k, v in sorted(info.versions.items())))
    if info.scenario_path:
        print(f"  scenario: {info.scenario_path}")


def _varying_keys(param_dicts: list) -> list:
    keys: list = []
    for p in param_dicts:
        keys += [k for k in p if k not in keys]
    return [k for k in keys if len({json.dumps(p.get(k), default=str) for p in param_dicts}) > 1]


def cmd_export(args, outputs: Outputs) -> int:
    if args.json and (args.output or args.format not in (None, "json")):
        raise UserError("--json prints JSON on stdout; to write a file use -o FILE")
    fmt = "json" if args.json else (SAMPLES.format_for(args.output, args.format) if args.output
                                    else args.format or "csv")
    if args.output:
        check_writable(args.output)
    with Store(args.store, read_only=True) as store:
        run_id = store.resolve_run(args.run)
        text = export(store, run_id, fmt, Path(args.output) if args.output else None)
    if text is not None:
        sys.stdout.write(text)
    else:
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


def cmd_best(args, outputs: Outputs) -> int:
    from ..compare.core import fmt_num, sort_key
    from ..compare.samples import build_side, store_pairs
    from ..stats import best_scenario, higher_is_better
    with Store(args.store, read_only=True) as store:
        info = store.run(args.run)
        pairs = store_pairs(store, info.id)
    if not any(args.vary in it[0] for it in pairs):
        raise UserError(f"run {info.id} has no parameter {args.vary!r}; its parameters: "
                        f"{', '.join(sorted({k for it in pairs for k in it[0]}))}")
    side = build_side(f"run {info.id}", pairs, drop=[args.vary])
    full = build_side(f"run {info.id}", pairs)
    known = sorted({metric for _b, _p, metric in side.groups})
    unknown = [m for m in args.metric or [] if m not in known]
    if unknown:
        raise UserError(f"--metric {unknown[0]}: run {info.id} measured no such metric; "
                        f"its metrics: {', '.join(known) or 'none'}")
    out = []
    for (bench, _pkey, metric), g in sorted(side.groups.items(), key=lambda kv: sort_key(kv[0])):
        if args.metric and metric not in args.metric:
            continue
        by_value = {}
        for (b2, _pk2, m2), g2 in full.groups.items():
            if b2 == bench and m2 == metric and {k: v for k, v in g2.params.items() if k != args.vary} == g.params:
                by_value[g2.params.get(args.vary)] = g2.values(args.per)
        for cell, _errs in full.failures.items():
            p = json.loads(cell[1])
            if cell[0] == bench and {k: v for k, v in p.items() if k != args.vary} == g.params:
                by_value.setdefault(p.get(args.vary), [])
        hib = higher_is_better(metric, g.unit)
        best = best_scenario(by_value, hib, test=args.test)
        if best is not None:
            out.append({"benchmark": bench, "params": g.params, "metric": metric, "unit": g.unit,
                        "higher_is_better": hib, "best": best})
    if args.json:
        print_json([{**o, "best": o["best"].to_dict()} for o in out])
        return 0
    varying = _varying_keys([o["params"] for o in out])
    for o in out:
        b = o["best"]
        where = " ".join(f"{k}={o['params'].get(k)}" for k in varying)
        head = " ".join(x for x in (o["benchmark"], where, o["metric"]) if x)
        print(f"{head} ({'higher' if o['higher_is_better'] else 'lower'}"
              f" is better): best {args.vary}={b.value} (median {fmt_num(b.median)} {o['unit']}), "
              f"decided by {b.decided_by}" + (f", tied with {b.tied_with}" if b.tied_with else ""))
        for first, second, test, alt, p in b.p_values():
            pv = "-" if p is None else f"{p:.4g}"
            verdict = "" if p is None else (" (different)" if p < 0.05 else " (not different)") \
                if alt == "two-sided" else ("" if p is None else (" (yes)" if p < 0.05 else " (no)"))
            question = (f"{first} vs {second}: {test} two-sided" if alt == "two-sided"
                        else f"{first} better than {second}? {test} one-sided ({alt})")
            print(f"    {args.vary}={question} p={pv}{verdict}")
        if b.skipped:
            print(f"    no samples (all failed): {args.vary}={b.skipped}")
    return 0

