"""A scripted OpenFlow 1.0 controller for the re-provisioning known answer (RFC 8456 §5.4.2):
it knows the network (the engine's network dict) and the host pairs, installs each pair's
shortest path (match dl_src, dl_dst -> the next hop) once every switch has connected, and when a
PORT_STATUS says a port of a link went down, waits ``delay_s`` (the known reroute delay) and
installs every pair's shortest path without that link, egress switch first. It records the
delay each reroute really waited (``applied_s``: asyncio timers fire late). Packet-ins are
ignored. Runs an asyncio loop on a thread on 127.0.0.1 and a free port.
"""

from __future__ import annotations

import asyncio

from sdnbench.testing import openflow as of
from sdnbench.testing.peers.path_controller import Of10Controller, flow_mod
from sdnbench.rfc8456.paths import port_path


def _mac(text: str) -> bytes:
    return bytes.fromhex(text.replace(":", ""))


class RerouteController(Of10Controller):
    def __init__(self, net: dict, pairs: list, delay_s: float = 0.0):
        super().__init__()
        self.net = dict(net, links=list(net["links"]))
        self.pairs = pairs
        self.delay_s = delay_s
        self.applied_s: list = []
        self.port_status = 0

    def __enter__(self) -> "RerouteController":
        super().__enter__()
        return self

    def _install(self) -> None:
        """Every pair's shortest path in the current network, egress switch first."""
        for s, d in self.pairs:
            src, dst = _mac(self.net["hosts"][s]["mac"]), _mac(self.net["hosts"][d]["mac"])
            for dpid, out in reversed(port_path(self.net, s, d)):
                self._writers[dpid].write(flow_mod(src, dst, 9, out))

    def _reroute(self, t_in: float) -> None:
        self.applied_s.append(self._loop.time() - t_in)
        self._install()

    def _port_down(self, dpid: int, port: int) -> None:
        links = self.net["links"]
        gone = [l for l in links if (l[0], l[1]) == (dpid, port) or (l[2], l[3]) == (dpid, port)]
        if not gone:
            return          # the other end of a link already handled
        self.net["links"] = [l for l in links if l not in gone]
        self._loop.call_later(self.delay_s, self._reroute, self._loop.time())

    def _on_switch(self) -> None:
        if len(self._writers) == len(self.net["switches"]):
            self._install()

    def _on_message(self, writer: asyncio.StreamWriter, m: bytes, conn: dict) -> None:
        if of.name_of(m) == "PORT_STATUS":
            self.port_status += 1
            port_no, config, state = of.port_status(m)
            if config & of.OFPPC_PORT_DOWN or state & of.OFPPS_LINK_DOWN:
                dpid = next(d for d, w in self._writers.items() if w is writer)
                self._port_down(dpid, port_no)
