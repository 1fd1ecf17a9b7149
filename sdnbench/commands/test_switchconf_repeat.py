"""``switch conformance --repeat``: after the first runs, the pattern files holding a finding run
again on every target, target after target each round, and the noise floor is printed. The
tool's runs are scripted here (``runner.run``: each target's outcome per round given); the real
tool, switches and reruns are exercised by ``switchtesttool/test_integration.py``."""

import argparse
from pathlib import Path

import pytest

from ..errors import UserError
from ..outputs import Outputs
from ..result import Result
from ..switchtesttool import runner
from ..switchtesttool.patterns import Pattern
from . import _switchtesttool as cmd

DSCP = Pattern("1.3", "meter/02_DSCP", Path("/x"), "meter: 02_DSCP", 1)
OUTPUT = Pattern("1.3", "action/00_OUTPUT", Path("/y"), "action: 00_OUTPUT", 1)
# target -> the DSCP test's outcome in the first run and each rerun
SCRIPT = {"ovs": ["OK", "OK", "OK"], "cpqd": ["OK", "ERROR", "OK"], "emulated": ["ERROR", "ERROR", "ERROR"]}


def _args(repeat: int) -> argparse.Namespace:
    return argparse.Namespace(repeat=repeat, interval=0, of="1.3", target=["ovs,cpqd,emulated"], only=None, skip=None)


def test_the_files_holding_findings_run_again_target_after_target(monkeypatch, capsys):
    calls = []

    def run(target, version, selected, progress, interval=0, rep=0):
        calls.append((target["spec"], rep, [p.name for p in selected]))
        tests = [[p.description, "t", "OK" if p is OUTPUT else SCRIPT[target["spec"]][rep], ""] for p in selected]
        p = {"target": target["spec"], "of_version": version, "interval_s": interval, **({"rep": rep} if rep else {})}
        return Result(kind="switch", benchmark=runner.BENCHMARK, params=p, topology={"tests": tests},
                      counters={"tests": len(tests), "ok": 0, "error": 0, "selected": 1, "seconds": 1.0}).finish()

    monkeypatch.setattr(runner, "run", run)
    targets = [{"spec": s, "kind": s} for s in SCRIPT]
    results = cmd._runs(_args(3), Outputs(), targets, ["1.3"], {"1.3": [OUTPUT, DSCP]}, lambda m: None)
    assert calls == [("ovs", 0, ["action/00_OUTPUT", "meter/02_DSCP"]), ("cpqd", 0, ["action/00_OUTPUT", "meter/02_DSCP"]),
                     ("emulated", 0, ["action/00_OUTPUT", "meter/02_DSCP"]),
                     ("ovs", 1, ["meter/02_DSCP"]), ("cpqd", 1, ["meter/02_DSCP"]), ("emulated", 1, ["meter/02_DSCP"]),
                     ("ovs", 2, ["meter/02_DSCP"]), ("cpqd", 2, ["meter/02_DSCP"]), ("emulated", 2, ["meter/02_DSCP"])]
    cmd._print(results)
    out = capsys.readouterr().out
    assert "1 tests OK on a reference and not on emulated" in out
    assert "OpenFlow 1.3, the noise floor: each finding's pattern file run up to 3 times" in out
    row = next(line for line in out.splitlines() if line.startswith("meter: 02_DSCP / t"))
    assert row.split()[-4:] == ["3/3", "2/3", "0/3", "finding"]
    assert "1 findings (a reference OK every run, emulated none), 0 noise" in out


def test_without_a_finding_nothing_runs_again(monkeypatch):
    calls = []

    def run(target, version, selected, progress, interval=0, rep=0):
        calls.append(rep)
        return Result(kind="switch", benchmark=runner.BENCHMARK, params={"target": target["spec"], "of_version": version},
                      topology={"tests": [[OUTPUT.description, "t", "OK", ""]]}).finish()

    monkeypatch.setattr(runner, "run", run)
    cmd._runs(_args(3), Outputs(), [{"spec": "ovs", "kind": "ovs"}, {"spec": "emulated", "kind": "emulated"}],
              ["1.3"], {"1.3": [OUTPUT]}, lambda m: None)
    assert calls == [0, 0]


def test_repeat_needs_two_targets_and_a_sane_count():
    for repeat, target in ((3, ["ovs"]), (0, ["ovs,emulated"]), (11, ["ovs,emulated"])):
        a = argparse.Namespace(compare=None, interval=0, repeat=repeat, target=target, target_dpid=None, of="1.3")
        with pytest.raises(UserError, match="--repeat"):
            cmd.run_conformance(a, Outputs())
