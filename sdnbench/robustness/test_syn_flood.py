"""The SYN flood from a network namespace (RFC 8456 §5.3.2): the pure parts by hand, then for
real (root, a real namespace and veth, the fragile test controller): the SYNs reach the
controller's listen queue (the root namespace's SYN cookie counters move), the legitimate
switches are measured before/during/after, and nothing is left behind, also after SIGTERM."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from sdnbench.robustness import netns

ROOT = Path(__file__).resolve().parents[2]
FRAGILE = Path(__file__).resolve().parent / "testdata" / "fragile_of13.py"
SPEC = f"cmd:{sys.executable} {FRAGILE} {{port}};of=1.3;name=fragile"


def test_netstat_counters_are_read_and_subtracted():
    text = ("TcpExt: SyncookiesSent SyncookiesRecv ListenOverflows ListenDrops Other\n"
            "TcpExt: 10 1 2 3 99\n"
            "IpExt: InNoRoutes\nIpExt: 0\n")
    before = netns.netstat(text)
    assert before == {"SyncookiesSent": 10, "SyncookiesRecv": 1, "ListenOverflows": 2, "ListenDrops": 3}
    after = dict(before, SyncookiesSent=4010, ListenDrops=5)
    assert netns.delta(before, after) == {"ListenOverflows": 0, "ListenDrops": 2, "SyncookiesSent": 4000,
                                          "SyncookiesRecv": 0}


def test_names_fit_and_the_subnet_is_free():
    ns, vr, vn = netns.names(4_194_303)
    assert len(vr) <= 15 and len(vn) <= 15 and vr != vn and ns.startswith(netns.PREFIX)
    routes = "default via 10.0.0.1 dev eth0\n10.233.8.0/24 via 10.233.8.2 dev x\n10.233.9.0/30 dev y"
    assert netns.free_octet(routes, 6) == 7            # B = 1 + pid % 250 when free
    assert netns.free_octet(routes, 7) == 10           # 8 and 9 are routed already
    assert netns.free_octet(routes, 250) == 1          # wraps within 1..250


def left_behind(pid: int) -> list:
    ns, vr, _ = netns.names(pid)
    left = [p for p in (Path(f"/run/netns/{ns}"), Path(f"/sys/class/net/{vr}")) if p.exists()]
    routes = subprocess.run(["ip", "-4", "route"], capture_output=True, text=True).stdout
    return left + [ln for ln in routes.splitlines() if vr in ln]


def test_syn_flood_from_a_namespace_measured_and_cleaned(tmp_path):
    out = tmp_path / "r.json"
    p = subprocess.Popen([sys.executable, "-m", "sdnbench", "controller", "robustness", "--controller", SPEC,
                          "--cases", "syn-flood", "--syn-rate", "2000", "--reps", "1", "-o", str(out)],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stdout, stderr = p.communicate(timeout=60)
    assert p.returncode == 0, stderr
    [r] = json.loads(out.read_text())
    rb = r["counters"]["robustness"]
    obs = rb["observation"]
    assert 3000 <= obs["syn_sent"] <= 4100, obs          # 2,000/s for the 2 s window
    assert obs["handshake_ms"] is not None                # a new switch still connected
    assert rb["verdict"] in ("ignored", "degraded") and rb["phases"]["before"] > 900
    assert rb["phases"]["lat_n_during"] > 500 and rb["phases"]["lat_p99_during"] is not None
    # the SYNs reached the root namespace's listen queue: cookies were sent or SYNs dropped
    lq = rb["listen_queue"]
    assert lq["SyncookiesSent"] + lq["ListenDrops"] + lq.get("TCPReqQFullDrop", 0) > 1000, lq
    assert "SYNs sent" in rb["evidence"] and "listen queue drops" in rb["evidence"]
    assert "kernel SYN cookies" in rb["evidence"] and "decided by" in rb["evidence"]
    assert rb["left_behind"] == [] and left_behind(p.pid) == []


def test_sigterm_during_the_flood_leaves_nothing(tmp_path):
    p = subprocess.Popen([sys.executable, "-m", "sdnbench", "controller", "robustness", "--controller", SPEC,
                          "--cases", "syn-flood", "--syn-rate", "1000"],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    name, veth, _ = netns.names(p.pid)
    received = Path(f"/sys/class/net/{veth}/statistics/rx_packets")

    def flooding() -> bool:
        # the SYNs cross the veth from the namespace: its root end has received a good many
        try:
            return int(received.read_text()) >= 200
        except (FileNotFoundError, ValueError):
            return False

    deadline = time.monotonic() + 120
    while not flooding() and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.05)
    assert Path(f"/run/netns/{name}").exists() and flooding(), "the flood never began"
    os.kill(p.pid, signal.SIGTERM)
    p.communicate(timeout=30)
    assert p.returncode != 0
    assert left_behind(p.pid) == []


def test_net_clean_removes_what_a_killed_run_left():
    """A ``kill -9`` skips the finally: the namespace and veth of a dead pid are swept by
    ``sdnbench net clean`` (and by the next syn-flood case), a live owner's are kept."""
    import os
    from sdnbench.robustness import netns
    dead = subprocess.Popen(["true"])
    dead.wait()
    pid = dead.pid
    ns, vr, vn = netns.names(pid)
    subprocess.run(["ip", "netns", "add", ns], check=True)
    try:
        subprocess.run(["ip", "link", "add", vr, "type", "veth", "peer", "name", vn, "netns", ns], check=True)
        live, _, _ = netns.names(os.getpid())
        assert (ns, pid) in netns.dead_namespaces() and all(n != live for n, _ in netns.dead_namespaces())
        cp = subprocess.run([sys.executable, "-m", "sdnbench", "net", "clean"], capture_output=True, text=True, timeout=60)
        assert cp.returncode == 0 and f"syn-flood namespace {ns}" in cp.stdout, cp.stdout + cp.stderr
        assert not os.path.exists(f"/run/netns/{ns}") and not os.path.exists(f"/sys/class/net/{vr}")
    finally:
        subprocess.run(["ip", "link", "del", vr], capture_output=True)
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)
