"""Integration tests of the cluster backend on a rack of namespaces (``clusterlab``): each server
has its own sshd, ovsdb-server and ovs-vswitchd; Mininet's cluster classes build the network
over SSH, with a VXLAN tunnel between the servers.

- linear,4 over two servers passes pingall and iperf3 between hosts on different servers; the
  same topology on one server is measured in the same run, for the figures;
- Ctrl-C (SIGINT) in the middle of iperf3 leaves no process, namespace, bridge or interface;
- bad input is one line naming the server: unreachable, no Open vSwitch, no Mininet.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sdnbench.errors import UserError
from sdnbench.net import iperf, ping
from sdnbench.net.backends import cluster_servers, cluster_sweep, remote
from sdnbench.net.backends.cluster import ClusterNetwork
from sdnbench.testing.labs.clusterlab import Rack
from sdnbench.net.topology import parse_topology
from sdnbench.result import Result
from sdnbench.testing.sigterm_run import reaped, signalled

pytestmark = pytest.mark.integration


def ours(prefix: str) -> list:
    """Every process on this machine whose command line names the run's prefix: host and switch
    shells (``mininet:PREFIXh1``), local ssh clients and their multiplexing master."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit() and int(d.name) != os.getpid():
            try:
                cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if f"mininet:{prefix}" in cmd or f"sdnbench-cluster-{prefix}-" in cmd:
                out.append(f"{d.name} {cmd.strip()}")
    return out


def in_netns_of(pid: int) -> set:
    """The processes in the network namespace of ``pid``."""
    ns = os.readlink(f"/proc/{pid}/ns/net")
    out = set()
    for d in Path("/proc").iterdir():
        try:
            if d.name.isdigit() and os.readlink(d / "ns" / "net") == ns:
                out.add(int(d.name))
        except OSError:
            pass
    return out


def nothing_left(rack: Rack, prefix: str, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while True:     # sshd's per-session processes take a moment to exit
        left = {n: rack.pids(n) for n in rack.names}
        left = {n: v for n, v in left.items() if v}
        if not left and not ours(prefix) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert left == {} and ours(prefix) == [] and prefix not in claims()
    for n in rack.names:
        if n not in rack.without_ovs and n not in rack.stopped:
            assert rack.ovs(n, "list-br").split() == []
        links = subprocess.run(["ip", "netns", "exec", rack.ns(n), "ip", "-o", "link"],
                               capture_output=True, text=True).stdout
        assert prefix not in links


def run_dirs() -> set:
    root = Path(remote.RUN_ROOT)
    return set(root.iterdir()) if root.exists() else set()


def claims() -> set:
    """The prefixes claimed on the rack's servers (they share this machine's /tmp)."""
    d = Path(remote.RUN_ROOT) / cluster_sweep.CLAIMS
    return {p.name for p in d.iterdir()} if d.exists() else set()


@pytest.fixture(scope="module")
def rack():
    with Rack(("a", "b")) as r:
        one = r.dir / "one.yaml"      # the same servers file without b
        one.write_text("".join(l for l in r.servers_file.read_text().splitlines(True) if "name: b" not in l))
        yield r


def measure(path: Path, rack: Rack) -> tuple:
    """pingall (every pair, 3 echoes) and iperf3 TCP h1 -> h4 (2 x 0.5 s) on linear,4 over
    ``path``'s servers."""
    before = run_dirs()
    net = ClusterNetwork(cluster_servers.load(path), parse_topology("linear,4"), ["ping", "tcp"])
    r = Result(kind="net", benchmark="ping+tcp")
    hosts = net.topology.host_names()
    with net:
        notes, placement = list(net.notes), dict(net.placement)
        ping.measure_ping(net, r, [(a, b, None) for i, a in enumerate(hosts) for b in hosts[i + 1:]],
                          [64], 3, 0.05, 0)
        iperf.measure_iperf(net, r, [("h1", "h4", None)], iperf.IperfOptions(duration=1, interval=0.5), False, 0)
    nothing_left(rack, net.prefix)
    assert run_dirs() == before
    return r, notes, placement


def test_linear4_over_two_servers_pingall_and_iperf3_against_one_server(rack, capsys):
    two, notes, placement = measure(rack.servers_file, rack)
    assert notes == ["cluster backend (vxlan tunnels, blocks placement): a: s1 s2 h1 h2; "
                     "b: s3 s4 h3 h4; 1 link crosses servers"]
    assert placement["h1"] == "a" and placement["h4"] == "b"       # iperf3 crosses the tunnel
    one, notes1, _ = measure(rack.dir / "one.yaml", rack)
    assert notes1[0].endswith("a: s1 s2 s3 s4 h1 h2 h3 h4; 0 links cross servers")
    figures = {}
    for name, r in (("two servers", two), ("one server", one)):
        rtts = r.find("rtt")
        assert len(rtts) == 6 and all(len(s.values) == 3 and None not in s.values for s in rtts)   # pingall
        tcp = r.find("tcp_throughput", src="h1", dst="h4")[0].values
        assert len(tcp) == 2 and min(tcp) > 10         # Mbit/s, through a VXLAN tunnel or not
        h14 = sorted(r.find("rtt", src="h1", dst="h4")[0].values[1:])     # after ARP / learning
        figures[name] = (h14, sum(tcp) / len(tcp))
    with capsys.disabled():
        for name, (rtt, tcp) in figures.items():
            print(f"\nlinear,4 on {name}: h1->h4 RTT {', '.join(f'{v:.3f}' for v in rtt)} ms; "
                  f"iperf3 TCP h1->h4 {tcp:.0f} Mbit/s")


DRIVER = """
import sys
from sdnbench import proc
from sdnbench.net import iperf
from sdnbench.net.backends import cluster_servers
from sdnbench.net.backends.cluster import ClusterNetwork
from sdnbench.net.topology import parse_topology
from sdnbench.result import Result
with proc.signals_as_exceptions():
    net = ClusterNetwork(cluster_servers.load(sys.argv[1]), parse_topology("single,2"), ["tcp"])
    with net:
        print(net.prefix, net._net.get(net._real["h1"]).pid, flush=True)
        iperf.measure_iperf(net, Result(kind="net", benchmark="tcp"), [("h1", "h2", None)],
                            iperf.IperfOptions(duration=30, interval=1), False, 0)
"""


def _started(p: subprocess.Popen) -> list:
    """The driver's first line (the run's prefix, h1's shell PID), or why it ended without one."""
    line = p.stdout.readline().split()
    if len(line) != 2:
        _out, err = p.communicate(timeout=30)
        pytest.fail(f"the driver ended (exit {p.returncode}) before its network was up:\n{err[-2000:]}")
    return line


def test_ctrl_c_in_the_middle_of_iperf3_leaves_nothing(rack):
    before = run_dirs()
    p = subprocess.Popen([sys.executable, "-c", DRIVER, str(rack.dir / "one.yaml")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with reaped(p):
        prefix, h1 = _started(p)
        in_h1 = set()
        deadline = time.monotonic() + 20
        while not any("iperf3 -c" in (Path(f"/proc/{q}/cmdline").read_text(errors="replace").replace("\0", " ")
                                      if Path(f"/proc/{q}").exists() else "") for q in in_h1):
            assert p.poll() is None and time.monotonic() < deadline, "iperf3 client never started"
            time.sleep(0.05)
            in_h1 = in_netns_of(int(h1))
        err = signalled(p, signal.SIGINT, 30)
    assert p.returncode != 0 and "Interrupted" in err, err[-500:]
    nothing_left(rack, prefix)
    assert [q for q in in_h1 if Path(f"/proc/{q}").exists()] == []     # shell, iperf3 -c: gone
    assert run_dirs() == before


def test_a_killed_run_is_swept_by_the_next_one(rack):
    """SIGKILL leaves no chance to clean up: the local ssh clients die with sdnbench (their remote
    shells end), the bridges and the measured processes stay on the server; the next run's check
    on that server removes them, its multiplexing master and its local directory."""
    before = run_dirs()
    p = subprocess.Popen([sys.executable, "-c", DRIVER, str(rack.dir / "one.yaml")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        prefix, h1 = _started(p)
        deadline = time.monotonic() + 20
        while not any("iperf3 -c" in l for l in rack.pids("a") + [_cmd(q) for q in in_netns_of(int(h1))]):
            assert p.poll() is None and time.monotonic() < deadline, "iperf3 client never started"
            time.sleep(0.05)
    finally:
        p.kill()
        p.communicate()
    assert rack.ovs("a", "list-br").split() == [f"{prefix}s1"] and prefix in claims()
    assert len([d for d in run_dirs() - before if d.name != cluster_sweep.CLAIMS]) == 1
    net = ClusterNetwork(cluster_servers.load(rack.dir / "one.yaml"), parse_topology("single,2"), ["ping"])
    try:
        net.check()
    finally:
        net._close_sessions()
    assert f"removed what a killed sdnbench run ({prefix}) left on server a" in net.notes
    nothing_left(rack, prefix)
    assert run_dirs() == before


def test_two_runs_on_the_same_servers_never_share_a_prefix(rack):
    """The second run draws the first's prefix (forced here) and takes another; each releases
    only its own claim."""
    path = rack.dir / "one.yaml"
    first = ClusterNetwork(cluster_servers.load(path), parse_topology("single,2"), ["ping"]).check()
    second = ClusterNetwork(cluster_servers.load(path), parse_topology("single,2"), ["ping"])
    try:
        second.prefix = first.prefix
        second.check()
        assert second.prefix != first.prefix and claims() == {first.prefix, second.prefix}
    finally:
        second._close_sessions()
        assert claims() == {first.prefix}
        first._close_sessions()
    assert claims() == set() and not (Path(remote.RUN_ROOT) / cluster_sweep.CLAIMS).exists()


def _cmd(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


@pytest.fixture(scope="module")
def broken_rack():
    """x has no sshd; y runs no Open vSwitch; z lacks mnexec on its PATH."""
    with Rack(("a", "x", "y", "z"), stopped=("x",), without_ovs=("y",)) as r:
        bin_dir = r.dir / "bin-z"
        bin_dir.mkdir()
        for tool in ("sh", "bash", "setsid", "env", "kill", "cat", "mkdir", "tail", "ip", "ethtool",
                     "sysctl", "ovs-vsctl", "ovs-ofctl", "ping", "head"):
            (bin_dir / tool).symlink_to(subprocess.run(["sh", "-c", f"command -v {tool}"], capture_output=True,
                                                       text=True).stdout.strip())
        r.servers_file.write_text(r.servers_file.read_text().replace("name: z,", f"name: z, path: {bin_dir},"))
        yield r


def _only(rack: Rack, *names: str) -> Path:
    path = rack.dir / f"{'-'.join(names)}.yaml"
    path.write_text("".join(l for l in rack.servers_file.read_text().splitlines(True)
                            if "name:" not in l or any(f"name: {n}," in l for n in names)))
    return path


def _bad(rack: Rack, path: Path) -> str:
    net = ClusterNetwork(cluster_servers.load(path), parse_topology("linear,2"), ["ping"])
    with pytest.raises(UserError) as e:
        with net:
            pass
    msg = str(e.value)
    assert "\n" not in msg
    nothing_left(rack, net.prefix)
    return msg


def test_unreachable_server_is_one_line_naming_it(broken_rack):
    assert _bad(broken_rack, _only(broken_rack, "a", "x")) == \
        f"server x (root@{broken_rack.ip(2)}:22): cannot connect: connection refused"


def test_server_without_open_vswitch_is_one_line_naming_it(broken_rack):
    msg = _bad(broken_rack, _only(broken_rack, "a", "y"))
    assert msg.startswith(f"server y (root@{broken_rack.ip(3)}:22): Open vSwitch is not running (")


def test_server_without_mininet_is_one_line_naming_it(broken_rack):
    msg = _bad(broken_rack, _only(broken_rack, "z", "a"))
    assert msg == (f"server z (root@{broken_rack.ip(4)}:22): mnexec not found on "
                   f"PATH={broken_rack.dir}/bin-z (Mininet is not installed)")


def test_net_run_refuses_in_one_line_before_anything_starts(broken_rack, capsys):
    from sdnbench.cli import main

    rc = main(["net", "run", "--topo", "linear,2", "--controller", "standalone",
               "--backend", f"cluster:{_only(broken_rack, 'a', 'x')}"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 1 and len(err) == 1 and "server x (root@" in err[0] and "connection refused" in err[0]
    rc = main(["net", "run", "--topo", "linear,2", "--controller", "osken:learning",
               "--backend", f"cluster:{broken_rack.servers_file}"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 1 and len(err) == 1 and "would listen on this machine's loopback" in err[0]


def test_gre_tunnels_are_checked_on_each_server(rack):
    """cluster.py's GRE links need gretap devices (ip_gre); where the kernel has none, as here,
    the check says so in one line naming the server and the alternative."""
    gre = rack.dir / "gre.yaml"
    gre.write_text(rack.servers_file.read_text() + "tunnel: gre\n")
    probe = subprocess.run(["ip", "netns", "exec", rack.ns("a"), "ip", "link", "add", "name", "grecheck",
                            "type", "gretap", "local", rack.ip(1), "remote", rack.ip(2)],
                           capture_output=True, text=True)
    net = ClusterNetwork(cluster_servers.load(gre), parse_topology("linear,2"), ["ping"])
    if probe.returncode == 0:
        subprocess.run(["ip", "netns", "exec", rack.ns("a"), "ip", "link", "del", "grecheck"])
        net.check()
        net._close_sessions()
    else:
        with pytest.raises(UserError) as e:
            net.check()
        assert str(e.value) == (f"server a (root@{rack.ip(1)}:22): cannot make gre tunnels "
                                f"({probe.stderr.strip()}); try tunnel: vxlan")


def test_switches_on_a_server_connect_to_a_controller_on_the_lan(rack):
    """--controller tcp:ADDR:PORT: the bridges are secure and point at ADDR; entering waits until
    every one is connected (ovs-testcontroller, a learning switch, on this machine's LAN address)."""
    port = 16653
    ctl = subprocess.Popen(["ovs-testcontroller", f"ptcp:{port}:{rack.lan_ip}"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        net = ClusterNetwork(cluster_servers.load(rack.dir / "one.yaml"), parse_topology("linear,2"), ["ping"],
                             controller=(rack.lan_ip, port))
        with net:
            assert rack.ovs("a", "get-fail-mode", f"{net.prefix}s1").strip() == "secure"
            assert rack.ovs("a", "get-controller", f"{net.prefix}s2").strip() == f"tcp:{rack.lan_ip}:{port}"
            cp = net.run_in("h1", ["ping", "-c", "2", "-i", "0.1", net.host_ip("h2")], 10)
            assert cp.returncode == 0, cp.stdout + cp.stderr
        nothing_left(rack, net.prefix)
    finally:
        os.killpg(ctl.pid, signal.SIGTERM)
        ctl.wait(timeout=10)
