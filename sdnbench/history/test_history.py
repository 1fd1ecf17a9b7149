"""``sdnbench history`` over a synthetic store with a known regression."""

import json
import subprocess
import sys

import pytest

from sdnbench.errors import UserError
from sdnbench.history.alerts import alerts
from sdnbench.history.collect import load_history
from sdnbench.history.conftest import make_store

# Run 6 is the first at the new level for osken; ryu stays flat.
LEVELS = {"osken:learning": [1000.0] * 5 + [700.0] * 4, "ryu:simple_switch_13": [500.0] * 9}


@pytest.fixture
def store(tmp_path):
    s = make_store(tmp_path / "store", LEVELS)
    yield s
    s.close()


def test_the_step_is_found_at_the_run_where_it_began(store):
    h = load_history(store, "nightly", "throughput")
    assert [r.run_id for r in h.runs] == list(range(1, 10))
    assert h.conditions == ["controller=osken:learning", "controller=ryu:simple_switch_13"]
    found = alerts(h)
    assert [(a.condition, a.run_id, a.previous_run, a.regression) for a in found] == \
        [("controller=osken:learning", 6, 5, True)]
    assert -0.35 < found[0].step.change < -0.25


def test_lower_is_better_metrics_and_refs(store):
    h = load_history(store, "2", "latency")                  # a run id names its scenario
    assert h.unit == "us" and alerts(h) == []
    with pytest.raises(UserError, match="no runs of 'other'"):
        load_history(store, "other", "throughput")
    with pytest.raises(UserError, match="metrics there: latency, throughput"):
        load_history(store, "nightly", "goodput")


def test_command_table_json_plot_and_gate(store, tmp_path):
    base = [sys.executable, "-m", "sdnbench", "history", "nightly", "--metric", "throughput",
            "--store", str(store.dir)]
    cp = subprocess.run(base + ["-o", str(tmp_path / "h.png")], capture_output=True, text=True,
                        timeout=60, env={"COLUMNS": "120", "PATH": "/usr/bin:/bin"})
    assert cp.returncode == 0, cp.stderr
    out = cp.stdout
    assert "throughput (flows/s) over 9 runs of nightly, 2 conditions" in out
    assert "REGRESSION: throughput, controller=osken:learning: 1,0" in out and "beginning at run 6 (after run 5)" in out
    assert "▼" in out and (tmp_path / "h.png").stat().st_size > 10_000
    assert all(len(line) <= 120 for line in out.splitlines())
    doc = json.loads(subprocess.run(base + ["--json"], capture_output=True, text=True,
                                    timeout=60, check=True).stdout)
    assert [(s["run"], s["kind"]) for s in doc["steps"]] == [(6, "regression")]
    gate = subprocess.run(base + ["--fail-on-regression"], capture_output=True, text=True, timeout=60)
    assert gate.returncode == 2 and "regression" in gate.stderr


def test_the_report_of_a_later_run_shows_its_history_and_warns_in_the_headline(store):
    from sdnbench.report.builder import build
    from sdnbench.report.history import history_section
    from sdnbench.report.load import load_runs
    runs = load_runs(["9"], store.dir)
    section = history_section(runs, store.dir, with_plots=True)
    assert section.title == "History" and len(section.figures) == 2      # latency, throughput
    assert any("beginning at run 6" in t for t in section.text)
    assert all(f.kind == "history" and f.png[:4] == b"\x89PNG" for f in section.figures)
    report = build(runs, history=section, with_plots=False)
    assert report.sections[0].title == "Headline" and report.sections[-1].title == "Runs and metadata"
    assert any(t.startswith("Warning: throughput over 9 runs") for t in report.sections[0].text)
    # Up to run 4 there is no step yet.
    early = history_section(load_runs(["4"], store.dir), store.dir, with_plots=False)
    assert early.text and not any("REGRESSION" in t for t in early.text)
