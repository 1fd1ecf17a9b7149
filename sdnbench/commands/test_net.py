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
    (["net", "run", "--topo", "ring,3"], "unknown topology"),
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
