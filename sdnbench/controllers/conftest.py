"""Helpers for the controller integration tests: a small real Mininet/OVS network driven by
``sdnbench.net.backends.mininet_network.MininetNetwork`` (userspace datapath here, unique name prefix per run,
always torn down), plus ping and flow-table readers."""

import re
import subprocess

from sdnbench.net.backends.mininet_network import MininetNetwork
from sdnbench.net.topology import parse_topology

PROTOCOLS = {"1.0": "OpenFlow10", "1.3": "OpenFlow13"}


def network(ctl, topo: str = "linear,2", of_version: str = "1.3") -> MininetNetwork:
    return MininetNetwork(parse_topology(topo), controller=ctl.address,
                          protocols=PROTOCOLS[of_version])


def ping(net, src: str, dst: str, count: int = 3, size: int = 56) -> int:
    """Echo replies ``src`` got from ``dst`` out of ``count``."""
    cp = net.run_in(src, ["ping", "-n", "-c", str(count), "-i", "0.2", "-W", "2", "-s", str(size),
                          net.host_ip(dst)], timeout=30)
    m = re.search(r"(\d+) received", cp.stdout)
    return int(m.group(1)) if m else 0


def ping_all(net, count: int = 3, size: int = 56) -> dict:
    hosts = net.topology.host_names()
    return {(a, b): ping(net, a, b, count, size) for a in hosts for b in hosts if a != b}


def dump_flows(net, switch: str, of_version: str = "1.3") -> list:
    """The switch's flow entries as ovs-ofctl prints them (one line each)."""
    cp = subprocess.run(["ovs-ofctl", "-O", PROTOCOLS[of_version], "dump-flows", net.bridge(switch)],
                        capture_output=True, text=True, timeout=15, check=True)
    return [l.strip() for l in cp.stdout.splitlines() if "actions=" in l]


def packets(flow_line: str) -> int:
    m = re.search(r"n_packets=(\d+)", flow_line)
    return int(m.group(1)) if m else 0
