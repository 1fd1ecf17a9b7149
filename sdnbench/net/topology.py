"""Network topologies as pure data: switches, hosts and links with their link parameters.

A ``Topology`` only describes; ``sdnbench.net.backend`` turns it into processes. The logical names
(``h1``, ``s1``, ...) are what results and users see; the backend maps them to short, run-unique
interface names of its own.

Spec strings, as on the ``mn`` command line:

- ``single,N``            one switch, N hosts
- ``linear,N[,H]``        N switches in a chain, H hosts on each (default 1)
- ``tree,DEPTH,FANOUT``   a tree of switches, hosts at the leaves (Mininet's numbering: pre-order)
- ``star,S,H``            switches s2..sS all linked to s1, H hosts on every switch (campus study)
- ``leafspine,L,S,H``     L leaf and S spine switches, every leaf linked to every spine, H hosts per leaf
- ``FILE.yaml``           see ``sdnbench.net.topofile``
- ``FILE.py:NAME[,ARG...]`` a Mininet ``Topo`` file, like ``mn --custom FILE.py --topo NAME,ARG``

Invariants: names are unique; every link joins two known nodes; every dpid is unique and fits 64
bits; hosts are numbered h1..hN in the order the builders add them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Callable, Optional

from ..errors import UserError
from .links import LinkParams


@dataclass(frozen=True)
class Switch:
    name: str
    dpid: int
    protocols: Optional[str] = None     # e.g. "OpenFlow13"; None: the network's default
    role: Optional[str] = None          # "leaf", "spine", "core", ... (informative)


@dataclass(frozen=True)
class Host:
    name: str
    ip: Optional[str] = None            # "10.0.0.1/8"; None: assigned by the backend
    mac: Optional[str] = None


@dataclass(frozen=True)
class Link:
    a: str
    b: str
    params: LinkParams = field(default_factory=LinkParams)


@dataclass
class Topology:
    spec: str
    switches: list = field(default_factory=list)    # list[Switch]
    hosts: list = field(default_factory=list)       # list[Host]
    links: list = field(default_factory=list)       # list[Link]

    def __post_init__(self) -> None:
        self.validate()

    # -- queries -----------------------------------------------------------------------------

    def switch_names(self) -> list:
        return [s.name for s in self.switches]

    def host_names(self) -> list:
        return [h.name for h in self.hosts]

    def is_switch(self, name: str) -> bool:
        return any(s.name == name for s in self.switches)

    def switch_of(self, host: str) -> Optional[str]:
        """The switch a host is attached to (its first link to a switch)."""
        for link in self.links:
            if link.a == host and self.is_switch(link.b):
                return link.b
            if link.b == host and self.is_switch(link.a):
                return link.a
        return None

    def hosts_on(self, switch: str) -> list:
        return [h.name for h in self.hosts if self.switch_of(h.name) == switch]

    def switch_links(self) -> list:
        names = set(self.switch_names())
        return [l for l in self.links if l.a in names and l.b in names]

    def has_loop(self) -> bool:
        """True when the switch graph has a cycle (learning switches then flood forever)."""
        parent = {s: s for s in self.switch_names()}

        def root(n: str) -> str:
            while parent[n] != n:
                parent[n] = parent[parent[n]]
                n = parent[n]
            return n

        for link in self.switch_links():
            ra, rb = root(link.a), root(link.b)
            if ra == rb:
                return True
            parent[ra] = rb
        return False

    def with_link_params(self, params: LinkParams, only_unset: bool = True) -> "Topology":
        """A copy where every link takes ``params`` (links with their own params keep them when
        ``only_unset``)."""
        links = [l if (only_unset and not l.params.is_default()) else replace(l, params=params)
                 for l in self.links]
        return Topology(self.spec, list(self.switches), list(self.hosts), links)

    def to_dict(self) -> dict:
        return {
            "spec": self.spec,
            "switches": [asdict(s) for s in self.switches],
            "hosts": [asdict(h) for h in self.hosts],
            "links": [{"a": l.a, "b": l.b, "params": l.params.to_dict()} for l in self.links],
        }

    def summary(self) -> str:
        return (f"{self.spec}: {_count(self.switches, 'switch', 'switches')}, "
                f"{_count(self.hosts, 'host', 'hosts')}, {_count(self.links, 'link', 'links')}")

    # -- checks ------------------------------------------------------------------------------

    def validate(self) -> None:
        names: set = set()
        for n in [s.name for s in self.switches] + [h.name for h in self.hosts]:
            if not n or not isinstance(n, str):
                raise UserError(f"topology {self.spec}: bad node name {n!r}")
            if n in names:
                raise UserError(f"topology {self.spec}: node {n!r} defined twice")
            names.add(n)
        dpids: set = set()
        for s in self.switches:
            if not 0 < s.dpid < 2 ** 64:
                raise UserError(f"topology {self.spec}: switch {s.name} has a bad dpid {s.dpid}")
            if s.dpid in dpids:
                raise UserError(f"topology {self.spec}: dpid {s.dpid} used twice")
            dpids.add(s.dpid)
        for l in self.links:
            for end in (l.a, l.b):
                if end not in names:
                    raise UserError(f"topology {self.spec}: link {l.a}-{l.b} names unknown node {end!r}")
            if l.a == l.b:
                raise UserError(f"topology {self.spec}: link from {l.a} to itself")
        if not self.switches:
            raise UserError(f"topology {self.spec}: no switches")


def _count(items: list, one: str, many: str) -> str:
    return f"{len(items)} {one if len(items) == 1 else many}"


# -- builders ---------------------------------------------------------------------------------

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
        self.links.append(Link(a, b))

    def hosts_on(self, switch: str, count: int) -> None:
        for _ in range(count):
            self.link(self.host(), switch)

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
    for leaf in leaf_names:
        b.hosts_on(leaf, h)
    for leaf in leaf_names:
        for spine in spine_names:
            b.link(leaf, spine)
    return b.done()


# name -> (builder, minimum args, maximum args, usage)
_KINDS: dict = {
    "single": (single, 1, 1, "single,N"),
    "linear": (linear, 1, 2, "linear,N[,H]"),
    "tree": (tree, 2, 2, "tree,DEPTH,FANOUT"),
    "star": (star, 2, 2, "star,S,H"),
    "leafspine": (leafspine, 3, 3, "leafspine,L,S,H"),
}

# Each argument's lower bound, per kind, so "tree,0,2" says what is wrong.
_MINIMUMS: dict = {
    "single": (1,), "linear": (1, 1), "tree": (1, 1), "star": (1, 1), "leafspine": (1, 1, 1),
}

MAX_NODES = 2000   # interface names and bring-up time stop making sense long before this


def kinds() -> list:
    return [usage for _, _, _, usage in _KINDS.values()] + ["FILE.yaml", "FILE.py:NAME[,ARG...]"]


def parse_topology(spec: str) -> Topology:
    """Parse a topology spec string (see the module doc) into a ``Topology``."""
    spec = (spec or "").strip()
    if not spec:
        raise UserError(f"empty topology; use one of: {', '.join(kinds())}")
    head = spec.split(",", 1)[0]
    if head.endswith((".yaml", ".yml")) or ".py:" in spec or head.endswith(".py"):
        from . import topofile
        return topofile.load(spec)
    if head not in _KINDS:
        raise UserError(f"unknown topology {head!r}; use one of: {', '.join(kinds())}")
    builder, lo, hi, usage = _KINDS[head]
    raw = spec.split(",")[1:]
    if not lo <= len(raw) <= hi:
        raise UserError(f"topology {spec!r}: expected {usage}")
    try:
        args = [int(a) for a in raw]
    except ValueError:
        raise UserError(f"topology {spec!r}: arguments must be whole numbers ({usage})")
    for a, m in zip(args, _MINIMUMS[head]):
        if a < m:
            raise UserError(f"topology {spec!r}: arguments must be at least {m} ({usage})")
    _check_size(spec, head, args)
    return builder(spec, *args)


def _check_size(spec: str, kind: str, args: list) -> None:
    count: Callable[..., int] = {
        "single": lambda n: n + 1,
        "linear": lambda n, h=1: n * (h + 1),
        "tree": lambda d, f: sum(f ** i for i in range(d + 1)),
        "star": lambda s, h: s * (h + 1),
        "leafspine": lambda l, s, h: l * (h + 1) + s,
    }[kind]
    if count(*args) > MAX_NODES:
        raise UserError(f"topology {spec!r} has {count(*args)} nodes; at most {MAX_NODES} are supported")
