"""A controller that listens every way a real one may: a TCP relay in front of a real controller,
its listening socket bound as the test asks (IPv4, IPv6, IPv4-mapped as a JVM binds 127.0.0.1,
the wildcard of either family, ``IPV6_V6ONLY`` either way, inside another network namespace, or
only after a delay). Every byte goes both ways unchanged, so what a command measures through it
is the controller behind it; only the form of the listener differs (the listener matrix,
``sdnbench/testing/listener_matrix.py``).

``python -m sdnbench.testing.peers.relay --bind ADDR [--v6only] [--delay S] --to HOST:PORT``
prints ``listening PORT`` once it listens (a ``cmd:`` controller that starts late).
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import os
import socket
import sys
import threading
import time
from dataclasses import dataclass
from typing import Optional

CLONE_NEWNET = 0x40000000


@dataclass(frozen=True)
class Form:
    """How a listener is bound: its address, ``IPV6_V6ONLY``, and the namespace it is in."""
    bind: str
    v6only: Optional[bool] = None
    netns: Optional[str] = None

    @property
    def family(self) -> int:
        return socket.AF_INET6 if ":" in self.bind else socket.AF_INET


def listen(form: Form, port: int = 0) -> socket.socket:
    """A listening socket of ``form``; made inside ``form.netns`` by a thread that enters it (a
    socket stays in the namespace it was made in)."""
    made: list = []

    def make():
        try:
            if form.netns:
                _enter(form.netns)
            s = socket.socket(form.family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if form.v6only is not None:
                s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, int(form.v6only))
            s.bind((form.bind, port))
            s.listen(4096)
            made.append(s)
        except OSError as e:
            made.append(e)

    t = threading.Thread(target=make)      # setns changes only this thread, which then ends
    t.start()
    t.join()
    if isinstance(made[0], OSError):
        raise made[0]
    return made[0]


def _enter(netns: str) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(f"/run/netns/{netns}", os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), f"setns {netns}")
    finally:
        os.close(fd)


class Relay:
    """``with Relay(form, ("127.0.0.1", 6653)) as r:`` listens at ``r.port`` and relays every
    connection to the target, on an event loop of its own thread."""

    def __init__(self, form: Form, target: tuple, port: int = 0) -> None:
        self.form, self.target = form, target
        self.sock = listen(form, port)
        self.port = self.sock.getsockname()[1]
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server = None

    def __enter__(self) -> "Relay":
        self._thread.start()
        start = asyncio.start_server(self._pipe, sock=self.sock)
        self._server = asyncio.run_coroutine_threadsafe(start, self._loop).result(5)
        return self

    def __exit__(self, *exc) -> None:
        async def close():
            self._server.close()
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()
        asyncio.run_coroutine_threadsafe(close(), self._loop).result(5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    async def _pipe(self, reader, writer) -> None:
        try:
            up_r, up_w = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(_copy(reader, up_w), _copy(up_r, writer), return_exceptions=True)


async def _copy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (OSError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="relay")
    ap.add_argument("--bind", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--v6only", action="store_true")
    ap.add_argument("--delay", type=float, default=0.0, help="seconds before it listens")
    ap.add_argument("--to", required=True, help="HOST:PORT of the controller behind it")
    a = ap.parse_args(argv)
    host, _, port = a.to.rpartition(":")
    time.sleep(a.delay)
    form = Form(a.bind, True if a.v6only else None)
    with Relay(form, (host.strip("[]"), int(port)), a.port) as relay:
        print(f"listening {relay.port}", flush=True)
        threading.Event().wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
