"""From command-line choices to a trial ``Setup``: the topology (``sdnbench/net/topology.py``),
the engine params (checked by the engine), and the northbound adapter for the controller."""

from __future__ import annotations

import math
from typing import Optional

from ..engine.params import check
from ..errors import UserError
from ..net.engine_network import to_engine_network
from ..net.topology import ENGINE_MAX_LINKS, parse_topology
from ..northbound import adapter_for, emulated_links
from .trial import Setup

# Nodes (switches and hosts) a discovery trial builds at most: 100,000 switches with a host each,
# refused before anything starts (building and checking that takes ~12 s here; more would make
# the engine's own config check time out).
MAX_NODES = 200_000

# which adapter reads a managed controller's view (spec prefix → adapter)
DEFAULT_API = {"osken:topology": "osken", "ryu:rest_topology": "ryu"}


def api_for(spec: str, api: Optional[str], api_url: Optional[str], ctl_api_url: Optional[str],
            verify: str) -> tuple:
    """(adapter or None, base URL or None) for ``--verify``."""
    if verify == "southbound":
        return None, None
    name = api or DEFAULT_API.get(spec)
    if name is None:
        raise UserError(f"--verify northbound: no northbound API known for {spec}; give --api "
                        f"(osken, ryu, floodlight, onos, odl) and --api-url, or use --verify southbound")
    url = api_url or ctl_api_url
    if not url:
        raise UserError(f"--verify northbound: no URL for the {name} API of {spec}; give --api-url")
    return adapter_for(name), url


def engine_params(topo: str, controller: str, of_version: Optional[str], deadline_s: float,
                  workers: Optional[int] = None, events: Optional[list] = None) -> dict:
    net = to_engine_network(parse_topology(topo, MAX_NODES, ENGINE_MAX_LINKS), events=events)
    p = {"controller": controller, "mode": "network", "network": net, "switches": len(net["switches"]),
         # the engine runs past the deadline; the trial stops it when it has its answer
         "loops": int(math.ceil(deadline_s)) + 5, "loop_ms": 1000, "warmup": 0, "settle_ms": 0}
    if of_version:
        p["of_version"] = of_version
    if workers:
        p["workers"] = workers
    return check(p)


def agree_version(p: dict, ctl, forced: Optional[str]) -> tuple:
    """(params, controller info) at the OpenFlow version the switches and the launched
    controller agree on (``controllers.negotiation``; ``--of``: checked, a mismatch is one line
    naming it). The info records that version, not the one the controller was launched for."""
    from ..controllers.negotiation import session_version
    v = session_version(ctl.host, ctl.port, forced, ctl.info.get("name") or p["controller"])
    info = dict(ctl.info, of_version=v or ctl.info.get("of_version"))
    return (dict(p, of_version=v) if v else p), info


def make_setup(p: dict, adapter, url, poll_s: float, deadline_s: float, stable: int, quiet: bool) -> Setup:
    if poll_s <= 0 or deadline_s <= 0:
        raise UserError("--poll-s and --deadline-s must be positive")
    if stable < 2:
        raise UserError("--stable must be at least 2 (identical answers that end a stalled discovery)")
    return Setup(params=p, want=frozenset(emulated_links(p["network"])), adapter=adapter, api_url=url,
                 poll_s=poll_s, deadline_s=deadline_s, stable=stable, quiet=quiet)
