"""Known answer: a switch that dies mid-run ends ``switch conformance`` with exit 2, a line
naming the program, its pid, the signal and the test it died in, and the outcomes before it
kept in ``-o``. The switch is killed by its pid (read from the run's own progress line) with a
known signal once the first pattern file is done, so it dies in the second file.

- ``ovs``: a private Open vSwitch (its own ovsdb-server and ovs-vswitchd with ``--monitor``,
  as ``ovs-ctl`` starts them) in a network namespace of its own, the command run inside it:
  killing it disturbs no other OVS user of this machine. SIGKILL: the monitor logs
  ``pid N died, killed (Killed), exiting``.
- ``emulated``: the engine, SIGKILL.
- ``cpqd``: ``ofdatapath``, SIGSEGV (how it died on ``action/25_SET_FIELD/10_IP_PROTO``);
  skipped, naming it, where the CPqD switch is not installed.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ..switchbench import cpqd
from ..switchbench.wiring import run_prefix

pytestmark = pytest.mark.integration

ONLY = "action/00_OUTPUT,match/03_ETH_DST"
FIRST, SECOND = "action: 00_OUTPUT", "match: 03_ETH_DST"
REPO = Path(__file__).resolve().parents[2]
PROGRAM = {"ovs": ("ovs-vswitchd", signal.SIGKILL), "emulated": ("sdnbench-engine", signal.SIGKILL),
           "cpqd": ("ofdatapath", signal.SIGSEGV)}


def _ovs_box(tmp: Path):
    """A private OVS in a new network namespace: (argv prefix, env), and its stop."""
    ns = f"{run_prefix()}box"
    env = dict(os.environ, OVS_RUNDIR=str(tmp), OVS_LOGDIR=str(tmp), OVS_DBDIR=str(tmp), OVS_SYSCONFDIR=str(tmp))
    inside = ["ip", "netns", "exec", ns]

    def run(argv):
        subprocess.run(argv, env=env, check=True, capture_output=True, timeout=30)
    run(["ip", "netns", "add", ns])
    run(inside + ["ip", "link", "set", "lo", "up"])
    run(["ovsdb-tool", "create", str(tmp / "conf.db"), "/usr/share/openvswitch/vswitch.ovsschema"])
    run(inside + ["ovsdb-server", str(tmp / "conf.db"), f"--remote=punix:{tmp}/db.sock", "--pidfile", "--detach",
                  "--log-file", "-vconsole:off"])
    run(inside + ["ovs-vsctl", "--no-wait", "init"])
    run(inside + ["ovs-vswitchd", "--pidfile", "--detach", "--monitor", "--log-file", "-vconsole:off"])

    def stop():
        for name in ("ovs-vswitchd", "ovsdb-server"):
            pidfile = tmp / f"{name}.pid"
            if pidfile.exists():
                subprocess.run(["ovs-appctl", "-t", name, "exit"], env=env, capture_output=True, timeout=10)
        subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)
    return inside, env, stop


def _run_and_kill(kind: str, out: Path, prefix: list, env: dict):
    program, sig = PROGRAM[kind]
    argv = prefix + [sys.executable, "-m", "sdnbench", "switch", "conformance", "--target", kind, "--of", "1.3",
                     "--only", ONLY, "-o", str(out)]
    p = subprocess.Popen(argv, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO,
                         env=dict(env, PYTHONPATH=str(REPO)))
    lines, pid, killed = [], None, None
    t0 = time.monotonic()
    for line in p.stderr:
        lines.append(line.rstrip("\n"))
        m = re.search(rf"\b{program} pid (\d+)", line)
        if m and pid is None:
            pid = int(m.group(1))
        if "[1/" in line and FIRST in line and killed is None:
            assert pid is not None, lines
            os.kill(pid, sig)
            killed = pid
        assert time.monotonic() - t0 < 300, lines
    stdout = p.stdout.read()
    return p.wait(timeout=60), lines, stdout, killed, sig


def _check(kind: str, tmp_path: Path, prefix: list, env: dict) -> None:
    out = tmp_path / "out.json"
    rc, lines, stdout, pid, sig = _run_and_kill(kind, out, prefix, env)
    assert pid is not None, lines
    assert rc == 2, (lines, stdout)
    [died] = [x for x in lines if x.startswith(f"sdnbench: {kind} 1.3: the run did not finish: the switch died")]
    [r] = json.loads(out.read_text())
    tests = r["topology"]["tests"]
    # the tests before it are kept: the whole first file, then the second's up to the death
    assert [t[0] for t in tests if t[0] == FIRST] == [FIRST] * 3 and all(t[2] == "OK" for t in tests if t[0] == FIRST)
    n_second = sum(1 for t in tests if t[0] == SECOND)
    assert f"the switch died in {SECOND} (its test {n_second + 1}; " in died, died
    program = PROGRAM[kind][0]
    how = {"ovs": "died, killed (Killed)", "emulated": f"killed by {sig.name} ({sig.value})",
           "cpqd": f"killed by {sig.name} ({sig.value})"}[kind]
    assert f"{program} (pid {pid}) {how}" in died, died
    assert r["status"] == "failed" and r["counters"]["tests"] == len(tests) >= 4


def test_ovs_vswitchd_killed_mid_run_ends_it_with_the_signal_and_the_test(tmp_path):
    prefix, env, stop = _ovs_box(tmp_path)
    try:
        _check("ovs", tmp_path, prefix, env)
        left = subprocess.run(prefix + ["ovs-vsctl", "--no-wait", "list-br"], env=env, capture_output=True,
                              text=True, timeout=10).stdout.split()
        assert left == [], left
    finally:
        stop()


def test_the_engine_killed_mid_run_ends_it_with_the_signal_and_the_test(tmp_path):
    _check("emulated", tmp_path, [], dict(os.environ))


@pytest.mark.skipif(bool(cpqd.missing()), reason=f"CPqD ofsoftswitch13 not installed ({', '.join(cpqd.missing())} "
                    "not on PATH): `sdnbench install cpqd --from DIR`")
def test_ofdatapath_segfaulting_mid_run_ends_it_with_the_signal_and_the_test(tmp_path):
    _check("cpqd", tmp_path, [], dict(os.environ))


def test_switch_bench_ovs_vswitchd_killed_in_its_second_test(tmp_path):
    """``switch bench``: killed when the second test starts; exit 2, the line names the test and
    the signal, the first test's result kept in ``-o``."""
    prefix, env, stop = _ovs_box(tmp_path)
    out = tmp_path / "bench.json"
    try:
        p = subprocess.Popen(prefix + [sys.executable, "-m", "sdnbench", "switch", "bench", "--target", "ovs", "--test",
                                       "insertion,barrier", "--flows", "1", "--reps", "20", "-o", str(out)],
                             stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO,
                             env=dict(env, PYTHONPATH=str(REPO)))
        lines, pid, starts = [], None, 0
        for line in p.stderr:
            lines.append(line.rstrip("\n"))
            m = re.search(r"ovs-vswitchd pid (\d+)", line)
            pid = pid or (int(m.group(1)) if m else None)
            if "waiting for the switch" in line:
                starts += 1
                if starts == 2:
                    os.kill(pid, signal.SIGKILL)
        p.stdout.read()
        assert p.wait(timeout=60) == 2, lines
        assert any(x.startswith(f"sdnbench: check failed: the switch died during test barrier: ovs-vswitchd (pid {pid}) "
                                "died, killed (Killed); its log ") for x in lines), lines
        by = {r["benchmark"]: r for r in json.loads(out.read_text())}
        assert by["insertion"]["status"] == "ok" and by["barrier"]["status"] == "failed", by
    finally:
        stop()
