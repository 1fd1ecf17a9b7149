"""The written invariants of ``switch bench`` results (``crates/switchbench/SCHEMA.md``).

``violations(result)`` lists every broken one; the runner attaches them to the result as notes
and the tests assert there are none.
"""

from __future__ import annotations

from ..result import Result
from .stored import SwitchBenchCounters

LATENCIES = {"insertion_latency", "insertion_latency_lower", "probe_gap", "packet_in_latency", "packet_out_latency", "first_packet",
             "next_packet", "controller_reaction", "stats_latency", "stats_latency_under_load", "echo_rtt",
             "forwarding_latency", "barrier_rtt", "barrier_reply", "capacity_batch", "pipeline_ready",
             "all_forwarding"}


def violations(r: Result) -> list:
    if r.status != "ok":
        return []
    c, out = SwitchBenchCounters.of(r), []
    for s in r.series:
        if s.metric in LATENCIES and any(v < 0 for v in s.values):
            out.append(f"{s.metric} {s.labels}: negative time {min(s.values):.3f}")
    if r.benchmark in ("insertion", "barrier"):
        if (c.forwarded or 0) + (c.never_forwarded or 0) != c.flows:
            out.append(f"forwarded {c.forwarded} + never_forwarded {c.never_forwarded} != flows {c.flows}")
        n_lat = sum(len(s.values) for s in r.find("insertion_latency"))
        if n_lat != c.forwarded:
            out.append(f"{n_lat} insertion latencies for {c.forwarded} forwarded flows")
        for up, low in zip(r.find("insertion_latency"), r.find("insertion_latency_lower")):
            if any(lo > hi + 1e-9 for lo, hi in zip(low.values, up.values)):
                out.append(f"insertion_latency_lower above insertion_latency {up.labels}")
        if (c.probes_received or 0) > (c.probes_sent or 0):
            out.append("more probes received than sent")
    if r.benchmark in ("packet-in", "packet-out"):
        n = sum(len(s.values) for s in r.series)
        if n + (c.lost or 0) != c.sent:
            out.append(f"{n} latencies + {c.lost} lost != {c.sent} sent")
    if r.benchmark == "capacity":
        if (c.sample_forwarded or 0) > (c.sample_size or 0):
            out.append("more sample flows forwarded than probed")
        if c.verdict == "refused-when-full" and not c.refusal:
            out.append("verdict refused-when-full without a refusal")
    if r.benchmark in ("stats", "pipeline"):
        sent_by, rx_by = c.probes_sent_by_polling or {}, c.probes_received_by_polling or {}
        polled = [("", c.probes_sent, c.probes_received)] + [(f"_{k}", sent_by.get(k), rx_by.get(k)) for k in ("none", "flow")]
        for label, sent, rx in polled:
            if sent is not None and rx is not None and rx > sent:
                out.append(f"probes_received{label} {rx} > probes_sent{label} {sent}")
    return out
