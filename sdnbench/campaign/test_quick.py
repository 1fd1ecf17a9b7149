import pytest

from sdnbench.campaign.quick import select
from sdnbench.errors import UserError

DATA = {"name": "s", "repetitions": 10,
        "benchmarks": [{"name": "ping", "kind": "net", "params": {"count": 10, "topology": "star,10,4"},
                        "matrix": {"size": [64, 128, 256], "switch": [1, 2]}},
                       {"kind": "controller", "params": {"loops": 10}}],
        "quick": {"repetitions": 1,
                  "benchmarks": {"ping": {"params": {"count": 2}, "matrix": {"size": [64]}},
                                 "controller": {"repetitions": 2}}}}


def test_without_quick_the_block_is_dropped_and_nothing_else_changes():
    out = select(DATA, quick=False)
    assert "quick" not in out
    assert out["benchmarks"] == DATA["benchmarks"] and out["repetitions"] == 10


def test_quick_merges_params_replaces_listed_matrix_entries_and_top_level_defaults():
    out = select(DATA, quick=True)
    ping, ctl = out["benchmarks"]
    assert out["repetitions"] == 1
    assert ping["params"] == {"count": 2, "topology": "star,10,4"}
    assert ping["matrix"] == {"size": [64], "switch": [1, 2]}
    assert ctl["repetitions"] == 2 and ctl["params"] == {"loops": 10}
    assert DATA["benchmarks"][0]["params"]["count"] == 10      # the input is not modified


def test_quick_naming_an_unknown_benchmark_is_a_user_error():
    bad = dict(DATA, quick={"benchmarks": {"pong": {"repetitions": 1}}})
    with pytest.raises(UserError, match="no benchmark named 'pong'"):
        select(bad, quick=True)


def test_scenarios_without_a_quick_block_pass_through():
    d = {"name": "x", "benchmarks": []}
    assert select(d, quick=True) is d


def test_quick_only_keeps_the_named_benchmarks_in_file_order():
    d = dict(DATA, quick={"only": ["controller", "ping"]})
    assert [b.get("name", b["kind"]) for b in select(d, quick=True)["benchmarks"]] == ["ping", "controller"]
    with pytest.raises(UserError, match="quick.only: no benchmark named 'x'"):
        select(dict(DATA, quick={"only": ["x"]}), quick=True)
