"""Scenarios with net benchmarks: --dry-run reports every problem at once, each with file:line;
paths are resolved against the scenario file; a result that measured nothing is never ok."""

from sdnbench.campaign.measure import measure
from sdnbench.campaign.scenario import load
from sdnbench.cli import main
from sdnbench.result import Result

BAD = """\
name: bad
benchmarks:
  - kind: net
    params:
      measurements: [tcpp]
      ping: {count: 0}
      protocols: OpenFlow13
    matrix:
      topo: ["tree,0", "single,2"]
  - kind: net
    name: second
    params:
      topo: single,2
      pairs: h1-h9
      udp: {rate: abc}
"""


def test_dry_run_reports_every_problem_with_its_line(tmp_path, capsys):
    f = tmp_path / "bad.yaml"
    f.write_text(BAD)
    assert main(["run", str(f), "--dry-run"]) == 1
    err = capsys.readouterr().err.splitlines()
    lines = [e.removeprefix("sdnbench: error: ") for e in err]
    where = sorted(int(e.split(":")[1]) for e in lines)
    assert where == [5, 6, 7, 9, 14, 15]
    assert all(e.startswith(str(f)) for e in lines)


def test_paths_are_resolved_against_the_scenario_file(tmp_path, monkeypatch):
    sub = tmp_path / "study"
    sub.mkdir()
    (sub / "ring.yaml").write_text("switches: [s1]\nhosts: [h1, h2]\nlinks: [[h1, s1], [h2, s1]]\n")
    (sub / "s.yaml").write_text("name: p\nbenchmarks:\n  - kind: net\n    params: {topo: ring.yaml}\n")
    monkeypatch.chdir(tmp_path)              # not the scenario's directory
    sc = load(sub / "s.yaml")
    assert sc.benchmarks[0].params["topo"] == str(sub / "ring.yaml")


def test_a_result_that_measured_nothing_fails_its_cell():
    def lost(params):
        r = Result("net", "ping", params)
        r.add("rtt", "ms", [None, None])
        return r.finish()
    r = measure(lost, "net", "ping", {})
    assert r.status == "failed" and "measured nothing" in r.error
