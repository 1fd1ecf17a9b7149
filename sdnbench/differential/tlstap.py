"""A TLS tap: the differential harness's way to read an OpenFlow channel that is encrypted.

The harness compares what a controller says to Open vSwitch and to the emulated switches, read
from a capture of the controller's TCP port (``capture.py``). Over TLS that capture is
ciphertext. The tap stands where the controller is for the switches, and ends TLS twice:

    switch ──TLS──► tap :port ──plain TCP──► tap :plain_port ──TLS──► controller

Towards the switches it presents the controller's certificate and asks theirs (the CA that
signed the switches', as the controller does); towards the controller it presents the switch
certificate. The middle hop is plain TCP on loopback, the one the harness captures, so the
capture and its parsing stay as they are. Both sides of a cell (Open vSwitch and the engine) go
through the same tap, so what it adds (one more hop on loopback, re-encryption) is the same on
both; TLS itself (the versions and ciphers negotiated) is then the tap's, not the switch's: the
controller's own log and ``sdnbench controller tls-cost`` are where TLS is measured.

The tap runs an asyncio loop in a thread of its own (one SSL object is never used by two
threads); it stops with the block, closing every connection.
"""

from __future__ import annotations

import asyncio
import ssl
import threading
from typing import Optional

from ..errors import UserError

HOST = "127.0.0.1"
CHUNK = 65536


def _front_context(ca, cert, key) -> ssl.SSLContext:
    """The tap as the controller: its certificate, the switches' CA required."""
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH, cafile=str(ca))
    ctx.load_cert_chain(str(cert), str(key))
    ctx.verify_mode = ssl.CERT_REQUIRED
    return ctx


def _back_context(ca, cert, key) -> ssl.SSLContext:
    """The tap as a switch: the switch's certificate, the controller's checked against ``ca``."""
    ctx = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=str(ca))
    ctx.load_cert_chain(str(cert), str(key))
    return ctx


async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(CHUNK):
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
    except (ConnectionError, ssl.SSLError, OSError):
        pass
    finally:
        writer.close()


class TlsTap:
    """``with TlsTap((host, port), controller_files, switch_files) as tap``: switches connect
    with TLS to ``tap.port``; capture ``tap.plain_port``. ``controller_files``/``switch_files``
    are ``sdnbench.tls.files.TlsFiles`` (ca, cert, key) of each side; ``switch_files`` None: the
    target speaks plain TCP (the harness's own flow reader). ``sessions`` counts the
    switch connections that completed TLS; ``errors`` keeps one line per failed one."""

    def __init__(self, target: tuple, controller_files, switch_files):
        self.target = (str(target[0]), int(target[1]))
        self._front = _front_context(controller_files.ca, controller_files.cert, controller_files.key)
        self._back = (_back_context(switch_files.ca, switch_files.cert, switch_files.key)
                      if switch_files is not None else None)
        self.port = self.plain_port = 0
        self.sessions = 0
        self.errors: list = []
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._thread: Optional[threading.Thread] = None
        self._ready = threading.Event()
        self._stop: Optional[asyncio.Event] = None
        self._failed: Optional[BaseException] = None

    def __enter__(self) -> "TlsTap":
        self._thread = threading.Thread(target=self._run, name="tls-tap", daemon=True)
        self._thread.start()
        self._ready.wait(10)
        if self._failed is not None or not self.port:
            raise UserError(f"the TLS tap could not listen on {HOST}: {self._failed or 'timed out'}")
        return self

    def __exit__(self, *exc) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(10)

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as e:     # reported to __enter__, never lost in the thread
            self._failed = e
            self._ready.set()

    async def _serve(self) -> None:
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        plain = await asyncio.start_server(self._to_controller, HOST, 0)
        front = await asyncio.start_server(self._from_switch, HOST, 0)
        self.plain_port = plain.sockets[0].getsockname()[1]
        self.port = front.sockets[0].getsockname()[1]
        self._ready.set()
        async with plain, front:
            await self._stop.wait()

    async def _from_switch(self, reader, writer) -> None:
        """A switch's connection: its TLS handshake here (so a refused one is kept in
        ``errors``), then its session relayed in plain to the middle hop."""
        try:
            await writer.start_tls(self._front)
        except (OSError, ssl.SSLError, asyncio.IncompleteReadError) as e:
            self.errors.append(f"a switch's TLS handshake failed: {e}")
            writer.close()
            return
        self.sessions += 1
        try:
            r2, w2 = await asyncio.open_connection(HOST, self.plain_port)
        except OSError as e:
            self.errors.append(f"middle hop: {e}")
            writer.close()
            return
        await asyncio.gather(_pump(reader, w2), _pump(r2, writer))

    async def _to_controller(self, reader, writer) -> None:
        """The middle hop's far end: a TLS session to the controller, as the switch (plain TCP
        to a target that speaks it)."""
        host, port = self.target
        try:
            r2, w2 = await asyncio.open_connection(host, port, ssl=self._back,
                                                   server_hostname=host if self._back else None)
        except (OSError, ssl.SSLError) as e:
            self.errors.append(f"TLS to the controller at {host}:{port}: {e}")
            writer.close()
            return
        await asyncio.gather(_pump(reader, w2), _pump(r2, writer))
