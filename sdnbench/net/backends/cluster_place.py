"""Where each node of a topology runs in a Mininet cluster (pure).

- ``blocks``: the switches, in topology order, in contiguous bins of (almost) equal size, one
  per server, the first servers taking one more when the count does not divide (Mininet's
  ``SwitchBinPlacer.bin``); a linear chain is cut into as many segments as servers, so only
  the links between segments cross servers;
- ``round-robin``: switch k on server k mod n (every switch link crosses servers when n > 1:
  the tunnel-heavy worst case).

Hosts always run on their switch's server (``SwitchBinPlacer``'s co-location), so host links
never cross servers.
"""

from __future__ import annotations

from ..topology import Topology


def place(topo: Topology, servers: list, rule: str) -> dict:
    """``{node name: server name}`` for every switch and host."""
    switches = topo.switch_names()
    if rule == "blocks":
        q, r = divmod(len(switches), len(servers))
        tickets = [s for i, s in enumerate(servers) for _ in range(q + (1 if i < r else 0))]
        out = dict(zip(switches, tickets))
    elif rule == "round-robin":
        out = {sw: servers[i % len(servers)] for i, sw in enumerate(switches)}
    else:
        raise ValueError(f"unknown placement {rule!r}")
    for h in topo.host_names():
        out[h] = out[topo.switch_of(h)]
    return out


def crossing(topo: Topology, placement: dict) -> list:
    """The links whose ends run on different servers (made as tunnels)."""
    return [l for l in topo.links if placement[l.a] != placement[l.b]]


def describe(topo: Topology, placement: dict, servers: list) -> str:
    """``a: s1 s2 h1 h2; b: s3 s4 h3 h4; 1 link crosses servers``"""
    parts = [f"{s}: {' '.join(n for n in [*topo.switch_names(), *topo.host_names()] if placement[n] == s) or '-'}"
             for s in servers]
    n = len(crossing(topo, placement))
    return "; ".join(parts) + f"; {n} link{'s' if n != 1 else ''} cross{'es' if n == 1 else ''} servers"
