"""Unit tests of the switch-test logic: parameters, the binary's flags, targets' bad input,
conversion to Result, the invariants, and the scripted switch's flow-mod reader."""

import pytest

from ..errors import UserError
from ..result import Result
from ..testing import openflow as of
from . import convert, invariants, runner
from sdnbench.testing.peers.scripted_switch import parse_flow_mod
from .params import build, cell, check_cell, table_range
from .targets import RemoteTarget, parse_target


def test_build_fills_defaults_and_refuses_bad_input():
    p = build({"tests": ["stats"], "flows": [1, 100]})
    assert p.tables == 4 and p.of == "1.3" and p.tests == ("stats",) and p.flows == (1, 100)
    assert build({"tables": "2..4"}).tables == "2..4" and build({"tables": "1..3"}).tables == 3
    assert table_range("7") == (1, 7) and build({"tables": "2..5"}).depth == (2, 5)
    for bad in ({"tests": ["warp"]}, {"tests": []}, {"flows": [0]}, {"of": "2.0"},
                {"tests": ["pipeline"], "of": "1.0", "tables": 2}, {"table_limit": 0}, {"reps": 0},
                {"tables": "3..2"}, {"tables": 0}, {"tables": "x"}, {"frame_size": 59}, {"frame_size": 1515},
                {"duration": 0}, {"probe_pps": -1}, {"timeout": "soon"}):
        with pytest.raises(UserError):
            build(bad)


def test_every_problem_is_named_in_one_line_by_flag_and_by_key():
    with pytest.raises(UserError) as e:
        build({"batch": 0, "frame_size": 10})
    assert str(e.value) == "--batch: want a whole number, 1 or more, got 0; --frame-size: want 60 to 1514 bytes, got 10"
    with pytest.raises(UserError) as e:
        build({"batch": 0}, cli=False)
    assert str(e.value) == "batch: want a whole number, 1 or more, got 0"


def test_a_cell_runs_one_test_and_is_checked_as_the_command_is():
    assert cell({"test": "stats", "flows": 10}).tests == ("stats",)
    assert check_cell({"test": "pipeline", "of": "1.0", "tables": 2}) == [
        ("tests", "pipeline with --tables > 1 needs --of 1.3 (OpenFlow 1.0 has one table)")]
    assert check_cell({"flows": 3})[0][0] == "test" and check_cell({"test": "stats"}) == []
    with pytest.raises(UserError, match="a switch cell needs `test:`"):
        cell({"flows": 3})


def test_binary_args_carry_every_option_once():
    p = build({"tests": ["insertion", "barrier"], "flows": [1, 10], "barrier": True})
    args = runner.binary_args(p, ["n1:p1", "n2:p2"], 7000)
    assert args[:2] == ["--listen", "127.0.0.1:7000"]
    assert args[args.index("--test") + 1] == "insertion,barrier"
    assert args[args.index("--flows") + 1] == "1,10"
    assert "--barrier" in args and args.count("--if") == 2
    flags = [a for a in args if a.startswith("--")]
    assert len(flags) == len(set(flags)) + 1          # only --if repeats


def test_cpqd_is_refused_clearly_where_it_is_not_installed(monkeypatch):
    from . import cpqd
    monkeypatch.setattr(cpqd.shutil, "which", lambda _b: None)
    with pytest.raises(UserError, match="CPqD user switch is not installed.*ofsoftswitch13"):
        parse_target("cpqd")


def test_target_specs():
    with pytest.raises(UserError, match="remote:PORT,IF1,IF2"):
        parse_target("remote:6653,eth9")
    with pytest.raises(UserError, match="want ovs"):
        parse_target("hp-procurve")
    with pytest.raises(UserError, match="does not exist"):
        parse_target("remote:6653,sbtnone0,sbtnone1")
    assert isinstance(parse_target("remote:6653,lo,lo"), RemoteTarget)


DOC = {
    "schema": "sdnbench.switch/1", "listen": "127.0.0.1:1", "of_version": "1.3",
    "switch": {"datapath_id": "00000000000000aa", "n_tables": 254, "n_buffers": 0,
               "desc": {"manufacturer": "Acme", "hardware": "Box", "software": "9.9", "serial": "S1",
                        "datapath": "dp"}},
    "ports": [{"if": "a", "port_no": 1}, {"if": "b", "port_no": 2}],
    "tests": [
        {"test": "insertion", "params": {"flows": 2, "barrier": "none"},
         "series": [{"metric": "insertion_latency", "unit": "ms", "labels": {"flows": 2}, "values": [1.0, 2.0]}],
         "counters": {"flows": 2, "forwarded": 2, "never_forwarded": 0, "probes_sent": 9, "probes_received": 3},
         "notes": []},
        {"test": "pipeline", "error": "nothing forwarded"},
    ],
}


def test_conversion_keeps_raw_series_identity_and_failures():
    rs = convert.to_results(DOC, {"target": "remote"}, {"target_spec": "remote:1,a,b"}, {"sdnbench": "0"})
    assert [r.benchmark for r in rs] == ["insertion", "pipeline"]
    ins, pipe = rs
    assert ins.find("insertion_latency")[0].values == [1.0, 2.0]
    assert ins.topology["switch"]["manufacturer"] == "Acme" and ins.topology["switch"]["serial"] == "S1"
    assert ins.versions["switch"] == "Box 9.9" and ins.kind == "switch" and ins.params["flows"] == 2
    assert ins.topology["spec"] == "remote (Box 9.9)"
    assert (pipe.status, pipe.error) == ("failed", "nothing forwarded")
    assert Result.from_dict(ins.to_dict()).topology == ins.topology
    assert invariants.violations(ins) == [] and ins.notes == []
    late = convert.to_results({**DOC, "tx_stamp_fallbacks": 3}, {"target": "x"}, {}, {})
    assert all("3 probe sends got no kernel transmit stamp" in r.notes[-1] for r in late)


def test_invariants_catch_inconsistent_counters():
    rs = convert.to_results(DOC, {"target": "x"}, {}, {})
    bad = rs[0]
    bad.counters["never_forwarded"] = 1
    bad.series[0].values[0] = -1.0
    found = invariants.violations(bad)
    assert any("!= flows" in v for v in found) and any("negative" in v for v in found)
    pin = Result(kind="switch", benchmark="packet-in", counters={"sent": 3, "lost": 0})
    pin.add("packet_in_latency", "ms", [0.1, 0.2])
    assert invariants.violations(pin) == ["2 latencies + 0 lost != 3 sent"]


def test_scripted_switch_reads_an_ofwire_flow_mod():
    # 1.3 flow-mod as ofcontroller writes it: eth_dst match, apply-actions output:2.
    dst = bytes.fromhex("02db00000007")
    m = of.flow_mod13(9, of.ADD, 0, 100, of.apply_actions(of.output(of.V13, 2)), out_port=of.ANY, out_group=of.ANY,
                      match=of.match13(of.oxm(of.OXM_ETH_DST, dst)))
    assert parse_flow_mod(m) == (0, 0, 100, dst, ("out", 2))
    goto = of.flow_mod13(9, of.ADD, 0, 1, of.goto_table(1))
    assert parse_flow_mod(goto) == (0, 0, 1, None, ("goto", 1))


def test_switch_cells_validate_and_merge_without_summing_counters():
    from .cell import merge, validate_param
    assert validate_param("test", "pipeline") is None and validate_param("flows", [1, 100]) is None
    assert "unknown switch test" in validate_param("test", "warp")
    assert "unknown switch parameter" in validate_param("colour", "blue")
    assert validate_param("flows", [0]) is not None
    a, b = convert.to_results(DOC, {"target": "x"}, {}, {})[0], convert.to_results(DOC, {"target": "x"}, {}, {})[0]
    b.params["flows"] = 7
    m = merge("insertion", {"test": "insertion"}, [a, b])
    assert m.status == "ok" and len(m.series) == 2
    assert m.counters["forwarded[flows=2,barrier=none]"] == 2 and "forwarded[flows=7,barrier=none]" in m.counters


def test_the_scenarios_switch_cells_validate():
    from pathlib import Path
    from ..campaign.scenario import load
    root = Path(__file__).resolve().parents[2] / "scenarios"
    for name, bench in (("ovs-cpqd.yaml", "sut-ovs"), ("zodiac-pipeline.yaml", "sut-pipeline")):
        sc = load(root / name)
        assert any(b.name == bench and b.kind == "switch" for b in sc.benchmarks)
