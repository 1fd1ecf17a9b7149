"""The JVM controller (``sdnbench.testing.jvm``) through every controller-facing command, as a
user runs them (issue 47): started with the JVM's defaults, so it listens as Java controllers do,
on ``[::ffff:127.0.0.1]``; given by its ``cmd:`` spec (started and stopped by sdnbench, its JVM
start inside the ``ready`` default) or, started here, as ``tcp:127.0.0.1:PORT`` and to cbench.

Known answers come from its code: every measured request of ``unique-pairs`` is answered by one
flow-mod (the destination was learned), HELLO negotiates 1.3 unless the switch offers only 1.0,
a message of another version gets OFPBRC_BAD_VERSION, an unknown type OFPBRC_BAD_TYPE, a length
below the header closes the session."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sdnbench.controllers import ofhello
from sdnbench.testing import jvm

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[3]


def sdnbench(*args, timeout=300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sdnbench", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


def listeners(table: str, port: int) -> list:
    """The local addresses (kernel hex) of the sockets listening on ``port`` in /proc/net/TABLE."""
    rows = Path(f"/proc/net/{table}").read_text().splitlines()[1:]
    return [f[1].split(":")[0] for f in (r.split() for r in rows)
            if f[3] == "0A" and int(f[1].split(":")[1], 16) == port]


def test_it_listens_as_a_jvm_does_ipv4_mapped(jvm_port):
    """Told 127.0.0.1, the JVM listens on an IPv6 socket bound to ::ffff:127.0.0.1 (the listener
    that issue 47's pre-flight did not recognise), and answers HELLO with 1.3."""
    assert listeners("tcp6", jvm_port) == ["0000000000000000FFFF00000100007F"]
    assert listeners("tcp", jvm_port) == []
    assert ofhello.probe("127.0.0.1", jvm_port, 4) == 4


def _bench_result(out: Path, mode: str, of: str) -> dict:
    [r] = json.loads(out.read_text())
    c = r["counters"]
    assert r["status"] == "ok" and r["params"]["mode"] == mode and r["params"]["of_negotiated"] == [of], r["params"]
    assert c["requests_answered"] > 0 and c["errors"] == 0 and c["extra_replies"] == 0, c
    assert c["replies_flow_mod"] == c["requests_answered"], c    # each to a learned host: one flow-mod
    assert c["sessions_up"] == 2 and c["sessions_lost"] == 0, c
    assert c["latency_p50_us"] > 0 and c["latency_p99_us"] >= c["latency_p50_us"], c
    [thr] = [s for s in r["series"] if s["metric"] == "throughput"]
    assert len(thr["values"]) == 2 and min(thr["values"]) > 0, thr
    return r


@pytest.mark.parametrize("mode", ["throughput", "latency"])
def test_controller_bench_from_its_cmd_spec(mode, tmp_path):
    out = tmp_path / "bench.json"
    cp = sdnbench("controller", "bench", "--controller", jvm.spec(), "--mode", mode, "--switches", "2",
                  "--reps", "1", "--loops", "2", "--loop-ms", "500", "--macs", "4", "-o", str(out))
    assert cp.returncode == 0, cp.stderr[-3000:]
    r = _bench_result(out, mode, "1.3")
    assert (r["controller"]["name"], r["controller"]["version"]) == (jvm.NAME, jvm.VERSION)
    assert not Path(f"/proc/{r['controller']['pid']}").exists()       # stopped by sdnbench
    if mode == "latency":
        [lat] = [s for s in r["series"] if s["metric"] == "latency"]
        assert len(lat["values"]) > 100 and min(lat["values"]) > 0


def test_controller_bench_at_openflow_10_as_tcp(jvm_port, tmp_path):
    out = tmp_path / "bench.json"
    cp = sdnbench("controller", "bench", "--controller", f"tcp:127.0.0.1:{jvm_port}", "--of", "1.0",
                  "--switches", "2", "--reps", "1", "--loops", "2", "--loop-ms", "500", "--macs", "4", "-o", str(out))
    assert cp.returncode == 0, cp.stderr[-3000:]
    _bench_result(out, "throughput", "1.0")


def test_controller_cbench(jvm_port):
    cp = sdnbench("controller", "cbench", "--", "-c", "127.0.0.1", "-p", str(jvm_port), "-m", "300", "-l", "3",
                  "-s", "2", "-M", "4", "-w", "1")
    assert cp.returncode == 0, cp.stderr[-3000:]
    [line] = [l for l in cp.stdout.splitlines() if l.startswith("RESULT: ")]
    m = re.fullmatch(r"RESULT: 2 switches 2 tests min/max/avg/stdev = ([\d.]+)/([\d.]+)/([\d.]+)/[\d.]+ responses/s",
                     line)
    assert m and 0 < float(m[1]) <= float(m[3]) <= float(m[2]), line


def test_controller_capacity_holds_every_session_asked():
    cp = sdnbench("controller", "capacity", "--controller", jvm.spec(), "--max", "20", "--hold-ms", "300", "--json")
    assert cp.returncode == 0, cp.stderr[-3000:]
    [r] = json.loads(cp.stdout)
    assert r["status"] == "ok" and r["counters"]["capacity_held"] == 20, r["counters"]
    assert r["series"][0]["metric"] == "sessions" and r["series"][0]["values"] == [20]


ROBUST = {"bad-version": ("errors", "OFPET_BAD_REQUEST/OFPBRC_BAD_VERSION"),
          "unknown-type": ("errors", "OFPET_BAD_REQUEST/OFPBRC_BAD_TYPE"),
          "length-zero": ("closed_by_controller", "eof")}


def test_robustness_rejects_what_its_code_rejects(tmp_path):
    out = tmp_path / "r.json"
    cp = sdnbench("controller", "robustness", "--controller", jvm.spec(), "--cases", ",".join(ROBUST),
                  "--reps", "1", "-o", str(out))
    assert cp.returncode == 0, cp.stderr[-3000:]            # neither crashed nor hung
    got = {r["counters"]["robustness"]["case"]: r["counters"]["robustness"] for r in json.loads(out.read_text())}
    assert set(got) == set(ROBUST)
    for case, (field, seen) in ROBUST.items():
        obs = got[case]["observation"]
        said = [e["name"] for e in obs["errors"]] if field == "errors" else (obs[field] or [None])[:1]
        assert said == [seen], (case, obs)
        # rejected, unless this machine starved the load generator (then the background says nothing)
        verdict, evidence = got[case]["verdict"], got[case]["evidence"]
        assert verdict == "rejected" or (verdict == "unmeasured" and "starved" in evidence), (case, evidence)


def test_conformance_connect_and_frames_identical_on_ovs_and_the_engine(tmp_path):
    out = tmp_path / "cells.json"
    cp = sdnbench("conformance", "--controller", jvm.spec(), "--of", "1.0,1.3", "--stimuli", "connect,frames",
                  "-o", str(out), timeout=400)
    assert cp.returncode == 0, cp.stderr[-3000:]
    cells = {(c["version"], c["stimulus"]): c for c in json.loads(out.read_text())}
    assert set(cells) == {(v, s) for v in ("1.0", "1.3") for s in ("connect", "frames")}
    for key, c in cells.items():
        assert c["identical"], (key, c["only_ovs"], c["only_engine"], c["notes"])
        assert c["counts"]["ovs"] == c["counts"]["engine"] == c["counts"]["ovs_b"], (key, c["counts"])
        assert c["noise"] == [0, 0, 0], (key, c["noise"])           # OVS A, the engine, OVS B
    assert cells[("1.3", "connect")]["counts"]["ovs"][2] == 2       # a table-miss entry per switch
    assert cells[("1.0", "connect")]["counts"]["ovs"][2] == 0       # none at 1.0
    for v, table_miss in (("1.0", 0), ("1.3", 2)):                  # and the learned flows
        assert cells[(v, "frames")]["counts"]["ovs"][2] > table_miss, cells[(v, "frames")]["counts"]


def test_rfc8456_quick_processing_time_rate_and_sessions(tmp_path):
    out = tmp_path / "rfc.json"
    cp = sdnbench("rfc8456", "--quick", "--only", "5.1.2,5.1.3,5.2.1", "--controller", jvm.spec(),
                  "--store", str(tmp_path / "store"), "-o", str(out))
    assert cp.returncode == 0, cp.stderr[-3000:]
    assert "run 1: 9 ok of 9 trials" in cp.stderr, cp.stderr[-2000:]
    cells = {c["test"]: c for c in json.loads(out.read_text())["cells"]}
    assert set(cells) == {"async-time", "async-rate", "sessions"}
    for test, c in cells.items():
        assert [t["status"] for t in c["trials"]] == ["ok"] * 3, (test, c["trials"])
        assert c["figures"][0]["n"] == 3 and c["figures"][0]["mean"] > 0, (test, c["figures"])
    assert cells["sessions"]["figures"][0]["mean"] == 200                # every session offered
