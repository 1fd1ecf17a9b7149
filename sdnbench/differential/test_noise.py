"""The noise floor and the verdicts (pure), on recorded views (``testdata/noise/*.json``: the
three views of a cell, OVS A, OVS B and the engine, as ``normalise.view`` writes their items)."""

import json
from pathlib import Path

from . import classify, evidence, noise
from .normalise import View
from .report import agrees, verdict

DATA = Path(__file__).parent / "testdata" / "noise"


def _view(d: dict) -> View:
    return View(**{c: set(d[c]) for c in noise.CATEGORIES})


def _load(name: str) -> tuple:
    d = json.loads((DATA / f"{name}.json").read_text())
    return d["stimulus"], *(_view(d[k]) for k in ("a", "b", "engine"))


def _more(name: str) -> tuple:
    """The OVS runs C … of a view file written with ``--noise-runs`` over 2."""
    return tuple(_view(m) for m in json.loads((DATA / f"{name}.json").read_text())["more"])


def _cell(name: str) -> classify.Classified:
    stim, a, b, e = _load(name)
    return classify.classify(stim, a, b, e)


def test_a_cookie_numbered_per_run_is_noise_with_its_counts():
    c = _cell("cookie")
    assert not c.diff.identical
    # the LLDP miss was raised on s1 in A, on s2 in B and the engine: which switch is noisy too
    assert c.floor.fields == {("OFPFlowMod", "/cookie"), ("flow", "/cookie"), ("PACKET_IN", "@switch")}
    assert c.floor.counts()["a"] == {"received": 1, "sent": 1, "flows": 1}
    assert c.verdict == "noise" and c.counts() == {"noise": 6}, c.labels   # 1 + 1 per set


def test_a_real_difference_beside_the_noisy_cookie_stays_unexplained():
    c = _cell("real")
    assert c.verdict == "unexplained"
    un = c.items(classify.UNEXPLAINED)
    assert len(un["only_ovs"]["sent"]) == len(un["only_engine"]["sent"]) == 1, "the output port is not noise"
    assert len(un["only_ovs"]["flows"]) == len(un["only_engine"]["flows"]) == 1
    assert c.counts() == {"noise": 2, "unexplained": 4}


def test_admin_down_explains_only_ports_ovs_reported_administratively_down():
    c = _cell("link")
    assert c.floor.counts()["a"] == {"received": 0, "sent": 0, "flows": 0}, "A and B agree: no noise"
    assert c.counts() == {"admin-down": 6, "unexplained": 1}, c.labels
    assert c.items(classify.UNEXPLAINED)["only_engine"]["received"] == ["s2 PORT_STATUS reason=2 port,config,state=(1, 0, 1)"]
    assert c.verdict == "unexplained"
    stim, a, b, e = _load("link")
    e.received.discard("s2 PORT_STATUS reason=2 port,config,state=(1, 0, 1)")
    assert classify.classify(stim, a, b, e).verdict == "explained"
    assert classify.classify("frames", a, b, e).verdict == "unexplained", "admin down is evidence in the link column only"


def test_an_ovs_only_item_that_both_ovs_runs_show_is_not_noise():
    a = View(received={"s1 ERROR type=1 code=3", "s1 HELLO"})
    e = View(received={"s1 HELLO"})
    assert classify.classify("connect", a, View(received=set(a.received)), e).verdict == "unexplained"
    assert classify.classify("connect", a, View(received={"s1 HELLO"}), e).verdict == "noise"
    assert classify.classify("connect", a, a, View(received=set(a.received))).verdict == "identical"


def test_a_field_pairing_needs_most_fields_equal():
    """Two items that differ in most of their fields are not the same item with noise in it."""
    a = {'s1 OFPFlowMod {"a": 1, "b": 2, "c": 3}'}
    b = {'s1 OFPFlowMod {"a": 9, "b": 8, "c": 3}'}
    assert noise.noisy_fields(a, b) == set()
    b = {'s1 OFPFlowMod {"a": 9, "b": 2, "c": 3}'}
    assert noise.noisy_fields(a, b) == {("OFPFlowMod", "/a")}


def test_items_parse_into_fields():
    k, f = noise.parse("s1 PACKET_IN reason=0 table=- buffered=False total_len=60 in_port=2 cookie=- "
                       "frame=ipv4/17 00:00:00:00:00:01>00:00:00:00:00:02 len=60")
    assert k == "PACKET_IN" and f["@switch"] == "s1" and f["frame"] == "ipv4/17 00:00:00:00:00:01>00:00:00:00:00:02"
    k, f = noise.parse('s2 {"cookie": 5, "match": {"OFPMatch": {"oxm_fields": [{"f": 1}]}}}')
    assert k == "flow" and f["/cookie"] == "5" and f["/match/OFPMatch/oxm_fields[0]/f"] == "1"
    assert noise.parse("s1 DESC_REPLY") == ("DESC_REPLY", {"@switch": "s1", "": ""})


def test_the_report_counts_and_passes_noise_and_evidence_only():
    base = {"controller": "c", "version": "1.3", "stimulus": "link", "identical": False,
            "only_ovs": {}, "only_engine": {}, "noise_floor": {"a": {"flows": 2}, "b": {"flows": 2},
                                                           "fields": ["flow./cookie"]}}
    noisy = dict(base, verdict="noise", labels={"noise": 4})
    assert verdict(noisy) == "noise (4 items; A/B +2/+2, fields flow./cookie)" and agrees(noisy)
    expl = dict(base, verdict="explained", labels={"admin-down": 6, "noise": 1})
    assert verdict(expl) == "explained (admin-down 6, noise 1)" and agrees(expl)
    bad = dict(base, verdict="unexplained", labels={"unexplained": 1, "noise": 1})
    assert verdict(bad).startswith("**unexplained** (1 of 2 items)") and not agrees(bad)
    old = {k: v for k, v in base.items() if k != "noise_floor"}
    assert verdict(old).startswith("**unexplained** (no noise floor)") and not agrees(old)


def test_every_evidence_names_a_test_that_exists():
    for e in evidence.EVIDENCE:
        path, _, name = e.proof.partition("::")
        assert f"def {name}(" in (Path(__file__).parents[2] / path).read_text(), e.proof


def test_views_written_by_the_harness_read_back_as_test_data(tmp_path):
    from .harness import write_views
    stim, a, b, e = _load("cookie")
    write_views(tmp_path / "x.json", stim, a, b, e)
    got = json.loads((tmp_path / "x.json").read_text())
    want = json.loads((DATA / "cookie.json").read_text())
    assert got["stimulus"] == want["stimulus"] == "frames"
    for k in ("a", "b", "engine"):
        assert got[k] == {c: sorted(want[k][c]) for c in noise.CATEGORIES}


def test_recorded_floodlight_bddp_probes_ovs_raised_in_both_runs_stay_unexplained():
    """Recorded (``--views``): the BDDP packet-in on s2 and the packet-out to s1, which only OVS A
    had, are noise; the ones OVS A and B both had and the engine not are a finding."""
    c = _cell("floodlight-1.0-connect")
    assert c.floor.counts()["a"] == {"received": 1, "sent": 1, "flows": 0} and not c.floor.fields
    assert c.counts() == {"noise": 2, "unexplained": 2} and c.verdict == "unexplained"
    un = c.items(classify.UNEXPLAINED)["only_ovs"]
    assert un["received"] == ["s1 PACKET_IN reason=0 table=- buffered=False total_len=83 in_port=2 cookie=- frame=bddp"]
    assert un["sent"] == ["s2 PACKET_OUT buffered=False in_port=0xfffd actions=0000000800020000 frame=bddp"]


BDDP_IN = "s1 PACKET_IN reason=0 table=0 buffered=False total_len=83 in_port=2 cookie=0 frame=bddp"
HELLO = "s1 HELLO"


def test_over_n_runs_an_item_any_run_lacks_while_another_has_it_is_noise():
    """A and B both raise the probe, the engine not: a finding with two runs; a third OVS run
    without it shows Open vSwitch is not sure of it itself: noise."""
    a, b, e = View(received={HELLO, BDDP_IN}), View(received={HELLO, BDDP_IN}), View(received={HELLO})
    assert classify.classify("frames", a, b, e).verdict == "unexplained"
    c = classify.classify("frames", a, b, e, (View(received={HELLO}),))
    assert c.verdict == "noise" and c.counts() == {"noise": 1}
    # a third run that has it too: still every OVS run agrees, the engine alone lacks it
    assert classify.classify("frames", a, b, e, (View(received={HELLO, BDDP_IN}),)).verdict == "unexplained"
    # the engine has what A lacks: noise when any other run (here C, not B) has it
    assert classify.classify("frames", e, View(received={HELLO}), a).verdict == "unexplained"
    assert classify.classify("frames", e, View(received={HELLO}), a, (View(received={HELLO, BDDP_IN}),)).verdict == "noise"


def test_the_n_run_floor_counts_per_run_what_that_run_had_and_another_lacked():
    x, y, z = "s1 A", "s2 B", "s1 C"
    fl = noise.floor(View(received={HELLO, x, y}), View(received={HELLO, x}), View(received={HELLO, y, z}))
    assert fl.only_a["received"] == [x, y] and fl.only_b["received"] == [x] and fl.only[2]["received"] == [z, y]
    counts = fl.counts()
    assert counts["a"]["received"] == 2 and counts["b"]["received"] == 1 and counts["runs"] == 3
    assert [p["received"] for p in counts["per_run"]] == [2, 1, 2]
    # two runs: the shape of before (only A, only B, the fields), nothing added
    two = noise.floor(View(received={HELLO, x}), View(received={HELLO, y}))
    assert set(two.counts()) == {"a", "b", "fields"} and two.only_a["received"] == [x] and two.only_b["received"] == [y]


def test_noisy_fields_are_measured_over_every_pair_of_runs():
    """A and B agree; C numbered its cookie otherwise: the cookie is noisy, and the engine's own
    cookie compares equal to A's once it is left out."""
    fm = 's1 OFPFlowMod {"cookie": %d, "priority": 1, "idle_timeout": 5, "table_id": 0}'
    a, c, e = View(sent={fm % 1}), View(sent={fm % 2}), View(sent={fm % 3})
    assert classify.classify("frames", a, View(sent={fm % 1}), e).verdict == "unexplained"
    cl = classify.classify("frames", a, View(sent={fm % 1}), e, (c,))
    assert cl.floor.fields == {("OFPFlowMod", "/cookie")} and cl.verdict == "noise"


def test_the_report_names_every_run_of_the_floor():
    c = {"controller": "c", "version": "1.3", "stimulus": "frames", "identical": False, "verdict": "noise",
         "labels": {"noise": 4}, "only_ovs": {}, "only_engine": {},
         "noise_floor": {"a": {"received": 2}, "b": {"received": 0}, "fields": [], "runs": 3,
                         "run_names": ["A", "B", "C"],
                         "per_run": [{"received": 2}, {"received": 0}, {"received": 1}]}}
    assert verdict(c) == "noise (4 items; A/B/C +2/+0/+1)" and agrees(c)
    two = dict(c, noise_floor={"a": {"received": 2}, "b": {"received": 0}, "fields": []})
    assert verdict(two) == "noise (4 items; A/B +2/+0)"


def test_views_of_more_runs_write_and_read_back(tmp_path):
    from .harness import write_views
    stim, a, b, e = _load("cookie")
    write_views(tmp_path / "x.json", stim, a, b, e, (b, a))
    got = json.loads((tmp_path / "x.json").read_text())
    assert [m["received"] for m in got["more"]] == [sorted(b.received), sorted(a.received)]
    write_views(tmp_path / "y.json", stim, a, b, e)
    assert "more" not in json.loads((tmp_path / "y.json").read_text()), "two runs: the shape of before"


def test_recorded_floodlight_bddp_probes_both_first_runs_showed_are_noise_once_a_third_run_lacks_them():
    """Recorded (``--views``, ``--noise-runs 3``, Floodlight 1.3 link, 2026-11-28; the items all four
    views shared taken out, which changes no label): OVS A and B raised Floodlight's BDDP probe on
    both switches and got its packet-outs, the engine and OVS C did not. Two runs call that a
    finding; the third shows Open vSwitch does not always do it: noise."""
    stim, a, b, e = _load("floodlight-1.3-link-3runs")
    more = _more("floodlight-1.3-link-3runs")
    two = classify.classify(stim, a, b, e)
    assert two.verdict == "unexplained"
    assert two.items(classify.UNEXPLAINED)["only_ovs"]["sent"] == [
        "s1 PACKET_OUT buffered=False in_port=0xfffffffd actions=00000010000000020000000000000000 frame=bddp",
        "s2 PACKET_OUT buffered=False in_port=0xfffffffd actions=00000010000000020000000000000000 frame=bddp"]
    three = classify.classify(stim, a, b, e, more)
    assert three.verdict == "noise" and three.counts() == {"noise": 5}, three.labels
    assert [p["received"] + p["sent"] for p in three.floor.counts()["per_run"]] == [5, 4, 2]


def test_a_cell_of_three_runs_keeps_the_two_run_keys_and_reads_back_through_report(tmp_path, capsys):
    """The record of N = 2 has the keys readers knew (``noise_floor`` a, b, fields, identical,
    only_a, only_b; ``counts`` ovs, engine, ovs_b); N = 3 adds to them, and ``--report`` reads it."""
    from ..cli import main
    from .harness import record
    stim, a, b, e = _load("cookie")
    two = record("osken:learning", "1.3", stim, a, e, [b])
    assert set(two["noise_floor"]) == {"a", "b", "fields", "identical", "only_a", "only_b"}
    assert set(two["counts"]) == {"ovs", "engine", "ovs_b"} and len(two["noise"]) == 3
    stim, a, b, e = _load("floodlight-1.3-link-3runs")
    three = record("floodlight", "1.3", stim, a, e, [b, *_more("floodlight-1.3-link-3runs")])
    fl = three["noise_floor"]
    assert set(fl) - set(two["noise_floor"]) == {"runs", "run_names", "per_run", "only_more"}
    assert fl["runs"] == 3 and fl["per_run"][:2] == [fl["a"], fl["b"]] and set(three["counts"]) == {"ovs", "engine", "ovs_b", "ovs_c"}
    f = tmp_path / "cells.json"
    f.write_text(json.dumps([two, three]))
    assert main(["conformance", "--report", str(f)]) == 0
    out = capsys.readouterr().out
    assert "noise (5 items; A/B/C +5/+4/+2)" in out and "noise (6 items; A/B +3/+3" in out, out
