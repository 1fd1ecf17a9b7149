"""The matrix as Markdown: one row per controller × version, one column per stimulus, each
cell "identical", "explained (#n)" when every item that differs is one docs/conformance.md
explains, or what differs (counts per category; the items in a details list)."""

from __future__ import annotations

import re

from .harness import summary
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
    why = explained(c)
    return f"explained (#{', #'.join(map(str, why))})" if why else f"**unexplained**: {summary(c)}"


def table(cells: list) -> str:
    rows: dict = {}
    for c in cells:
        rows.setdefault((c["controller"], c["version"]), {})[c["stimulus"]] = verdict(c)
    head = "| controller | OpenFlow | " + " | ".join(STIMULI) + " |"
    lines = [head, "|" + "---|" * (len(STIMULI) + 2)]
    for (ctl, v), by in rows.items():
        lines.append(f"| {ctl} | {v} | " + " | ".join(by.get(s, "not run") for s in STIMULI) + " |")
    return "\n".join(lines)


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
                if len(items) > limit:
                    out.append(f"  - … {len(items) - limit} more {cat} only on {side[5:]}")
    return "\n".join(out)


if __name__ == "__main__":
    import json
    import sys
    cells = [c for f in sys.argv[1:] for c in json.load(open(f))]
    print(table(cells))
    print()
    print(details(cells))
    n = len(cells)
    same = sum(1 for c in cells if c.get("identical"))
    expl = sum(1 for c in cells if not c.get("identical") and explained(c))
    print(f"\n{n} cells: {same} identical, {expl} differing only as explained, {n - same - expl} unexplained")
