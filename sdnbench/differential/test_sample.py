"""The noise floor measured where needed (``harness.sample_until_settled``, ``--noise-extra``), on
recorded views (``testdata/noise``): further Open vSwitch runs settle a race that one of them shows,
and never a substance difference that every Open vSwitch run agrees on."""

import json

from . import harness, report
from .test_noise import DATA, _view


def _sampler(name: str, extra: list):
    """(judge, more, runs taken so far) over a recorded cell: A, B, then the views of ``extra`` one
    by one as ``more`` asks for them."""
    d = json.loads((DATA / f"{name}.json").read_text())
    a, b, e = (_view(d[k]) for k in ("a", "b", "engine"))
    others = [b]

    def judge():
        return harness.record("c", "1.3", d["stimulus"], a, e, others)

    def more():
        others.append(extra[len(others) - 1])
    return judge, more, others


def test_a_race_that_a_further_ovs_run_shows_is_noise_after_that_run_and_the_cell_says_so():
    d = json.loads((DATA / "floodlight-1.3-link-3runs.json").read_text())
    judge, more, others = _sampler("floodlight-1.3-link-3runs", [_view(m) for m in d["more"]] * 5)
    assert judge()["verdict"] == "unexplained", "A and B alone did not sample the race"
    rec, x = harness.sample_until_settled(judge, more, 4)
    assert rec["verdict"] == "noise" and x == {"limit": 4, "taken": 1, "unexplained": [5, 0]}
    assert len(others) == 2, "it stops at the first run that settles the cell"
    assert rec["noise_floor"]["run_names"] == ["A", "B", "C"]
    seen = {(side, x): (lab, k, n) for lab, side, _cat, x, k, n in rec["seen_in_ovs_runs"]}
    assert len(seen) == 5 and all(lab == "noise" and n == 3 for lab, _k, n in seen.values())
    assert all(0 < k < 3 if side == "only_ovs" else k == 1 for (side, _x), (_l, k, _n) in seen.items()), seen


def test_a_different_action_stays_unexplained_however_many_runs_agree_with_a():
    d = json.loads((DATA / "real.json").read_text())
    agree = [_view(d["b"]), _view(d["a"]), _view(d["b"])]        # Open vSwitch always sends port 2
    judge, more, others = _sampler("real", agree)
    rec, x = harness.sample_until_settled(judge, more, 3)
    assert rec["verdict"] == "unexplained" and x == {"limit": 3, "taken": 3, "unexplained": [4, 4, 4, 4]}
    assert len(others) == 4


def test_a_flow_mod_the_engine_lacks_stays_unexplained_beside_a_settled_race():
    d = json.loads((DATA / "floodlight-1.3-link-3runs.json").read_text())
    flowmod = 's1 OFPFlowMod {"actions": [{"OFPActionOutput": {"port": 2}}], "command": 0, "priority": 5}'
    runs = []
    for k in ("a", "b"):
        d[k]["sent"].append(flowmod)
    for m in d["more"]:
        m["sent"].append(flowmod)
        runs.append(_view(m))
    a, b, e = (_view(d[k]) for k in ("a", "b", "engine"))
    others = [b]

    def judge():
        return harness.record("c", "1.3", d["stimulus"], a, e, others)

    rec, x = harness.sample_until_settled(judge, lambda: others.append(runs[0]), 1)
    assert rec["verdict"] == "unexplained" and x["taken"] == 1 and x["unexplained"] == [6, 1]
    assert rec["by_label"]["unexplained"]["only_ovs"]["sent"] == [flowmod]
    assert ["unexplained", "only_ovs", "sent", flowmod, 3, 3] in rec["seen_in_ovs_runs"], "every OVS run sent it"
    rec.update(noise_extra=x, identical=False)
    d = report.details([rec])
    assert f"unexplained, only on ovs sent: `{flowmod}` (in 3 of 3 OVS runs)" in d
    assert "1 further run of 1 (unexplained 6→1)" in d


def test_no_further_run_when_the_cell_is_settled_or_the_limit_is_zero():
    judge, more, others = _sampler("cookie", [])
    assert harness.sample_until_settled(judge, more, 3)[1] == {"limit": 3, "taken": 0, "unexplained": [0]}
    judge, more, others = _sampler("real", [])
    rec, x = harness.sample_until_settled(judge, more, 0)
    assert rec["verdict"] == "unexplained" and x["taken"] == 0 and len(others) == 1
