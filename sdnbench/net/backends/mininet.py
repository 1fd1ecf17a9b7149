"""The Mininet backend as a ``base`` backend: the topology comes from the ``topo`` parameter
and every repetition gets a freshly built ``mininet_network.MininetNetwork``."""

from __future__ import annotations

from typing import Optional

from .mininet_network import MininetNetwork
from ..topology import Topology, parse_topology


class MininetBackend:
    name = "mininet"

    def topology(self, p: dict) -> Topology:
        return parse_topology(p["topo"])

    def controller_port(self) -> Optional[int]:
        return None                 # any free port: the switches are told where it is

    def network(self, topo: Topology, controller: Optional[tuple], p: dict) -> MininetNetwork:
        return MininetNetwork(topo, controller=controller, protocols=p["protocols"],
                              datapath=p["datapath"], switch=p["switch"])

    def preflight(self, topo: Topology, p: dict) -> None:
        self.network(topo, None, p).check()
