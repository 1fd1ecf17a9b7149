"""Repetitions are stored as repetitions in every kind: `results show` counts them and
`--per rep` has one mean per repetition."""

import json

from sdnbench.cli import main
from sdnbench.result import Result
from sdnbench.commands._results import run_plan
from sdnbench.outputs import Outputs
from sdnbench.store import CellSpec, Store


def _show(store, capsys) -> list:
    assert main(["results", "show", "latest", "--store", str(store), "--json", "--per", "rep"]) == 0
    return json.loads(capsys.readouterr().out)["statistics"]


def test_net_run_reps_become_repetitions(tmp_path, capsys):
    # net run --reps 3: one Result, series labelled rep=0..2 (as run_net makes them)
    r = Result("net", "ping", {"topo": "single,2", "reps": 3})
    for rep in range(3):
        r.add("rtt", "ms", [1.0 + rep, 2.0 + rep], src="h1", dst="h2", size=64, rep=rep)
    with Store(tmp_path) as st:
        st.save_result(r.finish())
        cells = st.cells(st.resolve_run("latest"))
    assert [c.repetition for c in cells] == [0, 1, 2]
    assert all(c.params == {"topo": "single,2"} for c in cells)      # one condition
    stats = _show(tmp_path, capsys)
    assert [(s["repetitions"], s["summary"]["n"]) for s in stats] == [(3, 3)]
    assert stats[0]["summary"]["mean"] == 2.5


def test_a_command_s_reps_become_repetitions_of_one_run(tmp_path, capsys):
    # controller bench --switches 1,4 --reps 2: a cell per switch count and repetition, on the
    # one path every measuring command stores by (run_plan: the executor and its store sink)
    outputs = Outputs(store=tmp_path)
    cells = [CellSpec(f"t{n}.{rep}", "throughput", "controller", {"switches": n}, rep) for n in (1, 4) for rep in (0, 1)]

    def measure(p: dict) -> Result:
        r = Result("controller", "throughput", dict(p))
        r.add("throughput", "flows/s", [100.0 * p["switches"] + len(seen)])
        seen.append(r)
        return r.finish()
    seen: list = []
    results = run_plan(outputs, cells, measure)
    assert len(results) == 4 and "saved as run 1" in capsys.readouterr().err
    with Store(tmp_path) as st:
        [run] = st.runs()
        assert (run.kind, run.status) == ("single", "done")
        assert [c.repetition for c in st.cells(run.id)] == [0, 1, 0, 1]
    stats = _show(tmp_path, capsys)
    assert [(s["params"], s["repetitions"]) for s in stats] == [({"switches": 1}, 2), ({"switches": 4}, 2)]


def test_without_store_nothing_is_stored(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    outputs = Outputs()
    cell = CellSpec("k", "throughput", "controller", {"switches": 1}, 0)
    run_plan(outputs, [cell], lambda p: Result("controller", "throughput", dict(p)).finish())
    assert list(tmp_path.iterdir()) == [] and "saved as run" not in capsys.readouterr().err


def test_campaign_repetitions_are_cells(tmp_path, capsys):
    f = tmp_path / "s.yaml"
    f.write_text("name: r\nrepetitions: 3\nbenchmarks:\n  - kind: synthetic\n    params: {value: 5}\n")
    assert main(["run", str(f), "--store", str(tmp_path / "st")]) == 0
    capsys.readouterr()
    assert [s["repetitions"] for s in _show(tmp_path / "st", capsys)] == [3]
