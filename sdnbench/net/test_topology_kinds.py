"""Unit tests: ring/mesh/fattree/random/GraphML kinds, Mininet port numbering, the engine's
network JSON and its checks."""

import time
from pathlib import Path

import pytest

from sdnbench.errors import UserError
from sdnbench.net import engine_network as en
from sdnbench.net.topology import ENGINE_MAX_LINKS, ENGINE_MAX_NODES, parse_topology

ZOO = Path(__file__).parent / "testdata" / "zoo_tiny.graphml"


def degrees(t):
    d = {s: 0 for s in t.switch_names()}
    for l in t.switch_links():
        d[l.a] += 1
        d[l.b] += 1
    return d


def connected(t):
    adj = {s: set() for s in t.switch_names()}
    for l in t.switch_links():
        adj[l.a].add(l.b)
        adj[l.b].add(l.a)
    seen, todo = {"s1"}, ["s1"]
    while todo:
        for n in adj[todo.pop()] - seen:
            seen.add(n)
            todo.append(n)
    return len(seen) == len(adj)


def test_ring_closes_the_chain_and_has_a_loop():
    t = parse_topology("ring,5,2")
    assert len(t.switches) == 5 and len(t.hosts) == 10
    assert set(degrees(t).values()) == {2} and t.has_loop()
    assert (t.switch_links()[-1].a, t.switch_links()[-1].b) == ("s5", "s1")


def test_mesh_links_every_pair():
    t = parse_topology("mesh,5")
    assert len(t.switch_links()) == 10 and set(degrees(t).values()) == {4}


@pytest.mark.parametrize("k", [2, 4, 6])
def test_fattree_counts_and_degrees(k):
    t = parse_topology(f"fattree,{k}")
    roles = [s.role for s in t.switches]
    half = k // 2
    assert roles.count("core") == half * half
    assert roles.count("aggregation") == roles.count("edge") == k * half
    assert len(t.hosts) == k ** 3 // 4          # k/2 hosts on each of k*k/2 edge switches
    d = degrees(t)
    # every switch has k ports: core k down; aggregation k/2 up + k/2 down; edge k/2 up + k/2 hosts
    for s in t.switches:
        hosts = len(t.hosts_on(s.name))
        assert d[s.name] + hosts == k, (s, d[s.name], hosts)
    assert connected(t) and (k == 2 or t.has_loop())
    assert len(parse_topology("fattree,4,1").hosts) == 8


def test_random_is_connected_seeded_and_has_the_asked_density():
    a, b = parse_topology("random,50,4,7"), parse_topology("random,50,4,7")
    assert [(l.a, l.b) for l in a.links] == [(l.a, l.b) for l in b.links]
    assert [(l.a, l.b) for l in a.links] != [(l.a, l.b) for l in parse_topology("random,50,4,8").links]
    assert connected(a) and len(a.switch_links()) == 100       # 50 * 4 / 2
    assert len({tuple(sorted((l.a, l.b))) for l in a.switch_links()}) == 100   # no duplicates
    p = parse_topology("random,30,0.5,1,0")
    assert connected(p) and len(p.switch_links()) == round(0.5 * 30 * 29 / 2) and not p.hosts
    assert len(parse_topology("random,10,1.0,3").switch_links()) == 45
    assert not parse_topology("random,20,1,3").has_loop()       # degree 1: just the tree


def test_graphml_zoo_file_nodes_become_switches():
    t = parse_topology(f"{ZOO},2")
    assert [s.role for s in t.switches] == ["Amsterdam", "Brussels", "Paris", "Frankfurt"]
    assert [s.dpid for s in t.switches] == [1, 2, 3, 4] and len(t.hosts) == 8
    # five edges, one parallel: four links, a ring
    assert [(l.a, l.b) for l in t.switch_links()] == [("s1", "s2"), ("s2", "s3"), ("s3", "s4"), ("s4", "s1")]
    assert t.has_loop()


@pytest.mark.parametrize("text, words", [
    ('<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><graph>\n<node id="0"/>\n'
     '<edge source="0" target="7"/>\n</graph></graphml>', r"g\.graphml:3: edge names unknown node '7'"),
    ('<graphml><graph>\n<node id="0"/>\n<node id="0"/></graph></graphml>', r"g\.graphml:3: node id '0' used twice"),
    ('<graphml><graph>\n<node id="0">\n</graph>', r"g\.graphml:3: not well-formed XML"),
    ('<graphml><graph></graph></graphml>', "no nodes"),
    ('<graphml>\n<node/></graphml>', r"g\.graphml:2: <node> without an id"),
])
def test_graphml_errors_name_file_and_line(tmp_path, text, words):
    f = tmp_path / "g.graphml"
    f.write_text(text)
    with pytest.raises(UserError, match=words):
        parse_topology(str(f))
    with pytest.raises(UserError, match="no such file"):
        parse_topology(str(tmp_path / "missing.graphml"))


def test_ports_are_numbered_like_mininet():
    # linear,2,2: h1-s1, h2-s1, h3-s2, h4-s2, s1-s2: switches from 1, hosts from 0 (h1-eth0)
    assert parse_topology("linear,2,2").ports() == [(0, 1), (0, 2), (0, 1), (0, 2), (3, 3)]
    # tree,2,2 adds a child's own links before linking it to its parent (as Mininet's TreeTopo)
    assert parse_topology("tree,2,2").ports() == [(1, 0), (2, 0), (1, 3), (1, 0), (2, 0), (2, 3)]


def test_engine_network_json_for_a_ring():
    net = en.to_engine_network(parse_topology("ring,3"), link_delay_us=20)
    assert net["switches"] == [{"dpid": d, "ports": 3} for d in (1, 2, 3)]
    assert net["links"] == [[1, 2, 2, 2], [2, 3, 3, 2], [3, 3, 1, 3]]
    assert net["hosts"][0] == {"dpid": 1, "port": 1, "mac": "00:00:00:00:00:01", "ip": "10.0.0.1"}
    assert net["link_delay_us"] == 20 and net["events"] == [] and net["spec"] == "ring,3"


def test_linear_numbers_ports_as_the_engines_named_layout():
    """The engine's ``--links linear`` (crates/engine/src/config/mod.rs, ``links_for``; its unit test
    checks the same list) numbers ports as ``linear,N`` here: host on port 1, links after."""
    assert en.network_for("linear,4")["links"] == [[1, 2, 2, 2], [2, 3, 3, 2], [3, 3, 4, 2]]


def test_host_addresses_are_unique_past_a_hundred_thousand():
    assert en.host_ip(256) == "10.0.1.0" and en.host_mac(256) == "00:00:00:00:01:00"
    assert en.host_ip(100_000) == "10.1.134.160" and en.host_mac(100_000) == "00:00:00:01:86:a0"
    assert en.host_ip(en.MAX_HOSTS) == "10.255.255.254"
    with pytest.raises(UserError, match="does not fit"):
        en.host_ip(en.MAX_HOSTS + 1)


@pytest.mark.parametrize("change, words", [
    (lambda n: n["links"].append([1, 9, 2, 1]), "switch 1 has no port 9"),
    (lambda n: n["links"].append([1, 1, 2, 1]), "port 1 of switch 1 is already used by hosts|links"),
    (lambda n: n["hosts"][1].update(mac="00:00:00:00:00:01"), "MAC 00:00:00:00:00:01 already used"),
    (lambda n: n["hosts"][1].update(ip="10.0.0.1"), "IP 10.0.0.1 already used"),
    (lambda n: n["switches"].append({"dpid": 1, "ports": 1}), "dpid 1 used twice"),
    (lambda n: n["links"].append([1, 1, 77, 1]), "no switch with dpid 77"),
])
def test_engine_network_check_names_the_problem(change, words):
    net = en.to_engine_network(parse_topology("linear,2"))
    change(net)
    with pytest.raises(UserError, match=words):
        en.check(net)


def test_engine_network_rejects_what_the_engine_cannot_emulate(tmp_path):
    f = tmp_path / "t.yaml"
    f.write_text("switches: [s1]\nhosts: [h1, h2]\nlinks: [[h1, s1], [h1, h2]]")
    with pytest.raises(UserError, match="joins two hosts"):
        en.to_engine_network(parse_topology(str(f)))


def test_ten_thousand_switches_export_fast():
    """Indexes, not scans: prints the time (no timed assertion); the suite's budget guards it."""
    for spec in ("ring,10000", "fattree,28,1"):
        t0 = time.perf_counter()
        net = en.network_for(spec)
        took = time.perf_counter() - t0
        print(f"{spec}: {len(net['switches'])} switches, {len(net['links'])} links in {took:.2f} s")
        assert len(net["switches"]) >= 980 and net["switches"][0]["ports"] >= 2
    assert len(en.network_for("ring,10000")["switches"]) == 10000
    with pytest.raises(UserError, match="at most"):
        parse_topology("ring,10000")                      # Mininet's limit still applies there
    assert parse_topology("ring,10000", ENGINE_MAX_NODES, ENGINE_MAX_LINKS).has_loop()
