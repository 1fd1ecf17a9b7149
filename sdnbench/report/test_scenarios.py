"""The scenarios in ``scenarios/``: each study's scenario parses (full and quick), and each quick
variant really runs (Mininet, Open vSwitch, controllers, the load engine) and reports.

The runs go through the real CLI in a subprocess (``python -m sdnbench run --quick``), each into
its own store, and the report is then built from that store.
"""

import os
import subprocess
import sys

import pytest

from sdnbench.campaign import scenario as scenario_mod
from sdnbench.campaign.plan import plan
from sdnbench.paths import REPO
from sdnbench.report.builder import build
from sdnbench.report.export import write
from sdnbench.report.load import load_runs

SCENARIOS = REPO / "scenarios"
STUDIES = {"campus": "000", "pox-ryu": "001", "controller-benchmark": "002",
           "zodiac-pipeline": "003", "ovs-cpqd": "004"}


def _cells(name: str, quick: bool) -> list:
    return plan(scenario_mod.load(SCENARIOS / f"{name}.yaml", quick=quick), 0)


@pytest.mark.parametrize("name", sorted(STUDIES) + ["demo", "tls-cost"])
def test_scenario_parses_and_quick_is_smaller(name):
    full, quick = _cells(name, False), _cells(name, True)
    assert 0 < len(quick) <= len(full)
    if name != "demo":
        assert len(quick) < len(full)


@pytest.mark.parametrize("name", sorted(STUDIES))
def test_every_study_names_its_seed_and_says_why_a_controller_goes_through_tcp(name):
    text = (SCENARIOS / f"{name}.yaml").read_text()
    assert f"seeds/{STUDIES[name]}" in text
    for line in text.splitlines():
        if "tcp:127.0.0.1" in line and not line.lstrip().startswith("#"):
            assert "cannot be installed here" in text


def _run_quick(tmp_path, name: str) -> list:
    store = tmp_path / "store"
    # POX is not installed by `make setup` (it is on no registry): the quick runs leave it out
    env = {k: v for k, v in os.environ.items() if k != "POX_DIR"}
    cp = subprocess.run([sys.executable, "-m", "sdnbench", "run", str(SCENARIOS / f"{name}.yaml"),
                         "--quick", "--store", str(store)], cwd=REPO, capture_output=True,
                        text=True, timeout=900, env=env)
    assert cp.returncode == 0, cp.stderr[-3000:]
    runs = load_runs(["latest"], store)
    failed = [(r.benchmark, r.params, r.error) for r in runs[0].results if r.status != "ok"]
    return runs, failed


def _kinds(report) -> dict:
    return {s.title: ([t.kind for t in s.tables], [f.kind for f in s.figures]) for s in report.sections}


@pytest.mark.integration
def test_campus_quick(tmp_path):
    runs, failed = _run_quick(tmp_path, "campus")
    assert failed == []
    report = build(runs)
    k = _kinds(report)
    assert "per_row" in k["latency: rtt (ms)"][0] and "lines" in k["latency: rtt (ms)"][1]
    assert "per_row" in k["tcp: tcp throughput (Mbit/s)"][0]
    assert "per_row" in k["udp throughput (Mbit/s)"][0]
    md = write(report, tmp_path / "campus.md", "md")[0].read_text()
    assert "| **avg** |" in md and "| s3 |" in md and "8192 byte" in md
    print("\n" + md[:6000])


@pytest.mark.integration
def test_pox_ryu_quick(tmp_path):
    runs, failed = _run_quick(tmp_path, "pox-ryu")
    assert failed == []
    k = _kinds(build(runs))
    delay = next(v for t, v in k.items() if t.startswith("udp: ditg delay "))
    assert "lines" in delay[1]


@pytest.mark.integration
def test_controller_benchmark_quick(tmp_path):
    runs, failed = _run_quick(tmp_path, "controller-benchmark")
    assert failed == []
    k = _kinds(build(runs))
    thr, lat = k["throughput: throughput (flows/s, throughput mode)"], k["latency: latency (µs, latency mode)"]
    assert {"trials", "best"} <= set(thr[0]) and {"trials", "best"} <= set(lat[0])
    assert "boxplot" in thr[1] and "cdf" in lat[1]
    assert "distribution" in k["capacity: sessions (switches, capacity mode)"][0]
    assert "resources" in k["Controller resources"][1]
    study = build(runs).sections[-1]            # the paper beside this run, POX's capacity first
    assert study.title == "The study and this run"
    pox = next(r for r in study.tables[0].rows if r[0] == "Control Session Capacity, POX")
    assert pox[2] == "1,016 sessions" and pox[3] == "not measured in this run", pox
    ryu = next(r for r in study.tables[0].rows if r[0] == "Control Session Capacity, Ryu")
    assert ryu[3].endswith("sessions") and ryu[4].startswith("ratio "), ryu


@pytest.mark.integration
def test_zodiac_pipeline_quick(tmp_path):
    runs, failed = _run_quick(tmp_path, "zodiac-pipeline")
    assert failed == []
    k = _kinds(build(runs))
    assert "pivot" in k["tcp throughput (Mbit/s)"][0] and "bars" in k["tcp throughput (Mbit/s)"][1]


@pytest.mark.integration
def test_ovs_cpqd_quick(tmp_path):
    runs, failed = _run_quick(tmp_path, "ovs-cpqd")
    assert failed == []
    report = build(runs)
    fn = next(s for s in report.sections if s.title.startswith("first packet vs next"))
    assert fn.tables[0].rows[0][1] >= 1 and fn.tables[0].rows[0][3] >= 1
