"""Reactive path provisioning time and rate (RFC 8456 §5.1.4, §5.1.6) and forwarding-table
capacity (§5.2.3), measured on the engine's emulated network (docs/rfc8456-provisioning.md).

Workload ``provisioning-reactive`` (what the controller must do per request): a flow miss for a
frame with a source MAC/IP it has never seen, to a destination host that announced itself (a
gratuitous ARP) before the test; the controller must get the frame across every switch of a
K-switch path (packet-in at each switch, flow-mod and/or packet-out). Time per flow: frame
entering the ingress switch -> frame leaving the egress switch toward the destination host (the
data-plane mode of §5.1.4). Rate (§5.1.6): paths provisioned / (last delivery - first start).
Confirmation: frames delivered, and the flow entries left on every switch of the paths.

Table capacity (§5.2.3, reactive): new flows until the controller stops installing, errors, or
the emulated switch's table (``table_size``) is full; the verdict names the limit hit.
"""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path

from ..engine import driver
from ..engine.result_types import engine_result
from ..net.engine_network import network_for
from .paths import farthest_pairs, path_switches

LOOP_MS = 250


def trial_network(topo: str, flows: int, concurrency: int = 1, rate: float = 0.0, timeout_ms: int = 1000,
                  announce_ms: int = 1000, table_size: int = 0) -> tuple:
    """``(network dict, pairs, k)``: ``topo`` as the engine's network with the provisioning
    traffic between the farthest host pairs."""
    net = network_for(topo)
    pairs, k = farthest_pairs(net)
    net["provisioning"] = {"pairs": [list(p) for p in pairs], "flows": flows, "concurrency": concurrency,
                           "rate": rate, "timeout_ms": timeout_ms, "announce_ms": announce_ms}
    net["table_size"] = table_size
    return net, pairs, k


def run_seconds(prov: dict, deadline_s: float) -> float:
    """The engine's run length: the announcements, then until every flow could have ended
    (each waits at most its timeout), at most ``deadline_s`` after the announcements. The engine
    ends the run earlier, at the first loop boundary after every flow ended."""
    t = prov["timeout_ms"] / 1000
    n, c, rate = prov["flows"], prov["concurrency"], prov["rate"]
    worst = n / rate + t if rate > 0 else math.ceil(n / c) * t
    return prov["announce_ms"] / 1000 + min(deadline_s, worst + 0.5)


def run_trial(address: str, net: dict, of_version: str, deadline_s: float) -> dict:
    """One engine run of ``net`` against the controller at ``address``; the engine's document."""
    seconds = run_seconds(net["provisioning"], deadline_s)
    with tempfile.TemporaryDirectory(prefix="sdnbench-prov-") as d:
        f = Path(d) / "network.json"
        f.write_text(json.dumps(net))
        args = ["--mode", "network", "--network", str(f), "--controller", address, "--workers", "1",
                "--loops", str(max(1, math.ceil(seconds * 1000 / LOOP_MS))), "--loop-ms", str(LOOP_MS),
                "--warmup", "0", "--settle-ms", "0"]
        if of_version:
            args += ["--of", of_version]
        return driver.run(args, timeout=seconds + 60)


def summarize(doc: dict, net: dict) -> dict:
    """The figures of one trial (a plain dict, raw per-flow times kept) from the engine's
    document ``doc``."""
    n = engine_result(doc).network
    p = n.provisioning if n else None
    if not p:
        raise RuntimeError("the engine's result has no network.provisioning section")
    times = [(d - s) / 1e6 for s, d in zip(p.started_ns, p.delivered_ns) if d]
    starts = [s for s in p.started_ns if s]
    ends = [d for d in p.delivered_ns if d]
    span_s = (max(ends) - min(starts)) / 1e9 if ends else 0.0
    rate = p.provisioned / span_s if span_s > 0 else None
    entries = {int(d): int(c) for d, c in n.flows_per_switch}
    on_path = set()
    for s, d in net["provisioning"]["pairs"]:
        on_path |= path_switches(net, s, d)
    path_entries = [entries.get(d, 0) for d in sorted(on_path)]
    return {
        "flows": p.flows, "started": p.started, "provisioned": p.provisioned,
        "timed_out": p.timed_out, "in_flight": p.in_flight, "late": p.late,
        "times_ms": times, "rate_per_s": rate, "span_s": span_s,
        "invariant": p.invariant, "network_invariant": n.invariant,
        "path_switches": len(on_path), "entries_on_path_min": min(path_entries, default=0),
        "entries_on_path_max": max(path_entries, default=0), "entries_per_switch": entries,
        "table_full": n.table_full, "table_size": net.get("table_size", 0),
        "delivered_frames": n.hosts.delivered,
    }


def verdict(s: dict) -> str:
    """What the trial shows, in a few words (the `provisioning` verdict)."""
    if s["provisioned"] == 0:
        return "never provisioned: no flow crossed its path before its timeout"
    if s["provisioned"] == s["flows"]:
        return "all provisioned"
    return f"{s['flows'] - s['provisioned']} of {s['flows']} flows not provisioned"


def capacity(s: dict) -> tuple:
    """§5.2.3 reactive: ``(entries, limit)`` where limit names what stopped the table growing:
    ``switch-table`` (TABLE_FULL at the configured size), ``controller`` (flows crossed but the
    controller left no entry for them, or stopped provisioning), or ``none`` (no limit within
    the flows offered). Proactive: a refused northbound request is the controller's limit."""
    entries = s["entries_on_path_max"]
    if s["table_full"] > 0 or (s["table_size"] and entries >= s["table_size"]):
        return entries, "switch-table"
    if s.get("refused"):
        return entries, "controller"       # proactive: its northbound API refused a flow
    if entries < s["provisioned"] or s["provisioned"] < s["flows"]:
        return entries, "controller"
    return entries, "none"


def stats(values: list) -> dict:
    """Average and sample variance over trials (RFC 8456 §4.8: report the average, the
    variance and the number of trials)."""
    v = [x for x in values if x is not None]
    if not v:
        return {"trials": 0, "average": None, "variance": None}
    mean = sum(v) / len(v)
    var = sum((x - mean) ** 2 for x in v) / (len(v) - 1) if len(v) > 1 else 0.0
    return {"trials": len(v), "average": mean, "variance": var}

