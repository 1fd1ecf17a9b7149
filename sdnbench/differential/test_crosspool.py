"""Pooling across commands (``crosspool.py``, ``poolfiles.py``, ``conformance --pool``), on the
recorded views of ``test_pooled.py``: os-ken's topology app at OpenFlow 1.0, its connect cell
(runs A, B, C: the LLDP probe raised as a miss on s2 in A and B, not in C, nor on the engine),
frames and link cells. Here they are spread over the files of two commands."""

import json

import pytest

from ..cli import main
from . import crosspool, harness, report
from .crosspool import Cell
from .test_pooled import MISS, _cell, _runs

SPEC = "osken:topology"
PROV = {"controller": ["os-ken 2.8.1"], "switches": {"ovs": "Open vSwitch 3.1.0 (datapath_type=netdev)",
                                                     "engine": "sdnbench-engine 0.1.0"},
        "topology": "linear,2", "settle_s": 4.0}


def _record(stimulus: str, runs: dict, command: str, **prov) -> dict:
    others = [v for k, v in runs.items() if k not in ("ovs_a", "engine")] or [runs["ovs_a"]]   # its record only
    r = harness.record(SPEC, "1.0", stimulus, runs["ovs_a"], runs["engine"], others)
    return {**r, "command": {"id": command}, "provenance": {**PROV, "end_s": 8.0, **prov}}


def _connect_ab() -> dict:
    runs = _runs(_cell("connect"))
    return {k: runs[k] for k in ("ovs_a", "engine", "ovs_b")}


def test_the_same_cell_of_another_command_joins_its_floor_whole():
    runs = _runs(_cell("connect"))
    one = Cell("A.json", _record("connect", _connect_ab(), "c1"), _connect_ab())
    assert one.record["verdict"] == "unexplained", "A and B both had the probe: alone the cell cannot tell"
    two_runs = {"ovs_a": runs["ovs_c"], "engine": runs["engine"]}      # the recorded run C, in another command
    two = Cell("B.json", _record("connect", two_runs, "c2"), two_runs)
    cells, apart = crosspool.judge([one, two])
    assert apart == [] and len(cells) == 1
    c = cells[0]
    assert c["verdict"] == "noise" and c["labels"] == {"noise": 1}, "C lacked it: noise of the whole run"
    assert c["pooled_across"] == {"runs": 3, "same_stimulus_commands": 2, "commands": 2, "files": ["A.json", "B.json"]}
    assert c["seen_in_ovs_runs"] == [["noise", "only_ovs", "received", MISS.format(2), 2, 3]]
    assert report.verdict(c) == "noise (1 items; A/B/C +1/+1/+0; 3 OVS runs from 2 commands)"


def test_the_other_stimuli_of_another_command_pool_their_connect_phases():
    one = Cell("A.json", _record("connect", _connect_ab(), "c1"), _connect_ab())
    two = [Cell("B.json", _record(s, _runs(_cell(s)), "c2"), _runs(_cell(s))) for s in ("frames", "link")]
    cells, apart = crosspool.judge([one, *two])
    assert apart == [] and [c["stimulus"] for c in cells] == ["connect", "frames", "link"]
    c = cells[0]
    assert c["verdict"] == "noise" and c["labels"] == {"pooled": 1}
    assert c["pooled"] == {"runs": 5, "stimuli": ["connect", "frames", "link"]}
    assert c["pooled_across"] == {"runs": 2, "same_stimulus_commands": 1, "commands": 2, "files": ["A.json", "B.json"]}
    assert report.verdict(c).endswith("1 pooled over 5 connect phases (connect, frames, link); "
                                      "2 OVS runs from 1 command, connect phases from 2)")


@pytest.mark.parametrize("prov,why", [
    ({"controller": ["os-ken 2.9.0"]}, "controller os-ken 2.9.0 where the judged cell has os-ken 2.8.1"),
    ({"switches": {"ovs": "Open vSwitch 3.2.0 (datapath_type=netdev)", "engine": "sdnbench-engine 0.1.0"}},
     "switches engine sdnbench-engine 0.1.0; ovs Open vSwitch 3.2.0"),
    ({"topology": "linear,3"}, "topology linear,3 where"),
    ({"end_s": 9.0}, "end_s 9.0 where the judged cell has 8.0")])
def test_what_is_not_comparable_is_set_apart_in_one_line(prov, why):
    runs = _runs(_cell("connect"))
    one = Cell("A.json", _record("connect", _connect_ab(), "c1"), _connect_ab())
    two_runs = {"ovs_a": runs["ovs_c"], "engine": runs["engine"]}
    two = Cell("B.json", _record("connect", two_runs, "c2", **prov), two_runs)
    cells, apart = crosspool.judge([one, two])
    assert len(apart) == 1 and apart[0].startswith("B.json: osken:topology 1.0 connect: set apart: ") and why in apart[0]
    assert "\n" not in apart[0]
    assert cells[0]["verdict"] == "unexplained" and cells[0]["pooled_across"]["runs"] == 2


def test_a_command_given_twice_and_a_cell_without_provenance_never_pool():
    runs = _runs(_cell("connect"))
    one = Cell("A.json", _record("connect", _connect_ab(), "c1"), _connect_ab())
    two_runs = {"ovs_a": runs["ovs_c"], "engine": runs["engine"]}
    copy_ = Cell("A-copy.json", _record("connect", two_runs, "c1"), two_runs)
    old = _record("connect", two_runs, "c3")
    del old["provenance"]
    cells, apart = crosspool.judge([one, copy_, Cell("old.json", old, two_runs)])
    assert apart[0] == ("A-copy.json: set apart (1 cell): the same command as A.json "
                        "(command c1): its runs are not new samples")
    assert apart[1].startswith("old.json: osken:topology 1.0 connect: set apart: no provenance recorded")
    assert cells[0]["verdict"] == "unexplained"


def _files(tmp_path, name: str, cells_runs: list, command: str) -> tuple:
    views = tmp_path / name
    views.mkdir()
    recs = []
    for s, runs in cells_runs:
        recs.append(_record(s, runs, command))
        more = tuple(v for k, v in runs.items() if k not in ("ovs_a", "engine", "ovs_b"))
        harness.write_views(views / harness.views_name(SPEC, "1.0", s), s, runs["ovs_a"], runs["ovs_b"],
                            runs["engine"], more)
    out = tmp_path / f"{name}.json"
    out.write_text(json.dumps(recs))
    return str(out), str(views)


def test_the_command_line_pools_two_files_into_a_new_one_and_refuses_bad_input(tmp_path, capsys):
    runs = _runs(_cell("connect"))
    a, av = _files(tmp_path, "A", [("connect", _connect_ab())], "c1")
    b, bv = _files(tmp_path, "B", [("connect", {"ovs_a": runs["ovs_c"], "engine": runs["engine"],
                                                "ovs_b": runs["ovs_c"]}), ("frames", _runs(_cell("frames")))], "c2")
    before = open(a).read()
    merged = tmp_path / "AB.json"
    assert main(["conformance", "--pool", a, "--views", av, "--pool", b, "--views", bv, "-o", str(merged)]) == 0
    out = capsys.readouterr()
    assert "| osken:topology | 1.0 | noise (1 items; A/B/C/D +1/+1/+0/+0" in out.out
    assert "4 OVS runs from 2 commands" in out.out and f"wrote {merged}" in out.err
    assert open(a).read() == before, "no stored result changes"
    cells = json.loads(merged.read_text())
    assert [c["stimulus"] for c in cells] == ["connect", "frames"] and cells[0]["pooled_across"]["runs"] == 4
    (tmp_path / "A" / harness.views_name(SPEC, "1.0", "connect")).rename(tmp_path / "gone.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"x": 1}')
    for argv, line in [
        (["--pool", a, "--views", av, "--pool", b, "--views", bv, "-o", a], "-o "),
        (["--pool", a, "--pool", b, "--views", bv], "--pool: give each file's --views DIR after it"),
        (["--pool", str(tmp_path / "nope.json"), "--views", av], "nope.json: no such file"),
        (["--pool", str(bad), "--views", av], "bad.json: JSON, but not the cells"),
        (["--pool", a, "--views", str(tmp_path / "nodir")], "--views"),
        (["--pool", a, "--views", av], "no such views file"),
        (["--pool", str(merged), "--views", av], "AB.json: already pooled (from")]:
        assert main(["conformance", *argv]) == 1, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and line in err[0] and "Traceback" not in err[0], (argv, err)
