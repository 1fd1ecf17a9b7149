"""The topology data model: switches, hosts and links with their link parameters, and the
``Topology`` that holds them (its invariants and port numbering are described in ``topology``,
which parses spec strings into it). A leaf: the file formats (``graphml``, ``topofile``) build
these without importing the spec parser that dispatches to them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Optional

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
    _index: Optional[dict] = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.validate()

    def _idx(self) -> dict:
        """Lookup tables built once, so queries stay O(1) on 100,000-switch networks."""
        if self._index is None:
            switches = {s.name for s in self.switches}
            attach: dict = {}
            on: dict = {s: [] for s in switches}
            for link in self.links:
                for h, s in ((link.a, link.b), (link.b, link.a)):
                    if h not in switches and s in switches and h not in attach:
                        attach[h] = s
            for h in self.hosts:
                if h.name in attach:
                    on[attach[h.name]].append(h.name)
            self._index = {"switches": switches, "attach": attach, "on": on}
        return self._index

    # -- queries -----------------------------------------------------------------------------

    def switch_names(self) -> list:
        return [s.name for s in self.switches]

    def host_names(self) -> list:
        return [h.name for h in self.hosts]

    def is_switch(self, name: str) -> bool:
        return name in self._idx()["switches"]

    def switch_of(self, host: str) -> Optional[str]:
        """The switch a host is attached to (its first link to a switch)."""
        return self._idx()["attach"].get(host)

    def hosts_on(self, switch: str) -> list:
        return list(self._idx()["on"].get(switch, []))

    def switch_links(self) -> list:
        names = self._idx()["switches"]
        return [l for l in self.links if l.a in names and l.b in names]

    def ports(self) -> list:
        """``[(port_a, port_b), ...]``, one per link in ``links`` order: Mininet's numbering (per
        node in link order, from 1 on switches and 0 on hosts)."""
        switches = self._idx()["switches"]
        used: dict = {}
        out = []
        for link in self.links:
            pair = []
            for end in (link.a, link.b):
                n = used.get(end, 1 if end in switches else 0)
                used[end] = n + 1
                pair.append(n)
            out.append((pair[0], pair[1]))
        return out

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
