//! The engine's result: fills an [`EngineResult`] (schema `sdnbench.engine/1`, the records in
//! `src/result/`, with the run's config as `params`: `document.rs`) from a run's `Outcome`, and writes it. Exporters only serialize and sum: every
//! figure is computed in `coordinator/figures.rs` or here from raw per-loop samples.
//!
//! Written through a `serde_json::Value`, so every object's keys come out sorted, as in every
//! result the engine has written.

mod columnar;
mod document;
mod network;
mod stream;
#[cfg(test)]
pub(crate) mod tests;

pub use columnar::{read as read_switches, Encoder, SWITCHES_SCHEMA};
pub use document::{schema, EngineResult};

use crate::coordinator::digest::Digest;
use crate::coordinator::figures::{engine_cpu_s, learning, mean_sd, measured_answered, measured_rps, merged_hist};
use crate::coordinator::Outcome;
use crate::result::run::{Coalescing, Failure};
use crate::result::totals::{LateLatency, ReconnectTotals};
use crate::result::*;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// The result of a run. It takes the `Outcome`: the switches' reports, the config and the
/// attacker's observation move into the result rather than being copied (a run of a million
/// switches holds them once).
pub fn build(o: Outcome) -> EngineResult {
    let disconnects: Vec<Disconnect> = o.digest.losses().map(|l| l.at.clone()).collect();
    let totals = totals(&o.digest, disconnects.len() as u64);
    let transport = transport(&o);
    let net_reports: Vec<_> = o.reports.iter().filter_map(|r| r.network.as_ref()).collect();
    let links = o.cfg.network.as_ref().map_or(0, |n| n.links.len());
    let network = network::build(&net_reports, links);
    let (handshake, loops, throughput, learning, latency, efficiency, capacity) =
        (handshake(&o), loops(&o), throughput(&o), learning_section(&o), latency(&o), efficiency(&o), capacity(&o));
    let agents = o.agents.clone();
    let load = crate::coordinator::load::section(&o);
    let mut warnings = o.warnings;
    warnings.extend(load.as_ref().and_then(crate::coordinator::load::warning));
    let reconnect = Reconnect {
        on: o.cfg.reconnects(),
        backoff_ms: o.cfg.reconnect_backoff_ms,
        max_backoff_ms: o.cfg.max_backoff_ms,
        fail_mode: o.cfg.fail_mode,
    };
    let engine = Engine {
        name: "sdnbench-engine".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        workers: o.plan.workers,
        pid: std::process::id(),
        nofile_soft: o.nofile.0,
        nofile_hard: o.nofile.1,
        source_addrs: o.cfg.source_addrs.clone(),
    };
    EngineResult {
        schema: SCHEMA.into(),
        engine,
        status: o.status.into(),
        error: o.error,
        started_unix: o.started_unix,
        finished_unix: o.finished_unix,
        handshake,
        transport,
        loops,
        throughput,
        totals,
        reconnect,
        disconnects,
        learning,
        robustness: o.robustness,
        latency,
        load,
        efficiency,
        resources: Resources { t_s: o.sampler.t_s, processes: o.sampler.series },
        capacity,
        network,
        switches: o.reports.into_iter().flat_map(|r| r.switches).collect(),
        switches_file: None,
        agents,
        warnings,
        params: o.cfg,
        merged_from: None,
        agent_index: None,
    }
}

fn handshake(o: &Outcome) -> Handshake {
    let (attempted, up, failures) = sessions(o);
    let hs = o.ready.iter().map(|r| r.handshake_s).fold(0.0, f64::max);
    Handshake {
        sessions_attempted: attempted,
        sessions_up: up,
        sessions_failed: attempted.saturating_sub(up),
        duration_s: hs,
        rate_per_s: if hs > 0.0 { up as f64 / hs } else { 0.0 },
        failures: failures.into_iter().map(|(reason, count)| Failure { reason, count }).collect(),
        hello_fallbacks: crate::coordinator::figures::hello_fallbacks(o),
        tcp_connect_us: percentiles(&o.digest.tcp_connect_us),
        tls_handshake_us: percentiles(&o.digest.tls_handshake_us),
        openflow_handshake_us: percentiles(&o.digest.openflow_handshake_us),
    }
}

/// One per-switch figure over the switches that have it (nearest rank); None: no sample.
fn percentiles(v: &[f64]) -> Option<crate::result::Percentiles> {
    if v.is_empty() {
        return None;
    }
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    let rank = |q: f64| v[((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1];
    Some(crate::result::Percentiles { count: v.len() as u64, p50: rank(0.5), p90: rank(0.9), p99: rank(0.99), max: v[v.len() - 1] })
}

/// TCP or TLS; over TLS the version and cipher suite most sessions agreed.
fn transport(o: &Outcome) -> Transport {
    let d = &o.digest;
    // the most agreed; of a tie, the last in order (as `max_by_key` gives)
    let most = |n: &BTreeMap<String, u32>| n.iter().max_by_key(|(_, c)| **c).map(|(k, _)| k.clone());
    Transport {
        protocol: if o.cfg.tls.is_some() { "tls" } else { "tcp" }.into(),
        tls_version: most(&d.tls_versions),
        cipher_suite: most(&d.tls_suites),
        sessions_tls: d.tls_sessions,
    }
}

fn loops(o: &Outcome) -> Loops {
    let col = |f: &dyn Fn(&crate::coordinator::LoopTotal) -> u64| o.loops.iter().map(f).collect::<Vec<u64>>();
    Loops {
        loop_ms: o.cfg.loop_ms,
        warmup: o.cfg.warmup,
        k: o.loops.iter().map(|l| l.k).collect(),
        t_s: o.loops.iter().map(|l| l.t_s).collect(),
        answered: col(&|l| l.answered),
        sent: col(&|l| l.sent),
        lost_cumulative: col(&|l| l.lost),
        sessions_up: o.loops.iter().map(|l| l.up).collect(),
        latency_us: o.cfg.robustness.as_ref().map(|_| o.loops.iter().map(|l| l.latency_us.clone()).collect()),
    }
}

fn throughput(o: &Outcome) -> Throughput {
    let rps = measured_rps(o);
    let (mean, stdev, min, max) = mean_sd(&rps);
    Throughput { unit: "answered requests/s".into(), per_loop: rps, mean, stdev, min, max }
}

/// Every switch's counters summed (`coordinator/digest.rs`).
fn totals(d: &Digest, disconnects: u64) -> Totals {
    let (t, r) = (&d.sums, &d.sums.requests);
    let (answered, late, extra) = (r.answered, r.late, r.extra);
    Totals {
        requests_sent: r.sent,
        requests_answered: answered,
        requests_lost: r.lost,
        extra_replies: extra,
        extra_per_answered: if answered > 0 { extra as f64 / answered as f64 } else { 0.0 },
        unmatched_replies: r.unmatched,
        late_replies: late,
        requests_in_flight_at_stop: r.in_flight_at_stop,
        requests_discarded: r.discarded,
        invalid_packet_ins_sent: t.invalid_sent,
        late_latency_us: LateLatency {
            count: late,
            mean: if late > 0 { t.late_ns_sum as f64 / late as f64 / 1e3 } else { 0.0 },
            max: t.late_ns_max as f64 / 1e3,
        },
        learning_replies: t.learning_replies,
        learning_late_replies: t.learning_late_replies,
        errors: t.errors.values().sum(),
        errors_by_code: t.errors.clone(),
        replies_by_type: t.replies_by_type.clone(),
        disconnects,
        reconnect: ReconnectTotals {
            sessions_lost: t.sessions_lost,
            reconnect_attempts: t.reconnect_attempts,
            reconnects: t.reconnects,
            reconnect_failures: t.reconnect_failures,
            switches_down_at_stop: d.counts.down_at_stop as u64,
            switches_reconnecting_at_stop: d.counts.reconnecting_at_stop as u64,
            disconnected_ms: t.disconnected_ns as f64 / 1e6,
            requests_not_sent_disconnected: t.not_sent_disconnected,
        },
    }
}

fn latency(o: &Outcome) -> Latency {
    let hist = merged_hist(o);
    let s = hist.summary();
    Latency {
        unit: "us".into(),
        count: s.count,
        mean: s.mean_us,
        stdev: s.stdev_us,
        min: s.min_us,
        p50: s.p50_us,
        p90: s.p90_us,
        p99: s.p99_us,
        p99_9: s.p99_9_us,
        max: s.max_us,
        clamped: hist.clamped,
        hdr_v2_base64: hist.to_base64(),
        buckets_us: hist.buckets_us(),
    }
}

fn efficiency(o: &Outcome) -> Efficiency {
    let cpu_s = engine_cpu_s(o);
    let measured_answered = measured_answered(o);
    Efficiency {
        engine_cpu_s: cpu_s,
        measured_answered,
        answered_per_engine_cpu_s: if cpu_s > 0.0 { measured_answered as f64 / cpu_s } else { 0.0 },
        coalescing: coalescing(o),
    }
}

/// Wake coalescing over all workers (`coalesce.rs`): parks that waited, the time waited, the
/// largest quantum (µs; the bound on what coalescing added to any latency sample).
fn coalescing(o: &Outcome) -> Coalescing {
    let r: Vec<_> = o.reports.iter().map(|r| &r.coalesce).collect();
    Coalescing {
        pct: if o.cfg.coalescing() { o.cfg.coalesce_pct } else { 0.0 },
        waits: r.iter().map(|c| c.waits).sum(),
        waited_s: r.iter().map(|c| c.waited_ns).sum::<u64>() as f64 / 1e9,
        max_quantum_us: r.iter().map(|c| c.max_quantum_ns).max().unwrap_or(0) as f64 / 1e3,
    }
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

fn learning_section(o: &Outcome) -> Learning {
    let d = learning(o);
    Learning {
        requests: d.sent,
        replies: d.replies,
        outstanding: d.sent.saturating_sub(d.replies),
        duration_s: d.duration_s,
        ended: d.ended,
    }
}

fn capacity(o: &Outcome) -> Option<Capacity> {
    Capacity::sum(o.reports.iter().filter_map(|r| r.capacity.as_ref()))
}

/// The result as JSON (keys sorted: through a `Value`).
pub fn to_value(r: &EngineResult) -> serde_json::Value {
    serde_json::to_value(r).expect("an engine result serializes")
}

/// One line of JSON (what a pod prints).
pub fn line(r: &EngineResult) -> String {
    to_value(r).to_string()
}

/// From how many switches `write` puts the per-switch records in a columnar file beside the
/// result (`--switches-file-from`): a small run stays one file, as every result was before.
pub const SWITCHES_FILE_FROM: usize = 10_000;

/// Write atomically: a crash leaves the old file or the new one, never half of one.
/// The text is streamed to the file (`stream.rs`): the result is not held a second time as a
/// `Value` or as text. `r` is borrowed mutably only to take its switches aside for a moment.
pub fn write(path: &Path, r: &mut EngineResult) -> std::io::Result<()> {
    write_from(path, r, SWITCHES_FILE_FROM)
}

/// `write`, the records in a columnar file beside `path` when there are at least `from` of them
/// (0: always). `r` is given back as it came.
pub fn write_from(path: &Path, r: &mut EngineResult, from: usize) -> std::io::Result<()> {
    if r.switches.len() < from || r.switches_file.is_some() {
        return atomic(path, |w| stream::write_pretty(w, r));
    }
    let mut records = Encoder::default();
    records.add(0, &r.switches)?;
    let switches = std::mem::take(&mut r.switches);
    let written = write_beside(path, r, &records);
    r.switches = switches;
    written
}

/// Write `r` (its `switches` empty: they are in `records`, encoded as the run's workers
/// reported) with its records in the columnar file beside `path`: that file (atomically) first,
/// then the summary naming it. `r` is given back as it came.
pub fn write_beside(path: &Path, r: &mut EngineResult, records: &Encoder) -> std::io::Result<()> {
    let name = columnar::name_beside(path);
    atomic(&path.with_file_name(&name), |w| records.write_to(w))?;
    r.switches_file = Some(SwitchesFile { name, format: SWITCHES_SCHEMA.into(), rows: records.rows() });
    let written = atomic(path, |w| stream::write_pretty(w, r));
    r.switches_file = None;
    written
}

/// Write through `f` to a temporary file renamed to `path` when complete.
fn atomic(path: &Path, f: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>) -> std::io::Result<()> {
    let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
    let mut w = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&tmp)?);
    f(&mut w)?;
    w.flush()?;
    drop(w);
    std::fs::rename(&tmp, path)
}
