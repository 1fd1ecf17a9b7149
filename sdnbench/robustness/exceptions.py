"""RFC 8456 §5.3.1 exception handling: the same load run clean, with 1% and with 2% of the
packet-ins invalid (a wrong OpenFlow version, as the RFC's appendix; the engine's
``invalid_every``, ``crates/engine/src/switch/exceptions.rs``). Variants are interleaved per
repetition in one campaign against one controller launch, so drift hits all alike.

The switches reconnect as Open vSwitch does (the engine's ``reconnect``, on by default: backoff
1 s doubling to ``max_backoff``, 8 s): a controller that closes the session on an invalid
packet-in costs the reconnection, as on a real network, not the rest of the run. ``--reconnect
off`` keeps a lost session lost.

The RFC reruns path-provisioning rate/time and change detection; here the measured test is the
engine's load run (answered requests/s per loop, and the latency of answered requests), which
is what an emulated switch population can drive on one machine. Per variant: the answered rate
and its change against the clean runs (negative: a drop), the sessions lost and re-established,
the time disconnected, p50/p99 latency, and the p-value of Mann-Whitney U (two-sided) of the
per-loop answered rates against the clean ones, as ``sdnbench.stats`` does for every comparison.
"""

from __future__ import annotations

from statistics import fmean, stdev

from ..engine.stored import EngineCounters

# Invalid share -> invalid_every K (one invalid after every K requests: 1/(K+1) of packet-ins)
VARIANTS = {"clean": 0, "1%": 99, "2%": 49}


def per_loop(r) -> list:
    s = r.find("throughput")
    return list(s[0].values) if s else []


def summarize(runs: dict) -> list:
    """``runs``: {variant: [Result, ...]} -> one row dict per variant, compared with clean.
    ``change`` is mean / clean mean − 1 (negative for a drop); ``drop`` = −``change``."""
    # scipy is imported here, not at start-up: the CLI imports this module for its help text.
    from ..stats.significance import mann_whitney
    clean = [x for r in runs.get("clean", []) for x in per_loop(r)]
    base = fmean(clean) if clean else None
    rows = []
    for name, rs in runs.items():
        v = [x for r in rs for x in per_loop(r)]
        mean = fmean(v) if v else None
        cs = [EngineCounters.of(r) for r in rs]
        row = {"variant": name, "invalid_every": VARIANTS[name], "runs": len(rs), "loops": len(v),
               "answered_per_s": mean, "stdev": stdev(v) if len(v) > 1 else 0.0,
               "p50_us": _mean_latency([(c, c.latency_p50_us) for c in cs]),
               "p99_us": _mean_latency([(c, c.latency_p99_us) for c in cs]),
               "invalid_sent": _sum(c.invalid_packet_ins_sent for c in cs),
               # a result stored before the engine counted sessions_lost has disconnects
               "sessions_lost": _sum(c.disconnects if c.sessions_lost is None else c.sessions_lost for c in cs),
               "reconnects": _sum(c.reconnects for c in cs),
               "disconnected_s": _sum(c.disconnected_ms for c in cs) / 1000,
               "not_sent": _sum(c.requests_not_sent_disconnected for c in cs),
               "change": None, "drop": None, "p_value": None}
        if name != "clean" and base and mean is not None:
            row["change"] = mean / base - 1
            row["drop"] = -row["change"]
            row["p_value"] = mann_whitney(clean, v).p_value
        rows.append(row)
    return rows


def table_rows(rows: list) -> tuple:
    """(headers, rows, align) of the printed table: a drop reads negative ("-12.5%")."""
    pct = lambda x: "-" if x is None else f"{x:+.1%}".replace("+-", "-")  # noqa: E731
    num = lambda x, f="{:,.0f}": "-" if x is None else f.format(x)  # noqa: E731
    head = ["variant", "answered/s (mean ± σ)", "change", "p (M-W U)", "p50 µs", "p99 µs", "invalid sent",
            "sessions lost", "re-established", "disconnected s", "not sent"]
    body = [[w["variant"], f"{num(w['answered_per_s'])} ± {num(w['stdev'])}", pct(w["change"]),
             num(w["p_value"], "{:.3g}"), num(w["p50_us"], "{:.1f}"), num(w["p99_us"], "{:.1f}"),
             f"{w['invalid_sent']:,}", f"{w['sessions_lost']:,}", f"{w['reconnects']:,}",
             num(w["disconnected_s"], "{:.1f}"), f"{w['not_sent']:,}"] for w in rows]
    return head, body, "lrrrrrrrrrr"


def _sum(values) -> float:
    """The sum of counters, an absent one (None) as 0."""
    return sum(v or 0 for v in values)


def _mean_latency(pairs: list):
    """Mean over the runs that measured a latency (a run with no answered request has none):
    ``pairs`` is [(counters, its latency)]."""
    v = [x for c, x in pairs if x is not None
         and (1 if c.engine_measured_answered is None else c.engine_measured_answered) > 0]
    return fmean(v) if v else None
