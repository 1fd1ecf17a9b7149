"""A TCP server on 127.0.0.1 whose connections run as asyncio tasks on a thread of its own: the
common frame of the scripted OpenFlow peers of the known-answer tests
(``scripted_controller.py``, ``path_controller.py``, ``reroute_controller.py``).
A subclass calls ``LoopServer.__init__`` and implements ``async _serve(reader, writer)``."""

from __future__ import annotations

import asyncio
import socket
import threading


async def read_message(reader: asyncio.StreamReader) -> bytes:
    """One whole OpenFlow message (header and body); IncompleteReadError when the peer left."""
    head = await reader.readexactly(8)
    return head + await reader.readexactly(max(8, int.from_bytes(head[2:4], "big")) - 8)


class LoopServer:
    def __init__(self) -> None:
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server = None

    def __enter__(self):
        # IPPROTO_TCP named, so that asyncio turns Nagle off on every accepted connection (it
        # does so only for a socket whose proto says TCP; socket() says 0). With Nagle on, a
        # second small write waits for the peer's ACK: measured, a reroute's second flow-mod to
        # a switch left 1-7 ms late, until that switch's next packet-in carried the ACK.
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        self._thread.start()
        fut = asyncio.run_coroutine_threadsafe(asyncio.start_server(self._serve, sock=s), self._loop)
        self._server = fut.result(5)
        return self

    def __exit__(self, *exc) -> None:
        async def close():
            self._server.close()
        asyncio.run_coroutine_threadsafe(close(), self._loop).result(5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        raise NotImplementedError
