"""Unit tests: ``sdnbench net`` argument handling (no network is built)."""

import pytest

from sdnbench.cli import build_parser, main
from sdnbench.commands.net import params_from_args as _raw
from sdnbench.net.params import check


def params_from_args(args):
    return check(_raw(args), flags=True)


def parse(*argv):
    return build_parser().parse_args(["net", "run", *argv])


def test_issue_example_maps_to_run_net_params():
    args = parse("--topo", "star,10,4", "--controller", "osken:learning", "--ping-sizes",
                 "64,128,...,8192", "--pairs", "per-switch", "--tcp", "--udp", "--reps", "3",
                 "-o", "out.json")
    p = params_from_args(args)
    assert p["topo"] == "star,10,4" and p["pairs"] == "per-switch" and p["reps"] == 3
    assert p["measurements"] == ["ping", "tcp", "udp"]
    assert p["ping"]["sizes"] == [64, 128, 256, 512, 1024, 2048, 4096, 8192]
    assert p["udp"]["length"] == 1470 and p["tcp"]["window"] is None


def test_ping_is_the_default_measurement_and_ditg_options_carry_over():
    p = params_from_args(parse("--topo", "single,2"))
    assert p["measurements"] == ["ping"] and p["controller"] == "osken:learning"
    p = params_from_args(parse("--topo", "single,2", "--ditg", "--ditg-sizes", "128,1024",
                               "--ditg-duration", "2.5", "--ditg-meter", "owdm", "--first-packet"))
    assert p["measurements"] == ["first-packet", "ditg"]
    assert p["ditg"]["sizes"] == [128, 1024] and p["ditg"]["duration_ms"] == 2500
    assert p["ditg"]["meter"] == "owdm"


@pytest.mark.parametrize("argv, words", [
    (["net", "run"], "--topo"),
    (["net", "run", "--topo", "moebius,3"], "unknown topology"),
    (["net", "topo", "tree,0,2"], "at least 1"),
    (["net", "run", "--topo", "single,2", "--ping-sizes", "64,x"], "not a whole number"),
])
def test_bad_input_is_one_line_and_exit_1(argv, words, capsys):
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_topo_prints_switches_hosts_and_links(capsys):
    assert main(["net", "topo", "star,3,2", "--link", "wifi-g"]) == 0
    out = capsys.readouterr().out
    assert "star,3,2: 3 switches, 6 hosts, 8 links" in out
    assert "h5, h6" in out and "wifi-g, 22 Mbit/s, 0.5% loss" in out


def _fake_runs(monkeypatch, make, started=None):
    """``net run`` with ``make(params, rep) -> Result`` as each repetition: logic, no network."""
    from sdnbench.net import runner

    class Fake:
        def __init__(self, params, progress=None):
            self.p = runner.normalize(params)
            if started is not None:
                started.append(1)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass

        def rep(self, rep):
            return make(self.p, rep)
    monkeypatch.setattr(runner, "NetRun", Fake)


def _ping(params, rep, values=(1.0, 2.0)):
    from sdnbench.result import Result
    r = Result("net", "ping", {k: v for k, v in params.items() if k != "reps"})
    r.add("rtt", "ms", list(values), src="h1", dst="h2", size=64, rep=rep)
    return r.finish()


def test_a_store_that_fails_keeps_the_measurement_in_a_rescue_file(tmp_path, monkeypatch, capsys):
    from sdnbench.store import Store

    def broken(self, cell_id, result):
        raise OSError(28, "No space left on device")
    _fake_runs(monkeypatch, _ping)
    monkeypatch.setattr(Store, "finish_cell", broken)
    store = tmp_path / "st"
    assert main(["net", "run", "--topo", "single,2", "--store", str(store)]) == 2    # measured, not stored
    err = capsys.readouterr().err
    assert f"the result is in {store}/rescued-" in err
    [rescued] = store.glob("rescued-*.json")
    assert rescued.stat().st_mode & 0o777 == 0o644


def test_each_repetition_is_a_cell_and_o_holds_the_run_as_one_result(tmp_path, monkeypatch, capsys):
    """``--reps 3``: three cells of one run (repetitions 0..2, one condition), ``-o`` one Result
    whose series are labelled rep 0..2; a failed repetition ends the run (exit 2)."""
    import json

    from sdnbench.store import Store
    _fake_runs(monkeypatch, lambda p, rep: _ping(p, rep, (1.0 + rep,)))
    store, out = tmp_path / "st", tmp_path / "out.json"
    assert main(["net", "run", "--topo", "single,2", "--reps", "3", "--store", str(store), "-o", str(out)]) == 0
    with Store(store, create=False) as st:
        [run] = st.runs()
        cells = st.cells(run.id)
    assert run.status == "done" and [c.repetition for c in cells] == [0, 1, 2]
    assert len({json.dumps(c.params, sort_keys=True) for c in cells}) == 1 and "reps" not in cells[0].params
    written = json.loads(out.read_text())
    assert written["params"]["reps"] == 3 and [s["labels"]["rep"] for s in written["series"]] == [0, 1, 2]
    _fake_runs(monkeypatch, lambda p, rep: _ping(p, rep) if rep == 0 else _ping(p, rep).finish("failed", "gone"))
    assert main(["net", "run", "--topo", "single,2", "--reps", "3", "-o", str(out)]) == 2
    assert "net run failed: gone" in capsys.readouterr().err
    assert [s["labels"]["rep"] for s in json.loads(out.read_text())["series"]] == [0, 1]


def test_a_bad_store_is_refused_before_anything_starts(tmp_path, monkeypatch, capsys):
    started = []
    _fake_runs(monkeypatch, _ping, started)
    (tmp_path / "file").write_text("")
    assert main(["net", "run", "--topo", "single,2", "--store", str(tmp_path / "file")]) == 1
    assert main(["net", "run", "--topo", "single,2", "-o", str(tmp_path / "x.txt")]) == 1
    assert started == []


def test_a_run_that_measured_nothing_exits_2(monkeypatch, capsys):
    _fake_runs(monkeypatch, lambda p, rep: _ping(p, rep, (None, None)))
    assert main(["net", "run", "--topo", "single,2"]) == 2
    assert "measured nothing" in capsys.readouterr().err
