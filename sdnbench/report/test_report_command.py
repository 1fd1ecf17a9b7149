"""``sdnbench report`` end to end on a real store (synthetic results: pure report logic)."""

import json

from sdnbench.cli import main
from sdnbench.report.conftest import campus_run, controller_run
from sdnbench.store import Store


def _store_with(tmp_path, *runs) -> list:
    ids = []
    with Store(tmp_path / "store") as st:
        for run in runs:
            first = st.save_result(run.results[0], name=run.label)
            run_id = st.conn.execute("SELECT run_id FROM results WHERE id=?", (first,)).fetchone()[0]
            for r in run.results[1:]:
                st.save_result(r, run=run_id)
            ids.append(str(run_id))
    return ids


def test_report_from_the_store_in_every_format(tmp_path, capsys):
    ids = _store_with(tmp_path, campus_run("mininet", switches=2), campus_run("proto", switches=2, seed=9))
    store = str(tmp_path / "store")
    for fmt in ("md", "html", "csv", "json"):
        out = tmp_path / f"r.{fmt}"
        assert main(["report", *ids, "--store", store, "-o", str(out)]) == 0
        assert out.stat().st_size > 500
    md = (tmp_path / "r.md").read_text()
    assert "rtt on mininet (ms)" in md and "rtt on proto (ms)" in md and "| **Gap** |" in md
    assert json.loads((tmp_path / "r.json").read_text())["runs"][1]["label"] == "proto"
    capsys.readouterr()
    assert main(["report", "latest", "--store", store, "--format", "csv"]) == 0
    assert capsys.readouterr().out.startswith("kind,benchmark,metric,unit")


def test_report_from_result_json_files(tmp_path, capsys):
    run = controller_run(switch_counts=(1,), reps=2)
    d = tmp_path / "results"
    for i, r in enumerate(run.results):
        r.write_json(d / f"{i:03d}.json")
    assert main(["report", str(d)]) == 0
    assert "RFC 8456 report fields" in capsys.readouterr().out


def test_bad_input_is_one_line_and_exit_1(tmp_path, capsys):
    assert main(["report", "7", "--store", str(tmp_path / "none")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("sdnbench: error: no results store") and err.count("\n") == 1
    _store_with(tmp_path, campus_run(switches=1, reps=1))
    assert main(["report", "99", "--store", str(tmp_path / "store")]) == 1
    assert "no run 99" in capsys.readouterr().err
    assert main(["report", "latest", "--store", str(tmp_path / "store"), "-o", str(tmp_path / "x.txt")]) == 1
    assert "--format" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "missing.json")]) == 1
    assert main(["report", "1", "--store", str(tmp_path / "store"), "--format", "html"]) == 1
