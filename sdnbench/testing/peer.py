"""The frame of a threaded scripted OpenFlow peer: a listener on 127.0.0.1 and a thread per
connection running the subclass's ``serve(sock)``, every thread stopped and joined when the
``with`` block ends. ``receive`` reads what has arrived as whole messages (``openflow.split``).

(The asyncio peers share ``sdnbench.testing.peers.loop_server``; these are the ones that poll a socket
between their own timed sends.)"""

from __future__ import annotations

import socket
import threading
from typing import Optional

from . import openflow as of


class ThreadedPeer:
    POLL_S = 0.01              # a connection's receive timeout: how often serve() can act unasked

    def __init__(self, port: int = 0) -> None:
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._sock = socket.create_server(("127.0.0.1", port))
        self._sock.settimeout(0.2)
        self._threads: list = []

    @property
    def port(self) -> int:
        return self._sock.getsockname()[1]

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def __enter__(self):
        self._spawn(self._accept)
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        for t in list(self._threads):
            t.join(timeout=5)
        self._sock.close()

    def _spawn(self, target, *args) -> None:
        t = threading.Thread(target=target, args=args, daemon=True)
        t.start()
        self._threads.append(t)

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except (socket.timeout, OSError):
                continue
            self.accepted()
            self._spawn(self._run, conn)

    def _run(self, s: socket.socket) -> None:
        s.settimeout(self.POLL_S)
        try:
            self.serve(s)
        except OSError:
            pass                                 # the switch went away
        finally:
            s.close()

    def accepted(self) -> None:
        """Called in the accept thread for each new connection."""

    def serve(self, s: socket.socket) -> None:
        """One connection: the greeting, then until the switch leaves or the peer stops, the
        subclass's timed sends (``tick``) and its answer to each message but echo (``handle``); ``left``
        last, whatever ended it. ``st`` is the connection's own state."""
        s.sendall(self.greeting())
        st = self.new_state()
        buf = b""
        try:
            while not self.stopping:
                self.tick(s, st)
                got = self.receive(s, buf)
                if got is None:
                    return
                msgs, buf = got
                for m in msgs:
                    if of.name_of(m) == "ECHO_REQUEST":       # every peer answers echo alike
                        s.sendall(of.echo_reply(m))
                    else:
                        self.handle(s, m, st)
        finally:
            self.left(st)

    def greeting(self) -> bytes:
        raise NotImplementedError

    def new_state(self) -> dict:
        return {}

    def tick(self, s: socket.socket, st: dict) -> None:
        """Sends of the peer's own, between reads (at most ``POLL_S`` apart)."""

    def handle(self, s: socket.socket, m: bytes, st: dict) -> None:
        raise NotImplementedError

    def left(self, st: dict) -> None:
        """The connection is over."""

    @staticmethod
    def receive(s: socket.socket, buf: bytes) -> Optional[tuple]:
        """(whole messages, the rest) after one read; no messages when nothing came within
        ``POLL_S``; None when the switch closed the connection."""
        try:
            data = s.recv(65536)
        except socket.timeout:
            return [], buf
        if not data:
            return None
        return of.split(buf + data)
