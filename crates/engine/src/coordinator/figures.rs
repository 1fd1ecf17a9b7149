//! The figures of an `Outcome` that the coordinator judges the run by and that the exporters
//! print: rates of the measured loops, CPU, the learning phase, and the warnings.

use crate::coordinator::outcome::Outcome;
use crate::hist::Hist;

/// A worker this busy (percent of one core) is probably the bottleneck itself.
pub const BUSY_PERCENT: f64 = 90.0;

/// Mean, sample standard deviation, min and max.
pub fn mean_sd(v: &[f64]) -> (f64, f64, f64, f64) {
    if v.is_empty() {
        return (0.0, 0.0, 0.0, 0.0);
    }
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let sd = if v.len() > 1 { (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt() } else { 0.0 };
    let min = v.iter().cloned().fold(f64::INFINITY, f64::min);
    let max = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    (mean, sd, min, max)
}

/// Answered requests per second in each measured (post-warm-up) loop.
pub fn measured_rps(o: &Outcome) -> Vec<f64> {
    let secs = o.cfg.loop_ms as f64 / 1000.0;
    o.loops.iter().filter(|l| l.k > o.cfg.warmup).map(|l| l.answered as f64 / secs).collect()
}

/// Responses per second (counted as cbench counts them) in each measured loop.
pub fn measured_responses_ps(o: &Outcome) -> Vec<f64> {
    let secs = o.cfg.loop_ms as f64 / 1000.0;
    o.loops.iter().filter(|l| l.k > o.cfg.warmup).map(|l| l.responses as f64 / secs).collect()
}

/// Requests answered in the measured (post-warm-up) loops.
pub fn measured_answered(o: &Outcome) -> u64 {
    o.loops.iter().filter(|l| l.k > o.cfg.warmup).map(|l| l.answered).sum()
}

pub fn merged_hist(o: &Outcome) -> Hist {
    let mut h = Hist::with_sigfig(3);
    for r in &o.reports {
        if let Ok(x) = Hist::from_base64(&r.hist_b64) {
            h.merge(&x);
        }
    }
    h
}

/// Mean CPU percent of one sampled process over the measured loops.
fn measured_cpu(o: &Outcome, label: &str) -> Option<f64> {
    let s = o.sampler.series.iter().find(|s| s.label == label)?;
    let skip = o.cfg.warmup as usize;
    let v: Vec<f64> = s.cpu_percent.iter().skip(skip).cloned().collect();
    (!v.is_empty()).then(|| mean_sd(&v).0)
}

/// Engine CPU seconds spent in the measured loops (all its processes).
pub fn engine_cpu_s(o: &Outcome) -> f64 {
    let skip = o.cfg.warmup as usize;
    let dts: Vec<f64> = o.sampler.t_s.windows(2).map(|w| w[1] - w[0]).collect();
    let first = o.sampler.t_s.first().cloned().unwrap_or(0.0);
    let mut total = 0.0;
    for s in o.sampler.series.iter().filter(|s| s.label != "controller") {
        for (i, cpu) in s.cpu_percent.iter().enumerate().skip(skip) {
            let dt = if i == 0 { first } else { dts[i - 1] };
            total += cpu / 100.0 * dt;
        }
    }
    total
}

/// The learning phase over all workers (`learning.rs`).
pub fn learning(o: &Outcome) -> crate::switch::learning::Drain {
    crate::switch::learning::merge(&o.ready.iter().map(|r| &r.learning).collect::<Vec<_>>())
}

/// Switches retried with a plain 1.0 HELLO (`switch/hello_fallback.rs`).
pub fn hello_fallbacks(o: &Outcome) -> u32 {
    o.digest.counts.hello_fallbacks
}

pub fn warnings(o: &Outcome) -> Vec<String> {
    let mut w: Vec<String> = o.plan.notes.clone();
    w.extend(crate::switch::learning::warning(&learning(o)));
    for s in o.sampler.series.iter().filter(|s| s.label != "controller") {
        if o.sampler.series.len() > 2 && s.label == "engine" {
            continue; // the coordinator only waits when workers are child processes
        }
        if let Some(cpu) = measured_cpu(o, &s.label) {
            if cpu > BUSY_PERCENT {
                w.push(format!(
                    "sdnbench-engine ({}) was {cpu:.0}% busy: the figure may measure the engine, not the controller; \
                     consider --workers {} or fewer switches",
                    s.label,
                    o.plan.workers + 1
                ));
            }
        }
    }
    let failed: u32 = o.ready.iter().map(|r| r.failed).sum();
    if failed > 0 {
        w.push(format!("{failed} of {} sessions failed to connect or handshake", o.cfg.switches));
    }
    let fell_back = hello_fallbacks(o);
    if fell_back > 0 {
        w.push(format!(
            "the controller closed {fell_back} session(s) on the HELLO with a version bitmap (1.0 and 1.3 offered); \
             they were retried offering OpenFlow 1.0 alone (a plain 1.0 HELLO); --of 1.0 offers only that from the start"
        ));
    }
    let (d, c) = (&o.digest, &o.digest.counts);
    let down: Vec<String> = d.losses().filter(|l| l.up).take(5).map(|l| format!("switch {} (dpid {})", l.at.index, l.at.dpid)).collect();
    if !down.is_empty() {
        w.push(format!("sessions lost during the run: {}", down.join(", ")));
    }
    if c.reconnected > 0 {
        let (back, n, ms) = (c.reconnected, d.sums.reconnects, d.sums.disconnected_ns / 1_000_000);
        w.push(format!("{back} switch(es) lost their session and reconnected ({n} reconnects, {ms} ms disconnected in all)"));
    }
    if c.reconnecting_at_stop > 0 {
        w.push(format!("{} switch(es) were waiting out their reconnect backoff at the stop", c.reconnecting_at_stop));
    }
    if o.status == "interrupted" {
        w.push("interrupted: results are partial".into());
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_sample_stdev() {
        let (m, sd, lo, hi) = mean_sd(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!((m, lo, hi), (5.0, 2.0, 9.0));
        assert!((sd - 2.138).abs() < 1e-3);
        assert_eq!(mean_sd(&[]), (0.0, 0.0, 0.0, 0.0));
        assert_eq!(mean_sd(&[3.0]).1, 0.0);
    }
}
