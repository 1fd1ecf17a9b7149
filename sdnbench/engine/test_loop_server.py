"""The scripted peers' server frame (``loop_server.py``): Nagle is off on what it accepts, so a
peer's second small write goes out at once instead of waiting for the switch's ACK (which held
a reroute's second flow-mod per switch back 1-7 ms, until that switch's next packet-in)."""

from __future__ import annotations

import asyncio
import socket
import threading

from sdnbench.testing.peers.loop_server import LoopServer


class _Probe(LoopServer):
    def __init__(self) -> None:
        super().__init__()
        self.nodelay: list = []
        self.seen = threading.Event()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        self.nodelay.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
        self.seen.set()
        writer.close()


def test_every_accepted_connection_has_nagle_off():
    with _Probe() as server:
        for _ in range(2):
            server.seen.clear()
            with socket.create_connection(("127.0.0.1", server.port), timeout=5):
                assert server.seen.wait(5)
    assert server.nodelay == [1, 1]
