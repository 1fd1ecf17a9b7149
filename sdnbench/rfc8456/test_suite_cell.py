"""The ``rfc8456`` campaign kind's own logic: its parameters, its dispatch, and how a variant
that lost every session is counted (§5.3.1)."""

import pytest

from sdnbench.campaign.kinds import CAMPAIGN_KINDS
from sdnbench.testing.peers.scripted_controller import ScriptedController
from sdnbench.errors import UserError
from sdnbench.rfc8456.discovery_size import size_params as _size_params
from sdnbench.rfc8456.exception_handling import settle
from sdnbench.rfc8456.suite import BY_SLUG
from sdnbench.rfc8456.suite_cell import check_cell, run_test, validate_param


def size_params(params: dict):
    return _size_params(params, BY_SLUG["discovery-size"].params)


def test_parameters_are_checked_one_by_one():
    assert validate_param("test", "exceptions") is None
    assert "test must be one of" in validate_param("test", "warp")
    assert "whole number" in validate_param("max_switches", 0)
    assert "positive number of seconds" in validate_param("poll_s", -1)
    assert "unknown rfc8456 parameter 'flows'" in validate_param("flows", 3)
    assert "unknown controller spec" in validate_param("controller", "nox:switch")
    assert CAMPAIGN_KINDS["rfc8456"].validate is not None


def test_a_cell_without_a_known_test_is_one_line():
    with pytest.raises(UserError, match="needs test: discovery-size or exceptions"):
        run_test({"controller": "osken:learning"})


def test_a_size_cell_is_the_size_search_s_parameters_with_the_test_s_defaults():
    p = size_params({"test": "discovery-size", "poll_s": 0.5, "loops": 3})
    assert (p.topo, p.max_switches, p.poll_s, p.deadline_s) == ("linear,8", 256, 0.5, 60.0)
    assert (p.controller, p.verify, p.stable, p.size_search) == ("osken:topology", "northbound", 3, True)


def test_a_size_cell_is_judged_as_the_size_search_judges_it():
    assert check_cell({"test": "discovery-size"}) == []
    assert check_cell({"test": "exceptions", "max_switches": 1}) == []
    [(key, why)] = check_cell({"test": "discovery-size", "topo": "linear,8", "max_switches": 4})
    assert key == "max_switches" and "starting size 8" in why
    [(key, why)] = check_cell({"test": "discovery-size", "controller": "osken:learning"})
    assert key == "api" and "no northbound API" in why
    assert CAMPAIGN_KINDS["rfc8456"].check_cell({"test": "discovery-size", "max_switches": 4}), "run --dry-run uses it"


def test_a_bad_size_cell_is_refused_before_anything_starts():
    with pytest.raises(UserError, match="api_url: want a URL such as http://"):
        run_test({"test": "discovery-size", "api": "osken", "api_url": "127.0.0.1:8080"})
    with pytest.raises(UserError, match="starting size 8"):
        run_test({"test": "discovery-size", "max_switches": 4})


def test_a_variant_that_lost_every_session_answered_nothing():
    rows = [{"variant": "clean", "answered_per_s": 5000.0, "drop": None},
            {"variant": "1%", "answered_per_s": None, "drop": None},
            {"variant": "2%", "answered_per_s": 2500.0, "drop": 0.5}]
    out = settle(rows, {"clean": "ok", "1%": "failed", "2%": "failed"})
    assert [(w["answered_per_s"], w["drop"]) for w in out] == [(5000.0, None), (0.0, 1.0), (2500.0, 0.5)]
    untouched = settle([{"variant": "1%", "answered_per_s": None, "drop": None}], {"1%": "ok"})
    assert untouched[0]["drop"] is None          # an ok run without loops is not called a 100 % drop


@pytest.mark.integration
def test_an_exceptions_cell_negotiates_the_version_as_the_command_does():
    """The cell runs the command's trial: a 1.0-only controller is negotiated, not forced to 1.3,
    and each variant is one measured run with its invalid packet-ins counted."""
    with ScriptedController(version=1) as ctl:
        r = run_test({"test": "exceptions", "controller": f"tcp:{ctl.address}", "switches": 2, "loops": 2,
                      "loop_ms": 500, "warmup": 0})
    assert r.status == "ok", r.error
    assert r.params["of_session"] == "1.0"
    rows = r.counters["exceptions_summary"]
    assert [w["variant"] for w in rows] == ["clean", "1%", "2%"] and all(w["runs"] == 1 for w in rows)
    assert r.counters["answered_per_s_clean"] > 0
    assert rows[0]["invalid_sent"] == 0 and rows[1]["invalid_sent"] > 0 and rows[2]["invalid_sent"] > 0
    assert r.counters["invalid_sent"] == rows[1]["invalid_sent"] + rows[2]["invalid_sent"]


def test_the_kind_is_read_from_the_records():
    """A test whose record names the ``rfc8456`` kind is a test of this kind, with its record's
    trial and table: nothing in ``suite_cell`` names a test."""
    from sdnbench.rfc8456 import suite, suite_cell
    own = [t for t in suite.TESTS if t.kind == "rfc8456"]
    assert suite_cell.TESTS == tuple(t.slug for t in own) == ("discovery-size", "exceptions")
    assert all(callable(t.trial) and t.cell is not None for t in own)
    assert all(t.trial is None and t.cell is None for t in suite.TESTS if t.kind not in ("rfc8456", "resilience"))


def test_a_cell_runs_its_record_s_trial_with_the_record_s_defaults(monkeypatch):
    from dataclasses import replace

    from sdnbench.rfc8456 import suite_cell
    seen = []
    t = suite_cell.CELLS["exceptions"]
    monkeypatch.setitem(suite_cell.CELLS, "exceptions", replace(t, trial=lambda p, d: seen.append((p, d)) or "r"))
    assert run_test({"test": "exceptions", "loops": 2}) == "r"
    assert seen == [({"test": "exceptions", "loops": 2}, t.params)]


def test_a_key_s_rule_is_its_table_s():
    assert validate_param("switches", None) == "switches must be a whole number, 1 or more"
    assert validate_param("loop_ms", 0) == "loop_ms must be a whole number, 1 or more"
    assert validate_param("deadline_s", "x") == "deadline_s must be a positive number of seconds"
    assert validate_param("controller", None).startswith("a controller spec is text")
    assert validate_param("traffic", {"anything": 1}) is None and validate_param("stable", 0) is None


def test_a_new_test_of_the_kind_is_its_record_and_its_trial(monkeypatch):
    """What ``docs/extending.md`` claims: a record of the ``rfc8456`` kind with a trial and a
    table is planned by the suite, known to the kind (its keys, its rules, its whole-cell check)
    and run by it, with nothing else changed."""
    import dataclasses
    import importlib

    from sdnbench.paramcheck import param
    from sdnbench.rfc8456 import suite, suite_cell

    @dataclasses.dataclass(frozen=True)
    class Params:
        bursts: int = param(None, lambda v: None if v in (1, 2) else "bursts must be 1 or 2")

        @staticmethod
        def problems(params, defaults):
            return [("bursts", "too many")] if params.get("bursts", defaults["bursts"]) == 2 else []

    new = suite.Test("bursts", "9.9.9", "Bursts", "rfc8456", "forwarding", {"test": "bursts", "bursts": 1},
                     figures=suite.TESTS[0].figures, traffic="bursts",
                     trial=lambda p, d: ("ran", p, d), cell=Params)
    monkeypatch.setattr(suite, "TESTS", suite.TESTS + (new,))
    try:
        kind = importlib.reload(suite_cell)
        assert kind.TESTS == ("discovery-size", "exceptions", "bursts")
        assert kind.validate_param("bursts", 3) == "bursts must be 1 or 2" and kind.validate_param("bursts", 2) is None
        assert kind.check_cell({"test": "bursts", "bursts": 2}) == [("bursts", "too many")]
        assert kind.run_test({"test": "bursts"}) == ("ran", {"test": "bursts"}, new.params)
        [b] = [b for b in suite.scenario_for(["osken:learning"], "quick")["benchmarks"] if b["name"].startswith("bursts@")]
        assert (b["kind"], b["params"]["bursts"]) == ("rfc8456", 1)
    finally:
        monkeypatch.undo()
        importlib.reload(suite_cell)
