"""The inventory of a lab for the SSH hosts backend: hosts reached over SSH and the switch(es)
under test that join them. YAML; every error names the file and line.

Example (``lab.yaml``)::

    controller: 127.0.0.1:6653      # where the switches' controller connections point: a managed
                                    # controller is started listening on this port
    defaults: {user: root, key: keys/id_ed25519, port: 22}   # for every host (key: relative to
                                                              # this file)
    switches:                       # the switches under test, in the topology's order
      - s1                          # name (dpid = position), or {name: s1, dpid: 0x1}
      - {name: s2, dpid: 2}
    links: [[s2, s1]]               # switch-to-switch cabling
    hosts:
      - {name: h1, ssh: 192.168.7.11, switch: s1, intf: eth1, ip: 10.0.0.1}
      - {name: h2, ssh: 192.168.7.12, switch: s2, intf: eth1, ip: 10.0.0.2,
         port: 2222, user: lab, key: keys/lab, path: /usr/local/bin:/usr/bin:/bin}

Host fields: ``name``, ``ssh`` (address of the SSH control connection), ``port`` (22), ``user``,
``key`` (private key file), ``switch`` (the switch its test interface is cabled to), ``intf``
(test interface), ``ip`` (its address on the test network), ``path`` (PATH for the measurement
tools on that host; default: the login PATH), ``host_key`` (``accept``: record an unknown host
key, the default; or a known_hosts file, then unknown keys are refused).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..topology import Host, Link, Switch, Topology

HOST_KEYS = ("name", "ssh", "port", "user", "key", "switch", "intf", "ip", "path", "host_key")
TOP_KEYS = ("name", "controller", "defaults", "switches", "links", "hosts")


class InventoryError(ValueError):
    """A problem in an inventory file: ``file:line: what``."""


@dataclass(frozen=True)
class RemoteHost:
    name: str
    ssh: str
    port: int
    user: str
    key: Optional[str]
    switch: str
    intf: Optional[str]
    ip: str
    path: Optional[str] = None
    host_key: str = "accept"

    def where(self) -> str:
        return f"host {self.name} ({self.user}@{self.ssh}:{self.port})"


@dataclass
class Inventory:
    path: str
    controller: Optional[tuple]                      # (host, port) the switches point at
    switches: list = field(default_factory=list)     # list[Switch]
    links: list = field(default_factory=list)        # [(a, b)]
    hosts: list = field(default_factory=list)        # list[RemoteHost]

    def host(self, name: str) -> RemoteHost:
        for h in self.hosts:
            if h.name == name:
                return h
        raise KeyError(name)

    def topology(self) -> Topology:
        """The lab as a ``Topology`` (host links to their switch first, then switch links)."""
        links = [Link(h.name, h.switch) for h in self.hosts]
        links += [Link(a, b) for a, b in self.links]
        hosts = [Host(h.name, ip=h.ip) for h in self.hosts]
        return Topology(f"inventory:{self.path}", list(self.switches), hosts, links)


def load(path) -> Inventory:
    path = Path(path)
    return _Parser(path).inventory(compose(path, "inventory"))


def compose(path: Path, kind: str):
    """The YAML node tree of the ``kind`` file ``path`` (None when it is empty), whose nodes
    know their lines; or an InventoryError naming the file (and the line)."""
    from ...yamlload import YamlError, compose as compose_yaml

    try:
        text = path.read_text()
    except FileNotFoundError:
        raise InventoryError(f"{path}: no such {kind} file")
    except OSError as e:
        raise InventoryError(f"{path}: cannot read ({e.strerror})")
    except UnicodeDecodeError:
        raise InventoryError(f"{path}: is not a text file (not UTF-8)")
    try:
        return compose_yaml(text, str(path))
    except YamlError as e:
        raise InventoryError(str(e))


class _Parser:
    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, node, what: str) -> InventoryError:
        line = f":{node.start_mark.line + 1}" if node is not None else ""
        return InventoryError(f"{self.path}{line}: {what}")

    def mapping(self, node, what: str, known: tuple) -> dict:
        import yaml
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, f"{what} must be a mapping")
        out = {}
        for k, v in node.value:
            key = str(k.value)
            if key not in known:
                raise self.fail(k, f"{what}: unknown key {key!r}; known: {', '.join(known)}")
            if key in out:
                raise self.fail(k, f"{what}: {key} given twice")
            out[key] = v
        return out

    def seq(self, node, what: str) -> list:
        import yaml
        if not isinstance(node, yaml.SequenceNode):
            raise self.fail(node, f"{what} must be a list")
        return node.value

    def scalar(self, node, what: str) -> str:
        import yaml
        if not isinstance(node, yaml.ScalarNode) or node.value in ("", "~", "null"):
            raise self.fail(node, f"{what} must be a single value")
        return str(node.value)

    def inventory(self, root) -> Inventory:
        if root is None:
            raise InventoryError(f"{self.path}: empty inventory")
        top = self.mapping(root, "inventory", TOP_KEYS)
        for need in ("switches", "hosts"):
            if need not in top:
                raise self.fail(root, f"inventory: {need} missing")
        controller = self.address(top["controller"]) if "controller" in top else None
        defaults = self.mapping(top["defaults"], "defaults", HOST_KEYS) if "defaults" in top else {}
        switches = [self.switch(n, i + 1) for i, n in enumerate(self.seq(top["switches"], "switches"))]
        names = [s.name for s in switches]
        links = [self.link(n, names) for n in self.seq(top.get("links") or _empty(), "links")]
        hosts = [self.host(n, defaults, names) for n in self.seq(top["hosts"], "hosts")]
        self.unique(top["hosts"], [h.name for h in hosts] + names, "name")
        self.unique(top["hosts"], [h.ip for h in hosts], "test ip")
        if len(hosts) < 2:
            raise self.fail(top["hosts"], "inventory: at least two hosts are needed")
        return Inventory(str(self.path), controller, switches, links, hosts)

    def unique(self, node, values: list, what: str) -> None:
        seen = set()
        for v in values:
            if v in seen:
                raise self.fail(node, f"{what} {v!r} used twice")
            seen.add(v)

    def address(self, node) -> tuple:
        text = self.scalar(node, "controller")
        host, sep, port = text.rpartition(":")
        if not sep or not port.isdigit() or not 0 < int(port) < 65536:
            raise self.fail(node, f"controller {text!r}: use ADDRESS:PORT, e.g. 127.0.0.1:6653")
        return (host or "127.0.0.1", int(port))

    def switch(self, node, position: int) -> Switch:
        import yaml
        if isinstance(node, yaml.ScalarNode):
            return Switch(self.scalar(node, "a switch"), dpid=position)
        m = self.mapping(node, "a switch", ("name", "dpid", "protocols"))
        if "name" not in m:
            raise self.fail(node, "a switch needs a name")
        dpid = self.scalar(m["dpid"], "dpid") if "dpid" in m else str(position)
        try:
            dpid_n = int(dpid, 0)
        except ValueError:
            raise self.fail(m["dpid"], f"bad dpid {dpid!r}")
        proto = self.scalar(m["protocols"], "protocols") if "protocols" in m else None
        return Switch(self.scalar(m["name"], "switch name"), dpid=dpid_n, protocols=proto)

    def link(self, node, switches: list) -> tuple:
        ends = [self.scalar(n, "a link end") for n in self.seq(node, "a link")]
        if len(ends) != 2:
            raise self.fail(node, f"a link joins two switches, not {len(ends)}")
        for e in ends:
            if e not in switches:
                raise self.fail(node, f"link {ends[0]}-{ends[1]}: no switch {e!r} in switches")
        return tuple(ends)

    def host(self, node, defaults: dict, switches: list) -> RemoteHost:
        m, v, name = self.machine(node, defaults, "host", HOST_KEYS, ("name", "ssh", "switch", "ip"))
        if v["switch"] not in switches:
            raise self.fail(m["switch"], f"host {name}: no switch {v['switch']!r} in switches")
        try:
            ipaddress.ip_address(v["ip"])
        except ValueError:
            raise self.fail(m["ip"], f"host {name}: ip {v['ip']!r} is not an IP address")
        port, key, host_key = self.login(m, v, f"host {name}")
        return RemoteHost(name, v["ssh"], port, v.get("user", "root"), key, v["switch"],
                          v.get("intf"), v["ip"], v.get("path"), host_key)

    # An inventory's host and a servers file's server (``cluster_servers``) alike.

    def machine(self, node, defaults: dict, kind: str, known: tuple, needed: tuple) -> tuple:
        """``(nodes, values, name)`` of one machine's fields (``defaults`` under its own)."""
        m = {**defaults, **self.mapping(node, f"a {kind}", known)}
        v = {k: self.scalar(n, k) for k, n in m.items()}
        name = v.get("name") or "?"
        for need in needed:
            if need not in v:
                raise self.fail(node, f"{kind} {name}: {need} missing")
        return m, v, name

    def login(self, m: dict, v: dict, who: str) -> tuple:
        """``(port, key, host_key)`` of a machine's SSH login, the key file relative to this file."""
        port = v.get("port", "22")
        if not port.isdigit() or not 0 < int(port) < 65536:
            raise self.fail(m["port"], f"{who}: bad port {port!r}")
        key = v.get("key")
        if key:
            kp = Path(key).expanduser()
            kp = kp if kp.is_absolute() else self.path.parent / kp
            if not kp.is_file():
                raise self.fail(m["key"], f"{who}: key file {kp} does not exist")
            key = str(kp)
        host_key = v.get("host_key", "accept")
        if host_key != "accept" and not Path(host_key).expanduser().is_file():
            raise self.fail(m["host_key"], f"{who}: host_key: use accept or a known_hosts file")
        return int(port), key, host_key


def _empty():
    import yaml
    return yaml.SequenceNode("tag:yaml.org,2002:seq", [])
