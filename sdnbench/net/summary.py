"""Human-readable summary rows of a network result (pure: Result in, rows out).

One row per metric and label set, repetitions pooled: n, mean, standard deviation, variance,
min and max (the campus study's per-switch tables report avg, stdev and var), over the raw
samples; lost samples (``None``) are counted, not averaged.
"""

from __future__ import annotations

import statistics
from typing import Optional

from ..result import Result

# metric -> what the table calls it; the order of this table is the order of the rows.
SHOWN = {
    "first_packet_time": "first packet (us)",
    "next_packet_time": "next packets (us)",
    "rtt": "ping RTT (ms)",
    "tcp_throughput": "TCP (Mbit/s)",
    "udp_throughput": "UDP (Mbit/s)",
    "udp_jitter": "UDP jitter (ms)",
    "udp_loss": "UDP loss (%)",
    "ditg_delay": "D-ITG delay (ms)",
    "ditg_jitter": "D-ITG jitter (ms)",
    "ditg_loss": "D-ITG loss (%)",
    "ditg_bitrate": "D-ITG bitrate (kbit/s)",
}

HEADERS = ("measure", "pair", "switch", "size", "n", "lost", "mean", "stdev", "var", "min", "max")


def _key(labels: dict) -> tuple:
    return (f"{labels.get('src', '')}-{labels.get('dst', '')}", labels.get("switch") or "",
            labels.get("size") or "")


def rows(result: Result) -> list:
    groups: dict = {}
    for s in result.series:
        if s.metric not in SHOWN:
            continue
        groups.setdefault((s.metric, _key(s.labels)), []).extend(s.values)
    out = []
    order = list(SHOWN)
    for (metric, (pair, switch, size)), values in sorted(
            groups.items(), key=lambda kv: (order.index(kv[0][0]), _natural(kv[0][1]))):
        ok = [v for v in values if v is not None]
        out.append((SHOWN[metric], pair, switch or "-", size or "-", len(ok), len(values) - len(ok),
                    *_stats(ok)))
    return out


def _stats(v: list) -> tuple:
    if not v:
        return (None,) * 5
    mean = statistics.fmean(v)
    sd: Optional[float] = statistics.stdev(v) if len(v) > 1 else None
    var = statistics.variance(v) if len(v) > 1 else None
    return mean, sd, var, min(v), max(v)


def _natural(key: tuple) -> tuple:
    import re

    return tuple(tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", str(k))) for k in key)
