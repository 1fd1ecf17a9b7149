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
FLOW_MOD (ADD: what arrives on that port goes to the controller): a known southbound reaction time.

It records what it did and saw (CLOCK_MONOTONIC ns, the engine's clock), so a test bounds the
engine's readings by these events rather than by the machine's speed: ``first_connect_ns``,
``probed_ns`` (the first probe sent out of each (dpid, port)), ``heard`` ((ns, direction) for
every probe that came back as a packet-in), ``views`` ((ns, size) of every northbound answer,
taken as it was built), ``ended_ns`` (when the first connection ended) and, with ``react_ms``,
``reactions`` (per PORT_STATUS down: when it arrived, when the flow-mod went out, and when the
echo reply to the ECHO_REQUEST sent right behind the flow-mod came back: the switch had read the
flow-mod by then).
"""

from __future__ import annotations

import socket
import time
from typing import Optional

from sdnbench.northbound.osken import PATH
from sdnbench.testing import openflow as of
from sdnbench.testing.http import FakeApi
from sdnbench.testing.peer import ThreadedPeer

V10 = of.V10
ECHO_XID = 0x5EC0          # the ECHO_REQUEST sent right behind a reaction's flow-mod


def _watch_in_port(port: int) -> bytes:
    """OpenFlow 1.0 FLOW_MOD ADD: match in_port only, output to the controller (what arrives
    there still comes up as packet-ins, the probes too)."""
    return of.flow_mod10(9, of.match10_in_port(port), priority=100, actions=of.output(V10, of.CONTROLLER[V10]))


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
        self.first_connect_ns: Optional[int] = None
        self.learned: set = set()
        self.probed_ns: dict = {}
        self.heard: list = []
        self.views: list = []
        self.reactions: list = []
        self.ended_ns: Optional[int] = None
        self.api = FakeApi({PATH: self._links})

    def _links(self):
        with self._lock:
            age = None if self.first_connect is None else time.monotonic() - self.first_connect
            hidden = self.hide | (self.forget if age is not None and age >= self.forget_s else set())
            links = sorted(self.learned - hidden) if age is not None and age >= self.reveal_s else []
            self.views.append((time.monotonic_ns(), len(links)))
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
                self.first_connect_ns = time.monotonic_ns()
                self.first_connect = self.first_connect_ns / 1e9

    def greeting(self) -> bytes:
        return of.hello(V10, 1) + of.msg(V10, "FEATURES_REQUEST", 2)

    def new_state(self) -> dict:
        return {"dpid": None, "ports": [], "next_probe": 0.0, "due": [], "echo_wait": []}

    def tick(self, s: socket.socket, st: dict) -> None:
        while st["due"] and time.monotonic() >= st["due"][0][0]:
            _, msg, reaction = st["due"].pop(0)
            reaction["sent_ns"] = time.monotonic_ns()
            st["echo_wait"].append(reaction)
            s.sendall(msg + of.msg(V10, "ECHO_REQUEST", ECHO_XID))
        if st["dpid"] is not None and time.monotonic() >= st["next_probe"]:
            ports = [p for p in st["ports"] if (st["dpid"], p) != self.never_probe]
            now = time.monotonic_ns()
            with self._lock:
                for p in ports:
                    self.probed_ns.setdefault((st["dpid"], p), now)
            s.sendall(b"".join(_probe(st["dpid"], p) for p in ports))
            st["next_probe"] = time.monotonic() + self.probe_ms / 1000

    def left(self, st: dict) -> None:
        # a switch that left takes its links with it (as os-ken's switch-leave does)
        with self._lock:
            self.ended_ns = self.ended_ns or time.monotonic_ns()
            self.learned = {l for l in self.learned if st["dpid"] not in (l[0][0], l[1][0])}

    def handle(self, s: socket.socket, m: bytes, st: dict) -> None:
        kind = of.name_of(m)
        if kind == "FEATURES_REPLY":
            f = of.features(m)
            st["dpid"], st["ports"] = f["dpid"], f["ports"]
        elif kind == "PORT_STATUS" and self.react_ms is not None:
            port, _, state = of.port_status(m)
            if state & of.OFPPS_LINK_DOWN:
                reaction = {"port_status_ns": time.monotonic_ns(), "sent_ns": None, "echoed_ns": None}
                self.reactions.append(reaction)
                st["due"].append((time.monotonic() + self.react_ms / 1000, _watch_in_port(port), reaction))
        elif kind == "ECHO_REPLY" and of.header(m)[3] == ECHO_XID and st["echo_wait"]:
            st["echo_wait"].pop(0)["echoed_ns"] = time.monotonic_ns()
        elif kind == "PACKET_IN":
            pi = of.packet_in(m)
            src = of.probed(pi["frame"], 2)
            if src is not None:
                with self._lock:
                    self.heard.append((time.monotonic_ns(), (src, (st["dpid"], pi["in_port"]))))
                    self.learned.add((src, (st["dpid"], pi["in_port"])))
