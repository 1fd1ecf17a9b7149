"""A controller that speaks OpenFlow 1.0 only and closes the connection on any HELLO but a plain
1.0 one (a 1.3 header, or a version-bitmap element), as a C++ learning switch built on a public
OpenFlow library does ("failed version negotiation"; issue 40). It says its own plain 1.0 HELLO
on connect, asks for the features once the switch's HELLO is acceptable, and answers each
packet-in with a 1.0 flow-mod naming its buffer id (the engine's answer), each echo request with
its reply. ``closed`` counts the connections it dropped for their HELLO.

The known answer of the engine's HELLO retry (``crates/engine/src/switch/hello_fallback.rs``):
offering 1.0 and 1.3, every session is retried with a plain 1.0 HELLO and measured at 1.0."""

from __future__ import annotations

import socket
import struct

from .. import openflow as of
from ..peer import ThreadedPeer


class Picky10Controller(ThreadedPeer):
    def __init__(self, port: int = 0) -> None:
        super().__init__(port)
        self.closed = 0

    def greeting(self) -> bytes:
        return of.hello(of.V10)

    def new_state(self) -> dict:
        return {"greeted": False}

    def handle(self, s: socket.socket, m: bytes, st: dict) -> None:
        if not st["greeted"]:
            if m[0] != of.V10 or len(m) != 8 or of.name_of(m) != "HELLO":
                with self._lock:
                    self.closed += 1
                raise ConnectionAbortedError("failed version negotiation")   # the frame closes it
            st["greeted"] = True
            s.sendall(of.msg(of.V10, "FEATURES_REQUEST", 2))
            return
        if of.name_of(m) == "PACKET_IN":
            buffer_id = struct.unpack_from("!I", m, 8)[0]
            s.sendall(of.drop_flow(of.V10, 9, buffer_id))
