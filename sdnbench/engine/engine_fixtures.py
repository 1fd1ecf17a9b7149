"""Helpers shared by the engine's tests: a responder process and a direct engine run."""

from __future__ import annotations

import contextlib
import socket
from typing import Iterator

from .. import paths
from ..controllers.ofhello import free_port
from ..proc import spawn, wait_until
from . import driver
from .params import check, config, engine_args


def _accepts(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


@contextlib.contextmanager
def responder(of_version: str = "1.3", procs: int = 1, extra: tuple = ()) -> Iterator[str]:
    """The minimal responder (crates/responder) on a free port; yields HOST:PORT. ``extra``:
    its throttle flags (``--delay-us D``, ``--rate R``, ``--drop-one-in K``; crates/responder)."""
    port = free_port()
    r = spawn("sdnbench-responder", [str(paths.engine_binary("sdnbench-responder")), "--listen",
                                     f"127.0.0.1:{port}", "--of", of_version, "--procs", str(procs), *extra])
    try:
        wait_until(lambda: _accepts(port), 10, "the responder to listen")
        yield f"127.0.0.1:{port}"
    finally:
        r.stop()


def run_doc(address: str, **params) -> dict:
    """One engine run straight against ``address`` (no controller launch); its JSON document."""
    p = check(dict(params, controller=f"tcp:{address}"))
    return driver.run(engine_args(p), config=config(p, address))
