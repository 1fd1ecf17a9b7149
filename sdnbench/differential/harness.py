"""The differential run: controller × version × stimulus, each twice on Mininet + Open vSwitch
(A and B: the noise floor; ``noise_runs`` times, C … after B, when asked; up to ``noise_extra`` more while
the cell is unexplained, ``sample_until_settled``) and once on the engine's emulated network; the views compared
(``normalise.py``), each difference labelled noise, explained by evidence or unexplained
(``classify.py``), the verdict of each cell (``report.py``), and what a cell keeps kept small.

``sdnbench conformance`` (``commands/conformance.py``) is its command line. Any controller spec
runs (``osken:``, ``ryu:``, ``faucet:``, ``ovs-testcontroller``, ``cmd:``, ``tcp:``); the
scripted table-miss controller of the test suite is a ``cmd:`` spec like any other
(``python -m sdnbench.testing.peers.tablemiss --spec`` prints it, from the source tree).

A cell keeps, per side and category, how many items only that side had and the first
``KEEP_ITEMS`` of them, each cut at ``ITEM_CHARS``: a controller that floods (a Java controller's
1.3 cell once wrote 98 MB) leaves a small record. The verdict is taken on every item first.
"""

from __future__ import annotations

import re
import tempfile
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Optional

from ..controllers.spec import display_name, parse_spec, spoken_versions
from .. import jsonload
from ..errors import UserError
from ..result import write_json_atomic
from ..engine.driver import version as engine_version
from ..switchbench.targets import ovs_version
from . import classify, clock, noise, normalise, pooled, report, sides, stimuli

TOPO = "linear,2"
KEEP_ITEMS = 20
ITEM_CHARS = 400
CATEGORIES = ("received", "sent", "flows")
NOISE_RUNS = 2                 # Open vSwitch runs a cell (A and B); each further one costs a run's time
NOISE_EXTRA = 0                # further OVS runs a cell may take, one by one, while it is unexplained


def speaks(spec: str, version: str) -> bool:
    known = spoken_versions(parse_spec(spec))
    return not known or version in known


def capped(items: dict) -> tuple:
    """({category: the first KEEP_ITEMS items, each cut at ITEM_CHARS}, {category: how many})."""
    kept = {cat: [x[:ITEM_CHARS] for x in list(items.get(cat, []))[:KEEP_ITEMS]] for cat in CATEGORIES}
    return kept, {cat: len(items.get(cat, [])) for cat in CATEGORIES}


def run_keys(noise_runs: int) -> list:
    """The runs of a cell in their fixed order: ``ovs_a``, ``engine``, ``ovs_b``, then ``ovs_c`` …
    up to ``noise_runs`` Open vSwitch runs."""
    return ["ovs_a", "engine"] + [f"ovs_{noise.run_name(i).lower()}" for i in range(1, noise_runs)]


def _run_one(name: str, spec: str, version: str, stimulus: str, topo: str, d: str, secs: dict):
    """One run of a cell (``name`` from ``run_keys``) in its own folder under ``d``; its seconds into
    ``secs``."""
    fn = sides.run_engine if name == "engine" else sides.run_ovs
    t = time.monotonic()
    work = Path(d) / name
    work.mkdir()
    rec = fn(spec, version, stimulus, topo, work)
    secs[name] = round(time.monotonic() - t, 1)
    return rec


def runs(spec: str, version: str, stimulus: str, topo: str, noise_runs: int = NOISE_RUNS) -> tuple:
    """The runs of a cell in a fixed order: OVS A, the engine, OVS B, then OVS C … (B and the
    others after the engine, so that the noise floor spans the same stretch of the machine's load
    as the comparison); (records A, engine, [B, C …], {run: seconds})."""
    secs: dict = {}
    with tempfile.TemporaryDirectory(prefix="sdnbench-conformance-") as d:
        recs = [_run_one(name, spec, version, stimulus, topo, d, secs) for name in run_keys(noise_runs)]
    return recs[0], recs[1], recs[2:], secs


def sample_until_settled(judge: Callable, more: Callable, limit: int) -> tuple:
    """Pure (given its two callables): the noise floor measured where needed. ``judge()`` is the
    cell's record from the runs so far; while it is ``unexplained`` and fewer than ``limit``
    further OVS runs were taken, ``more()`` takes one more (sequentially) and the cell is judged
    again. (the last record, {``limit``, ``taken``, ``unexplained``: the unexplained item count
    after the first judgement and after each further run}). A further run can only turn an
    unexplained item into noise when that run disagrees with another OVS run about it: an item
    every OVS run shows and the engine lacks stays unexplained however many runs are taken."""
    rec = judge()
    steps = [(rec.get("labels") or {}).get(classify.UNEXPLAINED, 0)]
    while rec.get("verdict") == classify.UNEXPLAINED and len(steps) - 1 < limit:
        more()
        rec = judge()
        steps.append((rec.get("labels") or {}).get(classify.UNEXPLAINED, 0))
    return rec, {"limit": limit, "taken": len(steps) - 1, "unexplained": steps}


def write_views(path: Path, stimulus: str, vo, vb, ve, more: tuple = ()) -> None:
    """The views of a cell whole (``testdata/noise/*.json``'s shape: ``a``, ``b``, ``engine``, and
    ``more``, the OVS runs C … when there were more than two): to classify again, or to keep as
    test data."""
    def sets(v):
        out = {c: sorted(getattr(v, c)) for c in CATEGORIES}
        if getattr(v, "pre", None) is not None:              # the connect phase (``pooled.py``)
            out.update({k: {c: sorted(getattr(v, k)[c]) for c in pooled.PHASED} for k in ("pre", "post")})
        return out
    data = {"stimulus": stimulus, **{k: sets(v) for k, v in (("a", vo), ("b", vb), ("engine", ve))}}
    if more:
        data["more"] = [sets(v) for v in more]
    write_json_atomic(path, data)


def _floor(fl, names: list) -> dict:
    """The cell's ``noise_floor``: counts (``noise.Floor.counts``), whether the runs agree, and
    what only A and only B had (capped); with more runs, each further run's items too (``only_more``)."""
    out = {**fl.counts(), "identical": not any(any(o.values()) for o in fl.only),
           "only_a": capped(fl.only_a)[0], "only_b": capped(fl.only_b)[0]}
    if len(fl.only) > 2:
        out.update(run_names=names, only_more=[capped(o)[0] for o in fl.only[2:]])
    return out


def provenance(recs: dict, stimulus: str, topo: str) -> dict:
    """What a cell's runs are comparable by, with another command's (``crosspool.py``): the
    controller's name and version as each launch reported them, both switches' versions, the
    topology and the stimulus's timing."""
    return {"controller": sorted({r.controller for r in recs.values() if r.controller}),
            "switches": {"ovs": f"Open vSwitch {ovs_version()} (datapath_type=netdev)",
                         "engine": f"sdnbench-engine {engine_version()}"},
            "topology": topo, "settle_s": stimuli.SETTLE_S, "end_s": stimuli.end_s(stimulus)}


def views_name(spec: str, version: str, stimulus: str) -> str:
    """The file a cell's views go to in ``--views DIR``."""
    return re.sub(r"[^\w.-]+", "_", f"{display_name(spec)}-{version}-{stimulus}") + ".json"


def new_command() -> dict:
    """What tells one ``sdnbench conformance`` command's cells from another's."""
    return {"id": uuid.uuid4().hex[:12], "started": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}


def cell(spec: str, version: str, stimulus: str, topo: str = TOPO, views: Optional[Path] = None,
         noise_runs: int = NOISE_RUNS, noise_extra: int = NOISE_EXTRA, pool: tuple = (),
         kept: Optional[dict] = None) -> dict:
    """One comparison: the runs (``noise_runs`` on OVS, then up to ``noise_extra`` more while the
    cell is unexplained: ``sample_until_settled``), the views written to ``views`` when given, and
    the cell's record (``record``), judged with the connect-phase samples ``pool`` of the other
    cells of the same controller and version (``pooled.py``); its views into ``kept`` (``views``)
    when given, to judge it again when more cells have run (``rejudge``)."""
    t = time.monotonic()
    secs: dict = {}
    with tempfile.TemporaryDirectory(prefix="sdnbench-conformance-") as d:
        recs = {name: _run_one(name, spec, version, stimulus, topo, d, secs) for name in run_keys(noise_runs)}
        vs = {k: normalise.view(r) for k, r in recs.items()}

        def judge() -> dict:
            return record(spec, version, stimulus, vs["ovs_a"], vs["engine"],
                          [v for k, v in vs.items() if k not in ("ovs_a", "engine")], pool)

        def more() -> None:
            name = run_keys(len(recs))[-1]          # the next OVS run: len(recs) OVS runs after it
            recs[name] = _run_one(name, spec, version, stimulus, topo, d, secs)
            vs[name] = normalise.view(recs[name])

        rec, extra = sample_until_settled(judge, more, noise_extra)
    o, e = recs["ovs_a"], recs["engine"]
    others = [r for k, r in recs.items() if k not in ("ovs_a", "engine")]
    vo, ve, (vb, *vmore) = vs["ovs_a"], vs["engine"], [v for k, v in vs.items() if k not in ("ovs_a", "engine")]
    if views is not None:
        write_views(views, stimulus, vo, vb, ve, tuple(vmore))
    if kept is not None:
        kept["views"] = vs
    notes = [f"ovs {n}" for n in o.notes] + [f"engine {n}" for n in e.notes] \
        + [f"ovs {noise.run_name(i)} {n}" for i, r in enumerate(others, 1) for n in r.notes]
    after = clock.intervals(recs)
    notes += [n for n in [clock.disagreement(after)] if n]
    return {**rec, "notes": notes, "noise_extra": extra, "provenance": provenance(recs, stimulus, topo),
            "stimulus_after_handshake_s": after,
            "ready_after_handshake_s": {k: r.ready_s for k, r in recs.items()},
            "run_seconds": secs, "seconds": round(time.monotonic() - t, 1)}


def _seen(cl, n: int) -> list:
    """Each differing item (the first ``KEEP_ITEMS``, cut at ``ITEM_CHARS``) with its label and in
    how many of the ``n`` OVS runs it was (noisy fields left out): [label, side, category, item,
    runs with it, n]; how sure Open vSwitch itself is of an item the engine differs in."""
    return [[cl.labels[k], *k[:2], k[2][:ITEM_CHARS], cl.seen[k], n] for k in sorted(cl.labels)[:KEEP_ITEMS]]


def record(spec: str, version: str, stimulus: str, vo, ve, others: list, pool: tuple = ()) -> dict:
    """Pure: a cell's record from its views (OVS A, the engine, OVS B, C …): the verdict
    (``classify``), what differs A vs the engine (capped), the noise floor over every OVS run,
    each difference's label counted; ``pool``: the other cells' connect-phase samples
    (``pooled.Sample``), and when given the record says over how many runs it pooled (``pooled``)
    and, per connect-phase item, in how many of them it was (``pooled_seen``)."""
    vb, *vmore = others
    cl = classify.classify(stimulus, vo, vb, ve, tuple(vmore), tuple(pool))
    extra = {}
    if cl.pool:
        n = cl.pool["runs"]
        extra = {"pooled": cl.pool, "pooled_seen": [[cl.labels[k], *k[:2], k[2][:ITEM_CHARS], v, n]
                                                    for k, v in sorted(cl.pool_seen.items())][:KEEP_ITEMS]}
    d = cl.diff
    only_ovs, n_ovs = capped({k: sorted(v) for k, v in d.only_ovs.items()})
    only_engine, n_engine = capped({k: sorted(v) for k, v in d.only_engine.items()})
    keys = [k for k in run_keys(1 + len(others)) if k not in ("ovs_a", "engine")]
    return {"controller": display_name(spec), "spec": spec, "version": version, "stimulus": stimulus,
            "identical": d.identical, "verdict": cl.verdict, "labels": cl.counts(),
            "evidence": sorted(set(cl.labels.values()) - {classify.NOISE, classify.UNEXPLAINED}),
            "only_ovs": only_ovs, "only_engine": only_engine,
            "differing": {"ovs": n_ovs, "engine": n_engine},
            "by_label": {lab: {side: capped(items)[0] for side, items in cl.items(lab).items()} for lab in cl.counts()},
            "by_label_n": {lab: {side: capped(items)[1] for side, items in cl.items(lab).items()} for lab in cl.counts()},
            "seen_in_ovs_runs": _seen(cl, 1 + len(others)),
            "noise_floor": _floor(cl.floor, [noise.run_name(i) for i in range(1 + len(others))]),
            "noise": [v.noise for v in (vo, ve, *others)], "unnamed": [v.unnamed for v in (vo, ve, *others)],
            "counts": {"ovs": [len(vo.received), len(vo.sent), len(vo.flows)],
                       "engine": [len(ve.received), len(ve.sent), len(ve.flows)],
                       **{k: [len(v.received), len(v.sent), len(v.flows)] for k, v in zip(keys, others)}},
            **extra}


def rejudge(cells: list, group: list, say: Callable[[str], None] = print) -> None:
    """Pure but for ``say``: the cells of one controller and version judged again, each with the
    connect-phase samples of all the others (``pooled.py``), once all of them have run. ``group``:
    [(index into ``cells``, stimulus, {run: View})]; a cell whose verdict changes is said."""
    samples = [pooled.samples(s, vs) for _i, s, vs in group]
    for j, (i, s, vs) in enumerate(group):
        pool = tuple(x for k, xs in enumerate(samples) if k != j for x in xs)
        if not pool:
            continue
        old = cells[i]
        new = record(old["spec"], old["version"], s, vs["ovs_a"], vs["engine"],
                     [v for k, v in vs.items() if k not in ("ovs_a", "engine")], pool)
        cells[i] = {**old, **new}
        if report.verdict(cells[i]) != report.verdict(old):
            say(f"{old['controller']:24} {old['version']}  {s:12} {report.verdict(cells[i])} (judged again, pooled)")


def run(controllers: list, versions: list, stims: list, out: Optional[Path],
        say: Callable[[str], None] = print, views: Optional[Path] = None, noise_runs: int = NOISE_RUNS,
        noise_extra: int = NOISE_EXTRA) -> list:
    """Every cell, in order; ``out`` rewritten after each (a later failure loses nothing); each
    cell's views into the folder ``views`` when given; ``noise_runs`` OVS runs a cell."""
    cells = []
    command = new_command()
    for spec in controllers:
        for v in versions:
            if not speaks(spec, v):
                say(f"{display_name(spec):24} {v}  skipped: the controller does not speak OpenFlow {v}")
                continue
            group: list = []                  # (index, stimulus, views): the connect phases to pool
            for s in stims:
                kept: dict = {}
                pool = tuple(x for _i, st, vs in group for x in pooled.samples(st, vs))
                try:
                    c = cell(spec, v, s, views=views / views_name(spec, v, s) if views else None, noise_runs=noise_runs,
                             noise_extra=noise_extra, pool=pool, kept=kept)
                except (UserError, RuntimeError, TimeoutError, OSError) as e:
                    c = {"controller": display_name(spec), "spec": spec, "version": v, "stimulus": s,
                         "error": str(e).splitlines()[0][:200] if str(e) else type(e).__name__}
                c["command"] = command
                if kept:
                    group.append((len(cells), s, kept["views"]))
                cells.append(c)
                say(f"{c['controller']:24} {v}  {s:12} {report.verdict(c)} ({c.get('seconds', '-')} s)")
                if out:
                    write_json_atomic(out, cells)
            rejudge(cells, group, say)
            if out and len(group) > 1:
                write_json_atomic(out, cells)
    return cells


def load(paths: list) -> list:
    """The cells of ``-o`` files, each checked to be the shape ``run`` writes (one line if not)."""
    cells = []
    for p in paths:
        data = jsonload.read(Path(p), f"--report {p}", "conformance cells file")
        items = data if isinstance(data, list) else [data]
        for i, c in enumerate(items):
            why = _not_a_cell(c)
            if why:
                raise UserError(f"--report {p}: JSON, but not the cells `sdnbench conformance -o` writes "
                                f"(item {i}: {why})")
        cells += items
    return cells


def _not_a_cell(c) -> Optional[str]:
    """Why ``c`` is not a cell as ``run`` writes it (and ``report`` reads it), or None."""
    if not isinstance(c, dict):
        return f"a {type(c).__name__}, not an object"
    missing = [k for k in ("controller", "version", "stimulus") if not isinstance(c.get(k), str)]
    if missing:
        return f"no {missing[0]} text"
    if "error" in c:
        return None
    if not isinstance(c.get("identical"), bool):
        return "no identical true/false"
    for side in ("only_ovs", "only_engine"):
        items = c.get(side, {} if c["identical"] else None)
        if not (isinstance(items, dict) and all(isinstance(v, list) and all(isinstance(x, str) for x in v)
                                                for v in items.values())):
            return f"no {side} object of lists of text"
    return None
