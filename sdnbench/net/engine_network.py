"""A ``Topology`` as the engine's network JSON (field ``network`` of the engine config).

This is the contract with ``crates/engine/src/network/spec.rs``::

    {"spec": "ring,50",
     "switches": [{"dpid": 1, "ports": 3}],       # ports numbered 1..=ports
     "links": [[1, 1, 2, 2]],                      # switch-to-switch: [dpid_a, port_a, dpid_b, port_b]
     "hosts": [{"dpid": 1, "port": 3, "mac": "00:00:00:00:00:01", "ip": "10.0.0.1"}],
     "link_delay_us": 0,
     "events": []}

Port numbers are ``Topology.ports()``: Mininet's numbering (per switch, in link order, from 1),
so a spec gives the same port numbers on both halves.

Host addresses, network-wide unique: host number i (h1 is 1, in ``Topology.hosts`` order) gets
IP 10.0.0.0 + i (10.0.0.1, ..., 10.0.1.0, ...; within 10.0.0.0/8) and MAC 00:00:00 followed by
i in three bytes (00:00:00:00:00:01, ...), the same rule the Mininet backend applies; a host
that sets its own ``ip``/``mac`` keeps it. That is room for 2^24 - 2 = 16,777,214 hosts.

``check(network)`` re-checks a network dict (also a hand-written one) before anything starts:
duplicate dpids, a link or host on a port the switch does not have or that is used twice, and
host MAC/IP collisions, each as one line.
"""

from __future__ import annotations

from typing import Iterable, Optional

from ..errors import UserError
from .topology import ENGINE_MAX_LINKS, ENGINE_MAX_NODES, Topology, parse_topology

MAX_HOSTS = (1 << 24) - 2
MAX_PORT = 0xFF00          # OpenFlow 1.0's highest physical port (the engine's bound too)


def host_ip(i: int) -> str:
    """The i-th host's IPv4 address (1-based), without a prefix length."""
    if not 0 < i <= MAX_HOSTS:
        raise UserError(f"host number {i} does not fit 10.0.0.0/8 (at most {MAX_HOSTS} hosts)")
    n = (10 << 24) + i
    return f"{n >> 24}.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"


def host_mac(i: int) -> str:
    """The i-th host's MAC (1-based): 00:00:00 then i in three bytes."""
    if not 0 < i <= MAX_HOSTS:
        raise UserError(f"host number {i} does not fit a 24-bit MAC suffix (at most {MAX_HOSTS} hosts)")
    return ":".join(f"{b:02x}" for b in (0, 0, 0, (i >> 16) & 255, (i >> 8) & 255, i & 255))


def network_for(spec: str, link_delay_us: int = 0, events: Optional[list] = None) -> dict:
    """Parse ``spec`` with the engine's size limits and export it."""
    topo = parse_topology(spec, ENGINE_MAX_NODES, ENGINE_MAX_LINKS)
    return to_engine_network(topo, link_delay_us, events)


def to_engine_network(topo: Topology, link_delay_us: int = 0, events: Optional[list] = None) -> dict:
    """The engine's network JSON for ``topo`` (checked with ``check`` before it is returned)."""
    dpid = {s.name: s.dpid for s in topo.switches}
    ports = {s.name: 0 for s in topo.switches}
    links, attach = [], {}
    for link, (pa, pb) in zip(topo.links, topo.ports()):
        a_sw, b_sw = link.a in dpid, link.b in dpid
        if a_sw:
            ports[link.a] = pa
        if b_sw:
            ports[link.b] = pb
        if a_sw and b_sw:
            links.append([dpid[link.a], pa, dpid[link.b], pb])
        elif a_sw or b_sw:
            host, sw, port = (link.b, link.a, pa) if a_sw else (link.a, link.b, pb)
            if host in attach:
                raise UserError(f"topology {topo.spec}: host {host} has more than one link; "
                                "the engine gives every host one port")
            attach[host] = (dpid[sw], port)
        else:
            raise UserError(f"topology {topo.spec}: link {link.a}-{link.b} joins two hosts; "
                            "the engine emulates hosts on switch ports only")
    hosts = []
    for i, h in enumerate(topo.hosts, start=1):
        if h.name not in attach:
            raise UserError(f"topology {topo.spec}: host {h.name} is not linked to a switch")
        sw, port = attach[h.name]
        ip = (h.ip or host_ip(i)).split("/")[0]
        hosts.append({"dpid": sw, "port": port, "mac": (h.mac or host_mac(i)).lower(), "ip": ip})
    network = {
        "spec": topo.spec,
        "switches": [{"dpid": s.dpid, "ports": ports[s.name]} for s in topo.switches],
        "links": links,
        "hosts": hosts,
        "link_delay_us": int(link_delay_us),
        "events": list(events or []),
    }
    check(network)
    return network


def check(network: dict) -> None:
    """One line for the first thing that would make the engine's network wrong."""
    where = f"network {network.get('spec') or ''}".rstrip()
    width: dict = {}
    for i, s in enumerate(network.get("switches", [])):
        if s["dpid"] in width:
            raise UserError(f"{where}: switches[{i}]: dpid {s['dpid']} used twice")
        if not 0 <= s["ports"] <= MAX_PORT:
            raise UserError(f"{where}: switches[{i}]: {s['ports']} ports; at most {MAX_PORT}")
        width[s["dpid"]] = s["ports"]
    used: dict = {}
    for i, (da, pa, db, pb) in enumerate(network.get("links", [])):
        _claim(where, f"links[{i}]", width, used, ((da, pa), (db, pb)))
    macs: dict = {}
    ips: dict = {}
    for i, h in enumerate(network.get("hosts", [])):
        what = f"hosts[{i}]"
        _claim(where, what, width, used, ((h["dpid"], h["port"]),))
        for value, seen, kind in ((h["mac"].lower(), macs, "MAC"), (h["ip"], ips, "IP")):
            if value in seen:
                raise UserError(f"{where}: {what}: {kind} {value} already used by {seen[value]}")
            seen[value] = what


def _claim(where: str, what: str, width: dict, used: dict, ends: Iterable) -> None:
    for dpid, port in ends:
        if dpid not in width:
            raise UserError(f"{where}: {what}: no switch with dpid {dpid}")
        if not 1 <= port <= width[dpid]:
            raise UserError(f"{where}: {what}: switch {dpid} has no port {port} "
                            f"(it has ports 1..{width[dpid]})")
        if (dpid, port) in used:
            raise UserError(f"{where}: {what}: port {port} of switch {dpid} is already used by "
                            f"{used[(dpid, port)]}")
        used[(dpid, port)] = what
