"""Is a controller ready? Connect to it, say HELLO, and wait for its HELLO. (Which version a
session then speaks is ``negotiation.py``'s, the one place of it in Python.)

A listening socket is not enough: os-ken binds before its apps are loaded, and a controller that
accepts and then closes is not ready either. Ready means it completed the first step of the
OpenFlow handshake (OpenFlow 1.3.5 §6.3.1: both sides send OFPT_HELLO on connect).

The header is 8 bytes: version, type, length, xid (OpenFlow 1.3.5 §7.1). OFPT_HELLO is type 0 in
every version.
"""

from __future__ import annotations

import socket
import struct
from typing import Optional

HEADER = struct.Struct("!BBHI")
OFPT_HELLO = 0
PROBE_XID = 0x5DB0_0001


def hello(version: int, xid: int = PROBE_XID) -> bytes:
    """A HELLO with no elements (valid in 1.0 through 1.5)."""
    return HEADER.pack(version, OFPT_HELLO, HEADER.size, xid)


def parse_header(data: bytes) -> Optional[tuple]:
    """(version, type, length, xid), or None if fewer than 8 bytes or the length is impossible."""
    if len(data) < HEADER.size:
        return None
    version, typ, length, xid = HEADER.unpack_from(data)
    if length < HEADER.size:
        return None
    return version, typ, length, xid


def probe(host: str, port: int, version: int, timeout: float = 1.0) -> Optional[int]:
    """Return the version of the controller's HELLO, or None if it is not (yet) answering.

    Never raises for network conditions: refused, reset, timeouts and garbage all mean "not
    ready", and the caller polls again.
    """
    try:
        with socket.create_connection((host, port), timeout=timeout) as s:
            s.settimeout(timeout)
            return hello_answer(s, version)
    except OSError:
        return None


def hello_answer(s, version: int) -> Optional[int]:
    """Send a HELLO of ``version`` on the connected socket ``s`` (plain or TLS) and read the
    controller's: its version, or None when the answer is short or not a HELLO. Socket errors
    are the caller's."""
    s.sendall(hello(version))
    data = b""
    while len(data) < HEADER.size:
        chunk = s.recv(HEADER.size - len(data))
        if not chunk:
            return None
        data += chunk
    head = parse_header(data)
    if head is None or head[1] != OFPT_HELLO:
        return None
    return head[0]


def host_port(host: str, port: int) -> str:
    """``HOST:PORT``, an IPv6 host in brackets (``[::1]:6653``): what a ``tcp:`` target, the
    engine's ``--controller`` and Open vSwitch's ``tcp:`` all take."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def accepts(host: str, port: int, timeout: float = 1.0) -> bool:
    """Does anything accept TCP connections there? (A cheaper liveness check than ``probe``.)"""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free a moment ago on ``host`` (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]
