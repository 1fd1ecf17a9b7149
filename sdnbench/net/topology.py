"""Network topologies as pure data: switches, hosts and links with their link parameters.

A ``Topology`` only describes; ``sdnbench.net.backends.mininet_network`` turns it into processes. The logical names
(``h1``, ``s1``, ...) are what results and users see; the backend maps them to short, run-unique
interface names of its own.

Spec strings, as on the ``mn`` command line:

- ``single,N``            one switch, N hosts
- ``linear,N[,H]``        N switches in a chain, H hosts on each (default 1)
- ``tree,DEPTH,FANOUT``   a tree of switches, hosts at the leaves (Mininet's numbering: pre-order)
- ``star,S,H``            switches s2..sS all linked to s1, H hosts on every switch (campus study)
- ``leafspine,L,S,H``     L leaf and S spine switches, every leaf linked to every spine, H hosts per leaf
- ``ring,N[,H]``          N switches in a cycle (N >= 3), H hosts on each (default 1)
- ``mesh,N[,H]``          N switches, every pair linked (full mesh), H hosts on each (default 1)
- ``fattree,K[,H]``       k-ary fat-tree (K even): (K/2)^2 core switches, K pods of K/2 aggregation
                          and K/2 edge switches, H hosts per edge switch (default K/2)
- ``random,N,D|P,SEED[,H]`` N switches, connected, seeded: a random spanning tree, then random extra
                          links up to an average degree D (a whole number) or with probability P
                          per pair (a number with a point, 0 < P <= 1); H hosts on each (default 1)
- ``FILE.graphml[,H]``    an Internet Topology Zoo GraphML file (see ``sdnbench.net.graphml``)
- ``FILE.yaml``           see ``sdnbench.net.topofile``
- ``FILE.py:NAME[,ARG...]`` a Mininet ``Topo`` file, like ``mn --custom FILE.py --topo NAME,ARG``

Invariants: names are unique; every link joins two known nodes; every dpid is unique and fits 64
bits; hosts are numbered h1..hN in the order the builders add them.

Ports are numbered exactly as Mininet numbers them when the links are added in ``links`` order
(``Node.newPort``): per node, in the order of its links, starting at 1 on switches and 0 on hosts
(``h1-eth0``). ``Topology.ports()`` is that numbering; the engine's network JSON and the Mininet
backend therefore agree on every port number.
"""

from __future__ import annotations

import random as _random
from typing import Callable, Optional

from ..errors import UserError
from .links import LinkParams
from .topo_model import Host, Link, Switch, Topology

__all__ = ["Host", "Link", "Switch", "Topology", "kinds", "parse_topology"]


# -- builders ---------------------------------------------------------------------------------

_NO_PARAMS = LinkParams()

class _Builder:
    """Adds nodes in order and numbers them like Mininet (s1.., h1..)."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.switches: list = []
        self.hosts: list = []
        self.links: list = []

    def switch(self, role: Optional[str] = None) -> str:
        n = len(self.switches) + 1
        self.switches.append(Switch(f"s{n}", dpid=n, role=role))
        return f"s{n}"

    def host(self) -> str:
        n = len(self.hosts) + 1
        self.hosts.append(Host(f"h{n}"))
        return f"h{n}"

    def link(self, a: str, b: str) -> None:
        self.links.append(Link(a, b, _NO_PARAMS))   # frozen: one shared default, not one per link

    def hosts_on(self, switch: str, count: int) -> None:
        for _ in range(count):
            self.link(self.host(), switch)

    def edge_layer(self, edges: list, h: int, uplinks: list) -> None:
        """A Clos stage: ``h`` hosts on each of ``edges`` (those links first), then every edge
        switch linked to every switch of ``uplinks``, edge by edge."""
        for e in edges:
            self.hosts_on(e, h)
        for e in edges:
            for u in uplinks:
                self.link(e, u)

    def done(self) -> Topology:
        return Topology(self.spec, self.switches, self.hosts, self.links)


def single(spec: str, n: int) -> Topology:
    b = _Builder(spec)
    b.hosts_on(b.switch(), n)
    return b.done()


def linear(spec: str, n: int, h: int = 1) -> Topology:
    b = _Builder(spec)
    prev = None
    for _ in range(n):
        s = b.switch()
        b.hosts_on(s, h)
        if prev:
            b.link(prev, s)
        prev = s
    return b.done()


def tree(spec: str, depth: int, fanout: int) -> Topology:
    b = _Builder(spec)

    def add(d: int) -> str:
        if d == 0:
            return b.host()
        node = b.switch()
        for _ in range(fanout):
            b.link(node, add(d - 1))
        return node

    add(depth)
    return b.done()


def star(spec: str, s: int, h: int) -> Topology:
    b = _Builder(spec)
    centre = b.switch(role="centre")
    b.hosts_on(centre, h)
    for _ in range(s - 1):
        sw = b.switch(role="edge")
        b.link(sw, centre)
        b.hosts_on(sw, h)
    return b.done()


def leafspine(spec: str, leaves: int, spines: int, h: int) -> Topology:
    b = _Builder(spec)
    leaf_names = [b.switch(role="leaf") for _ in range(leaves)]
    spine_names = [b.switch(role="spine") for _ in range(spines)]
    b.edge_layer(leaf_names, h, spine_names)
    return b.done()


def ring(spec: str, n: int, h: int = 1) -> Topology:
    b = _Builder(spec)
    names = []
    for _ in range(n):
        s = b.switch()
        b.hosts_on(s, h)
        if names:
            b.link(names[-1], s)
        names.append(s)
    b.link(names[-1], names[0])
    return b.done()


def mesh(spec: str, n: int, h: int = 1) -> Topology:
    b = _Builder(spec)
    names = [b.switch() for _ in range(n)]
    for s in names:
        b.hosts_on(s, h)
    for i, a in enumerate(names):
        for other in names[i + 1:]:
            b.link(a, other)
    return b.done()


def fattree(spec: str, k: int, h: Optional[int] = None) -> Topology:
    """Core switches first, then pod by pod its aggregation and edge switches. Links in order:
    per pod, each edge switch's hosts, then edge-aggregation (full bipartite), then aggregation j
    to core switches j*K/2 .. (j+1)*K/2-1."""
    half = k // 2
    h = half if h is None else h
    b = _Builder(spec)
    cores = [b.switch(role="core") for _ in range(half * half)]
    for _ in range(k):
        aggs = [b.switch(role="aggregation") for _ in range(half)]
        edges = [b.switch(role="edge") for _ in range(half)]
        b.edge_layer(edges, h, aggs)
        for j, a in enumerate(aggs):
            for c in cores[j * half:(j + 1) * half]:
                b.link(a, c)
    return b.done()


def random_graph(spec: str, n: int, density: float, seed: int, h: int = 1) -> Topology:
    """Connected and reproducible: switch i (i >= 2) links to a random earlier switch (a random
    spanning tree), then distinct random pairs are added until the link count reaches
    round(n*D/2) for a whole-number degree D, or round(P*n*(n-1)/2) for a probability P (at
    least n-1, at most every pair). Same spec, same network."""
    rng = _random.Random(seed)
    b = _Builder(spec)
    names = [b.switch() for _ in range(n)]
    for s in names:
        b.hosts_on(s, h)
    pairs = set()
    for i in range(1, n):
        j = rng.randrange(i)
        pairs.add((j, i))
        b.link(names[j], names[i])
    target = _random_links(n, density)
    if target - len(pairs) > (n * (n - 1) // 2 - len(pairs)) // 2:   # dense: draw from what is left
        rest = [(i, j) for i in range(n) for j in range(i + 1, n) if (i, j) not in pairs]
        for i, j in sorted(rng.sample(rest, target - len(pairs))):
            pairs.add((i, j))
            b.link(names[i], names[j])
    while len(pairs) < target:
        i, j = rng.randrange(n), rng.randrange(n)
        key = (min(i, j), max(i, j))
        if i != j and key not in pairs:
            pairs.add(key)
            b.link(names[key[0]], names[key[1]])
    return b.done()


def _random_links(n: int, density: float) -> int:
    every = n * (n - 1) // 2
    want = density * every if isinstance(density, float) else density * n / 2
    return max(n - 1, min(every, round(want)))


def _random_args(spec: str, raw: list, usage: str) -> list:
    try:
        n, seed = int(raw[0]), int(raw[2])
        h = int(raw[3]) if len(raw) > 3 else 1
        density = float(raw[1]) if "." in raw[1] else int(raw[1])
    except ValueError:
        raise UserError(f"topology {spec!r}: N, SEED and H are whole numbers, D a whole number "
                        f"or P a number with a point ({usage})")
    if n < 2 or h < 0:
        raise UserError(f"topology {spec!r}: needs N >= 2 and H >= 0 ({usage})")
    if isinstance(density, float) and not 0 < density <= 1:
        raise UserError(f"topology {spec!r}: the probability P must be in (0, 1] ({usage})")
    if isinstance(density, int) and density < 1:
        raise UserError(f"topology {spec!r}: the degree D must be at least 1 ({usage})")
    return [n, density, seed, h]


# name -> (builder, minimum args, maximum args, usage)
_KINDS: dict = {
    "single": (single, 1, 1, "single,N"),
    "linear": (linear, 1, 2, "linear,N[,H]"),
    "tree": (tree, 2, 2, "tree,DEPTH,FANOUT"),
    "star": (star, 2, 2, "star,S,H"),
    "leafspine": (leafspine, 3, 3, "leafspine,L,S,H"),
    "ring": (ring, 1, 2, "ring,N[,H]"),
    "mesh": (mesh, 1, 2, "mesh,N[,H]"),
    "fattree": (fattree, 1, 2, "fattree,K[,H]"),
    "random": (random_graph, 3, 4, "random,N,D|P,SEED[,H]"),
}

# Each argument's lower bound, per kind, so "tree,0,2" says what is wrong.
_MINIMUMS: dict = {
    "single": (1,), "linear": (1, 1), "tree": (1, 1), "star": (1, 1), "leafspine": (1, 1, 1),
    "ring": (3, 0), "mesh": (2, 0), "fattree": (2, 0),
}

MAX_NODES = 2000   # Mininet: interface names and bring-up time stop making sense long before this
MAX_LINKS = 20000  # Mininet: a veth pair per link
ENGINE_MAX_NODES = 2_000_000   # the engine emulates switches in memory: 100,000+ is the point
ENGINE_MAX_LINKS = 10_000_000


def kinds() -> list:
    return ([usage for _, _, _, usage in _KINDS.values()]
            + ["FILE.graphml[,H]", "FILE.yaml", "FILE.py:NAME[,ARG...]"])


def parse_topology(spec: str, max_nodes: int = MAX_NODES, max_links: int = MAX_LINKS) -> Topology:
    """Parse a topology spec string (see the module doc) into a ``Topology``. The size limits
    default to Mininet's; the engine passes ``ENGINE_MAX_NODES``/``ENGINE_MAX_LINKS``."""
    spec = (spec or "").strip()
    if not spec:
        raise UserError(f"empty topology; use one of: {', '.join(kinds())}")
    head = spec.split(",", 1)[0]
    if head.endswith(".graphml"):
        from . import graphml
        return _sized(graphml.load(spec), max_nodes, max_links)
    if head.endswith((".yaml", ".yml")) or ".py:" in spec or head.endswith(".py"):
        from . import topofile
        return topofile.load(spec)
    if head not in _KINDS:
        raise UserError(f"unknown topology {head!r}; use one of: {', '.join(kinds())}")
    builder, lo, hi, usage = _KINDS[head]
    raw = spec.split(",")[1:]
    if not lo <= len(raw) <= hi:
        raise UserError(f"topology {spec!r}: expected {usage}")
    args = _random_args(spec, raw, usage) if head == "random" else _int_args(spec, head, raw, usage)
    nodes, links = _size(head, args)
    _check_size(spec, nodes, links, max_nodes, max_links)
    return builder(spec, *args)


def _int_args(spec: str, head: str, raw: list, usage: str) -> list:
    try:
        args = [int(a) for a in raw]
    except ValueError:
        raise UserError(f"topology {spec!r}: arguments must be whole numbers ({usage})")
    for a, m in zip(args, _MINIMUMS[head]):
        if a < m:
            raise UserError(f"topology {spec!r}: arguments must be at least {m} ({usage})")
    if head == "fattree" and args[0] % 2:
        raise UserError(f"topology {spec!r}: K must be even ({usage})")
    return args


def _size(kind: str, args: list) -> tuple:
    """(nodes, links) a spec builds, computed before building it."""
    f: Callable[..., tuple] = {
        "single": lambda n: (n + 1, n),
        "linear": lambda n, h=1: (n * (h + 1), n * h + n - 1),
        "tree": lambda d, f: (sum(f ** i for i in range(d + 1)), sum(f ** i for i in range(1, d + 1))),
        "star": lambda s, h: (s * (h + 1), s * h + s - 1),
        "leafspine": lambda l, s, h: (l * (h + 1) + s, l * h + l * s),
        "ring": lambda n, h=1: (n * (h + 1), n * h + n),
        "mesh": lambda n, h=1: (n * (h + 1), n * h + n * (n - 1) // 2),
        "fattree": lambda k, h=None: _fattree_size(k, k // 2 if h is None else h),
        "random": lambda n, d, _s, h=1: (n * (h + 1), n * h + _random_links(n, d)),
    }[kind]
    return f(*args)


def _fattree_size(k: int, h: int) -> tuple:
    half = k // 2
    switches, edges = half * half + k * k, k * half
    return switches + edges * h, edges * h + k * half * half * 2


def _sized(topo: Topology, max_nodes: int, max_links: int) -> Topology:
    _check_size(topo.spec, len(topo.switches) + len(topo.hosts), len(topo.links), max_nodes, max_links)
    return topo


def _check_size(spec: str, nodes: int, links: int, max_nodes: int, max_links: int) -> None:
    if nodes > max_nodes:
        raise UserError(f"topology {spec!r} has {nodes} nodes; at most {max_nodes} are supported")
    if links > max_links:
        raise UserError(f"topology {spec!r} has {links} links; at most {max_links} are supported")
