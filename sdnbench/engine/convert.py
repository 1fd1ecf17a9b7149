"""The engine's JSON document (``sdnbench.engine/1``) as a ``sdnbench.result.Result``. Pure.

Series (raw samples first):

- ``throughput`` (flows/s): answered requests/s of each measured loop, all switches, ``t`` = loop
  end in seconds since go; ``throughput_warmup`` the same for warm-up loops;
- ``switch_throughput`` (flows/s), one series per switch (label ``switch`` = dpid): its measured
  loops — the per-interval samples per switch;
- ``latency`` (us): every answered request's latency in the measured loops, expanded from the
  engine's HDR buckets (bucket value, 1% resolution or better); above ``MAX_LATENCY_SAMPLES`` the
  distribution is resampled at evenly spaced quantiles and a note says so;
- capacity mode: ``sessions`` (switches) = sessions held, ``session_setup_time`` (ms) per session.

Counters: the engine's totals, handshake, efficiency and latency percentiles.
Resources: the engine's own processes as ``engine_cpu_percent`` / ``engine_rss_bytes`` (label
``process``); the controller's series come from its sampler (``Controller.record``).
"""

from __future__ import annotations

from ..result import Result, Series

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


def to_result(doc: dict, params: dict) -> Result:
    p = doc["params"]
    mode = p["mode"]
    r = Result(kind="controller", benchmark=mode, params=dict(params))
    # what the engine actually ran: the traffic profile (what the controller had to do per
    # request) and the OpenFlow versions the sessions negotiated
    r.params["traffic"] = p.get("traffic", "unique-pairs")
    r.params["of_negotiated"] = sorted({s["of_version"] for s in doc["switches"] if s.get("of_version")})
    r.versions["sdnbench-engine"] = doc["engine"]["version"]
    r.topology = {"spec": f"emulated,{p['switches']}", "switches": p["switches"], "hosts_per_switch": p["macs"],
                  "ports_per_switch": p["ports"], "emulated": True}
    loops = doc["loops"]
    warm = loops["warmup"]
    secs = loops["loop_ms"] / 1000.0
    rps = [a / secs for a in loops["answered"]]
    if mode != "capacity":
        r.add("throughput", "flows/s", rps[warm:], t=loops["t_s"][warm:])
        # what the engine actually sent per loop (fixed rate: the offered load as it happened)
        r.add("sent_rate", "requests/s", [s / secs for s in loops["sent"][warm:]], t=loops["t_s"][warm:])
        if warm:
            r.add("throughput_warmup", "flows/s", rps[:warm], t=loops["t_s"][:warm])
        for s in doc["switches"]:
            per = s["answered_per_loop"][warm:]
            if per:
                r.add("switch_throughput", "flows/s", [a / secs for a in per],
                      t=loops["t_s"][warm:warm + len(per)], switch=s["dpid"])
        values, resampled = latency_samples(doc["latency"]["buckets_us"])
        if values:
            r.add("latency", "us", values)
        if resampled:
            r.notes.append(f"latency: {doc['latency']['count']} samples resampled to {len(values)} quantiles")
    cap = doc.get("capacity")
    if cap:
        r.add("sessions", "switches", [cap["held"]])
        r.add("session_setup_time", "ms", cap["session_ms"])
    r.counters.update(doc["totals"])
    r.counters.pop("errors_by_code", None)
    r.counters.pop("replies_by_type", None)
    for k, v in doc["totals"]["replies_by_type"].items():
        r.counters[f"replies_{k}"] = v
    for k, v in doc["totals"]["errors_by_code"].items():
        r.counters[f"errors_{k}"] = v
    h = doc["handshake"]
    r.counters.update({"sessions_up": h["sessions_up"], "sessions_failed": h["sessions_failed"],
                       "handshake_s": h["duration_s"], "handshake_rate_per_s": h["rate_per_s"]})
    lat = doc["latency"]
    for k in ("p50", "p90", "p99", "p99_9", "max", "mean"):
        r.counters[f"latency_{k}_us"] = lat[k]
    r.counters.update({f"engine_{k}": v for k, v in doc["efficiency"].items()})
    if cap:
        r.counters.update({f"capacity_{k}": v for k, v in cap.items() if not isinstance(v, list)})
    t = doc["resources"]["t_s"]
    for proc in doc["resources"]["processes"]:
        if proc["label"] == "controller":
            continue  # the controllers' sampler records the controller
        r.resources.append(Series("engine_cpu_percent", "%", proc["cpu_percent"], {"process": proc["label"]}, t))
        r.resources.append(Series("engine_rss_bytes", "B", proc["rss_bytes"], {"process": proc["label"]}, t))
    r.notes.extend(doc["warnings"])
    for d in doc["disconnects"]:
        if d["t_s"] >= 0:
            r.notes.append(f"switch {d['index']} (dpid {d['dpid']}) lost at {d['t_s']:.2f} s: {d['reason']}")
    status = doc["status"] if doc["status"] in ("ok", "partial") else "failed"
    error = doc["error"] or ("interrupted: partial results" if doc["status"] == "interrupted" else None)
    return r.finish(status, error)
