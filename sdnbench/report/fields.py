"""The report fields RFC 8456 §4.8 requires for every controller test, and the metadata header
of a run, from what the results recorded. A field that was not recorded says so ("not
recorded"): a report never guesses."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Optional

from .. import fmt
from ..engine.stored import EngineCounters
from .model import RunData, Table
from .observations import REP_KEYS

NOT_RECORDED = "not recorded"


def _first(results: list, get) -> Any:
    for r in results:
        v = get(r)
        if v not in (None, "", {}, []):
            return v
    return None


def _controllers(results: list) -> str:
    seen = []
    for r in results:
        c = r.controller or {}
        if not c:
            continue
        name = c.get("name") or c.get("spec") or "?"
        text = f"{name} {c.get('version') or ''}".strip()
        if c.get("app"):
            text += f" (app {c['app']})"
        if text not in seen:
            seen.append(text)
    return "; ".join(seen) or NOT_RECORDED


def _protocols(results: list) -> str:
    vs = sorted({str((r.controller or {}).get("of_version") or r.params.get("of_version") or "")
                 for r in results} - {""})
    return ("southbound OpenFlow " + ", ".join(vs)) if vs else NOT_RECORDED


def _nodes_links(results: list) -> str:
    seen = []
    for r in results:
        t = r.topology or {}
        sw = t.get("switches", r.params.get("switches"))
        hosts = t.get("hosts")
        links = t.get("links")
        parts = []
        for name, v in (("switches", sw), ("hosts", hosts), ("links", links)):
            if isinstance(v, list):
                v = len(v)
            if v is not None:
                parts.append(f"{v} {name[:-1] if v == 1 else name}")
        text = (f"{t['spec']}: " if t.get("spec") else "") + ", ".join(parts)
        if parts and text not in seen:
            seen.append(text)
    if len(seen) > 4:
        return f"{len(seen)} sizes, {seen[0]} … {seen[-1]}"
    return "; ".join(seen) or NOT_RECORDED


def _device_type(results: list) -> str:
    kinds = {r.kind for r in results}
    out = []
    if "controller" in kinds:
        out.append("emulated (sdnbench-engine switches)")
    if "net" in kinds:
        dp = _first(results, lambda r: r.params.get("datapath") or (r.topology or {}).get("datapath"))
        out.append(f"virtual (Open vSwitch in Mininet{', datapath ' + str(dp) if dp else ''})")
    return "; ".join(out) or NOT_RECORDED


def _traffic(results: list) -> str:
    c = Counter(r.benchmark for r in results)
    return ", ".join(f"{b} ×{n}" for b, n in c.items()) or NOT_RECORDED


def _system(results: list) -> str:
    m = _first(results, lambda r: r.machine) or {}
    if not m:
        return NOT_RECORDED
    mem = m.get("memory_bytes")
    mem_s = f"{mem / 2**30:.1f} GiB" if mem else "? GiB"
    return (f"{m.get('cpu_model', '?')}, {m.get('cores', '?')} cores, {mem_s}, "
            f"{m.get('os', '?')} (kernel {m.get('kernel', '?')}); VM: {m.get('vm', NOT_RECORDED)}")


def _trials(results: list) -> str:
    """Trials per condition, counted per condition: "3 per condition", or, when conditions
    differ, each benchmark's own count ("throughput 3, latency 2, capacity 1 per condition")."""
    per_condition: dict = {}
    for r in results:
        rep = next((r.params[k] for k in REP_KEYS if k in r.params), None)
        if rep is None:
            continue
        cond = (r.benchmark, json.dumps({k: v for k, v in r.params.items() if k not in REP_KEYS},
                                        sort_keys=True, default=str))
        per_condition.setdefault(cond, set()).add(json.dumps(rep, default=str))
    if not per_condition:
        return f"{fmt.plural(len(results), 'result')}, no repetition number recorded"
    per_bench: dict = {}
    for (bench, _), reps in per_condition.items():
        per_bench.setdefault(bench, set()).add(len(reps))
    counts = {n for ns in per_bench.values() for n in ns}
    if len(counts) == 1:
        return f"{counts.pop()} per condition"
    return ", ".join(f"{b} {'–'.join(str(n) for n in sorted(ns))}"
                     for b, ns in per_bench.items()) + " per condition"


def encryption(r) -> str:
    """Whether one result's OpenFlow sessions were encrypted, from what the run used: the
    engine's own account when it gave one (its ``transport``, TLS-CONTRACT.md section 3, kept in
    the params beside ``of_negotiated``: what the engine actually ran), else the launch's (a TLS
    controller spec, ``controller.tls``: it listens for nothing else, so every session was TLS;
    the version and cipher suite are then not known here). Nothing of TLS recorded: plain TCP,
    all sdnbench spoke before TLS."""
    t = (r.params or {}).get("transport")
    if isinstance(t, str):      # as engine/convert.py writes it: transport, tls_version, tls_cipher_suite
        p = r.params
        t = {"protocol": t, "tls_version": p.get("tls_version"), "cipher_suite": p.get("tls_cipher_suite"),
             "sessions_tls": p.get("sessions_tls", EngineCounters.of(r).sessions_tls)}
    if isinstance(t, dict) and t.get("protocol"):
        if t["protocol"] != "tls":
            return "no (plain TCP)"
        said = ", ".join(str(x) for x in (t.get("tls_version"), t.get("cipher_suite")) if x)
        n = t.get("sessions_tls")
        return "yes: TLS" + (f" ({said})" if said else "") + (f", {n} TLS sessions" if n is not None else "")
    if (r.controller or {}).get("tls") or (r.params or {}).get("tls"):
        return "yes: TLS (the controller took nothing else; version and cipher suite not recorded)"
    return "no (plain TCP)"


def _encrypted(results: list) -> str:
    seen = list(dict.fromkeys(encryption(r) for r in results))
    return "; ".join(seen) or NOT_RECORDED


def _settings(results: list) -> str:
    keys = ("app", "config", "spec")
    c = _first(results, lambda r: r.controller) or {}
    parts = [f"{k}={c[k]}" for k in keys if c.get(k)]
    return ", ".join(parts) or NOT_RECORDED


def report_fields(run: RunData) -> Table:
    """RFC 8456 §4.8 report fields for one run, as a two-column table."""
    rs = [r for r in run.results]
    rows = [
        ["controller name and version", _controllers(rs)],
        ["northbound / southbound protocols", "northbound: none used; " + _protocols(rs)],
        ["standalone or cluster", "standalone (RFC 8456 §3.1)"],
        ["connection encrypted", _encrypted(rs)],
        ["network device type", _device_type(rs)],
        ["nodes and links", _nodes_links(rs)],
        ["test traffic", _traffic(rs)],
        ["controller system", _system(rs)],
        ["controller settings", _settings(rs)],
        ["trials", _trials(rs)],
    ]
    return Table(title=f"RFC 8456 report fields: {run.label}", columns=["field", "value"],
                 rows=rows, kind="fields")


def run_header(run: RunData) -> dict:
    """The metadata a report header shows for one run."""
    rs = run.results
    started = min((r.started for r in rs if r.started), default=None)
    finished = max((r.finished for r in rs if r.finished), default=None)
    versions: dict = {}
    for r in rs:
        versions.update(r.versions or {})
    failed = [r for r in rs if r.status != "ok"]
    from .headline import merge_notes
    notes = merge_notes([n for r in rs for n in r.notes or []])
    return {"id": run.id, "label": run.label, "meta": run.meta, "results": len(rs),
            "failed": len(failed), "errors": [r.error for r in failed if r.error][:5],
            "started": started, "finished": finished, "controller": _controllers(rs),
            "topology": _nodes_links(rs), "machine": _system(rs), "versions": versions,
            "sdnbench_version": _first(rs, lambda r: r.sdnbench_version), "notes": notes[:20]}


def fmt_time(ts: Optional[float]) -> str:
    import time
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(ts)) if ts else "–"
