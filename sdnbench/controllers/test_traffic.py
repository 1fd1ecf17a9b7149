"""Every controller sdnbench manages, against a real Mininet/OVS network, passing real traffic.

Switches run with fail-mode secure, so without a working controller nothing is forwarded: a
ping that gets through proves the controller did its job. Each test also checks the flow tables
for the app's own signature (learned flows, static pass-through, the 4-table pipeline).
"""

import json
import re
import urllib.request

import pytest

from sdnbench.controllers import faucet_config_for, launch
from sdnbench.errors import UserError
from sdnbench.net.topology import parse_topology
from sdnbench.proc import wait_until

from .conftest import dump_flows, network, packets, ping_all

pytestmark = pytest.mark.integration


def _all_pass(replies: dict, count: int = 3) -> None:
    # At least count-1 of count: the first echo may race the flow set-up on a loaded machine.
    assert all(n >= count - 1 for n in replies.values()), replies


@pytest.mark.parametrize("of_version", ["1.0", "1.3"])
def test_osken_learning(of_version):
    with launch("osken:learning", of_version=of_version) as ctl, network(ctl, of_version=of_version) as net:
        _all_pass(ping_all(net))
        learned = [f for f in dump_flows(net, "s1", of_version) if "priority=1," in f and "dl_dst" in f]
        assert learned, "the learning app installed no flows"
        ctl.check_alive()


def test_osken_passthrough_needs_no_packet_ins():
    with launch("osken:passthrough") as ctl, network(ctl) as net:
        _all_pass(ping_all(net))
        flows = dump_flows(net, "s1")
        one_two = [f for f in flows if "in_port=1" in f and "output:2" in f]
        assert one_two and packets(one_two[0]) > 0
        assert not any("CONTROLLER" in f for f in flows), flows


def test_osken_multitable_uses_four_tables():
    with launch("osken:multitable") as ctl, network(ctl) as net:
        _all_pass(ping_all(net))
        flows = dump_flows(net, "s1")
        tables = {int(t) for f in flows for t in re.findall(r"table=(\d+)", f)}
        assert tables == {0, 1, 2, 3}
        learned_dst = [f for f in flows if "table=2" in f and "dl_dst" in f]
        assert learned_dst and any(packets(f) > 0 for f in learned_dst)


def test_osken_hub_floods():
    with launch("osken:hub", of_version="1.0") as ctl, network(ctl, of_version="1.0") as net:
        _all_pass(ping_all(net, size=1200))                       # every frame, whole, via us
        assert dump_flows(net, "s1", "1.0") == []                 # nothing installed: all via us


def test_osken_topology_api_matches_linear3():
    want_links = {(1, 2, 2, 2), (2, 2, 1, 2), (2, 3, 3, 2), (3, 2, 2, 3)}
    want_hosts = {(1, 1), (2, 1), (3, 1)}
    with launch("osken:topology") as ctl, network(ctl, "linear,3") as net:
        assert ctl.api_url.startswith("http://127.0.0.1:")
        last = {}

        def view_shows(check):
            def poll():
                with urllib.request.urlopen(f"{ctl.api_url}/v1/topology", timeout=5) as r:
                    last["view"] = json.load(r)
                return check(last["view"])
            try:
                wait_until(poll, 60, "the topology API")
            except UserError:
                pytest.fail(f"topology API never matched linear,3; last view: {last.get('view')}")
            return last["view"]

        # Links first (LLDP, no traffic needed), as RFC 8456 §5.1.2 measures discovery; then
        # traffic, whose packet-ins reveal the hosts on the edge ports.
        v = view_shows(lambda v: _links(v) == want_links)
        assert [s["dpid"] for s in v["switches"]] == [1, 2, 3]
        assert [len(s["ports"]) for s in v["switches"]] == [2, 3, 2]
        _all_pass(ping_all(net, count=2), count=2)
        want_hosts = {(sw, port, net.host_ip(h)) for (sw, port), h in zip(sorted(want_hosts), ("h1", "h2", "h3"))}
        view_shows(lambda v: {(h["dpid"], h["port_no"], ip) for h in v["hosts"] for ip in h["ipv4"]}
                   == want_hosts)


def _links(view):
    return {(l["src"]["dpid"], l["src"]["port_no"], l["dst"]["dpid"], l["dst"]["port_no"])
            for l in view["links"]}


def test_ryu_simple_switch_13():
    with launch("ryu:simple_switch_13") as ctl, network(ctl) as net:
        assert ctl.info["name"] == "ryu" and ctl.info["version"] == "4.34"
        _all_pass(ping_all(net))


def test_faucet_with_a_generated_config():
    topo = "linear,2"
    config = faucet_config_for(parse_topology(topo))
    with launch("faucet:auto", topology=parse_topology(topo)) as ctl, network(ctl, topo) as net:
        assert ctl.info["name"] == "faucet" and ctl.info["spec"] == "faucet:auto"
        assert ctl.info["app"] == str(config)                    # the same generated file
        _all_pass(ping_all(net))
        assert len(dump_flows(net, "s1")) > 5                    # Faucet's multi-table pipeline
        assert "Add new datapath DPID 1" in ctl.log_tail(400)


def test_ovs_testcontroller():
    with launch("ovs-testcontroller") as ctl, network(ctl) as net:
        _all_pass(ping_all(net))


def test_controller_killed_mid_run_is_blamed_and_everything_is_cleaned_up():
    import os
    import signal
    import subprocess

    import psutil

    from sdnbench.controllers import ControllerDied

    with pytest.raises(ControllerDied) as e:
        with launch("osken:learning") as ctl:
            pid = ctl.pid
            with network(ctl) as net:
                prefix = net.prefix
                host_pids = [net.node(h).pid for h in net.topology.host_names()]
                _all_pass(ping_all(net))
                os.kill(pid, signal.SIGKILL)
                wait_until(lambda: not ctl.alive(), 10, "the controller to die")
                ctl.check_alive()                    # what a runner calls between measurements
    msg = str(e.value)
    assert msg.startswith("controller osken:learning (pid ") and "killed by signal 9" in msg
    assert "sdnbench launcher: apps learning" in msg           # its last log lines are quoted
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert not any(psutil.pid_exists(p) for p in host_pids)
    bridges = subprocess.run(["ovs-vsctl", "list-br"], capture_output=True, text=True).stdout.split()
    assert not [b for b in bridges if b.startswith(prefix)]
    links = subprocess.run(["ip", "-o", "link"], capture_output=True, text=True).stdout
    assert prefix not in links
