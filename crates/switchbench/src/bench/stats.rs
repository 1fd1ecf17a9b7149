//! Stats request latency, and forwarding throughput while stats are polled.
//!
//! Workload: N flows installed (the largest --flows value). Latency: `reps` echo requests (the
//! control channel's round trip, the baseline), then `reps` requests of each kind (desc, flow,
//! aggregate, table, port), one at a time; latency = last reply part read - request written. Cost: probes blasted over the N flows for --duration with no polling (the
//! baseline, same run), then again while flow-stats requests are sent one after another (the
//! next when the previous is answered, at most one per --stats-interval); the figure is the
//! forwarding rate (probes received per second) of each phase and their ratio.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ofcontroller::build::{self, FlowSpec, Next, StatsKind};
use ofcontroller::Event;
use ofwire::{Body, StatsReplyBody};
use serde_json::json;

use super::{Bench, TestOut};
use crate::clock::{ms, now_ns};
use crate::dataplane::{blast, Capture, Sent};

pub fn run(b: &mut Bench) -> Result<Vec<TestOut>, String> {
    let n = b.opts.flows.iter().copied().max().unwrap_or(1);
    b.reset()?;
    let mut specs = vec![FlowSpec::miss(0, Next::Drop)];
    specs.extend(b.dst_flows(n, 0, Next::Output(b.dst().port_no)));
    b.install(&specs)?;
    let mut out = TestOut::new(
        "stats",
        json!({"flows": n, "reps": b.opts.reps,
        "duration_s": b.opts.duration.as_secs_f64(), "stats_interval_ms": b.opts.stats_interval.as_secs_f64() * 1e3, "frame_size": b.src().frame_size}),
    );
    // The control channel's own round trip, the baseline every stats latency sits on.
    let mut echo = Vec::new();
    for _ in 0..b.opts.reps {
        let (xid, _) = b.s.send(Body::EchoRequest(b"sdnbench".to_vec()))?;
        if let Event::Reply { sent_at, replied_at, .. } = b.s.reply(xid, b.opts.timeout)? {
            echo.push(ms(sent_at, replied_at));
        }
    }
    out.series("echo_rtt", "ms", echo, json!({"flows": n}));
    for kind in StatsKind::ALL {
        let mut lat = Vec::new();
        let mut entries = 0usize;
        for _ in 0..b.opts.reps {
            let (l, e) = one_request(b, kind)?;
            lat.push(l);
            entries = e;
        }
        out.series("stats_latency", "ms", lat, json!({"kind": kind.name(), "flows": n}));
        if kind == StatsKind::Flow {
            out.count("flow_stats_entries", entries);
        }
    }
    let base = forwarding(b, n, false)?;
    let polled = forwarding(b, n, true)?;
    for (label, (sent, rx, lat)) in [("none", &base), ("flow", &polled)] {
        let secs = sent.elapsed_ns as f64 / 1e9;
        let labels = json!({"polling": label, "flows": n});
        out.series("forwarding_rate", "frames/s", vec![*rx as f64 / secs], labels.clone());
        let bits = *rx as f64 * b.src().frame_size as f64 * 8.0 / secs / 1e6;
        out.series("forwarding_bitrate", "Mbit/s", vec![bits], labels.clone());
        out.count(&format!("probes_sent_{label}"), sent.frames);
        out.count(&format!("probes_received_{label}"), *rx);
        if !lat.is_empty() {
            out.series("stats_latency_under_load", "ms", lat.clone(), json!({"kind": "flow", "flows": n}));
        }
    }
    let rate = |s: &(Sent, u64, Vec<f64>)| s.1 as f64 / (s.0.elapsed_ns as f64 / 1e9);
    if rate(&base) > 0.0 {
        out.series("forwarding_ratio_polled_to_baseline", "ratio", vec![rate(&polled) / rate(&base)], json!({"flows": n}));
    }
    Ok(vec![out])
}

/// One request of `kind`: (latency ms, entries in the reply).
fn one_request(b: &mut Bench, kind: StatsKind) -> Result<(f64, usize), String> {
    let v = b.v();
    let (xid, _) = b.s.send(build::stats(v, kind))?;
    match b.s.reply(xid, b.opts.timeout)? {
        Event::Reply { sent_at, replied_at, parts, .. } => {
            let entries = parts
                .iter()
                .map(|p| match p {
                    Body::StatsReply(r) => match &r.body {
                        StatsReplyBody::Flow(f) => f.len(),
                        StatsReplyBody::Table(t) => t.len(),
                        StatsReplyBody::Port(p) => p.len(),
                        _ => 1,
                    },
                    _ => 0,
                })
                .sum();
            Ok((ms(sent_at, replied_at), entries))
        }
        e => Err(format!("{} stats request failed: {e:?}", kind.name())),
    }
}

/// Blasts probes for --duration; with `poll`, flow stats are requested meanwhile.
fn forwarding(b: &mut Bench, flows: u32, poll: bool) -> Result<(Sent, u64, Vec<f64>), String> {
    let cap = Capture::start(b.dst().sock.clone(), false, None, now_ns());
    let stop = Arc::new(AtomicBool::new(false));
    let (port, dur, st) = (b.src().clone(), b.opts.duration, stop.clone());
    let sender = std::thread::spawn(move || blast(&port, flows, dur, 0, &st));
    let mut lat = Vec::new();
    let start = Instant::now();
    while start.elapsed() < dur {
        if poll {
            let t = Instant::now();
            lat.push(one_request(b, StatsKind::Flow)?.0);
            std::thread::sleep(b.opts.stats_interval.saturating_sub(t.elapsed()));
        } else {
            b.s.pump(Duration::from_millis(20))?;
        }
    }
    let sent = sender.join().map_err(|_| "blaster panicked")?;
    stop.store(true, Ordering::Relaxed);
    std::thread::sleep(Duration::from_millis(100)); // frames still in flight
    let count = cap.count.load(Ordering::Relaxed);
    cap.stop()?;
    Ok((sent, count, lat))
}
