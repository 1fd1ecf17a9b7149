"""The cells of a ``controller tls-cost`` run, in the order they run: for each repetition, each
mode measured over both transports back to back, TCP first in even repetitions and TLS first in
odd ones (ABBA: a drift over the run, or the first run after a start reading low, falls on both
alike). Pure."""

from __future__ import annotations

from ..controllers.spec import parse_spec
from ..errors import UserError

MODES = ("throughput", "latency", "capacity")
TRANSPORTS = ("tcp", "tls")


def tls_twin(spec: str) -> str:
    """The spec over TLS: ``osken:learning`` -> ``osken:learning;tls``. A spec sdnbench does not
    start (``tcp:``/``tls:``) or one that says ``;tls`` already is one line: the command runs the
    one controller both ways."""
    parsed = parse_spec(spec)
    if parsed.tls:
        raise UserError(f"--controller {spec}: give the spec without ;tls (tls-cost runs it over TCP and over TLS)")
    twin = parse_spec(f"{spec};tls")           # a kind sdnbench does not start is refused here
    return twin.text


def modes_of(text: str) -> list:
    got = [m.strip() for m in text.split(",") if m.strip()]
    bad = [m for m in got if m not in MODES]
    if bad or not got:
        raise UserError(f"--modes: {', '.join(bad) or 'none given'}: choose from {','.join(MODES)}")
    return list(dict.fromkeys(got))


def order(reps: int, modes: list) -> list:
    """(rep, mode, transport) in the order measured."""
    out = []
    for rep in range(reps):
        for mode in modes:
            pair = TRANSPORTS if rep % 2 == 0 else TRANSPORTS[::-1]
            out.extend((rep, mode, t) for t in pair)
    return out
