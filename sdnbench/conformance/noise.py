"""Pure: the noise floor of a cell. Open vSwitch runs twice (A and B) with the same controller,
topology and stimulus; what A and B differ in is noise, and an OVS-vs-engine difference of the
same kind is noise too, counted as such.

Two kinds of noise are measured, never assumed:

- an *item* that one OVS run has and the other lacks (an LLDP probe raised as a miss on s1 in
  one run and on s2 in the other; a frame that raced a flow-mod): an OVS-vs-engine difference
  whose item Open vSwitch itself shows in only one of its runs is noise;
- a *field* in which an item of one OVS run differs from its counterpart in the other (a cookie a
  controller numbers per run, the switch a controller configures first): the pair is the items
  of the same message kind with the same fields that differ in the fewest of them (at most a
  third); those fields of that kind are noisy, and two items that differ only in noisy fields
  compare equal (``mask``).

An item is ``s<dpid> <kind> <body>`` as ``normalise`` writes it; its fields are its body's (a JSON
object flattened to paths, or ``key=value`` words) and ``@switch``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

CATEGORIES = ("received", "sent", "flows")
SWITCH = "@switch"
_KV = re.compile(r"(?:^| )([A-Za-z_][\w,]*)=")


def _flatten(x, path: str = "") -> dict:
    if isinstance(x, dict):
        out: dict = {}
        for k, v in x.items():
            out.update(_flatten(v, f"{path}/{k}"))
        return out or {path: "{}"}
    if isinstance(x, list):
        out = {}
        for i, v in enumerate(x):
            out.update(_flatten(v, f"{path}[{i}]"))
        return out or {path: "[]"}
    return {path: json.dumps(x)}


def parse(item: str) -> tuple:
    """(kind, {field: value}) of an item."""
    switch, _, rest = item.partition(" ")
    if rest.startswith("{"):
        kind, body = "flow", rest
    else:
        kind, _, body = rest.partition(" ")
    fields = {SWITCH: switch}
    if body.startswith(("{", "[")):
        try:
            return kind, {**fields, **_flatten(json.loads(body))}
        except ValueError:
            pass
    keys = list(_KV.finditer(body))
    if keys and keys[0].start() == 0:
        for m, nxt in zip(keys, keys[1:] + [None]):
            fields[m.group(1)] = body[m.end():nxt.start() if nxt else len(body)]
        return kind, fields
    return kind, {**fields, "": body}


def noisy_fields(a: set, b: set, limit: int = 500) -> set:
    """{(kind, field)} in which items of A and B pair up and differ (see the module doc); each
    item is tried against at most ``limit`` items of its shape (a flood stays cheap)."""
    shapes: dict = {}
    for side, items in ((0, a - b), (1, b - a)):
        for x in sorted(items):
            kind, f = parse(x)
            shapes.setdefault((kind, tuple(sorted(f))), ([], []))[side].append(f)
    out: set = set()
    for (kind, _), (xs, ys) in shapes.items():
        for mine, theirs in ((xs, ys), (ys, xs)):
            for f in mine:
                best = None
                for g in theirs[:limit]:
                    diff = {p for p in f if f[p] != g[p]}
                    if best is None or len(diff) < len(best):
                        best = diff
                if best and 3 * len(best) <= len(f):
                    out |= {(kind, p) for p in best}
    return out


def mask(item: str, noisy: set) -> str:
    kind, f = parse(item)
    return kind + " " + json.dumps({p: ("*" if (kind, p) in noisy else v) for p, v in f.items()}, sort_keys=True)


@dataclass
class Floor:
    """What the two OVS runs differ in: per category, the items only A and only B had, and the
    noisy fields (``(kind, field)``) of all categories."""
    only_a: dict = field(default_factory=dict)
    only_b: dict = field(default_factory=dict)
    fields: set = field(default_factory=set)

    def counts(self) -> dict:
        return {"a": {c: len(self.only_a.get(c, ())) for c in CATEGORIES},
                "b": {c: len(self.only_b.get(c, ())) for c in CATEGORIES},
                "fields": sorted(f"{k}.{p}" for k, p in self.fields)}


def floor(a, b) -> Floor:
    """The noise floor of two OVS views (``normalise.View``)."""
    fl = Floor()
    for c in CATEGORIES:
        sa, sb = getattr(a, c), getattr(b, c)
        fl.only_a[c], fl.only_b[c] = sorted(sa - sb), sorted(sb - sa)
        fl.fields |= noisy_fields(sa, sb)
    return fl


def masked(items, fl: Floor) -> set:
    return {mask(x, fl.fields) for x in items}


def is_noise(side: str, same_b: bool, in_other: bool) -> bool:
    """Is an item that differs between OVS A and the engine within the noise floor? ``side`` is
    ``only_ovs`` (A has it, the engine not) or ``only_engine``; ``same_b``: OVS B has it (noisy
    fields left out); ``in_other``: the other side has it, noisy fields left out. Noise when it
    matches the other side but for noisy fields, or when Open vSwitch itself is not sure of it
    (A has it and B not; or B has what only the engine has)."""
    if in_other:
        return True
    return not same_b if side == "only_ovs" else same_b
