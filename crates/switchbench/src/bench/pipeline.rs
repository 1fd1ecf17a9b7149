//! Forwarding latency and throughput through pipelines of A..B tables chained by goto-table
//! (the Zodiac FX study's pipeline-depth question).
//!
//! Workload per depth d: table t < d-1 matches each of M destination MACs and goes to table
//! t+1; table d-1 matches them and outputs to the destination port (M = the first --flows
//! value). Probes are sent until one comes out (`pipeline_ready`, ms after the barrier reply);
//! then latency: `reps` probes one at a time, kernel rx time - userspace tx time.
//! Throughput: probes blasted for --duration; rate = probes received / send time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ofcontroller::build::{FlowSpec, Next};
use ofwire::Version;
use serde_json::json;

use super::{Bench, TestOut, PRIORITY};
use crate::clock::{ms, now_ns};
use crate::dataplane::{blast, next_seq, send_probe, Capture};
use crate::probe::flow_mac;

pub fn run(b: &mut Bench) -> Result<Vec<TestOut>, String> {
    if b.v() == Version::V10 && b.opts.tables > 1 {
        return Err("the pipeline test needs more than one table: use --of 1.3 (OpenFlow 1.0 has one)".into());
    }
    let m = b.opts.flows.first().copied().unwrap_or(1).max(1);
    let mut outs = Vec::new();
    for d in b.opts.tables_from..=b.opts.tables {
        outs.push(depth(b, d, m)?);
    }
    Ok(outs)
}

fn depth(b: &mut Bench, d: u8, m: u32) -> Result<TestOut, String> {
    b.reset()?;
    let out_port = b.dst().port_no;
    let mut specs = Vec::new();
    for t in 0..d {
        let next = if t + 1 == d { Next::Output(out_port) } else { Next::Goto(t + 1) };
        specs.extend((0..m).map(|i| FlowSpec::to_dst(t, PRIORITY, flow_mac(i), next)));
    }
    b.install(&specs)?;
    let labels = json!({"tables": d, "flows": m});
    let mut out = TestOut::new(
        "pipeline",
        json!({"tables": d, "flows": m, "reps": b.opts.reps,
        "duration_s": b.opts.duration.as_secs_f64(), "frame_size": b.src().frame_size}),
    );
    let cap = Capture::start(b.dst().sock.clone(), true, None, 0);
    match warm_up(b, &cap)? {
        Some(t) => out.series("pipeline_ready", "ms", vec![t], labels.clone()),
        None => {
            cap.stop()?;
            return Err(format!("nothing forwarded through a {d}-table pipeline within 2s"));
        }
    }
    let mut lat = Vec::new();
    for k in 0..b.opts.reps {
        let seq = next_seq();
        let tx = send_probe(b.src(), k % m, seq)?;
        if let Some(r) = cap.wait_seq(seq, Duration::from_secs(1)) {
            lat.push(ms(tx, r.at));
        }
    }
    cap.stop()?;
    out.count("latency_lost", b.opts.reps as usize - lat.len());
    out.series("forwarding_latency", "ms", lat, labels.clone());
    let cap = Capture::start(b.dst().sock.clone(), false, None, now_ns());
    let (port, dur) = (b.src().clone(), b.opts.duration);
    let sender = std::thread::spawn(move || blast(&port, m, dur, 0, &AtomicBool::new(false)));
    while !sender.is_finished() {
        b.s.pump(Duration::from_millis(20))?; // keep answering the switch's echo requests
    }
    let sent = sender.join().map_err(|_| "blaster panicked")?;
    std::thread::sleep(Duration::from_millis(100));
    let rx = cap.count.load(Ordering::Relaxed);
    cap.stop()?;
    b.s.pump(Duration::ZERO)?;
    let rate = rx as f64 / (sent.elapsed_ns as f64 / 1e9);
    out.series("forwarding_rate", "frames/s", vec![rate], labels.clone());
    out.series("forwarding_bitrate", "Mbit/s", vec![rate * b.src().frame_size as f64 * 8.0 / 1e6], labels);
    out.count("probes_sent", sent.frames);
    out.count("probes_received", rx);
    Ok(out)
}

/// Probes until one is forwarded: the new pipeline is in force. Returns the time from the
/// barrier reply to that first forwarded probe's arrival (the first probes may still meet the
/// switch's previous state).
fn warm_up(b: &mut Bench, cap: &Capture) -> Result<Option<f64>, String> {
    let start = crate::clock::now_ns();
    for _ in 0..200 {
        let seq = next_seq();
        send_probe(b.src(), 0, seq)?;
        if let Some(r) = cap.wait_seq(seq, Duration::from_millis(10)) {
            return Ok(Some(ms(start, r.at)));
        }
    }
    Ok(None)
}
