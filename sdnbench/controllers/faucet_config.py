"""Generate a Faucet config for a network: plain L2 switching on one VLAN across every port.

Faucet only switches the datapaths and ports its config names, so running ``faucet:`` against a
Mininet network needs a config that lists each switch's DPID and ports. ``faucet_config`` builds
it as data (pure); ``faucet_config_for`` writes it as YAML into the state directory and returns
the path, ready for ``launch(f"faucet:{path}")``.

Every port, host-facing or switch-to-switch, is an untagged member of one VLAN, so each switch
learns MACs independently and frames cross inter-switch links untagged. That is correct for
loop-free topologies (single, linear, tree). A topology with loops would need Faucet's stacking
config, which this does not generate from a topology; it says so instead of producing a
broadcast storm. A stack is generated on request (``stack=``, e.g. ``chain``: the robustness
suite's ``faucet:auto``).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Iterable, Mapping, Optional, Union

import yaml

from .. import paths
from ..errors import UserError

VLAN_NAME = "sdnbench"


def faucet_config(switches: Mapping[str, tuple], vid: int = 100, max_hosts: Optional[int] = None,
                  stack: Optional[Iterable[tuple]] = None) -> dict:
    """Faucet config data for ``{name: (dpid, ports)}``. ``max_hosts`` (on the VLAN and every
    port; 0 = no limit) replaces Faucet's defaults of 256 per VLAN and 255 per port. The VLAN
    id 100 is also the engine's (``crates/ofswitch/src/faucet.rs`` ``VLAN``): its ``faucet``
    traffic tags every packet-in with it. ``stack``: links ``(dpid_a, port_a, dpid_b, port_b)``
    that become Faucet stack links (``stack_links``)."""
    if not switches:
        raise UserError("faucet config: the network has no switches")
    if not 1 <= vid <= 4094:
        raise UserError(f"faucet config: VLAN id {vid} outside 1..4094")
    if max_hosts is not None and max_hosts < 0:
        raise UserError(f"faucet config: max_hosts {max_hosts} is negative (0 means no limit)")
    limit = {} if max_hosts is None else {"max_hosts": int(max_hosts)}
    dps = {}
    seen = {}
    for name, (dpid, ports) in sorted(switches.items(), key=lambda kv: kv[1][0]):
        if dpid in seen:
            raise UserError(f"faucet config: switches {seen[dpid]} and {name} share DPID {dpid}")
        seen[dpid] = name
        ports = sorted(set(int(p) for p in ports))
        if not ports:
            raise UserError(f"faucet config: switch {name} has no ports")
        dps[str(name)] = {
            "dp_id": int(dpid),
            "hardware": "Open vSwitch",
            "interfaces": {p: dict({"name": f"port{p}", "native_vlan": VLAN_NAME}, **limit) for p in ports},
        }
    vlan = dict({"vid": vid, "description": "sdnbench L2 switching"}, **limit)
    if stack:
        stack_links(dps, list(stack))
    return {"vlans": {VLAN_NAME: vlan}, "dps": dps}


def stack_links(dps: dict, links: list) -> None:
    """Make ``dps`` (``faucet_config``'s, in place) one Faucet stack: each link's two ports
    become stack ports naming each other (Faucet 1.10 ``interfaces: {N: {stack: {dp, port}}}``;
    a stack port carries every VLAN tagged, so it loses its ``native_vlan``), and the datapath
    with the lowest id is the stack root (``stack: {priority: 1}``). Faucet then sends LLDP
    beacons out of each stack port and brings the port up when its peer's beacon comes back
    (``port_stack_state``)."""
    by_dpid = {d["dp_id"]: name for name, d in dps.items()}
    for a, pa, b, pb in links:
        for dpid, port in ((a, pa), (b, pb)):
            if dpid not in by_dpid or port not in dps[by_dpid[dpid]]["interfaces"]:
                raise UserError(f"faucet config: stack link end {dpid}:{port} is not a configured port")
        for (dpid, port), (peer, peer_port) in (((a, pa), (b, pb)), ((b, pb), (a, pa))):
            iface = dps[by_dpid[dpid]]["interfaces"][port]
            iface.pop("native_vlan", None)
            iface.pop("max_hosts", None)
            iface["stack"] = {"dp": by_dpid[peer], "port": int(peer_port)}
    dps[by_dpid[min(by_dpid)]]["stack"] = {"priority": 1}


def chain(dpids: list, down: int, up: int) -> list:
    """Stack links chaining ``dpids`` in order: each one's port ``up`` to the next one's port
    ``down``."""
    if down == up:
        raise UserError(f"faucet config: a stack chain needs two different ports, not {down} twice")
    return [(a, up, b, down) for a, b in zip(dpids, dpids[1:])]


NetworkLike = Union[Mapping, Iterable[int], object]


def switches_of(network: NetworkLike, ports: Optional[Iterable[int]] = None) -> dict:
    """Normalise what callers have into ``{name: (dpid, ports)}``.

    Accepts a ``sdnbench.net.topology.Topology``, a mapping ``{dpid: ports}`` or ``{name: (dpid, ports)}``,
    or a list of DPIDs (then ``ports`` applies to each).
    """
    if hasattr(network, "switches") and hasattr(network, "links"):
        return _from_topology(network)
    if isinstance(network, Mapping):
        out = {}
        for key, value in network.items():
            if isinstance(key, int):
                out[f"s{key}"] = (key, value)
            else:
                dpid, p = value
                out[str(key)] = (int(dpid), p)
        return out
    dpids = list(network)
    if ports is None:
        raise UserError("faucet config: a list of DPIDs needs the port numbers too (ports=...)")
    ports = list(ports)
    return {f"s{d}": (int(d), ports) for d in dpids}


def _from_topology(topo) -> dict:
    """Port numbers as Mininet assigns them: each switch numbers its links from 1 in the order
    the topology lists them (the backend adds links in that order)."""
    if getattr(topo, "has_loop", lambda: False)():
        raise UserError(f"faucet config: topology {getattr(topo, 'spec', '')} has a loop; plain L2 "
                        "on one VLAN would flood forever (Faucet stacking is not generated)")
    names = {s.name for s in topo.switches}
    count = {s.name: 0 for s in topo.switches}
    for link in topo.links:
        for end in (link.a, link.b):
            if end in names:
                count[end] += 1
    return {s.name: (s.dpid, range(1, count[s.name] + 1)) for s in topo.switches}


def faucet_config_for(network: NetworkLike, ports: Optional[Iterable[int]] = None, vid: int = 100,
                      path: Optional[Path] = None, max_hosts: Optional[int] = None,
                      stack: Optional[Iterable[tuple]] = None) -> Path:
    """Write the config for ``network`` and return its path (named after its content)."""
    data = faucet_config(switches_of(network, ports), vid, max_hosts, stack)
    text = ("# generated by sdnbench: L2 switching on one VLAN across all ports"
            + (", the datapaths stacked" if stack else "") + "\n" + yaml.safe_dump(data, sort_keys=True))
    if path is None:
        digest = hashlib.sha1(text.encode()).hexdigest()[:10]
        path = paths.runtime_dir("faucet") / f"faucet-{digest}.yaml"
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path
