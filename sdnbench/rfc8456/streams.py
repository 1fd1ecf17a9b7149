"""Sequence-numbered streams on the engine's emulated network (``network/stream.rs``): the
network block, one engine run against one or more controllers, and the per-pair figures read
from the engine's raw record. Used by re-provisioning (§5.4.2) and failover (§5.4.1).

Times in the engine's record are ns since go; ``go_mono_ns`` puts them on CLOCK_MONOTONIC (the
clock of ``time.monotonic_ns()``), so an instant sdnbench took itself (a controller killed) can
be compared with them. The record is read through the typed views of the engine's document
(``engine.result_types``: ``Checked2``, ``PairReport``, ``Gap``), never by string keys.
"""

from __future__ import annotations

import json
import math
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..engine import driver
from ..engine.result_types import Checked2, PairReport, engine_result

LOOP_MS = 250


def stream_block(pairs: list, interval_us: int, start_ms: int, stop_ms: int = 0) -> dict:
    return {"pairs": [list(p) for p in pairs], "interval_us": interval_us, "start_ms": start_ms, "stop_ms": stop_ms}


def run_engine(addresses: list, net: dict, of_version: str, seconds: float) -> dict:
    """One engine run of ``net``; every emulated switch connects to every address (the first is
    each switch's own session; OpenFlow 1.3 roles apply across them). The engine's document."""
    with tempfile.TemporaryDirectory(prefix="sdnbench-stream-") as d:
        f = Path(d) / "network.json"
        f.write_text(json.dumps(net))
        args = ["--mode", "network", "--network", str(f), "--controller", ",".join(addresses), "--workers", "1",
                "--loops", str(max(1, math.ceil(seconds * 1000 / LOOP_MS))), "--loop-ms", str(LOOP_MS),
                "--warmup", "0", "--settle-ms", "0"]
        if of_version:
            args += ["--of", of_version]
        return driver.run(args, timeout=seconds + 60)


def stream_section(doc) -> Checked2:
    """The engine's stream record (``network.stream`` of its document or view ``doc``)."""
    n = engine_result(doc).network
    if n is None or n.stream is None:
        raise RuntimeError("the engine's result has no network.stream section")
    return n.stream


@dataclass(frozen=True)
class Break:
    """A break in a pair's sequence around an instant: the last arrival at or before it (T1;
    None when nothing arrived before it) and the first after it (T2), ns since go, and the
    sequence numbers missing between."""
    before_seq: Optional[int]
    before_ns: Optional[int]
    after_seq: Optional[int]
    after_ns: int
    lost: Optional[int]


def missing(pair: PairReport) -> int:
    """Frames missing inside the sequence (gaps), from the raw record."""
    return sum(g.after_seq - g.before_seq - 1 for g in pair.gaps)


def gap_around(pair: PairReport, at_ns: int) -> Optional[Break]:
    """The break in ``pair``'s sequence around ``at_ns`` (ns since go): the last arrival at or
    before it and the first after it (RFC 8456 §5.4: T1 and T2), with the frames missing between.
    None when nothing arrived after it; ``before`` None when nothing arrived before it."""
    if not pair.received or pair.last_rx_ns <= at_ns:
        return None
    gaps = [g for g in pair.gaps if g.before_ns <= at_ns < g.after_ns]
    if gaps:
        g = gaps[0]
        return Break(g.before_seq, g.before_ns, g.after_seq, g.after_ns, g.after_seq - g.before_seq - 1)
    if pair.first_rx_ns > at_ns:
        return Break(None, None, pair.first_seq, pair.first_rx_ns, pair.first_seq)
    return None     # no break around it: the stream went on (the first frame after it is 1 interval away)


def pair_name(net: dict, pair: PairReport) -> str:
    """``h1(s1)->h4(s3)``: the pair's hosts and their switches, from ``net`` (the network block
    sdnbench wrote, not the engine's document)."""
    h = net["hosts"]
    return f"h{pair.src + 1}(s{h[pair.src]['dpid']})->h{pair.dst + 1}(s{h[pair.dst]['dpid']})"
