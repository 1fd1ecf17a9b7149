"""``sdnbench controller robustness`` end to end, for real: the engine, a managed controller
process, restarts. Known answers from a deliberately fragile controller
(``testdata/fragile_of13.py``: crashes on type 0xee, stalls everyone 2.5 s on length 0, closes a
bad-version session), then a real os-ken app."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FRAGILE = Path(__file__).resolve().parent / "testdata" / "fragile_of13.py"


def run_cli(*args, tmp_path):
    out = tmp_path / "r.json"
    cp = subprocess.run([sys.executable, "-m", "sdnbench", "controller", "robustness", *args, "-o", str(out)],
                        cwd=ROOT, capture_output=True, text=True, timeout=300)
    return cp, (json.loads(out.read_text()) if out.exists() else [])


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"


def test_fragile_controller_crashed_rejected_hung_and_restarted(tmp_path):
    spec = f"cmd:{sys.executable} {FRAGILE} {{port}};of=1.3;name=fragile"
    cp, rs = run_cli("--controller", spec, "--cases", "unknown-type,bad-version,length-zero", tmp_path=tmp_path)
    assert cp.returncode == 2, cp.stderr          # a crash/hang fails the measured check
    got = {r["counters"]["robustness"]["case"]: r["counters"]["robustness"] for r in rs}
    assert got["unknown-type"]["verdict"] == "crashed" and got["unknown-type"]["restarted"]
    assert got["bad-version"]["verdict"] == "rejected"
    assert got["bad-version"]["observation"]["closed_by_controller"][0] == "eof"
    assert got["length-zero"]["verdict"] == "hung" and got["length-zero"]["restarted"]
    pids = [r["controller"]["pid"] for r in rs]
    assert pids[0] != pids[1]                      # a new process after the crash
    assert not any(alive(p) for p in pids)         # nothing left behind
    assert "case" in cp.stdout and "fragile" in cp.stdout


def test_osken_learning_two_cases(tmp_path):
    cp, rs = run_cli("--controller", "osken:learning", "--cases", "bad-version,unknown-type", tmp_path=tmp_path)
    assert cp.returncode == 0, cp.stderr
    got = {r["counters"]["robustness"]["case"]: r["counters"]["robustness"] for r in rs}
    assert got["bad-version"]["verdict"] == "rejected", got["bad-version"]
    assert got["unknown-type"]["verdict"] in ("rejected", "ignored")
    for v in got.values():
        assert v["phases"]["before"] > 900        # the background was served before the case
    assert not any(alive(r["controller"]["pid"]) for r in rs)


def test_unknown_case_is_one_line(tmp_path):
    cp, _ = run_cli("--cases", "nope", tmp_path=tmp_path)
    assert cp.returncode == 1
    assert cp.stderr.strip().count("\n") == 0 and "known: bad-version" in cp.stderr


def test_faucet_is_measured_with_its_own_traffic(tmp_path):
    """Faucet answers only packet-ins its pipeline would raise: with the ``faucet`` traffic
    profile its background is served (at its own default rate) and a case gets a verdict."""
    cp, rs = run_cli("--controller", "faucet:auto", "--cases", "bad-version", tmp_path=tmp_path)
    assert cp.returncode == 0, cp.stderr
    (r,) = rs
    v = r["counters"]["robustness"]
    assert r["params"]["traffic"] == "faucet" and r["params"]["rate"] == 200
    assert v["phases"]["before"] > 180, v                  # served before the case: measured
    assert v["verdict"] in ("rejected", "ignored"), v
    assert not alive(r["controller"]["pid"])
