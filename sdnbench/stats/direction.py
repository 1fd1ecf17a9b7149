"""Which way is better for a metric: needed to call a change "better" or "worse".

Rates (flows/s, bit/s, "throughput", capacity) are better higher; times (s, ms, µs, latency,
RTT, jitter), losses, errors and resource use are better lower. Callers can override per metric
(``sdnbench compare --higher M --lower M``).
"""

from __future__ import annotations

from typing import Optional

_LOWER_WORDS = ("latency", "rtt", "delay", "jitter", "loss", "lost", "drop", "error", "fail",
                "time", "cpu", "rss", "memory", "timeout", "retrans")
_HIGHER_WORDS = ("throughput", "rate", "bitrate", "bandwidth", "capacity", "sessions", "flows",
                 "goodput", "answered", "received")
_TIME_UNITS = ("s", "ms", "us", "µs", "ns", "sec", "msec", "usec", "seconds", "s/flow", "us/flow",
               "µs/flow", "ms/flow")


def higher_is_better(metric: str, unit: str = "", overrides: Optional[dict] = None) -> bool:
    if overrides and metric in overrides:
        return bool(overrides[metric])
    m, u = metric.lower(), unit.lower().strip()
    if u in _TIME_UNITS or any(w in m for w in _LOWER_WORDS):
        return False
    if "/s" in u or "bps" in u or u.endswith("per second") or any(w in m for w in _HIGHER_WORDS):
        return True
    return False
