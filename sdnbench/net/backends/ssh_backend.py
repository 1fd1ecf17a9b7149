"""The SSH hosts backend as a ``base`` backend: the topology is the inventory's (it must have the
shape of the ``topo`` parameter, so that results compare with a Mininet run of the same
scenario), and the managed controller listens on the port the inventory's switches point at."""

from __future__ import annotations

from typing import Optional

from ...errors import UserError
from ..topology import Topology, parse_topology
from . import inventory as inv
from .ssh import SSHNetwork


class SSHBackend:
    name = "ssh"

    def __init__(self, path: str) -> None:
        try:
            self.inventory = inv.load(path)
        except inv.InventoryError as e:
            raise UserError(f"inventory {e}")

    def topology(self, p: dict) -> Topology:
        mine = self.inventory.topology()
        if p.get("topo"):
            want = parse_topology(p["topo"])
            if shape(want) != shape(mine):
                raise UserError(f"inventory {self.inventory.path} is not topology {p['topo']}: "
                                f"it has {describe_shape(mine)}, {p['topo']} has {describe_shape(want)}")
        return mine

    def controller_port(self) -> Optional[int]:
        c = self.inventory.controller
        return c[1] if c else None

    def network(self, topo: Topology, controller: Optional[tuple], p: dict) -> SSHNetwork:
        if controller is not None and self.inventory.controller is None:
            raise UserError(f"inventory {self.inventory.path}: no controller: address; the switches' "
                            "controller connection must be named to start a controller for them")
        net, self._checked = getattr(self, "_checked", None), None
        if net is None:
            net = SSHNetwork(self.inventory, p["measurements"])
        net.controller = controller
        return net

    def preflight(self, topo: Topology, p: dict) -> None:
        """Connect and check every host before a controller starts; the first repetition's
        network reuses these connections (closed with it)."""
        self._checked = SSHNetwork(self.inventory, p["measurements"]).check()


def shape(t: Topology) -> tuple:
    """Switch names, host -> switch, and switch links: what must agree for results to compare."""
    links = sorted(tuple(sorted((l.a, l.b))) for l in t.switch_links())
    return (tuple(t.switch_names()), tuple((h, t.switch_of(h)) for h in t.host_names()), tuple(links))


def describe_shape(t: Topology) -> str:
    s = ", ".join(f"{sw}: {'+'.join(t.hosts_on(sw)) or '-'}" for sw in t.switch_names())
    return f"{len(t.switch_names())} switch(es) [{s}], {len(t.switch_links())} switch link(s)"
