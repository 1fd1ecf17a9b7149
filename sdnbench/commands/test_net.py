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


def test_a_store_that_fails_at_the_end_keeps_the_measurement_beside_it(tmp_path, monkeypatch, capsys):
    from sdnbench.net import runner
    from sdnbench.result import Result
    from sdnbench.store import Store

    def fake_run_net(params, progress=None):       # logic test: no network
        r = Result("net", "ping", params)
        r.add("rtt", "ms", [1.0, 2.0], src="h1", dst="h2", size=64, rep=0)
        return r.finish()

    def broken(self, result, **kw):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(runner, "run_net", fake_run_net)
    monkeypatch.setattr(Store, "save_result", broken)
    store = tmp_path / "st"
    assert main(["net", "run", "--topo", "single,2", "--store", str(store)]) == 0
    err = capsys.readouterr().err
    assert f"the result is in {store}.result.json" in err
    assert (tmp_path / "st.result.json").stat().st_mode & 0o777 == 0o644


def test_a_bad_store_is_refused_before_anything_starts(tmp_path, monkeypatch, capsys):
    from sdnbench.net import runner
    started = []
    monkeypatch.setattr(runner, "run_net", lambda *a, **k: started.append(1))
    (tmp_path / "file").write_text("")
    assert main(["net", "run", "--topo", "single,2", "--store", str(tmp_path / "file")]) == 1
    assert main(["net", "run", "--topo", "single,2", "-o", str(tmp_path / "x.txt")]) == 1
    assert started == []


def test_a_run_that_measured_nothing_exits_2(monkeypatch, capsys):
    from sdnbench.net import runner
    from sdnbench.result import Result

    def lost(params, progress=None):
        r = Result("net", "ping", params)
        r.add("rtt", "ms", [None, None], src="h1", dst="h2", size=64, rep=0)
        return r.finish()
    monkeypatch.setattr(runner, "run_net", lost)
    assert main(["net", "run", "--topo", "single,2"]) == 2
    assert "measured nothing" in capsys.readouterr().err
