import pytest

from sdnbench.campaign import scenario
from sdnbench.campaign.scenario import ScenarioError, parse
from sdnbench.cli import main

GOOD = """\
name: two controllers
description: a test
seed: 42
repetitions: 5
warmup: 1
pause: 0.5
benchmarks:
  - name: throughput
    kind: controller
    params: {mode: throughput, loops: 3}
    matrix:
      controller: [osken:learning, ryu:simple_switch_13]
      switches: [1, 4, 16]
  - kind: synthetic
    repetitions: 2
"""


def test_a_good_scenario_parses_with_defaults_and_overrides():
    sc = parse(GOOD, "s.yaml")
    assert (sc.name, sc.seed, sc.order, sc.source) == ("two controllers", 42, "random", "s.yaml")
    b1, b2 = sc.benchmarks
    assert (b1.name, b1.kind, b1.repetitions, b1.warmup, b1.pause) == ("throughput", "controller", 5, 1, 0.5)
    assert b1.matrix == {"controller": ["osken:learning", "ryu:simple_switch_13"], "switches": [1, 4, 16]}
    assert (b2.name, b2.repetitions) == ("synthetic", 2)
    assert sc.text == GOOD


@pytest.mark.parametrize("old,new,expected", [
    ("repetitions: 5\n", "repetitions: five\n", "s.yaml:4: repetitions: expected a whole number, got the text 'five'"),
    ("repetitions: 5\n", "repetitons: 5\n", "s.yaml:4: repetitons: unknown field (did you mean `repetitions`?)"),
    ("    kind: controller\n", "    kind: controler\n",
     "s.yaml:9: benchmarks[0].kind: unknown benchmark kind 'controler' (did you mean `controller`?)"),
    ("      switches: [1, 4, 16]\n", "      switches: 16\n",
     "s.yaml:13: benchmarks[0].matrix.switches: expected a non-empty list of values, got the number 16"),
    ("      switches: [1, 4, 16]\n", "      switches: [1, 4, 4]\n",
     "s.yaml:13: benchmarks[0].matrix.switches: the same value is listed twice"),
    ("pause: 0.5\n", "pause: -1\n", "s.yaml:6: pause: must be at least 0, got -1"),
    ("seed: 42\n", "seed: 4.2\n", "s.yaml:3: seed: expected a whole number, got the number 4.2"),
    ("  - kind: synthetic\n    repetitions: 2\n", "  - kind: synthetic\n    repetitions: 0\n",
     "s.yaml:15: benchmarks[1].repetitions: must be at least 1, got 0"),
    ("  - kind: synthetic\n", "  - name: throughput\n    kind: synthetic\n",
     "s.yaml:14: benchmarks[1].name: duplicate benchmark name 'throughput'"),
    ("      controller: [osken:learning, ryu:simple_switch_13]\n",
     "      controller: [osken:learning, floodlight]\n",
     "s.yaml:12: benchmarks[0].matrix.controller[1]: unknown controller spec 'floodlight'"),
    ("    params: {mode: throughput, loops: 3}\n", "    params: {mode: throughput, switches: 3}\n",
     "s.yaml:13: benchmarks[0].matrix.switches: `switches` is in both params and matrix"),
])
def test_bad_fields_are_named_with_file_and_line(old, new, expected):
    assert old in GOOD
    with pytest.raises(ScenarioError) as e:
        parse(GOOD.replace(old, new, 1), "s.yaml")
    assert str(e.value).startswith(expected), str(e.value)


def test_missing_fields_and_yaml_syntax_errors():
    with pytest.raises(ScenarioError, match=r"^s.yaml:1: \(top level\): missing required field `benchmarks`"):
        parse("name: x\n", "s.yaml")
    with pytest.raises(ScenarioError, match=r"^s.yaml:4: not valid YAML: expected ',' or ']'"):
        parse("name: x\nbenchmarks:\n  - kind: [synthetic\n", "s.yaml")
    with pytest.raises(ScenarioError, match="empty"):
        parse("", "s.yaml")
    with pytest.raises(ScenarioError, match=r"^s.yaml:3: benchmarks\[0\]: missing required field `kind`"):
        parse("name: x\nbenchmarks:\n  - name: y\n", "s.yaml")
    with pytest.raises(ScenarioError, match=r"^s.yaml:1: \(top level\): expected a mapping"):
        parse("- 1\n", "s.yaml")


def test_quick_block_is_applied_only_when_asked():
    text = GOOD + "quick:\n  repetitions: 1\n  benchmarks:\n    throughput:\n      matrix: {switches: [1]}\n"
    full, quick = parse(text, "s.yaml"), parse(text, "s.yaml", quick=True)
    assert full.benchmarks[0].repetitions == 5 and full.benchmarks[0].matrix["switches"] == [1, 4, 16]
    assert quick.benchmarks[0].repetitions == 1 and quick.benchmarks[0].matrix["switches"] == [1]


def test_cli_reports_a_bad_scenario_in_one_line(tmp_path, capsys):
    f = tmp_path / "bad.yaml"
    f.write_text(GOOD.replace("repetitions: 5", "repetitions: lots"))
    assert main(["run", str(f), "--store", str(tmp_path / "st")]) == 1
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        f"sdnbench: error: {f}:4: repetitions: expected a whole number, got the text 'lots'"]
    assert not (tmp_path / "st").exists()
    assert main(["run", str(tmp_path / "none.yaml")]) == 1
    assert "no such scenario file" in capsys.readouterr().err


def test_load_reads_the_file(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(GOOD)
    assert scenario.load(f).source == str(f)


def test_engine_parameters_are_checked_by_the_engine_part():
    with pytest.raises(ScenarioError) as e:
        parse(GOOD.replace("loops: 3", "lops: 3"), "s.yaml")
    # one line, at the key's line; the wording is the controller kind's (its keys: the engine's Config)
    assert str(e.value).startswith("s.yaml:10: benchmarks[0].params.lops: ") and "\n" not in str(e.value)
    assert "did you mean loops?" in str(e.value).split(": ", 2)[2]
    with pytest.raises(ScenarioError, match=r"^s.yaml:10: benchmarks\[0\].params.mode: "):
        parse(GOOD.replace("mode: throughput", "mode: fast"), "s.yaml")
