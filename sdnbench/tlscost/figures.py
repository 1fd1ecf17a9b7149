"""The ``controller tls-cost`` table from its results (pure): per mode and figure, the mean over
repetitions over TCP, over TLS, and TLS / TCP.

Each result carries its ``tls_cost_transport`` and ``tls_cost_mode`` params, the engine's counters, and the
counters the command adds around each measurement (``tlscost_*``: both sides' CPU seconds, the
controller's peak RSS above its RSS at the start). The figures, per mode:

- throughput: answered requests/s (mean of the measured loops), CPU µs per answered request of
  the engine and of the controller;
- latency: p50 and p99 round trip (µs), CPU µs per answered request of each side;
- capacity: sessions held, set-up rate (sessions / the time to establish them), CPU µs per
  session of each side, bytes per session of the controller (peak RSS above its start) and of
  the engine (peak RSS / sessions).
"""

from __future__ import annotations

import statistics

from .stored import TlsCostCounters

FIGURES = {
    "throughput": ["answered_per_s", "engine_cpu_us_per_answered", "controller_cpu_us_per_answered"],
    "latency": ["p50_us", "p99_us", "engine_cpu_us_per_answered", "controller_cpu_us_per_answered"],
    "capacity": ["sessions_held", "setup_per_s", "engine_cpu_us_per_session", "controller_cpu_us_per_session",
                 "controller_bytes_per_session", "engine_bytes_per_session"],
}


def _per(x, n):
    return 1e6 * x / n if x is not None and n else None


def one(r) -> dict:
    """The figures of one result (a ``Result``), by its mode."""
    c, mode = TlsCostCounters.of(r), r.params.get("tls_cost_mode")
    eng, ctl = c.tlscost_engine_cpu_s, c.tlscost_controller_cpu_s
    if mode == "capacity":
        held = c.capacity_held or 0
        secs = c.capacity_establish_s
        rss, peak = c.tlscost_controller_rss_delta_bytes, c.tlscost_engine_rss_peak_bytes
        return {"sessions_held": held, "setup_per_s": held / secs if held and secs else None,
                "engine_cpu_us_per_session": _per(eng, held), "controller_cpu_us_per_session": _per(ctl, held),
                "controller_bytes_per_session": rss / held if held and rss is not None else None,
                "engine_bytes_per_session": peak / held if held and peak else None}
    ans = c.requests_answered or 0
    out = {"engine_cpu_us_per_answered": _per(eng, ans), "controller_cpu_us_per_answered": _per(ctl, ans)}
    if mode == "throughput":
        v = [x for s in r.find("throughput") for x in s.values]
        out["answered_per_s"] = statistics.fmean(v) if v else None
    else:
        out.update({"p50_us": c.latency_p50_us, "p99_us": c.latency_p99_us})
    return out


def _mean(v: list):
    v = [x for x in v if x is not None]
    return statistics.fmean(v) if v else None


def table(results: list) -> list:
    """Rows ``[mode, figure, tcp, tls, tls/tcp, n]`` (means over the ok results of each)."""
    got: dict = {}
    for r in results:
        if r.status != "ok":
            continue
        key = (r.params.get("tls_cost_mode"), r.params.get("tls_cost_transport"))
        for k, v in one(r).items():
            got.setdefault(key + (k,), []).append(v)
    rows = []
    for mode, figs in FIGURES.items():
        for f in figs:
            a, b = _mean(got.get((mode, "tcp", f), [])), _mean(got.get((mode, "tls", f), []))
            if a is None and b is None:
                continue
            n = min(len(got.get((mode, "tcp", f), [])), len(got.get((mode, "tls", f), [])))
            rows.append([mode, f, a, b, b / a if a and b is not None else None, n])
    return rows


def negotiated(results: list) -> dict:
    """The distinct (protocol, TLS version, cipher suite) each transport's runs negotiated, as the
    engine reported it (params ``transport``, ``tls_version``, ``tls_cipher_suite``: what it ran),
    by ``tls_cost_transport``."""
    seen: dict = {}
    for r in results:
        p = r.params
        if r.status != "ok" or not p.get("transport"):
            continue                       # a failed run, or an engine that does not say
        pair = (p.get("transport"), p.get("tls_version"), p.get("tls_cipher_suite"))
        if pair not in seen.setdefault(p.get("tls_cost_transport"), []):
            seen[p.get("tls_cost_transport")].append(pair)
    return seen
