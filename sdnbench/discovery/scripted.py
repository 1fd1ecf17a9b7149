"""A scripted LLDP controller for known-answer tests (OpenFlow 1.0; threads on 127.0.0.1 from
``sdnbench.testing.peer``, messages from ``sdnbench.testing.openflow``).

Southbound: it answers echo, learns each switch's dpid and ports from FEATURES_REPLY, and every
``probe_ms`` sends one LLDP-typed PACKET_OUT per port carrying (dpid, port) — except out of
``never_probe`` (dpid, port); a PACKET_IN of such a frame is a link direction learned.
Northbound: a fake os-ken-style ``/v1/links`` that shows the links learned, but only once
``reveal_s`` has passed since the first switch connected (a known discovery delay), and never
``hide`` (a link direction it "never learns"); a direction in ``forget`` leaves the view for good
``forget_s`` after the first connection (a view that loses links again, as os-ken's ages them).
With ``react_ms``, a PORT_STATUS saying a port went down is answered ``react_ms`` later by a
FLOW_MOD (ADD, drop what arrives on that port): a known southbound reaction time.
"""

from __future__ import annotations

import socket
import time
from typing import Optional

from ..northbound.osken import PATH
from ..testing import openflow as of
from ..testing.http import FakeApi
from ..testing.peer import ThreadedPeer

V10 = of.V10


def _drop_in_port(port: int) -> bytes:
    """OpenFlow 1.0 FLOW_MOD ADD: match in_port only, no actions (drop)."""
    return of.flow_mod10(9, of.match10_in_port(port), priority=100)


def _probe(dpid: int, port: int) -> bytes:
    return of.packet_out(V10, 7, of.output(V10, port, 0), of.probe_frame(dpid, port, 2))


class LldpController(ThreadedPeer):
    def __init__(self, probe_ms: int = 50, reveal_s: float = 0.0, never_probe=None, hide=(),
                 react_ms: Optional[int] = None, forget=(), forget_s: float = 1.0):
        super().__init__()
        self.probe_ms, self.reveal_s, self.react_ms = probe_ms, reveal_s, react_ms
        self.never_probe, self.hide = never_probe, set(hide)
        self.forget, self.forget_s = set(forget), forget_s
        self.first_connect: Optional[float] = None
        self.learned: set = set()
        self.api = FakeApi({PATH: self._links})

    def _links(self):
        with self._lock:
            age = None if self.first_connect is None else time.monotonic() - self.first_connect
            hidden = self.hide | (self.forget if age is not None and age >= self.forget_s else set())
            links = sorted(self.learned - hidden) if age is not None and age >= self.reveal_s else []
        return 200, [{"src": {"dpid": a, "port_no": pa}, "dst": {"dpid": b, "port_no": pb}} for (a, pa), (b, pb) in links]

    def __enter__(self) -> "LldpController":
        self.api.__enter__()
        return super().__enter__()

    def __exit__(self, *exc) -> None:
        super().__exit__(*exc)
        self.api.__exit__()

    def accepted(self) -> None:
        with self._lock:
            if self.first_connect is None:
                self.first_connect = time.monotonic()

    def greeting(self) -> bytes:
        return of.hello(V10, 1) + of.msg(V10, "FEATURES_REQUEST", 2)

    def new_state(self) -> dict:
        return {"dpid": None, "ports": [], "next_probe": 0.0, "due": []}

    def tick(self, s: socket.socket, st: dict) -> None:
        while st["due"] and time.monotonic() >= st["due"][0][0]:
            s.sendall(st["due"].pop(0)[1])
        if st["dpid"] is not None and time.monotonic() >= st["next_probe"]:
            s.sendall(b"".join(_probe(st["dpid"], p) for p in st["ports"] if (st["dpid"], p) != self.never_probe))
            st["next_probe"] = time.monotonic() + self.probe_ms / 1000

    def left(self, st: dict) -> None:
        # a switch that left takes its links with it (as os-ken's switch-leave does)
        with self._lock:
            self.learned = {l for l in self.learned if st["dpid"] not in (l[0][0], l[1][0])}

    def handle(self, s: socket.socket, m: bytes, st: dict) -> None:
        kind = of.name_of(m)
        if kind == "FEATURES_REPLY":
            f = of.features(m)
            st["dpid"], st["ports"] = f["dpid"], f["ports"]
        elif kind == "PORT_STATUS" and self.react_ms is not None:
            port, _, state = of.port_status(m)
            if state & of.OFPPS_LINK_DOWN:
                st["due"].append((time.monotonic() + self.react_ms / 1000, _drop_in_port(port)))
        elif kind == "PACKET_IN":
            pi = of.packet_in(m)
            src = of.probed(pi["frame"], 2)
            if src is not None:
                with self._lock:
                    self.learned.add((src, (st["dpid"], pi["in_port"])))
