"""Which host pairs a measurement runs between (pure).

- ``first-last``: the first and the last host (the controller study's pair);
- ``per-switch``: for every switch k, one host on switch k to one host on switch 1 (the campus
  study's per-switch tables); for switch 1 itself its second host, when it has one;
- ``all``: every unordered pair;
- an explicit list: ``h1-h4,h2-h3``.

A pair is ``(src, dst, label)``; ``label`` names the switch for per-switch pairs.
"""

from __future__ import annotations

from itertools import combinations

from ..errors import UserError
from .topology import Topology

MODES = ("first-last", "per-switch", "all")


def select_pairs(topo: Topology, spec: str) -> list:
    spec = (spec or "first-last").strip()
    hosts = topo.host_names()
    if len(hosts) < 2:
        raise UserError(f"topology {topo.spec} has {len(hosts)} host(s); measurements need two")
    if spec == "first-last":
        return [(hosts[0], hosts[-1], None)]
    if spec == "all":
        return [(a, b, None) for a, b in combinations(hosts, 2)]
    if spec == "per-switch":
        return _per_switch(topo)
    return _explicit(topo, spec)


def _per_switch(topo: Topology) -> list:
    switches = topo.switch_names()
    anchor_hosts = topo.hosts_on(switches[0])
    if not anchor_hosts:
        raise UserError(f"per-switch pairs need a host on {switches[0]}; topology {topo.spec} has none")
    anchor = anchor_hosts[0]
    pairs = []
    for sw in switches:
        on = topo.hosts_on(sw)
        if sw == switches[0]:
            if len(on) > 1:
                pairs.append((on[1], anchor, sw))
        elif on:
            pairs.append((on[0], anchor, sw))
    if not pairs:
        raise UserError(f"per-switch pairs: no switch of {topo.spec} other than "
                        f"{switches[0]} has a host")
    return pairs


def _explicit(topo: Topology, spec: str) -> list:
    known = set(topo.host_names())
    pairs = []
    for item in spec.split(","):
        a, sep, b = item.strip().partition("-")
        if not sep or not a or not b:
            raise UserError(f"bad host pair {item!r}: use first-last, per-switch, all or a list like h1-h4,h2-h3")
        for h in (a, b):
            if h not in known:
                raise UserError(f"host pair {item}: no host {h!r} in topology {topo.spec}")
        if a == b:
            raise UserError(f"host pair {item}: a host with itself")
        pairs.append((a, b, None))
    return pairs
