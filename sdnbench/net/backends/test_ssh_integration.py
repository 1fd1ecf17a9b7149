"""Integration tests of the SSH hosts backend against a lab on this machine (``testbed``): sshd
in network namespaces, an Open vSwitch bridge as the switch under test, keys made per test.

- the measurements run over SSH and give samples (ping, iperf3 TCP);
- Ctrl-C (SIGINT) in the middle of iperf3 leaves no process and no run directory on any host;
- bad input gets one line naming the host: unreachable host, wrong key, missing tool.
"""

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sdnbench.errors import UserError
from sdnbench.net.backends import remote
from sdnbench.testing.labs.testbed import Testbed
from sdnbench.net.runner import run_net
from sdnbench.net.topology import parse_topology
from sdnbench.testing.sigterm_run import reaped, signalled

pytestmark = pytest.mark.integration

QUICK = {"controller": "standalone", "pairs": "per-switch",
         "ping": {"sizes": [64, 1024], "count": 3, "interval": 0.2}, "tcp": {"duration": 1, "interval": 1}}


def settled(tb: Testbed, timeout: float = 5.0) -> dict:
    """Leftover processes per host, once sshd's per-connection processes had time to exit."""
    deadline = time.monotonic() + timeout
    while True:
        left = {h: tb.leftovers(h) for h in tb.topology.host_names()}
        if not any(left.values()) or time.monotonic() > deadline:
            return {h: v for h, v in left.items() if v}
        time.sleep(0.1)


def run_dirs() -> set:
    root = Path(remote.RUN_ROOT)
    return set(root.iterdir()) if root.exists() else set()


@pytest.fixture(scope="module")
def lab():
    with Testbed(parse_topology("star,2,2")) as tb:
        yield tb


def test_ping_and_tcp_over_ssh_and_nothing_left(lab):
    before = run_dirs()
    r = run_net({"topo": "star,2,2", "measurements": ["ping", "tcp", "ditg"], **QUICK,
                 "ditg": {"sizes": [256], "rate": 50, "duration_ms": 1000, "meter": "rttm"},
                 "backend": f"ssh:{lab.inventory}"})
    assert r.status == "ok", r.error
    assert r.params["backend"] == f"ssh:{lab.inventory}"
    rtts = r.find("rtt", src="h3", dst="h1", size=1024)
    assert len(rtts) == 1 and len(rtts[0].values) == 3 and all(v and v > 0 for v in rtts[0].values)
    tcp = r.find("tcp_throughput", src="h3", dst="h1")
    assert tcp and tcp[0].values[0] > 1         # Mbit/s through the bridge
    delays = r.find("ditg_delay", src="h3", dst="h1")       # its log was written remotely, copied back
    assert delays and len(delays[0].values) > 20
    assert r.topology["backend"] == "ssh" and r.topology["ips"]["h1"] == "10.0.0.1"
    assert settled(lab) == {}
    assert run_dirs() == before


def test_topology_must_match_the_inventory(lab):
    with pytest.raises(UserError, match=r"is not topology star,3,2: it has 2 switch"):
        run_net({"topo": "star,3,2", "measurements": ["ping"], **QUICK, "backend": f"ssh:{lab.inventory}"})


def test_first_packet_is_refused_in_one_line(lab):
    with pytest.raises(UserError, match="first-packet captures on the switch's ports"):
        run_net({"topo": "star,2,2", "measurements": ["first-packet"], **QUICK,
                 "backend": f"ssh:{lab.inventory}"})


DRIVER = """
import sys
from sdnbench import proc
from sdnbench.net.runner import run_net
with proc.signals_as_exceptions():
    run_net({"topo": "star,2,2", "controller": "standalone", "pairs": "h3-h1",
             "measurements": ["tcp"], "tcp": {"duration": 30, "interval": 1},
             "backend": "ssh:" + sys.argv[1]})
"""


def test_ctrl_c_in_the_middle_of_iperf3_leaves_nothing_on_any_host(lab):
    before = run_dirs()
    p = subprocess.Popen([sys.executable, "-c", DRIVER, str(lab.inventory)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with reaped(p):
        deadline = time.monotonic() + 30
        while not any("iperf3 -c" in l for l in lab.leftovers("h3")):
            assert p.poll() is None, p.communicate()
            assert time.monotonic() < deadline, "iperf3 client never started"
            time.sleep(0.05)
        assert any("iperf3 -s" in l for l in lab.leftovers("h1"))
        err = signalled(p, signal.SIGINT, 30)
    assert p.returncode != 0 and "Traceback" in err and "Interrupted" in err   # raised, unwound
    assert settled(lab) == {}
    assert run_dirs() == before


@pytest.fixture(scope="module")
def broken_lab():
    """h2 lacks iperf3 on its PATH; h3's sshd is not running."""
    with Testbed(parse_topology("single,3"), path_without={"h2": ["iperf3"]}, stopped=("h3",)) as tb:
        yield tb


def _inventory(tb: Testbed, key: str) -> str:
    path = tb.dir / f"lab-{key}.yaml"
    path.write_text(tb.inventory.read_text().replace("key: id_ed25519", f"key: {key}"))
    return str(path)


def _bad(tb: Testbed, inventory: str, measurements: list, topo: str = "single,3") -> str:
    before = run_dirs()
    with pytest.raises(UserError) as e:
        run_net({"topo": topo, **QUICK, "pairs": "first-last", "measurements": measurements,
                 "backend": f"ssh:{inventory}"})
    assert settled(tb) == {} and run_dirs() == before      # nothing left behind
    msg = str(e.value)
    assert "\n" not in msg
    return msg


def test_unreachable_host_is_one_line_naming_it(broken_lab):
    msg = _bad(broken_lab, str(broken_lab.inventory), ["ping"])     # h1 and h2 answer, h3 not
    assert msg.startswith(f"host h3 (root@{broken_lab.ctl_ip(3, 2)}:22): cannot connect: connection refused")


def test_wrong_key_is_one_line_naming_the_host(broken_lab):
    inv = _inventory(broken_lab, "wrong_key")
    msg = _bad(broken_lab, inv, ["ping"])
    assert msg.startswith(f"host h1 (root@{broken_lab.ctl_ip(1, 2)}:22): authentication with key ")
    assert "wrong_key failed" in msg


def test_missing_remote_tool_is_one_line_naming_host_and_tool(broken_lab):
    two = broken_lab.dir / "lab-h1-h2.yaml"          # without h3, whose sshd is down
    two.write_text("".join(l for l in broken_lab.inventory.read_text().splitlines(keepends=True)
                           if "name: h3" not in l))
    assert run_net({"topo": "single,2", **QUICK, "pairs": "first-last", "measurements": ["ping"],
                    "backend": f"ssh:{two}"}).status == "ok"            # ping is there
    msg = _bad(broken_lab, str(two), ["tcp"], topo="single,2")       # h1 has iperf3, h2 not
    assert msg == f"host h2 (root@{broken_lab.ctl_ip(2, 2)}:22): iperf3 not found on PATH={broken_lab.dir}/bin-h2"


def test_doctor_checks_every_inventory_host(broken_lab):
    from sdnbench.net.backends.hostcheck import check_inventory

    h1, h2, h3 = check_inventory(str(broken_lab.inventory))
    assert (h1.name, h1.status) == ("host:h1", "ok") and "every tool found" in h1.detail
    assert h2.status == "fail" and h2.detail.endswith(f"iperf3 not found on PATH={broken_lab.dir}/bin-h2")
    assert h3.status == "fail" and "cannot connect: connection refused" in h3.detail
    assert settled(broken_lab) == {}


SCENARIO = """\
name: tiny
repetitions: 2
benchmarks:
  - name: latency
    kind: net
    params: {topo: "single,2", controller: standalone, measurements: [ping],
             ping: {sizes: [64, 512], count: 3, interval: 0.1}}
"""


def test_net_gap_runs_a_scenario_on_both_backends(tmp_path, capsys):
    import json

    from sdnbench.cli import main

    (tmp_path / "tiny.yaml").write_text(SCENARIO)
    with Testbed(parse_topology("single,2")) as tb:
        rc = main(["net", "gap", str(tmp_path / "tiny.yaml"), "--inventory", str(tb.inventory),
                   "--store", str(tmp_path / "store"), "--json"])
        assert settled(tb) == {}
    assert rc == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [(r["metric"], r["where"], r["size"]) for r in rows] == [("rtt", "h1->h2", 64), ("rtt", "h1->h2", 512)]
    for r in rows:      # 2 repetitions x 3 echoes pooled on each side (a lost echo has no sample)
        assert 0 < r["n_emulated"] <= 6 and 0 < r["n_real"] <= 6 and r["emulated"] > 0 and r["real"] > 0
        assert r["ratio"] == pytest.approx(r["real"] / r["emulated"])
        assert r["gap"] == pytest.approx(r["real"] - r["emulated"])


def test_a_killed_run_is_swept_by_the_next_one(lab):
    """SIGKILL leaves no chance to clean up: the groups stay recorded on the hosts, and the next
    run from this machine kills them and removes the run directory before it starts."""
    before = run_dirs()
    p = subprocess.Popen([sys.executable, "-c", DRIVER, str(lab.inventory)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not any("iperf3 -c" in l for l in lab.leftovers("h3")):
            assert p.poll() is None and time.monotonic() < deadline, "iperf3 client never started"
            time.sleep(0.05)
    finally:
        p.kill()
        p.communicate()
    assert any("iperf3" in l for l in lab.leftovers("h1") + lab.leftovers("h3"))
    assert len(run_dirs() - before) == 1
    r = run_net({"topo": "star,2,2", "measurements": ["ping"], **QUICK, "pairs": "h2-h1",
                 "backend": f"ssh:{lab.inventory}"})
    assert r.status == "ok" and any("removed what a killed sdnbench run" in n for n in r.notes)
    assert settled(lab) == {}
    assert run_dirs() == before


def test_a_remote_script_reports_its_own_exit_status(lab):
    from sdnbench.net.backends import inventory as inv
    h = inv.load(lab.inventory).hosts[0]
    s = remote.RemoteHostSession(h, "status-test")
    try:
        assert s.shell("exit 3")[0] == 3
        assert s.shell("true")[0] == 0
        assert s.shell("echo hi; false") == (1, "hi\n", "")
    finally:
        s.close()
