"""Integration: ``switch bench`` against real Open vSwitch (userspace datapath here), the
remote mode with an OVS bridge standing in for hardware, bad input, and clean-up after Ctrl-C.
"""

import os
import signal
import subprocess
import sys

import pytest

from .. import proc
from ..errors import UserError
from ..proc import signals_as_exceptions
from ..store import Store
from ..testing.sigterm_run import reaped, signalled
from . import invariants, runner
from .params import TESTS
from .targets import OvsTarget
from .wiring import run_prefix

pytestmark = pytest.mark.integration

QUICK = {"reps": 10, "duration": 0.3, "flows": [1, 20], "tables": 2, "timeout": 5, "accept_timeout": 15}


def leftovers(prefix: str) -> list:
    links = [n for n in os.listdir("/sys/class/net") if n.startswith(prefix)]
    ns = [n for n in (os.listdir("/var/run/netns") if os.path.exists("/var/run/netns") else [])
          if n.startswith(prefix)]
    brs = [b for b in proc.run(["ovs-vsctl", "list-br"], timeout=10).stdout.split() if b.startswith(prefix)]
    return links + ns + brs


def test_every_test_against_ovs_userspace(tmp_path):
    tests = list(TESTS)
    with signals_as_exceptions():
        rs = runner.run("ovs", {**QUICK, "tests": tests, "barrier": True, "table_limit": 150,
                                "max_flows": 400, "batch": 50})
    assert leftovers(run_prefix()) == []
    assert {r.benchmark for r in rs} == set(tests)
    for r in rs:
        assert r.status == "ok", (r.benchmark, r.error)
        assert invariants.violations(r) == [], r.benchmark
        assert r.topology["switch"]["hardware"] == "Open vSwitch"
        assert not any("kernel transmit stamp" in n for n in r.notes)
    by = {r.benchmark: r for r in rs if r.benchmark != "insertion"}
    ins = [r for r in rs if r.benchmark == "insertion"]
    assert sorted((r.params["flows"], r.params["barrier"]) for r in ins) == [(1, "each"), (1, "none"),
                                                                             (20, "each"), (20, "none")]
    assert all(r.counters["never_forwarded"] == 0 for r in ins)
    cap = by["capacity"].counters
    assert cap["verdict"] == "refused-when-full" and "TABLE_FULL" in cap["refusal"], cap
    assert cap["accepted"] == cap["table_flows"] <= 150 and cap["sample_forwarded"] == cap["sample_size"]
    depths = sorted(r.params["tables"] for r in rs if r.benchmark == "pipeline")
    assert depths == [1, 2]
    assert {s.labels["kind"] for s in by["stats"].find("stats_latency")} == {"desc", "flow", "aggregate", "table", "port"}
    assert by["stats"].counters["flow_stats_entries"] >= 20
    assert by["packet-in"].counters["lost"] == 0 and by["packet-out"].counters["lost"] == 0
    assert len(by["first-packet"].find("first_packet")[0].values) == 10
    with Store(tmp_path / "store") as st:
        rid = st.save_result(rs[0])
        back = st.load_result(rid)
    assert back.topology["switch"]["manufacturer"] == rs[0].topology["switch"]["manufacturer"]
    assert back.find("insertion_latency")[0].values == rs[0].find("insertion_latency")[0].values


def test_remote_mode_with_an_ovs_bridge_as_the_hardware():
    port = runner.free_port()
    hw = OvsTarget(datapath="netdev", netns=False)   # its data ports cabled to interfaces here
    with signals_as_exceptions(), hw:
        hw.attach(f"127.0.0.1:{port}")              # the switch is told our address beforehand
        spec = f"remote:{port},{hw.wiring.probe_ifs[0]},{hw.wiring.probe_ifs[1]}"
        rs = runner.run(spec, {**QUICK, "tests": ["insertion", "packet-out"], "flows": [10]})
    assert [r.status for r in rs] == ["ok", "ok"]
    assert rs[0].topology["target"] == "remote" and rs[0].topology["switch"]["hardware"] == "Open vSwitch"
    assert [p["port_no"] for p in rs[0].topology["ports"]] == [1, 2]
    assert rs[0].counters["forwarded"] == 10


def cli(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "sdnbench", "switch", "bench", *args],
                          capture_output=True, text=True, timeout=timeout)


def test_a_switch_that_never_connects_is_one_line_naming_the_port():
    port = runner.free_port()
    cp = cli("--target", f"remote:{port},lo,lo", "--accept-timeout", "1")
    # the switch under test failed the run (docs/cli.md): exit 2, one line
    assert cp.returncode == 2, cp.stderr
    lines = cp.stderr.strip().splitlines()
    assert len([ln for ln in lines if "no switch connected" in ln]) == 1 and "Traceback" not in cp.stderr
    assert f"127.0.0.1:{port}" in lines[-1] and f"ovs-vsctl set-controller BRIDGE tcp:127.0.0.1:{port}" in lines[-1]


def test_missing_or_down_interfaces_are_refused_before_starting():
    cp = cli("--target", "remote:6999,sbtnone0,lo")
    assert cp.returncode == 1 and "interface sbtnone0 does not exist" in cp.stderr
    name = run_prefix() + "dd"
    proc.run(["ip", "link", "add", name, "type", "veth", "peer", "name", name[:-2] + "de"], timeout=10)
    try:
        cp = cli("--target", f"remote:6999,lo,{name}")
        assert cp.returncode == 1 and f"interface {name} is down" in cp.stderr, cp.stderr
    finally:
        proc.run(["ip", "link", "del", name], timeout=10, check=False)
    if not os.path.exists("/sys/module/openvswitch"):
        with pytest.raises(UserError, match="kernel module is not loaded"):
            OvsTarget(datapath="system")


def _kept_tests(out) -> list:
    """The tests the run has kept in its ``-o`` file so far (rewritten, atomically, as each ends)."""
    import json
    try:
        return [r["benchmark"] for r in json.loads(out.read_text())]
    except (FileNotFoundError, json.JSONDecodeError):
        return []


def test_ctrl_c_mid_run_leaves_no_namespace_veth_or_bridge_and_keeps_finished_tests(tmp_path):
    out = tmp_path / "partial.json"
    p = subprocess.Popen([sys.executable, "-m", "sdnbench", "switch", "bench", "--target", "ovs",
                          "--test", "packet-in,stats", "--duration", "20", "--reps", "5", "-o", str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    prefix = run_prefix(p.pid)
    with reaped(p):
        proc.wait_until(lambda: f"{prefix}br" in proc.run(["ovs-vsctl", "list-br"], timeout=10).stdout,
                        timeout=120, what="the bridge of the run")
        # into the run: the first test (packet-in) is kept, and the second (stats, 20 s a
        # repetition) has begun
        proc.wait_until(lambda: _kept_tests(out) == ["packet-in"], timeout=120, what="the first test to be kept")
        err = signalled(p, signal.SIGINT, 60)
    assert p.returncode == 130, err
    assert "Traceback" not in err
    assert leftovers(prefix) == []
    import json
    kept = json.loads(out.read_text())
    assert kept[0]["benchmark"] == "packet-in" and kept[0]["status"] == "ok", kept
    assert all(r["status"] == "failed" and "interrupted" in r["error"] for r in kept[1:]), kept


def test_clean_removes_only_leftovers_of_dead_runs():
    dead = next(pid for pid in range(4_194_000, 4_194_304) if not os.path.exists(f"/proc/{pid}"))
    gone, alive = run_prefix(dead), run_prefix()
    proc.run(["ip", "link", "add", gone + "s1", "type", "veth", "peer", "name", gone + "p1"], timeout=10)
    proc.run(["ip", "link", "add", alive + "s7", "type", "veth", "peer", "name", alive + "p7"], timeout=10)
    try:
        cp = subprocess.run([sys.executable, "-m", "sdnbench", "switch", "clean", "--dry-run"],
                            capture_output=True, text=True, timeout=60)
        assert cp.returncode == 0 and gone + "s1" in cp.stdout and alive not in cp.stdout
        assert os.path.exists(f"/sys/class/net/{gone}s1")
        cp = subprocess.run([sys.executable, "-m", "sdnbench", "switch", "clean"],
                            capture_output=True, text=True, timeout=60)
        assert cp.returncode == 0, cp.stderr
        assert not os.path.exists(f"/sys/class/net/{gone}s1") and not os.path.exists(f"/sys/class/net/{gone}p1")
        assert os.path.exists(f"/sys/class/net/{alive}s7")
    finally:
        for n in (gone + "s1", alive + "s7"):
            proc.run(["ip", "link", "del", n], timeout=10, check=False)


def test_openflow_10_against_ovs():
    with signals_as_exceptions():
        rs = runner.run("ovs", {**QUICK, "of": "1.0", "tables": 1, "flows": [20], "table_limit": 60,
                                "max_flows": 200, "batch": 25,
                                "tests": ["insertion", "packet-in", "first-packet", "capacity", "pipeline"]})
    for r in rs:
        assert r.status == "ok" and invariants.violations(r) == [], (r.benchmark, r.error)
        assert r.topology["of_version"] == "1.0"
    by = {r.benchmark: r for r in rs}
    assert by["insertion"].counters["forwarded"] == 20
    assert by["capacity"].counters["accepted"] == 60
    assert by["capacity"].counters["refusal"] == "OFPET_FLOW_MOD_FAILED/OFPFMFC_ALL_TABLES_FULL"
