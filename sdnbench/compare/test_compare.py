"""Comparisons: the campus study's Table 3 as golden text, marks, and the --fail-on gate."""

import json

import pytest

from sdnbench.cli import main
from sdnbench.compare.core import compare, gate, parse_threshold
from sdnbench.compare.samples import build_side, parse_source
from sdnbench.errors import UserError
from sdnbench.result import Result
from sdnbench.store import Store

SIZES = [64, 128, 256, 512, 1024, 2048, 4096, 8192]
# The campus study (seed 000): per-switch latency (ms) for each payload, Tables 1 and 2.
MININET = {
    64: [2.228, 2.341, 2.221, 2.611, 2.288, 2.581, 2.344, 2.731, 2.444, 2.553],
    128: [3.999, 3.193, 3.211, 3.566, 3.458, 3.413, 3.871, 3.876, 3.431, 3.67],
    256: [4.855, 4.416, 4.117, 4.567, 4.532, 4.765, 5.376, 4.566, 5.111, 4.353],
    512: [5.191, 5.787, 5.433, 5.011, 4.65, 4.667, 4.432, 4.32, 4.567, 5.001],
    1024: [4.341, 4.436, 4.499, 4.321, 5.031, 4.432, 4.333, 4.547, 4.556, 4.678],
    2048: [4.736, 4.773, 4.554, 5.145, 4.555, 4.872, 4.321, 4.387, 4.21, 5.091],
    4096: [4.477, 4.515, 4.655, 4.66, 4.789, 4.123, 5.011, 5.811, 4.667, 4.558],
    8192: [9.149, 9.44, 9.765, 9.432, 9.435, 9.444, 9.123, 9.812, 9.456, 9.112],
}
PROTOTYPE = {
    64: [2.622, 3.211, 2.345, 3.445, 3.467, 3.567, 3.765, 3.541, 3.333, 3.489],
    128: [5.545, 4.552, 4.322, 4.311, 4.666, 4.544, 4.446, 5.765, 5.778, 5.012],
    256: [5.613, 4.568, 5.67, 5.123, 5.431, 4.987, 5.437, 4.877, 5.12, 5.234],
    512: [5.585, 4.445, 5.566, 5.758, 6.697, 6.667, 6.976, 6.674, 6.69, 6.476],
    1024: [5.678, 5.734, 5.422, 5.121, 6.123, 5.889, 5.431, 5.666, 5.789, 5.66],
    2048: [6.48, 5.89, 6.41, 6.11, 6.432, 6.544, 6.345, 6.599, 6.679, 6],
    4096: [7.233, 6.77, 6.89, 7.04, 7.554, 6.899, 6.785, 6.78, 7.12, 7.556],
    8192: [10.421, 10.441, 10.822, 10.112, 10.115, 10.001, 10.448, 10.766, 11.011, 10.886],
}

# Table 3 of the paper, "Latency Average and Gap (in msec)":
#            64      128     256    512     1024    2048    4096    8192
# Prototype  3.2785  4.8941  5.206  6.1534  5.6513  6.3489  7.0627  10.5023
# Mininet    2.4342  3.5688  4.6658 4.9059  4.5174  4.6644  4.7266  9.4168
# Gap        0.8443  1.3253  0.5402 1.2475  1.1339  1.6845  2.3361  1.0855
TABLE3_GOLDEN = """\
Prototype = run 1; Mininet = run 2
benchmark=ping; topology=star,10,4

| (ms) | 64 | 128 | 256 | 512 | 1024 | 2048 | 4096 | 8192 |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
| mean Prototype | 3.2785 | 4.8941 | 5.206 | 6.1534 | 5.6513 | 6.3489 | 7.0627 | 10.5023 |
| mean Mininet | 2.4342 | 3.5688 | 4.6658 | 4.9059 | 4.5174 | 4.6644 | 4.7266 | 9.4168 |
| gap | 0.8443 | 1.3253 | 0.5402 | 1.2475 | 1.1339 | 1.6845 | 2.3361 | 1.0855 |
| ratio | 0.742 | 0.729 | 0.896 | 0.797 | 0.799 | 0.735 | 0.669 | 0.897 |
| mark | - | - | - | - | - | - | - | - |
"""


def _campus_store(tmp_path):
    """Two runs shaped like the study: one Result per payload, one sample per switch."""
    with Store(tmp_path) as st:
        for name, table in (("prototype", PROTOTYPE), ("mininet", MININET)):
            run = st.create_run("campaign", name, status="done")
            for size in SIZES:
                r = Result("net", "ping", {"topology": "star,10,4", "size": size})
                for switch, v in enumerate(table[size], 1):
                    r.add("rtt", "ms", [v], switch=switch)
                st.save_result(r.finish(), run=run)
    return tmp_path


def test_table3_of_the_campus_study_comes_straight_out(tmp_path, capsys):
    store = _campus_store(tmp_path)
    assert main(["compare", "1", "2", "--store", str(store), "--markdown", "--transpose",
                 "--names", "Prototype,Mininet"]) == 0
    assert capsys.readouterr().out == TABLE3_GOLDEN


def test_table3_row_layout_terminal_golden(tmp_path, capsys):
    # p: exact two-sided Mann-Whitney U for the 64-byte column, U = 94 of 100; enumerating all
    # C(20,10) = 184756 rank splits gives 60/184756 = 0.000325 as extreme.
    store = _campus_store(tmp_path)
    assert main(["compare", "1", "2", "--store", str(store), "--metric", "rtt"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "benchmark=ping; topology=star,10,4"
    assert out[1].split() == ["size", "metric", "mean", "run", "1", "mean", "run", "2", "gap",
                              "ratio", "change", "p", "mark"]
    assert out[3].split() == ["64", "rtt", "(ms)", "3.2785", "2.4342", "0.8443", "0.742",
                              "-25.8%", "0.000325", "-", "better"]
    assert out[-1].startswith("gap = |mean B - mean A|")


def test_csv_and_json_exports(tmp_path, capsys):
    store = _campus_store(tmp_path)
    assert main(["compare", "1", "2", "--store", str(store), "--csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("benchmark,params,metric,unit,n_a,mean_a")
    assert len(lines) == 1 + len(SIZES)
    assert main(["compare", "1", "2", "--store", str(store), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    row = data["rows"][0]
    assert row["params"] == {"size": 64, "topology": "star,10,4"}
    assert row["mean_a"] == pytest.approx(3.2785) and row["mark"] == "better"


def _gate_store(tmp_path, factor: float):
    """Two single runs of throughput: B is A scaled by ``factor`` (0.8 = a 20% regression)."""
    with Store(tmp_path) as st:
        for scale in (1.0, factor):
            run = st.create_run("campaign", f"x{scale}", status="done")
            for sw in (1, 4):
                for rep in range(5):
                    r = Result("controller", "throughput", {"switches": sw})
                    r.add("throughput", "flows/s", [scale * (1000 * sw + 10 * rep + k) for k in range(3)])
                    st.save_result(r.finish(), run=run)
    return tmp_path


def test_fail_on_exits_2_on_a_regression_and_0_without(tmp_path, capsys):
    bad = _gate_store(tmp_path / "bad", 0.8)
    assert main(["compare", "1", "2", "--store", str(bad), "--fail-on", "throughput:5"]) == 2
    err = capsys.readouterr().err
    assert "regression: throughput switches=1 throughput: 20.0% worse" in err
    assert "check failed: 2 regression(s)" in err
    # a threshold above the regression passes; so does an unrelated metric
    assert main(["compare", "1", "2", "--store", str(bad), "--fail-on", "throughput:25%"]) == 0
    assert main(["compare", "1", "2", "--store", str(bad), "--fail-on", "latency:1"]) == 0
    good = _gate_store(tmp_path / "good", 1.0)
    assert main(["compare", "1", "2", "--store", str(good), "--fail-on", "*:1"]) == 0
    assert "gate passed" in capsys.readouterr().err
    # an improvement is not a regression
    assert main(["compare", "2", "1", "--store", str(bad), "--fail-on", "throughput:5"]) == 0


def test_failed_cells_are_marked_and_fail_the_gate(tmp_path, capsys):
    with Store(tmp_path) as st:
        for fail in (False, True):
            run = st.create_run("campaign", "r", status="done")
            r = Result("controller", "throughput", {"switches": 1})
            if fail:
                r.finish("failed", "controller died")
            else:
                r.add("throughput", "flows/s", [1.0, 2.0])
                r.finish()
            st.save_result(r, run=run)
    assert main(["compare", "1", "2", "--store", str(tmp_path), "--fail-on", "throughput:5"]) == 2
    captured = capsys.readouterr()
    assert "! failed" in captured.out
    assert "failed on run 2: controller died" in captured.err


def test_narrowing_a_run_compares_two_configurations_of_it():
    items = []
    for ctl, base in (("osken:learning", 100.0), ("ryu:simple_switch_13", 50.0)):
        for sw in (1, 4):
            r = Result("controller", "throughput", {"controller": ctl, "switches": sw})
            r.add("throughput", "flows/s", [base + i for i in range(6)])
            items.append((r.params, r.finish()))
    a = build_side("osken", [(p, r) for p, r in items if p["controller"] == "osken:learning"], ["controller"])
    b = build_side("ryu", [(p, r) for p, r in items if p["controller"] != "osken:learning"], ["controller"])
    rows = compare(a, b)
    assert [(r.params, r.mark) for r in rows] == [({"switches": 1}, "worse"), ({"switches": 4}, "worse")]
    assert rows[0].ratio == pytest.approx(52.5 / 102.5)
    assert gate(rows, [parse_threshold("throughput:40")], "osken", "ryu")


def test_sources_and_thresholds_parse_or_fail_in_one_line():
    assert parse_source("3@controller=ryu:simple_switch_13,switches=4") == \
        ("3", {"controller": "ryu:simple_switch_13", "switches": "4"})
    assert parse_source("3@topo=linear,2,controller=osken:learning") == \
        ("3", {"topo": "linear,2", "controller": "osken:learning"})
    with pytest.raises(UserError):
        parse_source("3@controller")
    assert parse_threshold("lat*:5%").metric == "lat*"
    for bad in ("throughput", "throughput:x", ":5", "t:-1"):
        with pytest.raises(UserError):
            parse_threshold(bad)


def test_compare_against_result_files(tmp_path, capsys):
    for name, v in (("a.json", 10.0), ("b.json", 10.0)):
        r = Result("net", "ping", {"size": 64})
        r.add("rtt", "ms", [v, v + 1, v + 2])
        r.finish().write_json(tmp_path / name)
    assert main(["compare", str(tmp_path / "a.json"), str(tmp_path / "b.json")]) == 0
    assert "~ not significant" in capsys.readouterr().out
    assert main(["compare", str(tmp_path / "a.json"), str(tmp_path / "nope.json")]) == 1


def test_resources_are_compared_only_when_asked():
    from sdnbench.result import Series
    r = Result("controller", "throughput", {"switches": 1})
    r.add("throughput", "flows/s", [1.0, 2.0])
    r.resources.append(Series("cpu_percent", "%", [50.0, 60.0]))
    assert {k[2] for k in build_side("a", [(r.params, r)]).groups} == {"throughput"}
    assert {k[2] for k in build_side("a", [(r.params, r)], resources=True).groups} == \
        {"throughput", "cpu_percent"}


def test_too_few_samples_get_advice(tmp_path, capsys):
    for name in ("a.json", "b.json"):
        r = Result("net", "ping", {"size": 64})
        r.add("rtt", "ms", [1.0, 2.0] if name == "a.json" else [5.0, 6.0])
        r.finish().write_json(tmp_path / name)
    assert main(["compare", str(tmp_path / "a.json"), str(tmp_path / "b.json")]) == 0
    assert "too few for a significant mark; consider more repetitions" in capsys.readouterr().out


def test_paired_comparison_uses_wilcoxon_signed_rank_per_switch(tmp_path, capsys):
    # Each switch is measured on both set-ups: pairs match by the series label switch=N.
    store = _campus_store(tmp_path)
    assert main(["compare", "1", "2", "--store", str(store), "--paired", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    from sdnbench.stats import wilcoxon_signed
    expected = wilcoxon_signed(PROTOTYPE[64], MININET[64]).p_value
    assert rows[0]["p_value"] == pytest.approx(expected)
    # 64 bytes: the prototype is slower on all 10 switches: exact p = 2/2^10
    assert expected == pytest.approx(2 / 1024)
    assert main(["compare", "1", "2", "--store", str(store), "--paired"]) == 0
    assert "Wilcoxon signed-rank on the paired samples" in capsys.readouterr().out
