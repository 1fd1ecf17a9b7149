"""ICMP latency by payload size: one RTT sample per echo request, ``None`` for a lost one.

Series: ``rtt`` (ms) labelled ``src, dst, size, rep`` (and ``switch`` for per-switch pairs), with
``t`` the request's scheduled send offset (``(seq - 1) * interval``). The first sample of a pair
usually includes ARP and flow set-up; it is kept, as every raw sample is.
"""

from __future__ import annotations

import re
from typing import Callable, Optional

from ..errors import UserError

DEFAULT_SIZES = (64, 128, 256, 512, 1024, 2048, 4096, 8192)

_REPLY = re.compile(r"icmp_seq=(\d+) .*?time=([\d.]+) ms")


def parse_ping(output: str, count: int) -> list:
    """RTTs in ms by sequence number 1..count; ``None`` where no reply came (duplicates ignored)."""
    rtts: list = [None] * count
    for line in output.splitlines():
        if "DUP!" in line:
            continue
        m = _REPLY.search(line)
        if m:
            seq = int(m.group(1))
            if 1 <= seq <= count and rtts[seq - 1] is None:
                rtts[seq - 1] = float(m.group(2))
    return rtts


def parse_sizes(text: str) -> list:
    """``64,128,...,8192`` (the two sizes before ``...`` set the step: a ratio when the second is a
    multiple of the first, as here, otherwise a difference: ``100,150,...,300``), a plain list
    ``64,512``, or ``default`` (64..8192, doubling)."""
    text = (text or "default").strip()
    if text == "default":
        return list(DEFAULT_SIZES)
    parts = [p.strip() for p in text.split(",") if p.strip()]
    out: list = []
    for i, p in enumerate(parts):
        if p in ("...", "\u2026"):
            if not out or i == len(parts) - 1:
                raise UserError(f"ping sizes {text!r}: '...' needs a size on both sides")
            continue
        try:
            v = int(p)
        except ValueError:
            raise UserError(f"ping sizes {text!r}: {p!r} is not a whole number")
        if not 0 <= v <= 65507:
            raise UserError(f"ping size {v} is out of range [0, 65507]")
        if i > 0 and parts[i - 1] in ("...", "\u2026"):
            out += _continue(out, v, text)
        out.append(v)
    return out


def _continue(out: list, end: int, text: str) -> list:
    a, b = (out[-2], out[-1]) if len(out) > 1 else (None, out[-1])
    geometric = a is None or (a > 0 and b % a == 0 and b // a > 1)
    nxt = (lambda x: x * (b // a if a else 2)) if geometric else (lambda x: x + (b - a))
    if b <= 0 or (not geometric and b <= a):
        raise UserError(f"ping sizes {text!r}: cannot continue the sequence before '...'")
    filled, x = [], nxt(b)
    while x < end:
        filled.append(x)
        x = nxt(x)
    return filled


def measure_ping(net, result, pairs: list, sizes: list, count: int, interval: float,
                 rep: int, progress: Callable[[str], None] = lambda s: None,
                 deadline: Optional[float] = None) -> None:
    for src, dst, switch in pairs:
        for size in sizes:
            progress(f"ping {src}->{dst} {size} B")
            wait = max(2.0, interval * 4)
            argv = ["ping", "-n", "-c", str(count), "-i", f"{interval:g}", "-s", str(size),
                    "-W", f"{wait:g}", net.host_ip(dst)]
            cp = net.run_in(src, argv, timeout=count * interval + wait + 10)
            rtts = parse_ping(cp.stdout, count)
            labels = dict(src=src, dst=dst, size=size, rep=rep)
            if switch:
                labels["switch"] = switch
            result.add("rtt", "ms", rtts, t=[round(i * interval, 6) for i in range(count)], **labels)
            sent = result.counters.setdefault("ping_sent", 0)
            result.counters["ping_sent"] = sent + count
            result.counters["ping_lost"] = result.counters.get("ping_lost", 0) + rtts.count(None)
