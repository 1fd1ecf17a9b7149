"""``sdnbench controller``: the commands end to end against the minimal responder (a tcp:
controller), and their one-line errors."""

import json
import subprocess
import sys

import pytest

from sdnbench.engine.engine_fixtures import responder


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
