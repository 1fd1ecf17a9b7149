""""The study and this run": the checked-in reference data against the seed texts they cite,
and each comparison kind against scripted results with known answers."""

import copy

import pytest

from sdnbench.paths import REPO
from sdnbench.report import study
from sdnbench.report.builder import build
from sdnbench.report.model import RunData
from sdnbench.result import Result

SCENARIOS = REPO / "scenarios"
STUDY_FILES = sorted(SCENARIOS.glob("*.study.yaml"))


def test_there_is_reference_data_for_the_controller_study():
    assert SCENARIOS / "controller-benchmark.study.yaml" in STUDY_FILES


@pytest.mark.parametrize("path", STUDY_FILES, ids=lambda p: p.name)
def test_the_reference_data_matches_the_seed_text_it_cites(path):
    doc = study.load(path)
    seed = study.seeds_dir() / doc["seed"]
    assert seed.is_file(), f"{path.name} cites {seed}, which is not there (set SDNBENCH_SEEDS)"
    assert study.check_against_seed(doc, seed.read_text()) == []
    assert (SCENARIOS / path.name.replace(".study.yaml", ".yaml")).is_file()
    for row in doc["rows"]:
        assert row.get("why"), f"{row['figure']}: say why a difference is expected"
        if row["kind"] == "not-here":
            assert row["spec"].split(":", 1)[0] in ("cmd", "ssh", "tcp"), row["figure"]


def test_a_number_or_a_quote_that_no_longer_matches_the_seed_is_caught():
    doc = study.load(SCENARIOS / "controller-benchmark.study.yaml")
    seed = (study.seeds_dir() / doc["seed"]).read_text()
    changed = copy.deepcopy(doc)
    pox = next(r for r in changed["rows"] if r["figure"] == "Control Session Capacity, POX")
    pox["published"] = 1012
    [problem] = study.check_against_seed(changed, seed)
    assert "1012 is not in its quote" in problem
    pox["published"], pox["quote"] = 1016, "Máximo 1016 1017 1015 870 1769"
    [problem] = study.check_against_seed(changed, seed)
    assert "quote not in 002_4347ce6f585e2b25.txt" in problem
    assert study.check_against_seed(doc, seed.replace("850,5", "850.5")) == []
    assert study.check_against_seed(doc, seed.replace("1016\t1017", "1014\t1017")) != []


def test_the_controller_study_has_poxs_capacity_and_the_best_scenario_rows():
    doc = study.load(SCENARIOS / "controller-benchmark.study.yaml")
    pox = next(r for r in doc["rows"] if r["figure"] == "Control Session Capacity, POX")
    assert pox["published"] == 1016 and pox["measure"]["where"] == {"controller": "pox"}
    best = {r["figure"] for r in doc["rows"] if r["kind"] == "best"}
    assert {"Best throughput scenario, POX", "Best throughput scenario, Ryu",
            "Best latency scenario, POX", "Best latency scenario, Ryu"} <= best
    gone = " ".join(r["figure"] for r in doc["rows"] if r["kind"] == "not-here")
    assert all(n in gone for n in ("NOX-MT", "Floodlight", "Beacon"))


POX = "cmd:python3 pox.py openflow.of_01 --port={port} forwarding.l2_learning;name=pox"


def _r(bench: str, ctl: str, metric: str, values: list, **params) -> Result:
    r = Result(kind="controller", benchmark=bench, params={"controller": ctl, **params})
    r.add(metric, "x", values)
    return r.finish()


def test_value_row_is_the_statistic_of_the_per_cell_means_and_its_ratio():
    rs = [_r("capacity", POX, "sessions", [1012]), _r("capacity", POX, "sessions", [1010]),
          _r("capacity", "ryu:simple_switch", "sessions", [4000])]
    row = {"kind": "value", "published": 1016, "unit": "sessions",
           "measure": {"benchmark": "capacity", "metric": "sessions", "stat": "max", "where": {"controller": "pox"}}}
    got = study.compare(row, rs)
    assert got["value"] == 1012 and got["verdict"] == "ratio 0.996"
    assert study.compare({**row, "measure": {**row["measure"], "where": {"controller": "nox"}}}, rs)["run"] == \
        "not measured in this run"


def test_best_row_uses_the_studys_procedure_and_says_whether_it_holds():
    rs = [_r("throughput", "ryu:simple_switch", "throughput", [v], switches=n)
          for n, vals in ((1, [100, 101, 102, 99, 100]), (4, [80, 81, 79, 80, 82]), (16, [60, 61, 59, 60, 62]))
          for v in vals]
    row = {"kind": "best", "published": {"x": 1, "value": 47631}, "unit": "flows/s",
           "measure": {"benchmark": "throughput", "metric": "throughput", "x": "switches",
                       "where": {"controller": "ryu:simple_switch"}}}
    got = study.compare(row, rs)
    assert got["run"].startswith("switches=1: 100") and got["verdict"] == "holds"
    assert study.compare({**row, "published": {"x": 128, "value": 1}}, rs)["verdict"] == \
        "switches=128 not measured here"
    assert study.compare({**row, "published": {"x": 4, "value": 1}}, rs)["verdict"] == "differs (switches=4 in the paper)"
    trend = {"kind": "trend", "direction": "falls", "measure": row["measure"]}
    assert study.compare(trend, rs)["verdict"] == "holds"
    assert study.compare({**trend, "direction": "rises"}, rs)["verdict"] == "does not hold"


def test_latency_per_flow_is_a_million_over_the_latency_modes_rate():
    rs = [_r("latency", POX, "throughput", [25000.0], switches=1), _r("latency", POX, "throughput", [50000.0], switches=4)]
    row = {"kind": "best", "published": {"x": 4, "value": 20.0}, "unit": "µs/flow",
           "measure": {"benchmark": "latency", "metric": "throughput", "transform": "per_flow_us", "higher": False,
                       "x": "switches", "where": {"controller": "pox"}}}
    got = study.compare(row, rs)
    assert got["run"].startswith("switches=4: 20") and got["verdict"] == "holds"


def test_order_row_and_not_here_row():
    rs = [_r("throughput", POX, "throughput", [900]), _r("throughput", "ryu:simple_switch", "throughput", [400])]
    row = {"kind": "order", "expect": ["pox", "ryu:simple_switch"],
           "measure": {"benchmark": "throughput", "metric": "throughput", "stat": "max"}}
    assert study.compare(row, rs) == {"run": "pox 900 > ryu:simple_switch 400", "verdict": "holds"}
    assert study.compare({**row, "expect": ["ryu:simple_switch", "pox"]}, rs)["verdict"] == "does not hold"
    gone = study.compare({"kind": "not-here", "spec": "cmd:./beacon;name=beacon"}, rs)
    assert gone == {"run": "cannot run here", "verdict": "not measured; would run as cmd:./beacon;name=beacon"}


def test_a_seed_scenarios_report_ends_with_the_study_and_this_run():
    run = RunData("1", "controller-benchmark", [_r("capacity", POX, "sessions", [1012], switches=1100)],
                  meta={"scenario": "controller-benchmark", "scenario_path": "scenarios/controller-benchmark.yaml"})
    rep = build([run], with_plots=False)
    last = rep.sections[-1]
    assert last.title == "The study and this run"
    pox = next(r for r in last.tables[0].rows if r[0] == "Control Session Capacity, POX")
    assert pox[2] == "1,016 sessions" and pox[3] == "1,012 sessions" and pox[4] == "ratio 0.996"
    assert build([RunData("2", "other", run.results, meta={"scenario": "demo"})], with_plots=False) \
        .sections[-1].title != "The study and this run"
