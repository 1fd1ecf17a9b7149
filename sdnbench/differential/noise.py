"""Pure: the noise floor of a cell. Open vSwitch runs N ≥ 2 times (A, B, C …; ``--noise-runs``,
2 by default) with the same controller, topology and stimulus; what the runs differ in is noise,
and an OVS-vs-engine difference of the same kind is noise too, counted as such. A is the run
compared with the engine.

Two kinds of noise are measured, never assumed:

- an *item* that one OVS run has and another lacks (an LLDP probe raised as a miss on s1 in
  one run and on s2 in another; a frame that raced a flow-mod): an OVS-vs-engine difference
  whose item some OVS run shows and some other OVS run does not is noise (A has it and the
  engine not: noise when any other run lacks it; the engine has it and A not: noise when any
  other run has it);
- a *field* in which an item of one OVS run differs from its counterpart in another (any pair of
  runs; a cookie a
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


def run_name(i: int) -> str:
    """The name of the ``i``-th Open vSwitch run (0: ``A``, 1: ``B``, 2: ``C`` …)."""
    return chr(ord("A") + i) if i < 26 else f"R{i + 1}"


@dataclass
class Floor:
    """What the N Open vSwitch runs (N ≥ 2; A, B, C …) differ in: per run and category, the items
    that run had and another run lacked (``only[i]``: the run's items not in every run; for two
    runs, what only A had and what only B had), and the noisy fields (``(kind, field)``) of all
    categories, measured over every pair of runs."""
    only: list = field(default_factory=list)
    fields: set = field(default_factory=set)

    @property
    def only_a(self) -> dict:
        return self.only[0] if self.only else {}

    @property
    def only_b(self) -> dict:
        return self.only[1] if len(self.only) > 1 else {}

    def per_run(self) -> list:
        return [{c: len(o.get(c, ())) for c in CATEGORIES} for o in self.only]

    def counts(self) -> dict:
        """``a``, ``b`` and ``fields`` (the shape of two runs); with more runs also ``runs`` (N)
        and ``per_run`` (each run's counts, A first)."""
        per = self.per_run() or [{c: 0 for c in CATEGORIES}] * 2
        out = {"a": per[0], "b": per[1], "fields": sorted(f"{k}.{p}" for k, p in self.fields)}
        if len(self.only) > 2:
            out.update(runs=len(self.only), per_run=per)
        return out


def floor(a, b, *more) -> Floor:
    """The noise floor of N ≥ 2 OVS views (``normalise.View``): an item that one run has and
    another lacks is noise (``only``); a field two runs' items pair up in and differ is noisy."""
    runs = (a, b, *more)
    fl = Floor(only=[{} for _ in runs])
    for c in CATEGORIES:
        sets = [getattr(v, c) for v in runs]
        every = set.intersection(*sets)
        for i, s in enumerate(sets):
            fl.only[i][c] = sorted(s - every)
        for i in range(len(sets)):
            for j in range(i + 1, len(sets)):
                fl.fields |= noisy_fields(sets[i], sets[j])
    return fl


def masked(items, fl: Floor) -> set:
    return {mask(x, fl.fields) for x in items}


def is_noise(side: str, in_others: list, in_other: bool) -> bool:
    """Is an item that differs between OVS A and the engine within the noise floor? ``side`` is
    ``only_ovs`` (A has it, the engine not) or ``only_engine``; ``in_others``: for each other OVS
    run (B, C …), whether it has the item (noisy fields left out);
    ``in_other``: the other side has it, noisy fields left out. Noise when it matches the other
    side but for noisy fields, or when Open vSwitch itself is not sure of it: an item some OVS run
    has and another lacks (A has it and some other run not; or some other run has what only the
    engine has)."""
    if in_other:
        return True
    return not all(in_others) if side == "only_ovs" else any(in_others)
