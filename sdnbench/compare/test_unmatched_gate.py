"""compare names the cells it cannot match (every format), and --fail-on fires only on changes
that are significant AND beyond the threshold (asv); --fail-on-any keeps every change."""

import json

from sdnbench.cli import main
from sdnbench.result import Result
from sdnbench.store import Store


def _store(tmp_path, a_cells: dict, b_cells: dict):
    """Two runs; ``*_cells`` maps switches -> throughput samples."""
    with Store(tmp_path) as st:
        for cells in (a_cells, b_cells):
            run = st.create_run("campaign", "r", status="done")
            for n, values in cells.items():
                r = Result("controller", "throughput", {"switches": n})
                r.add("throughput", "flows/s", values)
                st.save_result(r.finish(), run=run)
    return str(tmp_path)


def test_cells_on_one_side_only_are_listed_in_every_format(tmp_path, capsys):
    st = _store(tmp_path, {1: [10.0, 11, 12], 4: [40.0, 41, 42]}, {1: [10.0, 11, 12], 16: [5.0, 6, 7]})
    assert main(["compare", "1", "2", "--store", st]) == 0
    out = capsys.readouterr().out
    assert "2 cell(s) on one side only, not compared:" in out
    assert "only in run 1: throughput switches=4" in out and "only in run 2: throughput switches=16" in out
    assert main(["compare", "1", "2", "--store", st, "--markdown"]) == 0
    assert "- only in run 2: throughput switches=16" in capsys.readouterr().out
    assert main(["compare", "1", "2", "--store", st, "--csv"]) == 0
    rows = [line.split(",") for line in capsys.readouterr().out.splitlines()]
    assert sorted(r[-2] for r in rows if r[-2].startswith("only in")) == ["only in run 1", "only in run 2"]
    assert main(["compare", "1", "2", "--store", st, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(u["side"], u["params"]) for u in data["unmatched"]] == \
        [("run 1", {"switches": 4}), ("run 2", {"switches": 16})]
    # and to a file, format from the extension
    assert main(["compare", "1", "2", "--store", st, "-o", str(tmp_path / "c.json")]) == 0
    assert len(json.loads((tmp_path / "c.json").read_text())["unmatched"]) == 2


def test_fail_on_needs_a_significant_change_fail_on_any_does_not(tmp_path, capsys):
    # B is 20% lower on average, but 3 noisy samples against 3 can never be significant
    st = _store(tmp_path, {1: [100.0, 60.0, 140.0]}, {1: [80.0, 48.0, 112.0]})
    assert main(["compare", "1", "2", "--store", st, "--fail-on", "throughput:5"]) == 0
    assert "gate passed" in capsys.readouterr().err
    assert main(["compare", "1", "2", "--store", st, "--fail-on", "throughput:5", "--fail-on-any"]) == 2
    assert "20.0% worse" in capsys.readouterr().err
    # significant and beyond the threshold: fires without --fail-on-any
    st2 = _store(tmp_path / "b", {1: [100.0 + i for i in range(8)]}, {1: [80.0 + i for i in range(8)]})
    assert main(["compare", "1", "2", "--store", st2, "--fail-on", "throughput:5"]) == 2
    # significant but within the threshold: passes
    assert main(["compare", "1", "2", "--store", st2, "--fail-on", "throughput:25"]) == 0
