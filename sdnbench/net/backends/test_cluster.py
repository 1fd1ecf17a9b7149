"""The cluster backend's pure parts: the servers file, placement, the backend spec, and the
adaptations of Mininet's cluster classes (no sudo, our ssh configuration)."""

import re
import subprocess
import warnings

import pytest

from sdnbench.errors import UserError
from sdnbench.net.backends import cluster_place, cluster_sweep
from sdnbench.net.backends.base import parse_backend
from sdnbench.net.backends.cluster_servers import load
from sdnbench.net.backends.inventory import InventoryError
from sdnbench.net.topology import parse_topology


def _file(tmp_path, text: str, key: bool = True):
    if key:
        (tmp_path / "k").write_text("not really a key")
    p = tmp_path / "servers.yaml"
    p.write_text(text)
    return p


def test_servers_file_with_defaults(tmp_path):
    sv = load(_file(tmp_path, "defaults: {key: k, port: 2222}\nservers:\n"
                              "  - {name: a, ssh: 10.1.0.1}\n  - {name: b, ssh: 10.1.0.2, tunnel_ip: 10.9.0.2}\n"
                              "placement: round-robin\n"))
    a, b = sv.servers
    assert (a.name, a.ssh, a.port, a.user, a.key, a.tunnel_ip) == ("a", "10.1.0.1", 2222, "root", str(tmp_path / "k"), "10.1.0.1")
    assert b.tunnel_ip == "10.9.0.2" and sv.placement == "round-robin" and sv.tunnel == "vxlan"
    assert a.where() == "server a (root@10.1.0.1:2222)"
    assert sv.only(["b"]).names() == ["b"]


@pytest.mark.parametrize("text, error", [
    ("servers: []\n", ":1: servers file: no server"),
    ("servers:\n  - {name: a}\n", ":2: server a: ssh missing"),
    ("servers:\n  - {name: a, ssh: 1.2.3.4, user: lab}\n", ":2: server a: user must be root"),
    ("servers:\n  - {name: a, ssh: 1.2.3.4}\n  - {name: a, ssh: 1.2.3.5}\n", ":2: server name 'a' used twice"),
    ("servers:\n  - {name: a, ssh: 1.2.3.4}\ntunnel: ssh\n", ":3: tunnel 'ssh': use vxlan or gre"),
    ("servers:\n  - {name: a, ssh: 1.2.3.4}\nplacement: random\n", ":3: placement 'random': use blocks or round-robin"),
    ("servers:\n  - {name: a, ssh: box.lab}\n", ":2: server a: tunnel_ip 'box.lab' must be an IPv4 address"),
    ("servers:\n  - {name: a, ssh: 1.2.3.4, key: nokey}\n", "key file"),
    ("servers:\n  - {name: a-b, ssh: 1.2.3.4}\n", "a name is 1-8 letters or digits"),
    ("hosts: []\n", ":1: servers file: unknown key 'hosts'"),
    ("servers:\n  - {name: a\n", ":3: not valid YAML: expected ',' or '}'"),
    ("", ": empty servers file"),
])
def test_servers_file_errors_name_file_and_line(tmp_path, text, error):
    with pytest.raises(InventoryError) as e:
        load(_file(tmp_path, text, key=False))
    assert str(e.value).startswith(str(tmp_path / "servers.yaml")) and error in str(e.value)


def test_a_missing_servers_file_is_named(tmp_path):
    with pytest.raises(InventoryError, match=f"^{tmp_path}/nosuch.yaml: no such servers file$"):
        load(tmp_path / "nosuch.yaml")


def test_blocks_cut_a_chain_into_segments_like_switchbinplacer():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from mininet.examples.cluster import SwitchBinPlacer
    for spec, servers in (("linear,4", ["a", "b"]), ("linear,7", ["a", "b", "c"]), ("tree,2,3", ["a", "b"])):
        t = parse_topology(spec)
        p = cluster_place.place(t, servers, "blocks")
        assert {s: p[s] for s in t.switch_names()} == SwitchBinPlacer.bin(t.switch_names(), servers)
        assert all(p[h] == p[t.switch_of(h)] for h in t.host_names())
    t = parse_topology("linear,4")
    p = cluster_place.place(t, ["a", "b"], "blocks")
    assert [(l.a, l.b) for l in cluster_place.crossing(t, p)] == [("s2", "s3")]
    assert cluster_place.describe(t, p, ["a", "b"]) == "a: s1 s2 h1 h2; b: s3 s4 h3 h4; 1 link crosses servers"


def test_round_robin_alternates_switches_and_keeps_hosts_with_them():
    t = parse_topology("linear,4")
    p = cluster_place.place(t, ["a", "b"], "round-robin")
    assert [p[s] for s in t.switch_names()] == ["a", "b", "a", "b"]
    assert len(cluster_place.crossing(t, p)) == 3           # every switch link
    assert cluster_place.crossing(t, cluster_place.place(t, ["a"], "round-robin")) == []


def test_backend_spec():
    assert str(parse_backend("cluster:servers.yaml")) == "cluster:servers.yaml"
    with pytest.raises(UserError, match="cluster:SERVERS"):
        parse_backend("cluster:")


def test_cluster_nodes_log_in_as_root_without_sudo_over_our_config(tmp_path):
    from sdnbench.net.backends.cluster_nodes import classes, ssh_config

    sv = load(_file(tmp_path, "defaults: {key: k}\nservers:\n  - {name: a, ssh: 10.1.0.1}\n"))
    conf = ssh_config(tmp_path / "ssh_config", sv.servers, tmp_path / "known")
    text = conf.read_text()
    assert f"IdentityFile {tmp_path / 'k'}" in text and f"UserKnownHostsFile {tmp_path / 'known'}" in text
    assert "StrictHostKeyChecking accept-new" in text and "ControlMaster auto" in text
    host_cls, _switch, link = classes(conf, "vxlan", {"a": "10.1.0.1"})
    h = host_cls.__new__(host_cls)
    h.sshcmd = ["sudo", "-E", "-u", "root", *host_cls.sshbase, "root@10.1.0.1"]
    assert h.sshcmd == ["ssh", "-F", str(conf), "-q", "-tt", "root@10.1.0.1"]
    assert link.__name__ == "ClusterRemoteVXLANLink" and link.tunnel_ips == {"a": "10.1.0.1"}


def test_a_prefix_is_claimed_by_one_live_run_and_a_stale_claim_is_taken_over(tmp_path):
    """The claim scripts, run by sh here as on a server: a run holds its prefix until it releases
    it or its directory goes; another run's release leaves it alone."""
    sh = lambda script: subprocess.run(["sh", "-c", script], capture_output=True, text=True).stdout.strip()  # noqa: E731
    a, b = tmp_path / "run-a", tmp_path / "run-b"
    a.mkdir()
    b.mkdir()
    claim = lambda run: sh(cluster_sweep.claim_script("c123", str(run), str(tmp_path)))  # noqa: E731
    link = tmp_path / cluster_sweep.CLAIMS / "c123"
    assert claim(a) == "claimed" and claim(a) == "claimed" and claim(b) == "taken"
    sh(cluster_sweep.release_script("c123", str(b), str(tmp_path)))
    assert link.resolve() == a
    a.rmdir()                                    # run a ended without releasing (SIGKILL, swept)
    assert claim(b) == "claimed" and link.resolve() == b
    sh(cluster_sweep.release_script("c123", str(b), str(tmp_path)))
    assert not (tmp_path / cluster_sweep.CLAIMS).exists()
    assert all(re.fullmatch(r"c[0-9a-f]{3}", cluster_sweep.new_prefix()) for _ in range(50))
