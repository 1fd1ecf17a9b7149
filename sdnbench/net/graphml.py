"""Internet Topology Zoo GraphML files as topologies: ``FILE.graphml[,H]``.

Every ``<node>`` becomes a switch (s1, s2, ... in document order, dpid = position; its ``label``
data, when the file has one, becomes the switch's role so ``net topo`` shows the city), every
``<edge>`` a switch-to-switch link in document order, and H hosts (default 1) hang off every
switch. The Zoo's files hold parallel edges (several links between two cities) and, rarely,
self-loops: a parallel edge is kept once and a self-loop is dropped. Errors name the file, the
line and what is wrong.

The file is read with the expat parser under ``xml.etree`` so every node and edge keeps its line.
"""

from __future__ import annotations

from pathlib import Path
from xml.parsers import expat

from ..errors import UserError
from .topo_model import Host, Link, Switch, Topology

_NS = "http://graphml.graphdrawing.org/xmlns"


class _Reader:
    """Collects keys, nodes (id, label, line) and edges (source, target, line)."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.label_keys: set = set()
        self.nodes: list = []            # [id, label, line]
        self.edges: list = []            # (source, target, line)
        self.graphs = 0
        self._data_key = None
        self._text: list = []
        self.parser = expat.ParserCreate(namespace_separator=" ")
        self.parser.StartElementHandler = self.start
        self.parser.EndElementHandler = self.end
        self.parser.CharacterDataHandler = self._text.append

    def line(self) -> int:
        return self.parser.CurrentLineNumber

    def fail(self, what: str) -> None:
        raise UserError(f"{self.where}:{self.line()}: {what}")

    def start(self, tag: str, attrs: dict) -> None:
        name = tag.split(" ")[-1]
        if name == "key" and attrs.get("attr.name") == "label" and attrs.get("for") in ("node", None, "all"):
            self.label_keys.add(attrs.get("id"))
        elif name == "graph":
            self.graphs += 1
            if self.graphs > 1:
                self.fail("more than one <graph>; split the file")
        elif name == "node":
            if "id" not in attrs:
                self.fail("<node> without an id")
            self.nodes.append([attrs["id"], None, self.line()])
        elif name == "edge":
            if "source" not in attrs or "target" not in attrs:
                self.fail("<edge> without a source and a target")
            self.edges.append((attrs["source"], attrs["target"], self.line()))
        elif name == "data" and self.nodes and attrs.get("key") in self.label_keys:
            self._data_key = attrs.get("key")
            self._text.clear()

    def end(self, tag: str) -> None:
        name = tag.split(" ")[-1]
        if name == "data" and self._data_key is not None:
            self.nodes[-1][1] = "".join(self._text).strip() or None
            self._data_key = None


def read(path: Path) -> _Reader:
    where = str(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise UserError(f"topology file {where}: no such file")
    except OSError as e:
        raise UserError(f"topology file {where}: cannot read it ({e.strerror})")
    r = _Reader(where)
    try:
        r.parser.Parse(raw, True)
    except expat.ExpatError as e:
        raise UserError(f"{where}:{e.lineno}: not well-formed XML ({expat.ErrorString(e.code)})")
    if r.graphs == 0:
        raise UserError(f"{where}: no <graph> element; not a GraphML file")
    if not r.nodes:
        raise UserError(f"{where}: the graph has no nodes")
    return r


def load(spec: str) -> Topology:
    head, _, rest = spec.partition(",")
    h = 1
    if rest:
        try:
            h = int(rest)
        except ValueError:
            raise UserError(f"topology {spec!r}: expected FILE.graphml[,H] with H a whole number")
        if h < 0:
            raise UserError(f"topology {spec!r}: H must be at least 0")
    return build(read(Path(head)), spec, h)


def build(r: _Reader, spec: str, hosts_per_switch: int) -> Topology:
    names: dict = {}
    switches = []
    for i, (node_id, label, line) in enumerate(r.nodes, start=1):
        if node_id in names:
            raise UserError(f"{r.where}:{line}: node id {node_id!r} used twice")
        names[node_id] = f"s{i}"
        switches.append(Switch(f"s{i}", dpid=i, role=label))
    hosts, links = [], []
    for s in switches:
        for _ in range(hosts_per_switch):
            hosts.append(Host(f"h{len(hosts) + 1}"))
            links.append(Link(hosts[-1].name, s.name))
    seen: set = set()
    for source, target, line in r.edges:
        for end in (source, target):
            if end not in names:
                raise UserError(f"{r.where}:{line}: edge names unknown node {end!r}")
        a, b = names[source], names[target]
        key = tuple(sorted((a, b)))
        if a == b or key in seen:
            continue
        seen.add(key)
        links.append(Link(a, b))
    return Topology(spec, switches, hosts, links)
