"""The ``rfc8456`` campaign kind's own logic: its parameters, its dispatch, and how a variant
that lost every session is counted (§5.3.1)."""

import pytest

from sdnbench.campaign.kinds import KINDS
from sdnbench.errors import UserError
from sdnbench.rfc8456.suite_cell import run_test, settle, validate_param


def test_parameters_are_checked_one_by_one():
    assert validate_param("test", "exceptions") is None
    assert "test must be one of" in validate_param("test", "warp")
    assert "whole number" in validate_param("max_switches", 0)
    assert "positive number of seconds" in validate_param("poll_s", -1)
    assert "unknown rfc8456 parameter 'flows'" in validate_param("flows", 3)
    assert "unknown controller spec" in validate_param("controller", "nox:switch")
    assert KINDS["rfc8456"].validate is not None


def test_a_cell_without_a_known_test_is_one_line():
    with pytest.raises(UserError, match="needs test: exceptions or discovery-size"):
        run_test({"controller": "osken:learning"})


def test_a_variant_that_lost_every_session_answered_nothing():
    rows = [{"variant": "clean", "answered_per_s": 5000.0, "drop": None},
            {"variant": "1%", "answered_per_s": None, "drop": None},
            {"variant": "2%", "answered_per_s": 2500.0, "drop": 0.5}]
    out = settle(rows, {"clean": "ok", "1%": "failed", "2%": "failed"})
    assert [(w["answered_per_s"], w["drop"]) for w in out] == [(5000.0, None), (0.0, 1.0), (2500.0, 0.5)]
    untouched = settle([{"variant": "1%", "answered_per_s": None, "drop": None}], {"1%": "ok"})
    assert untouched[0]["drop"] is None          # an ok run without loops is not called a 100 % drop
