"""Integration tests on real Mininet + Open vSwitch: every topology kind passes traffic, the
measurements read plausible values, loss emulation measures what was asked, first packets are
slower than the next ones, and delay is refused where netem is missing.

Kept small (2-5 hosts, 2-3 s tests) so the suite stays fast; nothing here is timed.
"""

import os
import shutil
import statistics
import textwrap

import pytest

from sdnbench import doctor
from sdnbench.errors import UserError
from sdnbench.net import ditg, iperf, stale
from sdnbench.net.backends.mininet_network import MininetNetwork
from sdnbench.net.links import parse_link
from sdnbench.net.runner import run_net
from sdnbench.net.topology import parse_topology
from sdnbench.proc import signals_as_exceptions
from sdnbench.result import Result

pytestmark = pytest.mark.integration


def assert_nothing_left(prefix: str) -> None:
    lo = stale.survey(prefix)[prefix]
    assert lo.empty(), f"left behind: {lo}"
    assert prefix not in stale.read_claims()
    assert not (stale.claims_dir() / f"{prefix}.d").exists()


def ping_ok(net, src: str, dst: str) -> bool:
    cp = net.run_in(src, ["ping", "-n", "-c", "2", "-i", "0.1", "-W", "2", net.host_ip(dst)], timeout=15)
    return cp.returncode == 0


YAML_TOPO = """
switches: [core, {name: edge, dpid: 0x2a}]
hosts: [alice, bob]
links:
  - [alice, core]
  - [bob, edge]
  - [core, edge]
"""

MININET_TOPO = """
from mininet.topo import Topo

class Line(Topo):
    def build(self, n=2):
        prev = None
        for i in range(1, n + 1):
            s = self.addSwitch(f"sw{i}")
            self.addLink(self.addHost(f"host{i}"), s)
            if prev:
                self.addLink(prev, s)
            prev = s

topos = {"line": Line}
"""


@pytest.fixture
def topo_file(tmp_path):
    def make(kind: str) -> str:
        if kind == "yaml":
            f = tmp_path / "two.yaml"
            f.write_text(YAML_TOPO)
            return str(f)
        f = tmp_path / "line.py"
        f.write_text(textwrap.dedent(MININET_TOPO))
        return f"{f}:line,3"
    return make


@pytest.mark.parametrize("spec", ["single,3", "linear,3", "tree,2,2", "star,3,1",
                                  "leafspine,2,2,1", "yaml", "mininet-py"])
def test_each_topology_kind_builds_and_passes_traffic(spec, topo_file):
    if spec == "yaml":
        spec = topo_file("yaml")
    elif spec == "mininet-py":
        spec = topo_file("py")
    topo = parse_topology(spec)
    with signals_as_exceptions(), MininetNetwork(topo, controller=None) as net:
        hosts = topo.host_names()
        assert ping_ok(net, hosts[0], hosts[-1])
        assert ping_ok(net, hosts[-1], hosts[1])
        # the logical names stay logical; real names carry the run prefix
        assert net.bridge(topo.switch_names()[0]).startswith(net.prefix)
        prefix = net.prefix
    assert_nothing_left(prefix)


@pytest.fixture(scope="module")
def fast_ethernet():
    """single,2 on 100 Mbit/s links, standalone, shared by the plausibility tests."""
    topo = parse_topology("single,2")
    with signals_as_exceptions(), MininetNetwork(topo, controller=None,
                                                 link=parse_link("fast-ethernet")) as net:
        yield net
    assert_nothing_left(net.prefix)


def test_no_host_ever_sent_an_ipv6_packet(fast_ethernet):
    """IPv6 goes off in a host's namespace before its interface exists: the kernel's MLD reports
    and neighbour solicitations (two per host when it went off after start) never reach a
    switch, where a learning controller would learn the host's MAC before any experiment."""
    for h in ("h1", "h2"):
        cp = fast_ethernet.run_in(h, ["cat", "/proc/net/snmp6"], timeout=10)
        counters = dict(line.split() for line in cp.stdout.splitlines() if line.strip())
        sent = {k: int(counters[k]) for k in ("Ip6OutRequests", "Ip6OutMcastPkts", "Icmp6OutMsgs")}
        assert sent == dict.fromkeys(sent, 0), (h, sent)


# The userspace datapath is a process: when other jobs starve it of CPU (two cores, shared),
# its packet sockets overflow and a test reads low for reasons that are not the network's. The
# two "Done means" figures are therefore checked on the best of up to three runs, each of which
# keeps its raw samples; a network that cannot do it fails all three.
TRIES = 3


def best_of(tries: int, run, good) -> list:
    seen = []
    for _ in range(tries):
        seen.append(run())
        if good(seen[-1]):
            break
    return seen


def test_tcp_on_fast_ethernet_reads_85_to_100_mbit(fast_ethernet):
    def run():
        r = Result(kind="net", benchmark="tcp")
        iperf.measure_iperf(fast_ethernet, r, [("h1", "h2", None)],
                            iperf.IperfOptions(duration=3, interval=0.5), udp=False, rep=0)
        samples = r.find("tcp_throughput")[0].values
        assert len(samples) >= 5
        return statistics.fmean(samples)

    means = best_of(TRIES, run, lambda m: 85 <= m <= 100)
    assert 85 <= means[-1] <= 100, means
    assert all(m <= 100 for m in means), means           # the 100 Mbit/s shaping always holds


def test_udp_at_50_mbit_loses_under_one_percent(fast_ethernet):
    def run():
        r = Result(kind="net", benchmark="udp")
        iperf.measure_iperf(fast_ethernet, r, [("h1", "h2", None)],
                            iperf.IperfOptions(duration=3, interval=0.5, udp_rate="50M",
                                               udp_length=1470), udp=True, rep=0)
        lost, sent = sum(r.find("udp_lost")[0].values), sum(r.find("udp_packets")[0].values)
        assert sent > 10_000                       # the sender kept its 50 Mbit/s pace
        rate = statistics.fmean(r.find("udp_throughput")[0].values[:-1])
        return lost / sent, rate, max(r.find("udp_jitter")[0].values)

    def good(x) -> bool:
        loss, rate, jitter = x
        return loss < 0.01 and 45 <= rate <= 55 and jitter < 10

    runs = best_of(TRIES, run, good)
    assert good(runs[-1]), runs


def test_tcp_reverse_with_parallel_streams_shares_the_link(fast_ethernet):
    r = Result(kind="net", benchmark="tcp")
    iperf.measure_iperf(fast_ethernet, r, [("h1", "h2", None)],
                        iperf.IperfOptions(duration=2, interval=0.5, parallel=2, reverse=True,
                                           window="256K"), udp=False, rep=0)
    samples = r.find("tcp_throughput")[0].values
    assert 70 <= statistics.fmean(samples) <= 100, samples      # two streams, one 100 Mbit/s link


def test_udp_datagrams_above_the_mss_keep_iperf3s_warning(fast_ethernet):
    r = Result(kind="net", benchmark="udp")
    iperf.measure_iperf(fast_ethernet, r, [("h1", "h2", None)],
                        iperf.IperfOptions(duration=1, interval=0.5, udp_rate="5M", udp_length=8000),
                        udp=True, rep=0)
    assert any("warning" in n and "MSS" in n for n in r.notes), r.notes
    assert sum(r.find("udp_packets")[0].values) > 50


def test_ditg_round_trip_is_plausible(fast_ethernet):
    r = Result(kind="net", benchmark="ditg")
    opts = ditg.DitgOptions(size=512, rate=100, duration_ms=2000, interval_ms=500)
    ditg.measure_ditg(fast_ethernet, r, [("h1", "h2", None)], opts, 0, fast_ethernet.workdir)
    delays = r.find("ditg_delay")[0].values
    assert 180 <= len(delays) <= 210                      # 100 pkt/s for 2 s, every packet kept
    assert 0 < statistics.median(delays) < 20             # ms, round trip through one switch
    assert r.find("ditg_loss")[0].values[0] < 2
    # 512 B at 100 pkt/s is 409.6 kbit/s
    assert r.find("ditg_avg_bitrate")[0].values[0] == pytest.approx(409.6, rel=0.1)


def test_ditg_one_way_tcp(fast_ethernet):
    r = Result(kind="net", benchmark="ditg")
    opts = ditg.DitgOptions(protocol="TCP", size=256, rate=50, duration_ms=1000, meter="owdm",
                            interval_ms=500)
    ditg.measure_ditg(fast_ethernet, r, [("h2", "h1", None)], opts, 0, fast_ethernet.workdir)
    delays = r.find("ditg_delay")[0].values
    assert 40 <= len(delays) <= 60 and 0 < statistics.median(delays) < 20


def test_ping_rtts_per_size(fast_ethernet):
    from sdnbench.net.ping import measure_ping
    r = Result(kind="net", benchmark="ping")
    measure_ping(fast_ethernet, r, [("h1", "h2", None)], [64, 1472, 8192], 4, 0.05, 0)
    for s in r.find("rtt"):
        assert len(s.values) == 4 and None not in s.values
        assert all(0 < v < 50 for v in s.values)
    assert {s.labels["size"] for s in r.find("rtt")} == {64, 1472, 8192}


LOSSY = """
switches: [s1]
hosts: [h1, h2]
links:
  - [h1, s1]
  - {a: h2, b: s1, loss: 5}
"""


def test_nftables_loss_of_5_percent_measures_3_to_7(tmp_path):
    f = tmp_path / "lossy.yaml"
    f.write_text(LOSSY)
    topo = parse_topology(str(f))
    with signals_as_exceptions(), MininetNetwork(topo, controller=None, loss_backend="nftables") as net:
        assert net.info["loss_backend"] == "nftables"
        # Resolve ARP first: a lost ARP request or reply would hold h1's datagrams for a second
        # and overflow its neighbour queue, which is loss, but not the link loss under test.
        assert ping_ok(net, "h1", "h2") or ping_ok(net, "h1", "h2")

        def run() -> float:
            r = Result(kind="net", benchmark="udp")
            # h1 -> h2 crosses the lossy link once (s1's port towards h2 drops 5% of what it
            # sends); 2000 datagrams: binomial sd 0.5%, so 3-7% is +-4 sd.
            iperf.measure_iperf(net, r, [("h1", "h2", None)],
                                iperf.IperfOptions(duration=4, interval=1, udp_rate="4M", udp_length=1000),
                                udp=True, rep=0)
            lost, sent = sum(r.find("udp_lost")[0].values), sum(r.find("udp_packets")[0].values)
            assert sent >= 1900
            return 100 * lost / sent

        losses = best_of(TRIES, run, lambda pct: 3.0 <= pct <= 7.0)
        prefix = net.prefix
    assert 3.0 <= losses[-1] <= 7.0, losses
    assert all(pct >= 3.0 for pct in losses), losses     # never less than what was asked
    assert_nothing_left(prefix)


def test_first_packet_is_slower_than_the_next_ones():
    r = run_net({"topo": "linear,2", "controller": "osken:learning", "measurements": ["first-packet"],
                 "first_packet": {"count": 15, "interval": 0.1}})
    assert r.status == "ok", r.error
    firsts = r.find("first_packet_time")
    assert {s.labels["switch"] for s in firsts} == {"s1", "s2"}
    for s in firsts:
        nxt = [v for v in r.find("next_packet_time", switch=s.labels["switch"])[0].values if v is not None]
        assert len(nxt) >= 10
        assert s.values[0] is not None and s.values[0] > statistics.median(nxt), (s.values, nxt)
    assert r.controller["spec"] == "osken:learning"
    assert any(x.metric == "cpu_percent" for x in r.resources)
    assert_nothing_left(r.topology["prefix"])


def test_cpqd_user_switch_forwards_and_measures_first_packets():
    from sdnbench.install import with_installed_path
    if not shutil.which("ofdatapath", path=with_installed_path(os.environ["PATH"])):
        pytest.skip("needs CPqD ofsoftswitch13 (ofdatapath, ofprotocol): `sdnbench install cpqd --from DIR`")
    r = run_net({"topo": "linear,2", "controller": "ryu:simple_switch_13", "of": "1.3", "switch": "user",
                 "measurements": ["first-packet"], "first_packet": {"count": 10, "interval": 0.1}})
    assert r.status == "ok", r.error
    assert r.topology["switch"] == "user"
    firsts = r.find("first_packet_time")
    assert {s.labels["switch"] for s in firsts} == {"s1", "s2"} and all(s.values[0] for s in firsts)
    assert_nothing_left(r.topology["prefix"])
    prefix = r.topology["prefix"]
    assert not [p for p in os.listdir("/tmp") if p.startswith(f"{prefix}s") and p.endswith(".log")]


def test_delay_is_refused_before_anything_is_built_when_netem_is_missing():
    netem = doctor.require("tc")["tc"].data["qdiscs"]["netem"]
    topo = parse_topology("single,2")
    before = set(stale.read_claims())
    if netem:
        with MininetNetwork(topo, controller=None, link=parse_link("delay=5")) as net:
            assert ping_ok(net, "h1", "h2")
        return
    with pytest.raises(UserError) as e:
        with MininetNetwork(topo, controller=None, link=parse_link("bw=10,delay=5,jitter=1")):
            pass
    msg = str(e.value)
    assert "netem" in msg and "delay and jitter" in msg and "nftables" in msg
    assert "\n" not in msg
    assert set(stale.read_claims()) == before      # no prefix was even claimed


PER_SWITCH_OF = """
switches: [s1, {name: s2, protocols: OpenFlow10}]
hosts: [h1, h2]
links: [[h1, s1], [h2, s2], [s1, s2]]
"""


def test_openflow_version_per_switch(tmp_path):
    import subprocess
    f = tmp_path / "of.yaml"
    f.write_text(PER_SWITCH_OF)
    with signals_as_exceptions(), MininetNetwork(parse_topology(str(f)), controller=None,
                                                 protocols="OpenFlow13") as net:
        def protocols(sw):
            return subprocess.run(["ovs-vsctl", "get", "bridge", net.bridge(sw), "protocols"],
                                  capture_output=True, text=True, check=True).stdout.strip()
        assert protocols("s1") == "[OpenFlow13]" and protocols("s2") == "[OpenFlow10]"
        assert ping_ok(net, "h1", "h2")


def test_wifi_g_profile_is_shaped_lossy_and_says_it_is_an_approximation():
    import subprocess
    r = run_net({"topo": "single,2", "controller": "standalone", "link": "wifi-g",
                 "measurements": ["ping"], "ping": {"sizes": [64], "count": 3, "interval": 0.05}})
    assert r.status == "ok", r.error
    assert any("802.11g-like approximation" in n for n in r.notes)
    assert any("nftables" in n for n in r.notes) or doctor.require("tc")["tc"].data["qdiscs"]["netem"]
    assert all(l["params"]["bw_mbit"] == 22 for l in r.topology["links"])
    # the queue length and rate are really installed (htb + pfifo) while a network runs
    with signals_as_exceptions(), MininetNetwork(parse_topology("single,2"), controller=None,
                                                 link=parse_link("wifi-g")) as net:
        port = net.port_towards("s1", "h1").intf
        qd = subprocess.run(["tc", "qdisc", "show", "dev", port], capture_output=True, text=True).stdout
        assert "htb" in qd and "limit 100" in qd
        cls = subprocess.run(["tc", "class", "show", "dev", port], capture_output=True, text=True).stdout
        assert "rate 22Mbit" in cls


@pytest.mark.parametrize("kw, words", [
    ({"switch": "user"}, "ofsoftswitch13"),
    ({"datapath": "kernel"}, "kernel module"),
])
def test_unavailable_switches_are_refused_clearly(kw, words):
    ovs = doctor.require("ovs")["ovs"].data
    from sdnbench.install import with_installed_path
    if kw.get("switch") == "user" and shutil.which("ofdatapath", path=with_installed_path(os.environ["PATH"])):
        words = "no standalone mode"      # installed here: it needs a controller (test_cpqd_user_switch_*)
    if kw.get("datapath") == "kernel" and ovs["kernel_module"]:
        words = None
    before = set(stale.read_claims())
    if words is None:
        with MininetNetwork(parse_topology("single,2"), controller=None, **kw) as net:
            assert ping_ok(net, "h1", "h2")
        return
    with pytest.raises(UserError, match=words):
        with MininetNetwork(parse_topology("single,2"), controller=None, **kw):
            pass
    assert set(stale.read_claims()) == before
