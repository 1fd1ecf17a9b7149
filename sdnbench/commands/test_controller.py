"""``sdnbench controller``: the commands end to end against the minimal responder (a tcp:
controller), and their one-line errors."""

import argparse
import json
import subprocess
import sys

import pytest

from sdnbench.commands import controller
from sdnbench.commands._parser import build_parser
from sdnbench.testing.engine_fixtures import responder
from sdnbench.engine.params import check, engine_defaults
from sdnbench.errors import UserError


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "sdnbench", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("argv", [
    ["controller", "bench", "--switches", "1,x"],
    ["controller", "bench", "--switches", "0"],
    ["controller", "bench", "--mode", "fixed-rate", "--controller", "tcp:127.0.0.1:1"],
    ["controller", "capacity", "--max", "0"],
])
def test_bad_input_is_one_line(argv):
    cp = run_cli(*argv)
    assert cp.returncode == 1, cp.stderr
    assert cp.stderr.strip().count("\n") == 0, cp.stderr
    assert "Traceback" not in cp.stderr


@pytest.mark.integration
def test_bench_and_capacity_against_the_responder(tmp_path):
    with responder("1.3") as addr:
        out = tmp_path / "bench.json"
        cp = run_cli("controller", "bench", "--controller", f"tcp:{addr}", "--switches", "1,2", "--reps", "1",
                     "--loops", "2", "--loop-ms", "200", "--macs", "4", "-o", str(out))
        assert cp.returncode == 0, cp.stderr
        results = json.loads(out.read_text())
        assert [r["params"]["switches"] for r in results] == [1, 2]
        assert all(r["status"] == "ok" and r["kind"] == "controller" for r in results)
        assert "answered requests/s" in cp.stdout
        cp = run_cli("controller", "capacity", "--controller", f"tcp:{addr}", "--max", "20", "--hold-ms", "200",
                     "--json")
        assert cp.returncode == 0, cp.stderr
        r = json.loads(cp.stdout)[0]
        assert r["counters"]["capacity_held"] == 20
        assert r["series"][0]["metric"] == "sessions" and r["series"][0]["values"] == [20]


@pytest.mark.integration
def test_cbench_compatible_result_line():
    with responder("1.0") as addr:
        host, port = addr.split(":")
        cp = run_cli("controller", "cbench", "--", "-c", host, "-p", port, "-m", "200", "-l", "3", "-s", "2",
                     "-M", "4", "-t", "-w", "1")
    assert cp.returncode == 0, cp.stderr
    lines = [l for l in cp.stdout.splitlines() if l.startswith("RESULT: ")]
    assert len(lines) == 1 and lines[0].startswith("RESULT: 2 switches 2 tests min/max/avg/stdev = ")
    assert lines[0].endswith(" responses/s")


@pytest.mark.integration
def test_rate_search_against_the_responder(tmp_path):
    with responder("1.3") as addr:
        out = tmp_path / "search.json"
        cp = run_cli("controller", "search", "--controller", f"tcp:{addr}", "--switches", "2", "--loops", "1",
                     "--loop-ms", "300", "--macs", "4", "--confirm", "50", "--step", "50%", "--max-trials", "8",
                     "-o", str(out))
    assert cp.returncode == 0, cp.stderr
    r = json.loads(out.read_text())[0]
    assert r["benchmark"] == "rate-search"
    assert r["counters"]["max_rate"] > 0
    n = r["counters"]["trials"]
    assert len(r["series"][0]["values"]) == n and 2 <= n <= 8
    assert "max" in r["counters"]["markers"]


def _subparser(*path):
    p = build_parser()
    for name in path:
        p = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction)).choices[name]
    return p


# A flag of these commands that sets an engine config field may default differently from the
# engine only on purpose: (command, field) -> why. Every other one takes the engine's default.
OWN_DEFAULTS = {
    ("bench", "mode"): "the command's first mode; the engine's params check fills the same",
    ("bench", "switches"): "a list of counts, not one",
    ("search", "switches"): "a small network for many trials",
    ("search", "loops"): "short trials",
}


@pytest.mark.parametrize("command", ["bench", "capacity", "search"])
def test_no_flag_restates_an_engine_default(command):
    """``Config::default()`` is the one definition: a flag for an engine field has no default of
    its own (argparse None), unless listed with its reason; store_true flags pass None when unset."""
    engine = engine_defaults()
    p = _subparser("controller", command)
    own = {a.dest: a.default for a in p._actions if a.dest in engine and a.default is not None and a.nargs != 0}
    assert sorted(own) == sorted(f for c, f in OWN_DEFAULTS if c == command)
    engine_flags = {a.dest for a in p._actions if getattr(a, "engine_key", None)}
    assert engine_flags == {"bench": {"macs", "loops", "loop_ms", "warmup"}, "capacity": {"hold_ms"},
                            "search": {"macs", "loop_ms"}}[command]


def test_a_flag_left_out_takes_the_engines_default_and_the_params_record_it():
    engine = engine_defaults()
    p = _subparser("controller", "bench")
    assert list(controller.bench_params(p.parse_args([]))) == ["controller", "mode"], "only what was given"
    params = check(dict(controller.bench_params(p.parse_args([])), switches=1))
    assert {k: params[k] for k in ("macs", "loops", "loop_ms", "warmup")} == \
        {k: engine[k] for k in ("macs", "loops", "loop_ms", "warmup")}
    given = check(dict(controller.bench_params(p.parse_args(["--macs", "7", "--warmup", "0"])), switches=1))
    assert (given["macs"], given["warmup"], given["loops"]) == (7, 0, engine["loops"])
    s = check(controller.search_params(_subparser("controller", "search").parse_args(["--loop-ms", "250"])))
    assert (s["macs"], s["loop_ms"], s["loops"], s["switches"]) == (engine["macs"], 250, 3, 4)


def test_help_shows_the_engines_default_and_still_prints_without_the_engine(monkeypatch):
    engine = engine_defaults()
    text = _subparser("controller", "bench").format_help()
    assert f"cbench's -M ({engine['macs']})" in text and f"after the warm-up ({engine['loops']})" in text

    def not_built():
        raise UserError("target/release/sdnbench-engine is not built")
    monkeypatch.setattr(controller, "engine_defaults", not_built)
    assert "cbench's -M (the engine's default)" in _subparser("controller", "bench").format_help()
