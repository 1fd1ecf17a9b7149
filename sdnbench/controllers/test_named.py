"""Named controllers in scenarios: names become specs everywhere ``controller`` is given."""

import pytest

from sdnbench.campaign.scenario import parse
from sdnbench.controllers.named import resolve_named
from sdnbench.errors import UserError

POX = "cmd:python3 ${POX_DIR}/pox.py openflow.of_01 --port={port} forwarding.l2_learning;of=1.0"


def test_names_are_replaced_in_params_matrix_and_quick():
    data = {"controllers": {"pox": POX}, "benchmarks": [
        {"params": {"controller": "pox"}, "matrix": {"controller": ["pox", "ryu:simple_switch"]}}],
        "quick": {"benchmarks": {"b": {"matrix": {"controller": ["pox"]}}}}}
    out = resolve_named(data)
    assert "controllers" not in out
    assert out["benchmarks"][0]["params"]["controller"] == POX
    assert out["benchmarks"][0]["matrix"]["controller"] == [POX, "ryu:simple_switch"]
    assert out["quick"]["benchmarks"]["b"]["matrix"]["controller"] == [POX]


def test_bad_mappings_are_one_line_errors():
    with pytest.raises(UserError, match="expected a mapping of names"):
        resolve_named({"controllers": ["pox"]})
    with pytest.raises(UserError, match="cannot contain ':'"):
        resolve_named({"controllers": {"tcp:x": POX}})


def test_a_scenario_file_uses_the_mapping():
    sc = parse("name: s\ncontrollers:\n  pox: '" + POX + "'\nbenchmarks:\n  - kind: controller\n"
               "    params: {mode: throughput}\n    matrix: {controller: [pox]}\n")
    assert sc.benchmarks[0].matrix["controller"] == [POX]
