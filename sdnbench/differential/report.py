"""The matrix as Markdown (pure): one row per controller × version, one column per stimulus, each
cell's verdict (``classify.py``): identical; noise (every difference is one Open vSwitch shows
against itself, with the counts); explained (by the noise floor and named evidence,
``evidence.py``); or unexplained (what differs, counted per set). The details list the noise floor
(what OVS A and B differ in) and each label's first items.

A cell of a file written before the noise floor (no ``verdict``) has no evidence: it differs
unexplained unless identical."""

from __future__ import annotations

from .stimuli import STIMULI

CATS = ("received", "sent", "flows")


def summary(c: dict) -> str:
    if "error" in c:
        return f"not run: {c['error']}"
    if c["identical"]:
        return "identical"
    n = c.get("differing") or {"ovs": {k: len(v) for k, v in c["only_ovs"].items()},
                               "engine": {k: len(v) for k, v in c["only_engine"].items()}}
    parts = []
    for cat in CATS:
        a, b = n["ovs"].get(cat, 0), n["engine"].get(cat, 0)
        if a or b:
            parts.append(f"{cat} ovs+{a}/engine+{b}")
    return "; ".join(parts)


def _floor(c: dict) -> str:
    """``A/B +a/+b`` (what each OVS run had that another lacked), ``A/B/C +a/+b/+c`` for three runs."""
    f = c.get("noise_floor") or {}
    per = f.get("per_run") or [f.get("a") or {}, f.get("b") or {}]
    names = f.get("run_names") or [chr(ord("A") + i) for i in range(len(per))]
    head = "/".join(names) + " " + "/".join(f"+{sum(p.values())}" for p in per)
    x = c.get("noise_extra") or {}
    if x.get("taken"):
        head += (f", {x['taken']} further run{'s' if x['taken'] > 1 else ''} of {x['limit']} "
                 f"(unexplained {'→'.join(map(str, x['unexplained']))})")
    return head + (f", fields {', '.join(f['fields'])}" if f.get("fields") else "")


def _pooled(c: dict) -> str:
    """``, 1 pooled over 11 connect phases (connect, frames, link)`` when the pooled connect-phase
    floor (``pooled.py``) labelled an item, or judged one and left it unexplained (``0 pooled``),
    else ''."""
    n = (c.get("labels") or {}).get("pooled", 0)
    p = c.get("pooled") or {}
    if not n and not c.get("pooled_seen"):
        return ""
    return f", {n} pooled over {p.get('runs', '?')} connect phases ({', '.join(p.get('stimuli') or [])})"


def _across(c: dict) -> str:
    """``; 8 OVS runs from 2 commands`` for a cell judged again across commands (``crosspool.py``), else ''."""
    x = c.get("pooled_across")
    if not x:
        return ""
    return (f"; {x['runs']} OVS runs from {x['same_stimulus_commands']} command"
            f"{'s' if x['same_stimulus_commands'] != 1 else ''}"
            + (f", connect phases from {x['commands']}" if x["commands"] != x["same_stimulus_commands"] else ""))


def kind(c: dict) -> str:
    """identical, noise, explained, unexplained or error."""
    if "error" in c:
        return "error"
    if c.get("identical"):
        return "identical"
    return c.get("verdict") or "unexplained"


def verdict(c: dict) -> str:
    k = kind(c)
    if k in ("error", "identical"):
        return summary(c)
    labels = c.get("labels") or {}
    if k == "noise":
        return f"noise ({labels.get('noise', 0) + labels.get('pooled', 0)} items; {_floor(c)}{_pooled(c)}{_across(c)})"
    if k == "explained":
        parts = [f"{lab} {n}" for lab, n in sorted(labels.items())]
        return f"explained ({', '.join(parts)}{_pooled(c)}{_across(c)})"
    if "verdict" not in c:
        return f"**unexplained** (no noise floor): {summary(c)}"
    return (f"**unexplained** ({labels.get('unexplained', 0)} of {sum(labels.values())} items{_pooled(c)}{_across(c)}): "
            f"{summary(c)}")


def table(cells: list) -> str:
    rows: dict = {}
    for c in cells:
        rows.setdefault((c["controller"], c["version"]), {})[c["stimulus"]] = verdict(c)
    stims = [s for s in STIMULI if any(c["stimulus"] == s for c in cells)]
    head = "| controller | OpenFlow | " + " | ".join(stims) + " |"
    lines = [head, "|" + "---|" * (len(stims) + 2)]
    for (ctl, v), by in rows.items():
        lines.append(f"| {ctl} | {v} | " + " | ".join(by.get(s, "not run") for s in stims) + " |")
    return "\n".join(lines)


def agrees(c: dict) -> bool:
    """Identical, noise, or explained by evidence (the check passes)."""
    return kind(c) in ("identical", "noise", "explained")


def totals(cells: list) -> str:
    n = {k: sum(1 for c in cells if kind(c) == k) for k in ("identical", "noise", "explained", "unexplained", "error")}
    return (f"{len(cells)} cells: {n['identical']} identical, {n['noise']} noise, {n['explained']} explained by "
            f"evidence, {n['unexplained']} unexplained" + (f", {n['error']} not run" if n["error"] else ""))


def _items(out: list, what: str, by_side: dict, totals_: dict, limit: int, seen: dict = None,
           pool: dict = None) -> None:
    for side in ("only_ovs", "only_engine"):
        for cat, items in (by_side.get(side) or {}).items():
            for x in items[:limit]:
                k = (seen or {}).get((what, side, cat, x))
                runs = f" (in {k[0]} of {k[1]} OVS runs)" if k else ""
                p = (pool or {}).get((what, side, cat, x))
                runs += f" (before the stimulus only; pooled: in {p[0]} of {p[1]} OVS runs)" if p else ""
                out.append(f"  - {what}, {side.replace('only_', 'only on ')} {cat}: `{x[:220]}`{runs}")
            total = totals_.get(side, {}).get(cat, len(items))
            if total > min(limit, len(items)):
                out.append(f"  - … {total - min(limit, len(items))} more")


def details(cells: list, limit: int = 12) -> str:
    out = []
    for c in cells:
        if c.get("identical") or "error" in c:
            continue
        out.append(f"- **{c['controller']} {c['version']} {c['stimulus']}** ({summary(c)}; noise floor {_floor(c)})"
                   + (f" (notes: {'; '.join(c['notes'])})" if c.get("notes") else ""))
        if "by_label" not in c:
            _items(out, "no noise floor", c, {f"only_{k}": v for k, v in (c.get("differing") or {}).items()}, limit)
            continue
        seen = {tuple(s[:4]): s[4:] for s in c.get("seen_in_ovs_runs") or []}
        pool = {tuple(s[:4]): s[4:] for s in c.get("pooled_seen") or []}
        for lab, by_side in sorted(c["by_label"].items(), key=lambda kv: kv[0] != "unexplained"):
            _items(out, lab, by_side, (c.get("by_label_n") or {}).get(lab, {}), limit, seen, pool)
    return "\n".join(out)
