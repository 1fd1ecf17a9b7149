"""Unit tests: topology specs, builders, YAML/GraphML/Mininet Topo files, ports, link parameters."""

import textwrap

import pytest

from sdnbench.errors import UserError
from sdnbench.net.links import PROFILES, LinkParams, parse_link
from sdnbench.net.topology import parse_topology


def test_single():
    t = parse_topology("single,3")
    assert t.switch_names() == ["s1"]
    assert t.host_names() == ["h1", "h2", "h3"]
    assert all(t.switch_of(h) == "s1" for h in t.host_names())


def test_linear_with_hosts_per_switch():
    t = parse_topology("linear,3,2")
    assert t.switch_names() == ["s1", "s2", "s3"]
    assert t.hosts_on("s2") == ["h3", "h4"]
    assert [(l.a, l.b) for l in t.switch_links()] == [("s1", "s2"), ("s2", "s3")]
    assert not t.has_loop()


def test_tree_numbers_like_mininet():
    t = parse_topology("tree,2,2")
    # pre-order: s1 is the root, s2 and s3 its children; hosts at the leaves in order
    assert t.switch_names() == ["s1", "s2", "s3"]
    assert t.hosts_on("s2") == ["h1", "h2"] and t.hosts_on("s3") == ["h3", "h4"]
    assert len(parse_topology("tree,3,3").hosts) == 27


def test_star_is_the_campus_layout():
    t = parse_topology("star,10,4")
    assert len(t.switches) == 10 and len(t.hosts) == 40
    assert all(l.b == "s1" for l in t.switch_links())
    assert all(len(t.hosts_on(s)) == 4 for s in t.switch_names())
    assert t.switches[0].role == "centre"


def test_leafspine_has_loops_when_more_than_one_spine():
    t = parse_topology("leafspine,3,2,2")
    assert [s.role for s in t.switches] == ["leaf"] * 3 + ["spine"] * 2
    assert len(t.switch_links()) == 6 and len(t.hosts) == 6
    assert t.has_loop()
    assert not parse_topology("leafspine,3,1,1").has_loop()


def test_dpids_are_explicit_and_unique():
    t = parse_topology("star,4,1")
    assert [s.dpid for s in t.switches] == [1, 2, 3, 4]


@pytest.mark.parametrize("spec, words", [
    ("", "empty topology"),
    ("torus,4", "unknown topology 'torus'"),
    ("ring,2", "at least 3"),
    ("fattree,3", "K must be even"),
    ("random,10,0.0,1", "probability"),
    ("random,10,x,1", "whole numbers"),
    ("mesh,250", "links; at most"),
    ("fattree,20", "nodes; at most"),
    ("tree,2", "expected tree,DEPTH,FANOUT"),
    ("star,a,2", "whole numbers"),
    ("single,0", "at least 1"),
    ("tree,12,4", "at most"),
])
def test_bad_specs_are_one_line_user_errors(spec, words):
    with pytest.raises(UserError, match=words):
        parse_topology(spec)


def test_yaml_file(tmp_path):
    f = tmp_path / "t.yaml"
    f.write_text(textwrap.dedent("""
        link: fast-ethernet
        switches: [s1, {name: s2, dpid: "0x2a", protocols: OpenFlow10}]
        hosts: [h1, {name: h2, ip: 10.0.0.9/8}]
        links:
          - [h1, s1]
          - {a: h2, b: s2, loss: 5, bw: 10}
          - [s1, s2]
    """))
    t = parse_topology(str(f))
    assert t.switches[1].dpid == 42 and t.switches[1].protocols == "OpenFlow10"
    assert t.hosts[1].ip == "10.0.0.9/8"
    assert t.links[0].params == PROFILES["fast-ethernet"]
    assert t.links[1].params == LinkParams(bw_mbit=10, loss_pct=5)


@pytest.mark.parametrize("text, words", [
    ("switches: [s1]\nhosts: [h1]\nlinks: [[h1, s9]]", "unknown node 's9'"),
    ("switches: [s1, s1]", "defined twice"),
    ("switches: [s1]\nbogus: 1", "unknown key"),
    ("switches: [s1]\nlinks: [[s1]]", "a link must be"),
    ("[1, 2", "not valid YAML"),
])
def test_yaml_errors(tmp_path, text, words):
    f = tmp_path / "t.yaml"
    f.write_text(text)
    with pytest.raises(UserError, match=words):
        parse_topology(str(f))


def test_mininet_custom_file(tmp_path):
    f = tmp_path / "mytopo.py"
    f.write_text(textwrap.dedent("""
        from mininet.topo import Topo

        class Pair(Topo):
            def build(self, n=2):
                s = self.addSwitch("sw1", dpid="00000000000000a1")
                for i in range(n):
                    self.addLink(self.addHost(f"host{i}"), s, bw=10, loss=1)

        topos = {"pair": Pair}
    """))
    t = parse_topology(f"{f}:pair,3")
    assert t.switch_names() == ["sw1"] and t.switches[0].dpid == 0xA1
    assert t.host_names() == ["host0", "host1", "host2"]
    assert t.links[0].params == LinkParams(bw_mbit=10, loss_pct=1)
    with pytest.raises(UserError, match="no topology 'nope'"):
        parse_topology(f"{f}:nope")


def test_parse_link_profiles_and_overrides():
    assert parse_link("gigabit").bw_mbit == 1000
    assert parse_link("fast-ethernet,loss=2") == LinkParams(bw_mbit=100, loss_pct=2, profile="fast-ethernet")
    assert parse_link("bw=50,delay=10ms,queue=20") == LinkParams(bw_mbit=50, delay_ms=10, queue_pkts=20)
    assert parse_link("wifi-g").profile == "wifi-g"
    assert parse_link("delay=5,jitter=1").needs_netem() == ["delay_ms", "jitter_ms"]
    for bad, words in (("adsl", "unknown link profile"), ("bw=x", "not a number"),
                       ("loss=150", "out of range"), ("mtu=9000", "unknown link parameter")):
        with pytest.raises(UserError, match=words):
            parse_link(bad)


def test_with_link_params_keeps_links_that_have_their_own():
    t = parse_topology("single,2")
    t2 = t.with_link_params(LinkParams(bw_mbit=5))
    assert all(l.params.bw_mbit == 5 for l in t2.links)
    t3 = t2.with_link_params(LinkParams(bw_mbit=7))
    assert all(l.params.bw_mbit == 5 for l in t3.links)
    assert t.to_dict()["links"][0] == {"a": "h1", "b": "s1", "params": {}}
