"""Integration tests: a run stopped half-way leaves nothing behind (SIGTERM to ``sdnbench net
run``, an exception inside a measurement), ``net clean`` removes only dead runs' leftovers, and
two networks run side by side without touching each other.
"""

import os
import signal
import subprocess
import sys

import pytest

from sdnbench import proc
from sdnbench.net import iperf, stale
from sdnbench.net.backends.mininet_network import MininetNetwork
from sdnbench.net.runner import run_net
from sdnbench.net.topology import parse_topology
from sdnbench.proc import signals_as_exceptions
from sdnbench.result import Result

from .test_integration import assert_nothing_left, ping_ok

pytestmark = pytest.mark.integration


def _cli(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "sdnbench", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _prefix_of(pid: int) -> str:
    """Wait for the claim that process ``pid`` writes, and return its prefix."""
    found = {}

    def claimed() -> bool:
        for prefix, claim in stale.read_claims().items():
            if claim.get("pid") == pid:
                found["prefix"] = prefix
                return True
        return False

    proc.wait_until(claimed, 60, f"process {pid} to claim a network prefix")
    return found["prefix"]


def _alive(pid: str) -> bool:
    """Exists and is not a zombie waiting for its (new) parent to reap it."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _running(prefix: str, word: str) -> bool:
    return any(word in p.cmdline for p in stale.processes()
               if p.pid in stale.survey(prefix)[prefix].pids)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_mid_run_leaves_nothing(sig):
    p = _cli("net", "run", "--topo", "star,3,1", "--controller", "standalone", "--tcp",
             "--duration", "60", "--pairs", "all")
    try:
        prefix = _prefix_of(p.pid)
        proc.wait_until(lambda: _running(prefix, "iperf3 -c") or p.poll() is not None, 60,
                        "the iperf3 client to start")
        assert p.poll() is None, p.communicate()
        assert stale.survey(prefix)[prefix].bridges
        p.send_signal(sig)
        _out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 128 + sig, err
    assert "interrupted; cleaned up" in err
    assert_nothing_left(prefix)


def test_exception_inside_a_measurement_leaves_nothing(monkeypatch):
    def broken(*_a, **_kw):
        raise RuntimeError("measurement blew up")

    monkeypatch.setattr(iperf, "parse_iperf", broken)
    r = run_net({"topo": "linear,2", "controller": "standalone", "measurements": ["ping", "tcp"],
                 "ping": {"sizes": [64], "count": 2, "interval": 0.05}, "tcp": {"duration": 1}})
    assert r.status == "failed" and "measurement blew up" in r.error
    assert len(r.find("rtt")) == 1                     # the samples taken before it are kept
    assert_nothing_left(r.topology["prefix"])


def test_exception_inside_the_block_stops_background_servers():
    topo = parse_topology("single,2")
    with pytest.raises(ValueError):
        with signals_as_exceptions(), MininetNetwork(topo, controller=None) as net:
            server = net.spawn_in("h2", "iperf3-server", ["iperf3", "-s"])
            iperf.wait_listening(net, "h2", 5201, "tcp", server)
            prefix = net.prefix
            raise ValueError("inside the block")
    assert not server.alive()
    assert_nothing_left(prefix)


HOLD = """
import sys, time
from sdnbench.net.backends.mininet_network import MininetNetwork
from sdnbench.net.topology import parse_topology
with MininetNetwork(parse_topology("linear,2"), controller=None) as net:
    server = net.spawn_in("h2", "iperf3", ["iperf3", "-s"])
    print(net.prefix, server.pid, flush=True)
    time.sleep(600)
"""


def test_clean_removes_a_killed_run_but_not_a_live_one():
    holder = subprocess.Popen([sys.executable, "-c", HOLD], stdout=subprocess.PIPE, text=True)
    try:
        dead, server_pid = holder.stdout.readline().split()
        assert stale.PREFIX_RE.match(dead)
        holder.kill()                     # SIGKILL: no clean-up ran
        holder.wait()
        assert not stale.survey(dead)[dead].empty()
        with signals_as_exceptions(), MininetNetwork(parse_topology("single,2"), controller=None) as live:
            cp = subprocess.run([sys.executable, "-m", "sdnbench", "net", "clean"],
                                capture_output=True, text=True, timeout=120)
            assert cp.returncode == 0, cp.stderr
            assert f"removed {dead}" in cp.stdout
            assert f"kept {live.prefix}: in use by pid {os.getpid()}" in cp.stdout
            assert ping_ok(live, "h1", "h2")            # the live network was not touched
            assert_nothing_left(dead)
            # the dead run's server outlived its shells and namespace owner: clean found it anyway
            proc.wait_until(lambda: not _alive(server_pid), 10, "the orphaned server to die")
        assert_nothing_left(live.prefix)
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()


def test_two_networks_side_by_side():
    t = parse_topology("linear,2")
    with signals_as_exceptions(), MininetNetwork(t, controller=None) as a, \
            MininetNetwork(t, controller=None) as b:
        assert a.prefix != b.prefix
        assert ping_ok(a, "h1", "h2") and ping_ok(b, "h2", "h1")
        prefixes = (a.prefix, b.prefix)
    for p in prefixes:
        assert_nothing_left(p)


def test_cli_run_writes_json_and_a_summary(tmp_path):
    out = tmp_path / "out.json"
    args = ["net", "run", "--topo", "linear,2", "--controller", "standalone",
            "--ping-sizes", "64,128", "--ping-count", "2", "--ping-interval", "0.05",
            "-o", str(out)]
    store = None
    try:
        import sdnbench.store  # noqa: F401
        store = tmp_path / "store"
        args += ["--store", str(store)]
    except ImportError:
        pass
    cp = subprocess.run([sys.executable, "-m", "sdnbench", *args], capture_output=True, text=True,
                        timeout=300)
    assert cp.returncode == 0, cp.stderr
    assert "ping RTT (ms)" in cp.stdout and "h1-h2" in cp.stdout
    r = Result.read_json(out)
    assert r.kind == "net" and r.status == "ok"
    assert sorted(s.labels["size"] for s in r.find("rtt")) == [64, 128]
    assert r.topology["spec"] == "linear,2" and r.versions["mininet"]
    if store is not None:
        from sdnbench.store import Store
        with Store(store) as st:
            (run,) = st.runs()
            (_cell, again), = list(st.results(run.id))
        assert again.find("rtt")[0].values == r.find("rtt")[0].values


def test_cli_refuses_delay_in_one_line():
    from sdnbench import doctor
    netem = doctor.require("tc")["tc"].data["qdiscs"]["netem"]
    cp = subprocess.run([sys.executable, "-m", "sdnbench", "net", "run", "--topo", "single,2",
                         "--controller", "standalone", "--link", "delay=10", "--ping-count", "1",
                         "--ping-sizes", "64"],
                        capture_output=True, text=True, timeout=120)
    if netem:                       # a kernel with netem emulates the delay instead
        assert cp.returncode == 0, cp.stderr
        return
    assert cp.returncode == 1
    assert cp.stderr.count("\n") == 1 and "netem" in cp.stderr and "Traceback" not in cp.stderr
