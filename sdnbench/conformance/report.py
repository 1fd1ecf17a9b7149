"""The matrix as Markdown (pure): one row per controller × version, one column per stimulus,
each cell "identical", "explained (#n)" when every item that differs is one docs/conformance.md
explains, or what differs (counts per category; the first items in a details list)."""

from __future__ import annotations

import re

from .stimuli import STIMULI

# Differences docs/conformance.md explains (its table's numbers), each as a test on one item.
EXPLAINED = (
    # 7: Mininet's link down is both interfaces administratively down (config PORT_DOWN, and a
    # transitional config 0 state 0 on the way up); the emulated link fails as a cable would
    (7, lambda stim, side, cat, x: stim == "link" and cat == "received" and
        re.search(r"PORT_STATUS reason=2 port,config,state=\(\d+, (1, 1|0, 0|0, 1|0, 4)\)$", x) is not None),
    # 8: an LLDP probe reaching a switch before that switch's LLDP entry (which switch: timing)
    (8, lambda stim, side, cat, x: cat == "received" and "PACKET_IN reason=0" in x and x.endswith("frame=lldp")),
    # 10: Faucet's per-port clean-up deletes go to whichever switch it configures first
    (10, lambda stim, side, cat, x: cat == "sent" and '"command": 3' in x and '"cookie": 1524372928' in x),
)


def summary(c: dict) -> str:
    if "error" in c:
        return f"not run: {c['error']}"
    if c["identical"]:
        return "identical"
    n = c.get("differing") or {"ovs": {k: len(v) for k, v in c["only_ovs"].items()},
                               "engine": {k: len(v) for k, v in c["only_engine"].items()}}
    parts = []
    for cat in ("received", "sent", "flows"):
        a, b = n["ovs"].get(cat, 0), n["engine"].get(cat, 0)
        if a or b:
            parts.append(f"{cat} ovs+{a}/engine+{b}")
    return "; ".join(parts)


def explained(c: dict) -> list:
    """The numbers of the explanations that cover every item of a differing cell, or []."""
    used = set()
    for side in ("only_ovs", "only_engine"):
        for cat, items in c[side].items():
            for x in items:
                n = next((n for n, ok in EXPLAINED if ok(c["stimulus"], side, cat, x.split(" ", 1)[1])), None)
                if n is None:
                    return []
                used.add(n)
    return sorted(used)


def verdict(c: dict) -> str:
    if "error" in c or c.get("identical"):
        return summary(c)
    why = c["explained"] if "explained" in c else explained(c)
    return f"explained (#{', #'.join(map(str, why))})" if why else f"**unexplained**: {summary(c)}"


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
    """Identical, or differing only as docs/conformance.md explains (the check passes)."""
    return "error" not in c and (c["identical"] or bool(c["explained"] if "explained" in c else explained(c)))


def totals(cells: list) -> str:
    n = len(cells)
    same = sum(1 for c in cells if c.get("identical"))
    expl = sum(1 for c in cells if agrees(c) and not c.get("identical"))
    err = sum(1 for c in cells if "error" in c)
    return (f"{n} cells: {same} identical, {expl} differing only as explained, {n - same - expl - err} unexplained"
            + (f", {err} not run" if err else ""))


def details(cells: list, limit: int = 12) -> str:
    out = []
    for c in cells:
        if c.get("identical") or "error" in c:
            continue
        out.append(f"- **{c['controller']} {c['version']} {c['stimulus']}** ({summary(c)})"
                   + (f" (notes: {'; '.join(c['notes'])})" if c.get("notes") else ""))
        for side in ("only_ovs", "only_engine"):
            for cat, items in c[side].items():
                for x in items[:limit]:
                    out.append(f"  - {side.replace('only_', 'only on ')} {cat}: `{x[:220]}`")
                total = (c.get("differing") or {}).get(side[5:], {}).get(cat, len(items))
                if total > min(limit, len(items)):
                    out.append(f"  - … {total - min(limit, len(items))} more {cat} only on {side[5:]}")
    return "\n".join(out)

