//! Flow insertion latency and rate, and barrier honesty (OFLOPS' add-flow test).
//!
//! Workload: N flows, each matching one destination MAC and forwarding to the destination
//! port, are sent (a) back to back with no barrier, (b) each followed by a barrier that is
//! awaited before the next flow ("barrier" mode: a careful controller), or (c) back to back
//! with one barrier after the last ("barrier honesty"). Meanwhile probes for every flow whose
//! flow-mod has been written but which has not yet been seen forwarding are sent round-robin on
//! the source port and captured on the destination port.
//!
//! Figures, per flow: insertion latency = kernel receive time of the flow's first forwarded
//! probe - time its flow-mod was written; its lower bound = tx time of the flow's last probe
//! that was not forwarded - time the flow-mod was written; probe gap = tx time of that probe - tx time of the
//! flow's previous (unforwarded) probe, the resolution of that latency (the flow became active
//! in that window, plus the probe's transit). Barrier gap = first forwarded - barrier reply
//! (> 0: the switch confirmed flows that did not forward yet). Rate = flows forwarded /
//! (last first-forward - first flow-mod written).

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ofcontroller::build::{FlowSpec, Next};
use serde_json::json;

use super::{Bench, TestOut};
use crate::clock::{ms, now_ns};
use crate::dataplane::{next_seq, Capture, Rx};
use crate::packet::PacketSocket;
use crate::probe::{self, Probe};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    NoBarrier,
    BarrierEach,
    BarrierAfter,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::NoBarrier => "none",
            Mode::BarrierEach => "each",
            Mode::BarrierAfter => "after",
        }
    }
}

pub fn run(b: &mut Bench, barrier_test: bool) -> Result<Vec<TestOut>, String> {
    let mut outs = Vec::new();
    for n in b.opts.flows.clone() {
        if barrier_test {
            outs.push(one(b, n, Mode::BarrierAfter)?);
        } else {
            outs.push(one(b, n, Mode::NoBarrier)?);
            if b.opts.barrier {
                outs.push(one(b, n, Mode::BarrierEach)?);
            }
        }
    }
    Ok(outs)
}

struct Prober {
    sock: Arc<PacketSocket>,
    tag: u8,
    frame_size: usize,
    seen: Arc<Vec<AtomicBool>>,
    written: Arc<AtomicU32>,
    stop: Arc<AtomicBool>,
    pps: u64,
}

impl Prober {
    /// Probes flows written but not yet seen, round-robin; returns probes sent. (Favouring the
    /// first unseen flows was tried: it halves the resolution on Open vSwitch, whose flows go
    /// live in bulk and out of order, as its datapath cache is revalidated.)
    fn run(self) -> u64 {
        let n = self.seen.len();
        let mut last_tx = vec![0u64; n];
        let (mut lo, mut i, mut sent) = (0usize, 0usize, 0u64);
        let mut frame = vec![0u8; self.frame_size.max(probe::LEN)];
        let start = Instant::now();
        let interval_ns = 1_000_000_000u64.checked_div(self.pps).unwrap_or(0);
        while !self.stop.load(Ordering::Relaxed) {
            let hi = self.written.load(Ordering::Acquire) as usize;
            while lo < hi && self.seen[lo].load(Ordering::Acquire) {
                lo += 1;
            }
            if lo >= hi {
                std::thread::sleep(Duration::from_micros(50));
                continue;
            }
            if i < lo || i >= hi {
                i = lo;
            }
            let f = i;
            i += 1;
            if self.seen[f].load(Ordering::Acquire) {
                continue;
            }
            let due = Duration::from_nanos(interval_ns * sent);
            let el = start.elapsed();
            if due > el {
                std::thread::sleep((due - el).min(Duration::from_micros(200)));
            }
            let tx = now_ns();
            Probe { flow: f as u32, seq: next_seq(), tx, prev_tx: last_tx[f] }.emit(self.tag, &mut frame);
            if self.sock.send(&frame).is_ok() {
                last_tx[f] = tx;
                sent += 1;
            }
        }
        sent
    }
}

fn one(b: &mut Bench, n: u32, mode: Mode) -> Result<TestOut, String> {
    b.reset()?;
    // Probes that arrive before their flow hit this drop entry, not the controller.
    b.install(&[FlowSpec::miss(0, Next::Drop)])?;
    let started = now_ns();
    let seen: Arc<Vec<AtomicBool>> = Arc::new((0..n).map(|_| AtomicBool::new(false)).collect());
    let written = Arc::new(AtomicU32::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let cap = Capture::start(b.dst().sock.clone(), true, Some(seen.clone()), started);
    let prober = Prober {
        sock: b.src().sock.clone(),
        tag: b.src().tag,
        frame_size: b.src().frame_size,
        seen: seen.clone(),
        written: written.clone(),
        stop: stop.clone(),
        pps: b.opts.probe_pps,
    };
    let sender = std::thread::spawn(move || prober.run());
    let specs = b.dst_flows(n, 0, Next::Output(b.dst().port_no));
    let bodies = specs.iter().map(|s| b.flow(s)).collect::<Result<Vec<_>, _>>()?;
    let mut sent_at = vec![0u64; n as usize];
    let mut barrier_rtt = Vec::new();
    let mut barrier_reply = None;
    let timeout = b.opts.timeout;
    if mode == Mode::BarrierEach {
        for (i, body) in bodies.into_iter().enumerate() {
            let (_, t) = b.s.send(body)?;
            sent_at[i] = t;
            written.store(i as u32 + 1, Ordering::Release);
            let (s, r) = b.s.barrier(timeout)?;
            barrier_rtt.push(ms(s, r));
        }
    } else {
        for (i, (_, t)) in b.s.send_many(bodies)?.into_iter().enumerate() {
            sent_at[i] = t;
        }
        written.store(n, Ordering::Release);
        if mode == Mode::BarrierAfter {
            barrier_reply = Some(b.s.barrier(timeout)?.1);
        }
    }
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline && !seen.iter().all(|s| s.load(Ordering::Acquire)) {
        b.s.pump(Duration::from_millis(5))?;
    }
    stop.store(true, Ordering::Relaxed);
    let probes_sent = sender.join().map_err(|_| "prober thread panicked")?;
    let rxs = cap.stop()?;
    let errors = b.s.take_flow_mod_errors();
    let run = Run { mode, probe_pps: b.opts.probe_pps, timeout: b.opts.timeout, sent_at, barrier_rtt, barrier_reply };
    Ok(summarise(&run, &rxs, probes_sent, errors.len()))
}

/// What one insertion run recorded on the control side.
struct Run {
    mode: Mode,
    probe_pps: u64,
    timeout: Duration,
    /// When each flow's flow-mod was written, by flow id.
    sent_at: Vec<u64>,
    barrier_rtt: Vec<f64>,
    barrier_reply: Option<u64>,
}

/// The figures of a run from its control-side record and the probes captured (pure).
fn summarise(run: &Run, rxs: &[Rx], probes_sent: u64, errors: usize) -> TestOut {
    let (mode, sent_at, n) = (run.mode, &run.sent_at, run.sent_at.len() as u32);
    let mut first: Vec<Option<Rx>> = vec![None; n as usize];
    for r in rxs {
        if let Some(slot) = first.get_mut(r.probe.flow as usize) {
            if slot.is_none() {
                *slot = Some(*r);
            }
        }
    }
    let test = if mode == Mode::BarrierAfter { "barrier" } else { "insertion" };
    let mut out = TestOut::new(test, json!({"flows": n, "barrier": mode.name(), "probe_pps": run.probe_pps}));
    let labels = json!({"flows": n, "barrier": mode.name()});
    let fwd: Vec<(usize, Rx)> = first.iter().enumerate().filter_map(|(i, r)| r.map(|r| (i, r))).collect();
    let latency = fwd.iter().map(|(i, r)| ms(sent_at[*i], r.at)).collect();
    let gap = fwd.iter().map(|(i, r)| ms(if r.probe.prev_tx > 0 { r.probe.prev_tx } else { sent_at[*i] }, r.probe.tx)).collect();
    // The flow went live after its last unforwarded probe left: a lower bound to the latency.
    let lower = fwd.iter().map(|(i, r)| ms(sent_at[*i], r.probe.prev_tx.max(sent_at[*i]))).collect();
    out.series("insertion_latency", "ms", latency, labels.clone());
    out.series("insertion_latency_lower", "ms", lower, labels.clone());
    out.series("probe_gap", "ms", gap, labels.clone());
    if !run.barrier_rtt.is_empty() {
        out.series("barrier_rtt", "ms", run.barrier_rtt.clone(), labels.clone());
    }
    let first_sent = sent_at.iter().copied().min().unwrap_or(0);
    let last_fwd = fwd.iter().map(|(_, r)| r.at).max();
    if let Some(last) = last_fwd {
        let span = ms(first_sent, last) / 1e3;
        out.series("insertion_rate", "flows/s", vec![fwd.len() as f64 / span.max(1e-9)], labels.clone());
    }
    if let Some(reply) = run.barrier_reply {
        out.series("barrier_reply", "ms", vec![ms(first_sent, reply)], labels.clone());
        out.series("barrier_gap", "ms", fwd.iter().map(|(_, r)| ms(reply, r.at)).collect(), labels.clone());
        out.count("forwarded_after_barrier", fwd.iter().filter(|(_, r)| r.at > reply).count());
        if let Some(last) = last_fwd {
            out.series("all_forwarding", "ms", vec![ms(first_sent, last)], labels);
        }
    }
    out.count("flows", n);
    out.count("forwarded", fwd.len());
    out.count("never_forwarded", n as usize - fwd.len());
    out.count("flow_mod_errors", errors);
    out.count("probes_sent", probes_sent);
    out.count("probes_received", rxs.len());
    if fwd.len() < n as usize {
        let missing = n as usize - fwd.len();
        out.notes.push(format!("{missing} of {n} flows never forwarded within {}s", run.timeout.as_secs_f64()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    fn rx(flow: u32, tx: u64, prev_tx: u64, at: u64) -> Rx {
        Rx { probe: Probe { flow, seq: 0, tx, prev_tx }, at }
    }

    fn series<'a>(out: &'a TestOut, metric: &str) -> &'a serde_json::Value {
        &out.series.iter().find(|s| s["metric"] == metric).expect(metric)["values"]
    }

    #[test]
    fn figures_come_from_the_first_forwarded_probe_of_each_flow() {
        // Flow-mods written at 0 and 1 ms; flow 0 forwarded at 10 ms (its probe left at 9 ms,
        // the one before at 7 ms), flow 1 at 21 ms; a later probe of flow 0 does not count;
        // flow 2 never forwards. The barrier was answered at 5 ms.
        let run = Run {
            mode: Mode::BarrierAfter,
            probe_pps: 1000,
            timeout: Duration::from_secs(1),
            sent_at: vec![0, MS, 2 * MS],
            barrier_rtt: vec![],
            barrier_reply: Some(5 * MS),
        };
        let rxs = [rx(0, 9 * MS, 7 * MS, 10 * MS), rx(1, 20 * MS, 0, 21 * MS), rx(0, 30 * MS, 9 * MS, 31 * MS)];
        let out = summarise(&run, &rxs, 12, 0);
        assert_eq!(out.test, "barrier");
        assert_eq!(series(&out, "insertion_latency"), &serde_json::json!([10.0, 20.0]));
        assert_eq!(series(&out, "insertion_latency_lower"), &serde_json::json!([7.0, 0.0]));
        assert_eq!(series(&out, "probe_gap"), &serde_json::json!([2.0, 19.0]));
        assert_eq!(series(&out, "barrier_gap"), &serde_json::json!([5.0, 16.0]));
        assert_eq!(series(&out, "all_forwarding"), &serde_json::json!([21.0]));
        assert_eq!(series(&out, "insertion_rate"), &serde_json::json!([2.0 / 0.021]));
        assert_eq!(out.counters["forwarded"], 2);
        assert_eq!(out.counters["never_forwarded"], 1);
        assert_eq!(out.counters["forwarded_after_barrier"], 2);
        assert_eq!(out.notes.len(), 1);
    }
}
