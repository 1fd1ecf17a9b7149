"""Does something listen where a controller's address says? The rule of the engine's pre-flight
(``crates/engine/src/front/listeners.rs``), the same in Python: both are checked against the
kernel's own lines in ``crates/engine/tests/vectors/listeners.json``.

The kernel's socket table (``/proc/net/tcp`` and ``tcp6``) is read first, so that the check is
no session the controller sees. It shows every form a listener takes: IPv4, IPv6, IPv4-mapped
IPv6 (``::ffff:127.0.0.1``, how a JVM told to listen on 127.0.0.1 listens) and the wildcard of
either family. Where it shows no listener, one connection is tried, and only a refused one
refuses: a table misread must never refuse a controller that listens. An address of another
machine or network namespace, or a table that cannot be read, is left to the run.
"""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path
from typing import Optional

YES, MAYBE, NO = "yes", "maybe", "no"
TABLES = ("/proc/net/tcp", "/proc/net/tcp6")
LISTEN = "0A"


def _unmapped(ip: ipaddress._BaseAddress) -> ipaddress._BaseAddress:
    """``::ffff:a.b.c.d`` is ``a.b.c.d``: what the kernel connects and accepts it as."""
    mapped = getattr(ip, "ipv4_mapped", None)
    return mapped if mapped is not None else ip


def _hex_ip(text: str) -> Optional[ipaddress._BaseAddress]:
    """The kernel prints each 32-bit word of an address as a native-endian number in hex."""
    if len(text) not in (8, 32):
        return None
    try:
        raw = b"".join(int(text[i:i + 8], 16).to_bytes(4, "little") for i in range(0, len(text), 8))
    except ValueError:
        return None
    return _unmapped(ipaddress.ip_address(raw))


def _listening(line: str) -> Optional[tuple]:
    """(address, port) of a listening line (state 0A), the address unmapped."""
    fields = line.split()
    if len(fields) < 4 or fields[3] != LISTEN or ":" not in fields[1]:
        return None
    ip_hex, port_hex = fields[1].split(":", 1)
    ip = _hex_ip(ip_hex)
    try:
        return (ip, int(port_hex, 16)) if ip is not None else None
    except ValueError:
        return None


def _reaches(bound, to) -> str:
    """Whether a listener bound to ``bound`` takes a connection to ``to`` (both unmapped)."""
    if bound.version == to.version:
        return YES if bound == to or bound.is_unspecified else NO
    if bound.version == 6 and bound.is_unspecified:
        return MAYBE                     # takes IPv4 unless IPV6_V6ONLY, which the table hides
    return NO


def lookup(table: str, host: str, port: int) -> Optional[str]:
    """YES, MAYBE or NO for a connection to ``host:port`` (an IP address); None: no table."""
    if not table.strip():
        return None
    want = _unmapped(ipaddress.ip_address(host))
    best = NO
    for line in table.splitlines():
        found = _listening(line)
        if found is None or found[1] != port:
            continue
        answer = _reaches(found[0], want)
        if answer == YES:
            return YES
        if answer == MAYBE:
            best = MAYBE
    return best


def _read_tables() -> str:
    text = ""
    for t in TABLES:
        try:
            text += Path(t).read_text()
        except OSError:
            pass
    return text


def shown(host: str, port: int) -> Optional[str]:
    """What this namespace's socket table says of ``host:port`` (an IP address), no connection
    made: for a peer that takes any connection as a client's (iperf3's control channel)."""
    return lookup(_read_tables(), host, port)


def _is_local(ip) -> bool:
    if ip.is_loopback or _unmapped(ip).is_loopback:
        return True
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        try:
            s.bind((str(ip), 0))
        except OSError:
            return False
    return True


def refusal(host: str, port: int, timeout: float = 1.0) -> Optional[str]:
    """Why nothing listens at ``host:port`` (a refused connection), or None: something listens,
    or this machine cannot tell (another host or namespace, an unreadable table, a time-out)."""
    try:
        ip = ipaddress.ip_address(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][4][0])
    except (OSError, ValueError):
        return None                      # a name that does not resolve is the run's to report
    if not _is_local(ip) or shown(str(ip), port) != NO:
        return None
    try:
        with socket.create_connection((str(ip), port), timeout=timeout):
            return None
    except ConnectionRefusedError:
        return f"nothing listens there: connection to {host}:{port} refused"
    except OSError:
        return None
