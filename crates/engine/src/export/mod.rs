//! The engine's JSON result, schema `sdnbench.engine/1` (documented in `crates/engine/SCHEMA.md`,
//! machine-checked against `crates/engine/schema/engine-result.schema.json` here and in Python).
//! Exporters only serialize: every number is computed in `summary()` from raw per-loop samples.

use crate::coordinator::figures::{engine_cpu_s, learning, mean_sd, measured_answered, measured_rps, merged_hist};
use crate::coordinator::Outcome;
use crate::hist::Summary;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;

pub const SCHEMA: &str = "sdnbench.engine/1";
/// The reconnection totals (`reconnect.rs`; invariants in SCHEMA.md).
fn reconnect_totals(sw: &[&crate::switch::protocol::SwitchReport]) -> Value {
    let sum = |f: &dyn Fn(&crate::switch::protocol::ReconnectCounts) -> u64| sw.iter().map(|s| f(&s.reconnect)).sum::<u64>();
    json!({"sessions_lost": sum(&|r| r.sessions_lost), "reconnect_attempts": sum(&|r| r.attempts),
           "reconnects": sum(&|r| r.reconnects), "reconnect_failures": sum(&|r| r.failures),
           "switches_down_at_stop": sum(&|r| r.down_at_stop as u64),
           "switches_reconnecting_at_stop": sum(&|r| r.reconnecting_at_stop as u64),
           "disconnected_ms": sum(&|r| r.disconnected_ns) as f64 / 1e6,
           "requests_not_sent_disconnected": sum(&|r| r.not_sent_disconnected)})
}

pub fn build(o: &Outcome) -> Value {
    let sw: Vec<_> = o.reports.iter().flat_map(|r| r.switches.iter()).collect();
    let sum = |f: &dyn Fn(&crate::switch::protocol::SwitchReport) -> u64| sw.iter().map(|s| f(s)).sum::<u64>();
    let mut replies: BTreeMap<String, u64> = BTreeMap::new();
    let mut errors: BTreeMap<String, u64> = BTreeMap::new();
    for s in &sw {
        for (k, v) in &s.replies_by_type {
            *replies.entry(k.clone()).or_insert(0) += v;
        }
        for (k, v) in &s.errors {
            *errors.entry(k.clone()).or_insert(0) += v;
        }
    }
    let answered = sum(&|s| s.answered);
    let late = sum(&|s| s.late);
    let extra = sum(&|s| s.extra);
    let disconnects: Vec<Value> = sw
        .iter()
        .filter_map(|s| {
            s.disconnect.as_ref().map(|d| json!({"index": s.index, "dpid": s.dpid, "t_s": d.t_s, "kind": d.kind, "reason": d.reason}))
        })
        .collect();
    let rps = measured_rps(o);
    let (mean, sd, min, max) = mean_sd(&rps);
    let hist = merged_hist(o);
    let lat: Summary = hist.summary();
    let measured_answered = measured_answered(o);
    let cpu_s = engine_cpu_s(o);
    let (attempted, up, failures) = sessions(o);
    let hs = o.ready.iter().map(|r| r.handshake_s).fold(0.0, f64::max);
    let resources: Vec<Value> = o
        .sampler
        .series
        .iter()
        .map(|s| {
            json!({"label": s.label, "pid": s.pid, "cpu_percent": s.cpu_percent, "rss_bytes": s.rss_bytes, "threads": s.threads,
                        "run_delay_ms": s.run_delay_ms})
        })
        .collect();
    let mut doc = json!({
        "schema": SCHEMA,
        "engine": {"name": "sdnbench-engine", "version": env!("CARGO_PKG_VERSION"), "workers": o.plan.workers,
                   "pid": std::process::id(), "nofile_soft": o.nofile.0, "nofile_hard": o.nofile.1,
                   "source_addrs": o.cfg.source_addrs},
        "params": o.cfg,
        "status": o.status,
        "error": o.error,
        "started_unix": o.started_unix,
        "finished_unix": o.finished_unix,
        "handshake": {"sessions_attempted": attempted, "sessions_up": up, "sessions_failed": attempted.saturating_sub(up),
                      "duration_s": hs, "rate_per_s": if hs > 0.0 { up as f64 / hs } else { 0.0 },
                      "failures": failures.iter().map(|(k, v)| json!({"reason": k, "count": v})).collect::<Vec<_>>()},
        "loops": {"loop_ms": o.cfg.loop_ms, "warmup": o.cfg.warmup,
                  "k": o.loops.iter().map(|l| l.k).collect::<Vec<_>>(),
                  "t_s": o.loops.iter().map(|l| l.t_s).collect::<Vec<_>>(),
                  "answered": o.loops.iter().map(|l| l.answered).collect::<Vec<_>>(),
                  "sent": o.loops.iter().map(|l| l.sent).collect::<Vec<_>>(),
                  "lost_cumulative": o.loops.iter().map(|l| l.lost).collect::<Vec<_>>(),
                  "sessions_up": o.loops.iter().map(|l| l.up).collect::<Vec<_>>(),
                  "latency_us": o.cfg.robustness.as_ref().map(|_| o.loops.iter().map(|l| &l.latency_us).collect::<Vec<_>>())},
        "throughput": {"unit": "answered requests/s", "per_loop": rps, "mean": mean, "stdev": sd, "min": min, "max": max},
        "totals": {"requests_sent": sum(&|s| s.sent), "requests_answered": answered,
                   "requests_lost": sum(&|s| s.lost), "extra_replies": extra,
                   "extra_per_answered": if answered > 0 { extra as f64 / answered as f64 } else { 0.0 },
                   "unmatched_replies": sum(&|s| s.unmatched), "late_replies": late,
                   "requests_in_flight_at_stop": sum(&|s| s.in_flight_at_stop),
                   "requests_discarded": sum(&|s| s.discarded),
                   "invalid_packet_ins_sent": sw.iter().map(|s| crate::switch::exceptions::invalid_sent(&o.cfg, s.sent)).sum::<u64>(),
                   "late_latency_us": {"count": late, "mean": if late > 0 { sum(&|s| s.late_ns_sum) as f64 / late as f64 / 1e3 } else { 0.0 },
                                       "max": sw.iter().map(|s| s.late_ns_max).max().unwrap_or(0) as f64 / 1e3},
                   "learning_replies": sum(&|s| s.learning_replies),
                   "learning_late_replies": sum(&|s| s.learning_late_replies),
                   "errors": errors.values().sum::<u64>(), "errors_by_code": errors,
                   "replies_by_type": replies, "disconnects": disconnects.len()},
        "reconnect": {"on": o.cfg.reconnects(), "backoff_ms": o.cfg.reconnect_backoff_ms, "max_backoff_ms": o.cfg.max_backoff_ms,
                      "fail_mode": o.cfg.fail_mode},
        "disconnects": disconnects,
        "learning": learning_json(o),
        "robustness": o.robustness,
        "latency": {"unit": "us", "count": lat.count, "mean": lat.mean_us, "stdev": lat.stdev_us, "min": lat.min_us,
                    "p50": lat.p50_us, "p90": lat.p90_us, "p99": lat.p99_us, "p99_9": lat.p99_9_us, "max": lat.max_us,
                    "clamped": hist.clamped, "hdr_v2_base64": hist.to_base64(),
                    "buckets_us": hist.buckets_us().iter().map(|(v, c)| json!([v, c])).collect::<Vec<_>>()},
        "efficiency": {"engine_cpu_s": cpu_s, "measured_answered": measured_answered,
                       "answered_per_engine_cpu_s": if cpu_s > 0.0 { measured_answered as f64 / cpu_s } else { 0.0 },
                       "coalescing": coalescing(o)},
        "resources": {"t_s": o.sampler.t_s, "processes": resources},
        "capacity": capacity(o),
        "network": crate::network::export::build(&o.reports.iter().filter_map(|r| r.network.as_ref()).collect::<Vec<_>>(),
                                                 crate::network::spec_of(&o.cfg).ok().flatten().map_or(0, |n| n.links.len())),
        "switches": sw,
        "agents": crate::coordinator::agent_link::json(o),
        "warnings": o.warnings,
    });
    if let (Some(t), Value::Object(r)) = (doc["totals"].as_object_mut(), reconnect_totals(&sw)) {
        t.extend(r);
    }
    doc
}

/// Wake coalescing over all workers (`coalesce.rs`): parks that waited, the time waited, the
/// largest quantum (µs; the bound on what coalescing added to any latency sample).
fn coalescing(o: &Outcome) -> serde_json::Value {
    let r: Vec<_> = o.reports.iter().map(|r| &r.coalesce).collect();
    json!({"pct": if o.cfg.coalescing() { o.cfg.coalesce_pct } else { 0.0 },
           "waits": r.iter().map(|c| c.waits).sum::<u64>(),
           "waited_s": r.iter().map(|c| c.waited_ns).sum::<u64>() as f64 / 1e9,
           "max_quantum_us": r.iter().map(|c| c.max_quantum_ns).max().unwrap_or(0) as f64 / 1e3})
}

/// Sessions (attempted, up, failures by reason). Invariant: attempted = up + Σ failures.
/// Request workloads attempt every switch; capacity stops at the first failure, so its
/// attempted sessions are those it tried (not `switches`), and up means established.
pub fn sessions(o: &Outcome) -> (u32, u32, BTreeMap<String, u32>) {
    let caps: Vec<_> = o.reports.iter().filter_map(|r| r.capacity.as_ref()).collect();
    if !caps.is_empty() {
        let mut f = BTreeMap::new();
        for c in &caps {
            if let Some(r) = &c.first_failure {
                *f.entry(r.clone()).or_insert(0) += c.attempted - c.established;
            }
        }
        return (caps.iter().map(|c| c.attempted).sum(), caps.iter().map(|c| c.established).sum(), f);
    }
    let up: u32 = o.ready.iter().map(|r| r.up).sum();
    let mut f = BTreeMap::new();
    for r in &o.ready {
        for (k, v) in &r.failures {
            *f.entry(k.clone()).or_insert(0) += v;
        }
    }
    // the switches this run (or part of a run: an agent, a pod alone) is responsible for
    let attempted = if o.ready.is_empty() { 0 } else { o.part_switches };
    let named: u32 = f.values().sum();
    if attempted > up + named {
        f.insert("no handshake before the run started".into(), attempted - up - named);
    }
    (attempted, up, f)
}

fn learning_json(o: &Outcome) -> Value {
    let d = learning(o);
    json!({"requests": d.sent, "replies": d.replies, "outstanding": d.sent.saturating_sub(d.replies),
           "duration_s": d.duration_s, "ended": d.ended})
}

fn capacity(o: &Outcome) -> Value {
    let caps: Vec<_> = o.reports.iter().filter_map(|r| r.capacity.as_ref()).collect();
    if caps.is_empty() {
        return Value::Null;
    }
    let est: u32 = caps.iter().map(|c| c.established).sum();
    let t = caps.iter().map(|c| c.establish_s).fold(0.0, f64::max);
    json!({
        "attempted": caps.iter().map(|c| c.attempted).sum::<u32>(),
        "established": est,
        "held": caps.iter().map(|c| c.held).sum::<u32>(),
        "hold_ms": o.cfg.hold_ms,
        "first_failure": caps.iter().find_map(|c| c.first_failure.clone()),
        "establish_s": t,
        "rate_per_s": if t > 0.0 { est as f64 / t } else { 0.0 },
        "session_ms": caps.iter().flat_map(|c| c.session_ms.iter().cloned()).collect::<Vec<f64>>(),
    })
}

/// Write atomically: a crash leaves the old file or the new one, never half of one.
pub fn write(path: &Path, v: &Value) -> std::io::Result<()> {
    let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
    std::fs::write(&tmp, serde_json::to_vec_pretty(v).expect("json values serialize"))?;
    std::fs::rename(&tmp, path)
}
