"""The robustness table: the commands and the campaign kind build from it, so one bad value
reads the same by flag and by key; a cell needs its case, a command does not."""

import argparse

import pytest

from sdnbench.paramcheck import ParamError, add_flags
from sdnbench.robustness.params import U32, Robustness, build, check_cell, from_args, validate_param
from sdnbench.robustness.verdicts import DROP


def test_defaults_and_the_background_the_engine_takes():
    p = build({})
    assert (p.case, p.of_version, p.switches, p.drop, p.reps) == (None, None, 4, DROP, 3)
    assert p.background == {"switches": 4}
    assert build({"rate": 200.0, "workers": 2}).background == {"rate": 200.0, "switches": 4, "workers": 2}


@pytest.mark.parametrize("key,value,said", [
    ("drop", 1.0, "--drop: must be between 0 and 1 (a fraction of the rate before the case), got 1.0"),
    ("drop", 0, "--drop: must be between 0 and 1"),
    ("reps", 0, "--reps: must be a whole number (fresh launches), 1 or more, got 0"),
    ("syn_rate", U32 + 1, f"--syn-rate: must be a whole number, 1 to {U32}, got {U32 + 1}"),
    ("switches", -1, "--switches: must be a whole number, 1 to"),
    ("hung_ms", 0, "--hung-ms: must be a number of milliseconds above 0, got 0"),
    ("of_version", "1.4", "--of: must be one of 1.0, 1.3, got '1.4'"),
    ("case", "nope", "--case: unknown case nope; known: "),
])
def test_one_bad_value_is_one_line_by_flag_and_the_same_by_key(key, value, said):
    with pytest.raises(ParamError) as e:
        build({key: value})
    assert str(e.value).startswith(said) and "\n" not in str(e.value)
    assert said.split(": ", 1)[1] in validate_param(key, value)     # a scenario's key: the same rule


def test_a_cell_needs_its_case_and_names_unknown_keys():
    assert check_cell({"controller": "osken:learning"}) == [("case", "a robustness cell needs a case")]
    assert check_cell({"case": "length-zero"}) == []
    assert "unknown robustness parameter 'loops'" in validate_param("loops", 3)
    assert validate_param("workers", 2) is None and validate_param("rep", 1) is None


def test_the_flags_come_from_the_table_and_build_back_into_it():
    ap = argparse.ArgumentParser()
    add_flags(ap, Robustness, only=("rate", "switches", "drop", "hung_ms", "syn_rate", "reps"))
    args = ap.parse_args(["--switches", "8", "--drop", "0.25"])
    args.of_version, args.workers = "1.0", None
    p = from_args(args, ("of_version", "rate", "switches", "drop", "hung_ms", "syn_rate", "reps", "workers"))
    assert (p.switches, p.drop, p.of_version, p.rate, p.reps) == (8, 0.25, "1.0", None, 3)
    with pytest.raises(SystemExit):                      # argparse's own: not a number
        ap.parse_args(["--switches", "many"])
