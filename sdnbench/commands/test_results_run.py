"""`sdnbench run` and `sdnbench results ...` end to end in-process, with the synthetic kind."""

import json

import pytest

from sdnbench.cli import main

SCENARIO = """\
name: cli test
description: synthetic campaign
seed: 5
repetitions: 4
benchmarks:
  - name: thr
    kind: synthetic
    params: {samples: 3, spread: 0.5}
    matrix:
      value: [10, 20, 30]
  - name: broken
    kind: synthetic
    repetitions: 1
    params: {fail: controller crashed}
"""


@pytest.fixture
def campaign(tmp_path, capsys):
    f = tmp_path / "s.yaml"
    f.write_text(SCENARIO)
    store = tmp_path / "store"
    assert main(["run", str(f), "--store", str(store)]) == 2      # one cell failed: exit 2
    err = capsys.readouterr().err
    assert "run 1: cli test, 13 cells, seed 5" in err
    assert "FAILED broken #1" in err and "controller crashed" in err
    assert "run 1 FAILED: 12 ok, 1 failed of 13 cells" in err
    return f, store


def test_results_list_and_show(campaign, capsys):
    _, store = campaign
    assert main(["results", "list", "--store", str(store)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2].split()[:9] == ["1", "campaign", "cli", "test", "failed"] + out[2].split()[5:9]
    assert out[2].split()[-4:] == ["12", "1", "0", "5"]
    assert main(["results", "show", "latest", "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert "cells: 12 ok, 1 failed, 0 left; seed 5" in out
    assert "broken" in out and "controller crashed" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("thr ")]
    assert [r[1] for r in rows] == ["10", "20", "30"]
    assert all(r[4:7] == ["4", "0", "12"] for r in rows)          # reps, failed, n samples
    assert main(["results", "show", "1", "--store", str(store), "--json", "--per", "rep"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["run"]["seed"] == 5 and data["run"]["scenario_text"] == SCENARIO
    assert [s["summary"]["n"] for s in data["statistics"]] == [4, 4, 4]
    assert data["failed_cells"][0]["error"] == "synthetic failure (controller crashed)"


def test_results_export_csv_and_json(campaign, capsys, tmp_path):
    _, store = campaign
    assert main(["results", "export", "1", "--store", str(store)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + 12 * 3 + 1          # header, 12 cells x 3 samples, the failed cell
    out = tmp_path / "x.json"
    assert main(["results", "export", "1", "--store", str(store), "--format", "json", "-o", str(out)]) == 0
    assert len(json.loads(out.read_text())["cells"]) == 13


def test_results_best_reports_p_values(campaign, capsys):
    _, store = campaign
    assert main(["results", "best", "1", "--store", str(store), "--vary", "value",
                 "--test", "mann-whitney-u"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("thr throughput (higher is better): best value=30")
    assert "decided by two-sided" in out[0]
    # 4 repetition means each, no overlap: exact two-sided Mann-Whitney p = 2/C(8,4) = 2/70
    assert out[1].strip() == "value=30 vs 20: mann-whitney-u two-sided p=0.02857 (different)"
    assert main(["results", "best", "1", "--store", str(store), "--vary", "nope"]) == 1


def test_dry_run_and_resume_errors(campaign, capsys, tmp_path):
    f, store = campaign
    assert main(["run", str(f), "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "cli test: 13 cells, order random, seed 5" and len(out) == 14
    assert main(["run", "--resume", "1", "--store", str(store)]) == 2   # complete, with a failed cell
    assert "complete" in capsys.readouterr().err
    f.write_text(SCENARIO.replace("seed: 5", "seed: 6"))
    assert main(["run", str(f), "--resume", "1", "--store", str(store)]) == 1
    assert "has changed since run 1 started" in capsys.readouterr().err
    assert main(["run", "--resume", "9", "--store", str(store)]) == 1
    assert main(["run", "--resume", "1", "--store", str(tmp_path / "none")]) == 1
    assert "no results store" in capsys.readouterr().err
    assert main(["results", "list", "--store", str(tmp_path / "none")]) == 1


def test_quick_runs_one_repetition(tmp_path, capsys):
    f = tmp_path / "s.yaml"
    f.write_text(SCENARIO)
    assert main(["run", str(f), "--store", str(tmp_path / "st"), "--quick"]) == 2   # `broken` fails
    assert "run 1 FAILED: 3 ok, 1 failed of 4 cells" in capsys.readouterr().err


def test_cli_choice_lists_match_the_modules_they_stand_for():
    # results.py keeps these as literals so that `sdnbench --help` does not import scipy
    from sdnbench.commands import results
    from sdnbench.compare.samples import PER
    from sdnbench.stats.significance import TESTS
    assert results.PER == PER and sorted(results.TESTS) == sorted(TESTS)
