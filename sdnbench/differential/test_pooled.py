"""The pooled connect-phase floor (``pooled.py``), on recorded views: os-ken's topology app at
OpenFlow 1.0, its connect, frames and link cells of one matrix command (2026-11-28 18:53 UTC,
``--views``; ``testdata/noise/osken-topology-1.0-*-phased.json``), each view with the items it
had before the stimulus (``pre``) and at or after it (``post``). The LLDP probe raised as a miss
(#8) is the race: on s2 in the connect cell's A and B (and not in its C, nor on the engine), on
s1 in the frames cell's A and on s2 in its B and engine, on s1 everywhere in the link cell."""

import copy
import json

from . import classify, harness, pooled, report
from .normalise import View
from .test_noise import DATA

MISS = "s{} PACKET_IN reason=0 table=- buffered=False total_len=60 in_port=2 cookie=- frame=lldp"


def _view(d: dict) -> View:
    phase = {k: {c: set(d[k][c]) for c in pooled.PHASED} for k in ("pre", "post") if k in d}
    return View(**{c: set(d[c]) for c in ("received", "sent", "flows")}, **phase)


def _cell(stimulus: str) -> dict:
    return json.loads((DATA / f"osken-topology-1.0-{stimulus}-phased.json").read_text())


def _runs(d: dict) -> dict:
    """{run: View} as ``harness.cell`` keeps them (A, the engine, B, C …)."""
    out = {"ovs_a": _view(d["a"]), "engine": _view(d["engine"]), "ovs_b": _view(d["b"])}
    out.update({f"ovs_{chr(ord('c') + i)}": _view(m) for i, m in enumerate(d.get("more", []))})
    return out


def _pool(*stimuli: str) -> tuple:
    return tuple(x for s in stimuli for x in pooled.samples(s, _runs(_cell(s))))


def test_the_connect_cell_s_lldp_miss_is_noise_once_the_other_cells_connect_phases_pool():
    d = _cell("connect")
    a, e, b = _view(d["a"]), _view(d["engine"]), _view(d["b"])
    miss = MISS.format(2)
    assert miss in a.pre["received"] and miss not in a.post["received"], "the probe came before the stimulus"
    alone = harness.record("osken:topology", "1.0", "connect", a, e, [b])
    assert alone["verdict"] == "unexplained", "A and B both had it: the cell's own floor does not cover it"
    pool = _pool("frames", "link")
    assert [s.run for s in pool] == ["ovs_a", "ovs_b"] * 2, "only Open vSwitch runs pool, never the engine"
    rec = harness.record("osken:topology", "1.0", "connect", a, e, [b], pool)
    assert rec["verdict"] == "noise" and rec["labels"] == {"pooled": 1}
    assert rec["pooled"] == {"runs": 5, "stimuli": ["connect", "frames", "link"]}
    assert rec["pooled_seen"] == [["pooled", "only_ovs", "received", miss, 2, 5]], \
        "the cell's B and the frames cell's B had it; the frames cell's A and the link cell's A and B not"
    assert "1 pooled over 5 connect phases (connect, frames, link)" in report.verdict(rec)


def test_an_item_every_connect_phase_shows_stays_unexplained_however_many_pool():
    d = _cell("connect")
    a, e, b = _view(d["a"]), _view(d["engine"]), _view(d["b"])
    pool = _pool("frames", "link")
    # a flow-mod of the connect phase that every OVS run sent, taken out of the engine's view
    every = set(a.pre["sent"]).intersection(b.pre["sent"], *(s.pre["sent"] for s in pool))
    fm = sorted(x for x in every if "OFPFlowMod" in x)[0]
    e.sent.discard(fm)
    e.pre["sent"].discard(fm)
    rec = harness.record("osken:topology", "1.0", "connect", a, e, [b], pool)
    assert rec["verdict"] == "unexplained"
    assert rec["by_label"]["unexplained"]["only_ovs"]["sent"] == [fm[:harness.ITEM_CHARS]]
    assert ["unexplained", "only_ovs", "sent", fm[:harness.ITEM_CHARS], 5, 5] in rec["pooled_seen"]
    assert rec["labels"] == {"pooled": 1, "unexplained": 1}, "the LLDP race beside it still pools"
    assert report.verdict(rec).startswith("**unexplained** (1 of 2 items, 1 pooled over 5 connect phases")
    # and one only the engine sent, in its connect phase, that no Open vSwitch run sent
    e = _view(d["engine"])
    extra = fm.replace('"priority": ', '"priority": 1')
    e.sent.add(extra)
    e.pre["sent"].add(extra)
    rec = harness.record("osken:topology", "1.0", "connect", a, e, [b], pool)
    assert rec["by_label"]["unexplained"]["only_engine"]["sent"] == [extra[:harness.ITEM_CHARS]]


def test_an_item_also_seen_after_the_stimulus_is_never_pooled():
    d = _cell("frames")
    a, e, b = _view(d["a"]), _view(d["engine"]), _view(d["b"])
    pool = _pool("connect", "link")
    rec = harness.record("osken:topology", "1.0", "frames", a, e, [b], pool)
    assert rec["verdict"] == "noise", rec["labels"]              # @switch noisy: the cell's own floor
    b = copy.deepcopy(a)                                         # a B that agrees with A: no own floor
    miss = MISS.format(2)
    assert classify.classify("frames", a, b, e).labels[("only_engine", "received", miss)] == "unexplained"
    assert classify.classify("frames", a, b, e, (), pool).labels[("only_engine", "received", miss)] == "pooled"
    e.post["received"].add(miss)                                 # the engine raised it again after the stimulus
    cl = classify.classify("frames", a, b, e, (), pool)
    assert cl.labels[("only_engine", "received", miss)] == "unexplained"
    assert ("only_engine", "received", miss) not in cl.pool_seen
    rec = harness.record("osken:topology", "1.0", "frames", a, e, [b], pool)
    assert rec["labels"] == {"pooled": 1, "unexplained": 1}, "A's own probe on s1 (before the stimulus only) pools"
    assert rec["by_label"]["unexplained"]["only_engine"]["received"] == [miss]


def test_what_never_pools_flows_a_windowed_run_and_a_cell_alone():
    d = _cell("link")
    runs = _runs(d)
    assert pooled.connect_phase_only(runs["ovs_a"], "flows", sorted(runs["ovs_a"].flows)[0]) is False
    ps = "s1 PORT_STATUS reason=2 port,config,state=(2, 0, 1)"
    assert ps in runs["engine"].post["received"] and not pooled.connect_phase_only(runs["engine"], "received", ps)
    windowed = View(received={MISS.format(1)})                   # restart / echo-silence: no phase recorded
    assert pooled.samples("restart", {"ovs_a": windowed}) == []
    a, e, b = runs["ovs_a"], runs["engine"], copy.deepcopy(runs["ovs_a"])
    assert harness.record("t", "1.0", "link", a, e, [b]).get("pooled") is None


def test_a_matrix_command_judges_its_cells_again_with_every_other_cell_s_connect_phase():
    group, cells = [], []
    for i, s in enumerate(("connect", "frames", "link")):
        d = _cell(s)
        vs = _runs(d)
        vs.pop("ovs_c", None)                                    # the connect cell as its first judgement saw it
        pool = tuple(x for _i, st, v in group for x in pooled.samples(st, v))
        cells.append(dict(harness.record("osken:topology", "1.0", s, vs["ovs_a"], vs["engine"], [vs["ovs_b"]], pool),
                          controller="osken:topology"))
        group.append((i, s, vs))
    assert cells[0]["verdict"] == "unexplained", "the first cell had nothing to pool with"
    said = []
    harness.rejudge(cells, group, said.append)
    assert cells[0]["verdict"] == "noise" and cells[0]["pooled"]["runs"] == 5
    assert said == ["osken:topology           1.0  connect      noise (1 items; A/B +0/+0, 1 pooled over 5 connect "
                    "phases (connect, frames, link)) (judged again, pooled)"]


def test_a_run_that_shows_the_item_only_after_its_stimulus_counts_as_having_it():
    """An item only A had pools only against runs that lacked it altogether: a run of another
    stimulus that raised it after its stimulus may have raised the same message late."""
    d = _cell("connect")
    a, e, b = _view(d["a"]), _view(d["engine"]), _view(d["b"])
    miss = MISS.format(2)
    late = []
    for s in ("frames", "link"):
        runs = _runs(_cell(s))
        for v in (runs["ovs_a"], runs["ovs_b"]):
            if miss not in v.received:                   # raised late in every run that lacked it before
                v.received.add(miss)
                v.post["received"].add(miss)
        late += pooled.samples(s, {k: v for k, v in runs.items() if k in ("ovs_a", "ovs_b")})
    rec = harness.record("osken:topology", "1.0", "connect", a, e, [b], tuple(late))
    assert rec["verdict"] == "unexplained" and rec["pooled_seen"] == [["unexplained", "only_ovs", "received", miss, 5, 5]]
