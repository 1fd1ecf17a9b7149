"""The campaign cell (issue 31): it negotiates the OpenFlow version as ``controller bench``
does and repeats the case ``reps`` times (3), one launch per repetition, the cell's verdict
the stable one. By hand (what the cell asks the runner for; how it folds repetitions), then
for real against a scripted controller."""

import sys
from pathlib import Path

import pytest

from sdnbench.result import Result
from sdnbench.robustness import cell
from sdnbench.robustness.stored import RobustnessCounters
from sdnbench.robustness.verdicts import Verdict

SCRIPTED = Path(__file__).resolve().parent / "testdata" / "scripted_view_of13.py"


def test_the_cell_negotiates_and_repeats_by_default(monkeypatch):
    seen = {}

    def fake_run_cases(spec, cases, **kw):
        seen.update(kw, spec=spec, cases=cases)
        return [(_result(i, "ignored"), Verdict(cases[0], "ignored", f"rep {i}")) for i in range(kw["reps"])]

    monkeypatch.setattr("sdnbench.robustness.runner.run_cases", fake_run_cases)
    r = cell.run_case({"controller": "osken:learning", "case": "unknown-type"})
    assert seen["of_version"] is None and seen["reps"] == 3 and seen["cases"] == ["unknown-type"]
    assert r.counters["robustness_verdict"] == "ignored" and r.params["reps"] == 3
    cell.run_case({"controller": "osken:learning", "case": "unknown-type", "of_version": "1.0", "reps": 1})
    assert seen["of_version"] == "1.0" and seen["reps"] == 1


def _result(rep: int, verdict: str, status: str = "ok") -> Result:
    r = Result(kind="controller", benchmark="robustness", params={"rep": rep, "of_version": "1.3"})
    r.counters["robustness"] = {"case": "bad-version", "verdict": verdict}
    return r.finish(status, None if status == "ok" else "engine run failed")


def test_cell_result_folds_the_repetitions():
    pairs = [(_result(0, "rejected"), Verdict("bad-version", "rejected", "a")),
             (_result(1, "hung", "failed"), Verdict("bad-version", "hung", "b")),
             (_result(2, "rejected"), Verdict("bad-version", "rejected", "c"))]
    r = cell.cell_result(pairs)
    assert r is pairs[-1][0]
    c = RobustnessCounters.of(r)
    assert RobustnessCounters.problems(r.counters) == []
    assert c.robustness_verdict == "unstable"
    assert r.counters["robustness_stable"]["per_rep"] == ["rejected", "hung", "rejected"]
    assert [x["verdict"] for x in r.counters["robustness_reps"]] == ["rejected", "hung", "rejected"]
    assert r.status == "failed" and r.error == "engine run failed"
    with pytest.raises(ValueError):
        cell.cell_result([])


@pytest.mark.parametrize("name,value,ok", [("reps", 3, True), ("reps", 0, False), ("reps", "3", False),
                                           ("reps", True, False), ("of_version", "1.3", True),
                                           ("of_version", "1.5", False), ("case", "oxm-bad-length", True)])
def test_validation(name, value, ok):
    assert (cell.validate_param(name, value) is None) == ok


def test_a_real_cell_negotiates_and_relaunches_per_repetition():
    """Against the scripted OF1.3 controller: two repetitions (each against a new launch:
    ``run_cases``, checked in test_robustness_cli), both at the version its HELLO picked, the
    cell's verdict the one both gave."""
    spec = f"cmd:{sys.executable} {SCRIPTED} {{port}};name=scripted"
    r = cell.run_case({"controller": spec, "case": "unknown-type", "reps": 2})
    reps = r.counters["robustness_reps"]
    assert [x["of_version"] for x in reps] == ["1.3", "1.3"]
    assert r.counters["robustness_stable"]["per_rep"] == [x["verdict"] for x in reps]
    assert r.counters["robustness_verdict"] in ("ignored", "rejected"), r.counters["robustness_stable"]
    assert r.params["reps"] == 2 and r.status == "ok"
