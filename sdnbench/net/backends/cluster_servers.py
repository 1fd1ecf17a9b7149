"""The servers file of the cluster backend (pure): the machines a Mininet cluster spreads over,
how nodes are placed on them, and how links between servers are made. YAML; every error names
the file and line (the inventory's parser, ``inventory._Parser``).

Example (``servers.yaml``)::

    defaults: {user: root, key: keys/id_ed25519, port: 22}   # for every server (key: relative
                                                              # to this file)
    servers:                        # in placement order
      - {name: a, ssh: 192.168.7.21}
      - {name: b, ssh: 192.168.7.22, tunnel_ip: 10.9.0.22}
    placement: blocks               # blocks (default) | round-robin
    tunnel: vxlan                   # vxlan (default) | gre

Server fields: ``name``, ``ssh`` (address of its sshd), ``port``, ``user`` (must be root: the
switches, namespaces and tunnels are made without sudo), ``key``, ``host_key`` (``accept`` or a
known_hosts file), ``tunnel_ip`` (the address other servers reach it at for tunnels; default
``ssh``), ``path`` (PATH of the measurement tools).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from .inventory import InventoryError, RemoteHost, _Parser, compose

SERVER_KEYS = ("name", "ssh", "port", "user", "key", "host_key", "tunnel_ip", "path")
TOP_KEYS = ("defaults", "servers", "placement", "tunnel")
PLACEMENTS = ("blocks", "round-robin")
TUNNELS = ("vxlan", "gre")


@dataclass(frozen=True)
class Server(RemoteHost):
    """A server is reached like an inventory host (``remote.RemoteHostSession``)."""
    tunnel_ip: str = ""

    def where(self) -> str:
        return f"server {self.name} ({self.user}@{self.ssh}:{self.port})"


@dataclass(frozen=True)
class Servers:
    path: str
    servers: tuple          # tuple[Server], placement order
    placement: str
    tunnel: str

    def names(self) -> list:
        return [s.name for s in self.servers]

    def server(self, name: str) -> Server:
        return next(s for s in self.servers if s.name == name)

    def only(self, names: list) -> "Servers":
        """The same file restricted to some servers (a one-server comparison run)."""
        return Servers(self.path, tuple(s for s in self.servers if s.name in names),
                       self.placement, self.tunnel)


def load(path, placement: Optional[str] = None) -> Servers:
    """Parse ``path``; ``placement`` overrides the file's."""
    path = Path(path)
    root = compose(path, "servers")
    if root is None:
        raise InventoryError(f"{path}: empty servers file")
    p = _Parser(path)
    top = p.mapping(root, "servers file", TOP_KEYS)
    if "servers" not in top:
        raise p.fail(root, "servers file: servers missing")
    defaults = p.mapping(top["defaults"], "defaults", SERVER_KEYS) if "defaults" in top else {}
    servers = tuple(_server(p, n, defaults) for n in p.seq(top["servers"], "servers"))
    if not servers:
        raise p.fail(top["servers"], "servers file: no server")
    p.unique(top["servers"], [s.name for s in servers], "server name")
    p.unique(top["servers"], [(s.ssh, s.port) for s in servers], "ssh address")
    place = placement or (p.scalar(top["placement"], "placement") if "placement" in top else "blocks")
    if place not in PLACEMENTS:
        raise p.fail(top.get("placement"), f"placement {place!r}: use {' or '.join(PLACEMENTS)}")
    tunnel = p.scalar(top["tunnel"], "tunnel") if "tunnel" in top else "vxlan"
    if tunnel not in TUNNELS:
        raise p.fail(top["tunnel"], f"tunnel {tunnel!r}: use {' or '.join(TUNNELS)}")
    return Servers(str(path), servers, place, tunnel)


def _server(p: _Parser, node, defaults: dict) -> Server:
    m, v, name = p.machine(node, defaults, "server", SERVER_KEYS, ("name", "ssh"))
    if not name.isalnum() or len(name) > 8:
        raise p.fail(m["name"], f"server {name}: a name is 1-8 letters or digits")
    if v.get("user", "root") != "root":
        raise p.fail(m["user"], f"server {name}: user must be root (Mininet's cluster nodes, "
                                "bridges and tunnels are made without sudo)")
    port, key, host_key = p.login(m, v, f"server {name}")
    tunnel_ip = v.get("tunnel_ip", v["ssh"])
    try:
        ipaddress.IPv4Address(tunnel_ip)
    except ValueError:
        raise p.fail(m.get("tunnel_ip", m["ssh"]), f"server {name}: tunnel_ip {tunnel_ip!r} must "
                     "be an IPv4 address (give tunnel_ip when ssh is a name)")
    return Server(name, v["ssh"], port, "root", key, "", None, tunnel_ip, v.get("path"),
                  host_key, tunnel_ip)
