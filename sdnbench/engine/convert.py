"""The engine's JSON document (``sdnbench.engine/1``) as a ``sdnbench.result.Result``. Pure.

Series (raw samples first):

- ``throughput`` (flows/s): answered requests/s of each measured loop, all switches, ``t`` = loop
  end in seconds since go; ``throughput_warmup`` the same for warm-up loops;
- ``switch_throughput`` (flows/s), one series per switch (label ``switch`` = dpid): its measured
  loops — the per-interval samples per switch;
- ``latency`` (us): every answered request's latency in the measured loops, expanded from the
  engine's HDR buckets (bucket value, 1% resolution or better); above ``MAX_LATENCY_SAMPLES`` the
  distribution is resampled at evenly spaced quantiles and a note says so;
- capacity mode: ``sessions`` (switches) = sessions held, ``session_setup_time`` (ms) per session;
- ``tcp_connect_time``, ``tls_handshake_time`` (TLS runs), ``openflow_handshake_time`` (us): per
  switch whose first session came up, each step of its opening timed alone.

Params: ``transport`` (``tcp``/``tls``) and over TLS ``tls_version``, ``tls_cipher_suite``.

Counters: the engine's totals, handshake, efficiency and latency percentiles.
Resources: the engine's own processes as ``engine_cpu_percent`` / ``engine_rss_bytes`` (label
``process``); the controller's series come from its sampler (``Controller.record``).
"""

from __future__ import annotations

from typing import Union

from ..result import Result, Series
from .result_check import as_json
from .result_types import EngineResult

MAX_LATENCY_SAMPLES = 200_000


def latency_samples(buckets: list, cap: int = MAX_LATENCY_SAMPLES) -> tuple:
    """Expand ``[[value_us, count], ...]`` into values; resample when there are more than ``cap``.
    Returns (values, resampled)."""
    total = sum(int(c) for _, c in buckets)
    if total <= cap:
        out = []
        for v, c in buckets:
            out.extend([float(v)] * int(c))
        return out, False
    out = []
    i, seen = 0, 0
    for j in range(cap):
        target = (j + 0.5) * total / cap
        while seen + buckets[i][1] < target:
            seen += buckets[i][1]
            i += 1
        out.append(float(buckets[i][0]))
    return out, True


def to_result(doc: Union[dict, EngineResult], params: dict) -> Result:
    """The Result of one engine run: ``doc`` its document (parsed into the typed view first: a
    document that breaks the schema is ``EngineDocumentError``, naming the field) or its view."""
    res = doc if isinstance(doc, EngineResult) else EngineResult.from_json(doc)
    p = res.params
    r = Result(kind="controller", benchmark=p.mode, params=dict(params))
    # what the engine actually ran: the traffic profile (what the controller had to do per
    # request) and the OpenFlow versions the sessions negotiated
    r.params["traffic"] = p.traffic
    r.params["of_negotiated"] = sorted({s.of_version for s in res.switches if s.of_version})
    r.versions["sdnbench-engine"] = res.engine.version
    r.topology = {"spec": f"emulated,{p.switches}", "switches": p.switches, "hosts_per_switch": p.macs,
                  "ports_per_switch": p.ports, "emulated": True}
    if p.mode != "capacity":
        _request_series(r, res)
    cap = res.capacity
    if cap:
        r.add("sessions", "switches", [cap.held])
        r.add("session_setup_time", "ms", cap.session_ms)
    _transport(r, res)
    r.counters.update(_counters(res))
    t = res.resources.t_s
    for proc in res.resources.processes:
        if proc.label == "controller":
            continue  # the controllers' sampler records the controller
        r.resources.append(Series("engine_cpu_percent", "%", proc.cpu_percent, {"process": proc.label}, t))
        r.resources.append(Series("engine_rss_bytes", "B", proc.rss_bytes, {"process": proc.label}, t))
    r.notes.extend(res.warnings)
    for d in res.disconnects:
        if d.t_s >= 0:
            r.notes.append(f"switch {d.index} (dpid {d.dpid}) lost at {d.t_s:.2f} s: {d.reason}")
    status = res.status if res.status in ("ok", "partial") else "failed"
    error = res.error or ("interrupted: partial results" if res.status == "interrupted" else None)
    return r.finish(status, error)


def _request_series(r: Result, res: EngineResult) -> None:
    """Throughput, offered load, per-switch throughput and latency of a request workload."""
    loops = res.loops
    warm = loops.warmup
    secs = loops.loop_ms / 1000.0
    rps = [a / secs for a in loops.answered]
    r.add("throughput", "flows/s", rps[warm:], t=loops.t_s[warm:])
    # what the engine actually sent per loop (fixed rate: the offered load as it happened)
    r.add("sent_rate", "requests/s", [s / secs for s in loops.sent[warm:]], t=loops.t_s[warm:])
    if warm:
        r.add("throughput_warmup", "flows/s", rps[:warm], t=loops.t_s[:warm])
    for s in res.switches:
        per = s.answered_per_loop[warm:]
        if per:
            r.add("switch_throughput", "flows/s", [a / secs for a in per],
                  t=loops.t_s[warm:warm + len(per)], switch=s.dpid)
    values, resampled = latency_samples(res.latency.buckets_us)
    if values:
        r.add("latency", "us", values)
    if resampled:
        r.notes.append(f"latency: {res.latency.count} samples resampled to {len(values)} quantiles")


_STEPS = (("tcp_connect", "tcp_connect_us"), ("tls_handshake", "tls_handshake_us"),
          ("openflow_handshake", "openflow_handshake_us"))


def _transport(r: Result, res: EngineResult) -> None:
    """TCP or TLS (RFC 8456 §4.8), what TLS agreed, and each step of the sessions' opening: the
    raw per-switch samples as series, their percentiles as counters."""
    tr = res.transport
    r.params["transport"] = tr.protocol
    if tr.protocol == "tls":
        r.params["tls_version"] = tr.tls_version
        r.params["tls_cipher_suite"] = tr.cipher_suite
        r.counters["sessions_tls"] = tr.sessions_tls
    for name, field in _STEPS:
        values = [v for v in (getattr(s, field) for s in res.switches) if v is not None]
        if values:
            r.add(f"{name}_time", "us", values)
        pct = getattr(res.handshake, field)
        if pct is not None:
            r.counters.update({f"{name}_{k}_us": getattr(pct, k) for k in ("p50", "p90", "p99", "max")})


def _counters(res: EngineResult) -> dict:
    """The engine's totals (their two maps spread out as ``replies_<type>`` and ``errors_<code>``),
    handshake, latency percentiles, efficiency and capacity figures, as counters."""
    t = res.totals
    out = {k: v for k, v in as_json(t).items() if not isinstance(getattr(t, k), dict)}
    out.update({f"replies_{k}": v for k, v in t.replies_by_type.items()})
    out.update({f"errors_{k}": v for k, v in t.errors_by_code.items()})
    h = res.handshake
    out.update({"sessions_up": h.sessions_up, "sessions_failed": h.sessions_failed,
                "handshake_s": h.duration_s, "handshake_rate_per_s": h.rate_per_s})
    lat = res.latency
    out.update({"latency_p50_us": lat.p50, "latency_p90_us": lat.p90, "latency_p99_us": lat.p99,
                "latency_p99_9_us": lat.p99_9, "latency_max_us": lat.max, "latency_mean_us": lat.mean})
    out.update({f"engine_{k}": v for k, v in as_json(res.efficiency).items()})
    if res.capacity:
        out.update({f"capacity_{k}": v for k, v in as_json(res.capacity).items() if not isinstance(v, list)})
    return out
