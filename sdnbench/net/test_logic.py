"""Unit tests: first-packet matching and paths, summary rows, link-shaping commands, prefixes."""

import os

import pytest

from sdnbench.errors import UserError
from sdnbench.net import first_packet, mininet_common, stale, summary
from sdnbench.net.backends import mininet_network as backend
from sdnbench.net.links import LinkParams
from sdnbench.net.pcap import Echo
from sdnbench.net.topology import Host, parse_topology
from sdnbench.result import Result


def test_path_hops_through_the_star_centre():
    t = parse_topology("star,3,1")
    assert first_packet.path_hops(t, "h2", "h3") == [("s2", "h2", "s1"), ("s1", "s2", "s3"),
                                                     ("s3", "s1", "h3")]
    assert first_packet.path_hops(t, "h1", "h2") == [("s1", "h1", "s2"), ("s2", "s1", "h2")]


def test_path_never_runs_through_a_host():
    t = parse_topology("single,3")
    assert first_packet.path_hops(t, "h1", "h3") == [("s1", "h1", "h3")]


def test_match_service_times_by_icmp_id_and_seq():
    a, b = "10.0.0.1", "10.0.0.2"
    ins = [Echo(1000, a, b, 8, 5, 1), Echo(5000, a, b, 8, 5, 2), Echo(6000, b, a, 0, 5, 1),
           Echo(9000, a, b, 8, 5, 3)]
    outs = [Echo(4000, a, b, 8, 5, 1), Echo(5100, a, b, 8, 5, 2), Echo(4100, a, b, 8, 5, 2)]
    # seq 2 appears twice on the egress port: the first sighting counts; seq 3 never left
    assert first_packet.match_service_times(ins, outs, a, b, 3) == [3000, 100, None]


def test_summary_pools_repetitions_and_counts_losses():
    r = Result(kind="net", benchmark="ping")
    r.add("rtt", "ms", [1.0, None, 3.0], src="h1", dst="h2", size=64, rep=0)
    r.add("rtt", "ms", [2.0], src="h1", dst="h2", size=64, rep=1)
    r.add("tcp_throughput", "Mbit/s", [90.0, 94.0], src="h1", dst="h2", rep=0)
    r.add("something_else", "x", [1], src="h1", dst="h2")
    rows = summary.rows(r)
    assert rows[0][:6] == ("ping RTT (ms)", "h1-h2", "-", 64, 3, 1)
    assert rows[0][6] == pytest.approx(2.0) and rows[0][8] == pytest.approx(1.0)
    assert rows[1][0] == "TCP (Mbit/s)" and rows[1][6] == pytest.approx(92.0)
    assert len(rows) == 2


def test_tc_commands_without_netem_use_htb_and_pfifo():
    cmds = backend._tc_commands("x-eth0", LinkParams(bw_mbit=100, queue_pkts=50, loss_pct=5),
                                netem=False, loss_via_nft=True)
    assert cmds == ["qdisc replace dev x-eth0 root handle 5: htb default 1",
                    "class add dev x-eth0 parent 5: classid 5:1 htb rate 100mbit burst 15k",
                    "qdisc add dev x-eth0 parent 5:1 handle 10: pfifo limit 50"]
    assert backend._tc_commands("y", LinkParams(queue_pkts=9), False, False) == \
        ["qdisc replace dev y root handle 10: pfifo limit 9"]
    with_netem = backend._tc_commands("z", LinkParams(delay_ms=10, jitter_ms=2, loss_pct=1), True, False)
    assert with_netem == ["qdisc add dev z root handle 10: netem delay 10ms 2ms loss 1%"]


def test_nft_loss_rule_resolution():
    text = backend._nft_root("sdnbench_sbab", [("sbabs1-eth1", 5.0), ("sbabs1-eth2", 0.25)])
    assert 'device "sbabs1-eth1"' in text and "mod 1000000 < 50000 counter drop" in text
    assert "< 2500 counter drop" in text and "hook egress" in text


def test_addresses_are_deterministic():
    assert mininet_common.host_addresses(Host("h1"), 1) == ("10.0.0.1/8", "00:00:00:00:00:01")
    assert mininet_common.host_addresses(Host("h9"), 300) == ("10.0.1.44/8", "00:00:00:00:01:2c")
    own = Host("h2", ip="192.168.5.2", mac="02:00:00:00:00:02")
    assert mininet_common.host_addresses(own, 2) == ("192.168.5.2/8", "02:00:00:00:00:02")
    assert mininet_common.host_addresses(Host("h3", ip="192.168.5.3/24"), 3)[0] == "192.168.5.3/24"


def test_prefix_claims_are_exclusive_and_released(tmp_path, monkeypatch):
    monkeypatch.setenv("SDNBENCH_HOME", str(tmp_path))
    monkeypatch.setattr(stale, "existing_prefixes", lambda: set())
    a = stale.claim_prefix()
    b = stale.claim_prefix()
    assert a != b and stale.PREFIX_RE.match(a)
    claims = stale.read_claims()
    assert claims[a]["pid"] == os.getpid() and stale.owner_alive(claims[a])
    assert not stale.owner_alive({"pid": claims[a]["pid"], "start": "0"})
    stale.release_prefix(a)
    assert a not in stale.read_claims() and b in stale.read_claims()


def test_real_names_fit_linux_interface_names():
    # prefix (4) + s + index + -eth + port: star,10,4's centre has 4 hosts + 9 switch ports
    assert len("sbab" + "s10" + "-eth13") <= mininet_common.IFNAMSIZ
    mininet_common.check_names_fit(parse_topology("star,10,4"), 6)     # 15 characters: fits
    with pytest.raises(UserError, match="^topology star,10,4 is too large: interface names would exceed 15"):
        mininet_common.check_names_fit(parse_topology("star,10,4"), 7)
    assert stale.NAME_RE.match("sbk3s10-eth2").group(1) == "sbk3"
    assert not stale.NAME_RE.match("s1-eth1")
