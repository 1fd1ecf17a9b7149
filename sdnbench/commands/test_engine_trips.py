"""One trip to the engine per run (issue 41): ``controller bench`` asks the engine to check its
config once per switch count, runs it once per repetition, and stores in ``Result.params`` the
config the engine resolved (every default filled in). The engine is counted through a shim
named by ``$SDNBENCH_ENGINE`` that logs its first argument and runs the real binary; the
controller is the minimal responder."""

import json
import os
import subprocess
import sys

import pytest

from sdnbench import paths
from sdnbench.engine.params import engine_defaults
from sdnbench.testing.engine_fixtures import responder

SHIM = """#!/bin/sh
echo "${{1:-}}" >> '{log}'
exec '{real}' "$@"
"""


def counted_cli(tmp_path, *args) -> tuple:
    """(completed process, the engine's invocations: their first arguments) of ``sdnbench ARGS``."""
    log, shim = tmp_path / "engine-calls", tmp_path / "sdnbench-engine"
    shim.write_text(SHIM.format(log=log, real=paths.engine_binary()))
    shim.chmod(0o755)
    env = dict(os.environ, SDNBENCH_ENGINE=str(shim))
    cp = subprocess.run([sys.executable, "-m", "sdnbench", *args], capture_output=True, text=True, timeout=300,
                        env=env)
    return cp, log.read_text().split() if log.exists() else []


@pytest.mark.integration
def test_bench_checks_once_and_runs_once_per_repetition_and_records_the_resolved_config(tmp_path):
    out = tmp_path / "bench.json"
    with responder("1.3") as addr:
        cp, calls = counted_cli(tmp_path, "controller", "bench", "--controller", f"tcp:{addr}", "--switches", "16",
                                "--reps", "3", "--loops", "1", "--loop-ms", "200", "--warmup", "0", "--macs", "4",
                                "--window", "8", "-o", str(out))
    assert cp.returncode == 0, cp.stderr
    # 1 check + 3 runs (a run's first argument is its --config); before issue 41: 6 checks + 3 runs
    assert calls == ["check", "--config", "--config", "--config"], calls
    results = json.loads(out.read_text())
    assert [r["params"]["rep"] for r in results] == [0, 1, 2]
    d = engine_defaults()
    for r in results:
        p = r["params"]
        assert (p["switches"], p["window"], p["macs"], p["loops"], p["loop_ms"]) == (16, 8, 4, 1, 200), p
        for k in ("frame_size", "timeout_ms", "versions", "timeout_floor_ms", "settle_ms", "traffic", "learn"):
            assert p[k] == d[k], (k, p.get(k))
        assert "controllers" not in p and "controller_pid" not in p, "one run's address and PID are not params"


@pytest.mark.integration
def test_search_checks_once_and_runs_once_per_trial(tmp_path):
    with responder("1.3") as addr:
        cp, calls = counted_cli(tmp_path, "controller", "search", "--controller", f"tcp:{addr}", "--switches", "2",
                                "--loops", "1", "--loop-ms", "300", "--macs", "4", "--confirm", "50", "--step", "50%",
                                "--max-trials", "4", "--json")
    assert cp.returncode == 0, cp.stderr
    [r] = json.loads(cp.stdout)
    assert calls == ["check"] + ["--config"] * r["counters"]["trials"], calls
    assert r["params"]["frame_size"] == engine_defaults()["frame_size"] and "mode" not in r["params"]


@pytest.mark.integration
def test_a_forced_version_is_asked_of_the_engine_once_before_the_runs(tmp_path):
    """``--of`` forced: the engine's ``hello`` says whether the controller speaks it (the one
    negotiation, the switch's own), then one run per repetition. (A controller that lacks the
    forced version is refused in one line before any run: ``test_version_negotiation.py``.)"""
    with responder("1.3") as addr:
        cp, calls = counted_cli(tmp_path, "controller", "bench", "--controller", f"tcp:{addr}", "--switches", "2",
                                "--reps", "2", "--loops", "1", "--loop-ms", "200", "--warmup", "0", "--macs", "4",
                                "--of", "1.3", "--json")
        assert cp.returncode == 0, cp.stderr
        assert calls == ["check", "hello", "--config", "--config"], calls
        assert all(r["params"]["of_negotiated"] == ["1.3"] for r in json.loads(cp.stdout))
