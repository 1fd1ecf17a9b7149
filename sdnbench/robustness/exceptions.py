"""RFC 8456 §5.3.1 exception handling: the same load run clean, with 1% and with 2% of the
packet-ins invalid (a wrong OpenFlow version, as the RFC's appendix; the engine's
``invalid_every``, ``crates/engine/src/robust/exceptions.rs``). Variants are interleaved per
repetition in one campaign against one controller launch, so drift hits all alike.

The RFC reruns path-provisioning rate/time and change detection; here the measured test is the
engine's load run (answered requests/s per loop, and the latency of answered requests), which
is what an emulated switch population can drive on one machine. Significance: Mann-Whitney U
(two-sided) of the per-loop answered rates against the clean ones, as ``sdnbench.stats`` does
for every comparison.
"""

from __future__ import annotations

from statistics import fmean, stdev

from ..stats.significance import mann_whitney

# Invalid share -> invalid_every K (one invalid after every K requests: 1/(K+1) of packet-ins)
VARIANTS = {"clean": 0, "1%": 99, "2%": 49}


def per_loop(r) -> list:
    s = r.find("throughput")
    return list(s[0].values) if s else []


def summarize(runs: dict) -> list:
    """``runs``: {variant: [Result, ...]} -> one row dict per variant, compared with clean."""
    clean = [x for r in runs.get("clean", []) for x in per_loop(r)]
    base = fmean(clean) if clean else None
    rows = []
    for name, rs in runs.items():
        v = [x for r in rs for x in per_loop(r)]
        mean = fmean(v) if v else None
        row = {"variant": name, "invalid_every": VARIANTS[name], "runs": len(rs), "loops": len(v),
               "answered_per_s": mean, "stdev": stdev(v) if len(v) > 1 else 0.0,
               "p50_us": _mean_counter(rs, "latency_p50_us"), "p99_us": _mean_counter(rs, "latency_p99_us"),
               "invalid_sent": sum(r.counters.get("invalid_packet_ins_sent", 0) for r in rs),
               "sessions_lost": sum(r.counters.get("disconnects", 0) or 0 for r in rs),
               "drop": None, "p_value": None}
        if name != "clean" and base and mean is not None:
            row["drop"] = 1 - mean / base
            row["p_value"] = mann_whitney(clean, v).p_value
        rows.append(row)
    return rows


def _mean_counter(rs: list, key: str):
    v = [r.counters[key] for r in rs if r.counters.get(key) is not None]
    return fmean(v) if v else None
