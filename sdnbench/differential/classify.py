"""Pure: each item that differs between Open vSwitch (run A) and the engine, labelled ``noise``
(within the noise floor that OVS runs B, C … measure against A, ``noise.py``), explained by a documented
property of the test bed (``evidence.py``: its key), or ``unexplained``; and the cell's verdict:

- ``identical``: A and the engine compare equal;
- ``noise``: every difference is one Open vSwitch shows against itself (in the cell's own runs,
  or, for an item of the connect phase only, in the connect phases pooled over the cells of
  the same controller and version: ``pooled.py``, labelled ``pooled``);
- ``explained``: every difference is noise or has evidence, at least one has evidence;
- ``unexplained``: at least one difference is neither.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import evidence, noise, pooled
from .normalise import compare

NOISE, UNEXPLAINED, POOLED = "noise", "unexplained", pooled.LABEL
NOISE_LABELS = {NOISE, POOLED}


@dataclass
class Classified:
    diff: object                                  # normalise.Diff, A vs the engine
    floor: noise.Floor
    labels: dict = field(default_factory=dict)    # (side, cat, item) -> NOISE | evidence key | UNEXPLAINED
    seen: dict = field(default_factory=dict)      # (side, cat, item) -> how many OVS runs (A too) have it, noisy fields left out
    pool: dict = field(default_factory=dict)      # the connect-phase samples: runs (the cell's and pooled), cells, their stimuli
    pool_seen: dict = field(default_factory=dict)  # (side, cat, item) of the connect phase -> in how many of those runs' connect phases

    def counts(self) -> dict:
        out: dict = {}
        for lab in self.labels.values():
            out[lab] = out.get(lab, 0) + 1
        return out

    def items(self, label: str) -> dict:
        """{side: {cat: [items]}} of one label."""
        out: dict = {s: {c: [] for c in noise.CATEGORIES} for s in ("only_ovs", "only_engine")}
        for (side, cat, x), lab in sorted(self.labels.items()):
            if lab == label:
                out[side][cat].append(x)
        return out

    @property
    def verdict(self) -> str:
        if self.diff.identical:
            return "identical"
        labs = set(self.labels.values())
        if UNEXPLAINED in labs:
            return UNEXPLAINED
        return "explained" if labs - NOISE_LABELS else NOISE


def classify(stimulus: str, a, b, engine, more: tuple = (), pool: tuple = ()) -> Classified:
    """OVS run A, OVS run B, the engine, and any further OVS runs C … (``normalise.View`` each);
    ``pool``: the connect-phase samples (``pooled.Sample``) of the other cells of the same
    controller and version, for the items of the connect phase only (``pooled.py``)."""
    fl = noise.floor(a, b, *more)
    c = Classified(compare(a, engine), fl)
    phases = pooled.samples(stimulus, {"ovs_a": a, "ovs_b": b, **{f"ovs_{i}": v for i, v in enumerate(more, 2)}})
    phases = phases[1:] + list(pool) if phases and phases[0].run == "ovs_a" else []   # A is the side judged
    if pool:
        c.pool = {"runs": len(phases), "stimuli": sorted({s.stimulus for s in phases} | {stimulus})}
    for cat in noise.CATEGORIES:
        ma, me = (noise.masked(getattr(v, cat), fl) for v in (a, engine))
        mothers = [noise.masked(getattr(v, cat), fl) for v in (b, *more)]
        mpool = {side: [noise.masked(s.evidence(side)[cat], fl) for s in phases]
                 for side in ("only_ovs", "only_engine")} if pool and cat in pooled.PHASED else {}
        for side, items, other in (("only_ovs", c.diff.only_ovs, me), ("only_engine", c.diff.only_engine, ma)):
            for x in items[cat]:
                m = noise.mask(x, fl.fields)
                c.seen[(side, cat, x)] = sum(m in mo for mo in [ma, *mothers])
                if noise.is_noise(side, [m in mo for mo in mothers], m in other):
                    lab = NOISE
                elif mpool and pooled.connect_phase_only(a if side == "only_ovs" else engine, cat, x):
                    c.pool_seen[(side, cat, x)] = sum(m in mp for mp in mpool[side])
                    lab = POOLED if noise.is_noise(side, [m in mp for mp in mpool[side]], False) else ""
                else:
                    lab = ""
                c.labels[(side, cat, x)] = lab or evidence.explain(stimulus, side, cat, x, a.received) or UNEXPLAINED
    return c
