//! A fixed-rate run's per-loop account (issue 42), carried in each worker's `Interval` and
//! added over workers and agents: what the schedule offered, what the workers sent, what was
//! late, the latency of the loop's answers (HDR), and the periodic keep-alive's echoes
//! (`keepalive.rs`). Offered is computed from the schedule itself (`offered_before`), not from
//! what was sent, so a sender that cannot keep up shows as offered > sent, never as a lower rate.

use crate::hist::Hist;
use serde::{Deserialize, Serialize};

/// One loop of one worker (or their sum). Counts are this loop's, not cumulative.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct LoopLoad {
    /// Requests the schedule had due in this loop.
    pub offered: u64,
    /// Requests whose answer came in this loop after their loss timeout.
    pub late: u64,
    /// Requests due in this loop that were not sent because the switch had no session.
    pub not_sent_disconnected: u64,
    /// Requests due by the loop's end and not yet sent (cumulative: the sender's backlog then).
    pub backlog: u64,
    pub echo_sent: u64,
    pub echo_answered: u64,
    pub echo_lost: u64,
    /// The latency of the requests answered in this loop (HDR V2, base64; empty: none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub hist_b64: String,
    /// The round trips of the echoes answered in this loop (HDR V2, base64; empty: none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub echo_hist_b64: String,
    /// Where a backlog sat in this loop (`trace.rs`).
    #[serde(default)]
    pub trace: crate::switch::trace::LoopTrace,
}

impl LoopLoad {
    /// Add another worker's (or agent's) account of the same loop.
    pub fn add(&mut self, o: &LoopLoad) {
        self.offered += o.offered;
        self.late += o.late;
        self.not_sent_disconnected += o.not_sent_disconnected;
        self.backlog += o.backlog;
        self.echo_sent += o.echo_sent;
        self.echo_answered += o.echo_answered;
        self.echo_lost += o.echo_lost;
        self.hist_b64 = add_hist(&self.hist_b64, &o.hist_b64);
        self.echo_hist_b64 = add_hist(&self.echo_hist_b64, &o.echo_hist_b64);
        self.trace.add(&o.trace);
    }

    /// The loop's request latency (an empty histogram when none was recorded or it is unreadable).
    pub fn hist(&self) -> Hist {
        decode(&self.hist_b64)
    }

    pub fn echo_hist(&self) -> Hist {
        decode(&self.echo_hist_b64)
    }
}

fn decode(s: &str) -> Hist {
    if s.is_empty() {
        return Hist::with_sigfig(3);
    }
    Hist::from_base64(s).unwrap_or_else(|_| Hist::with_sigfig(3))
}

fn add_hist(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (_, true) => a.to_string(),
        (true, false) => b.to_string(),
        _ => {
            let mut h = decode(a);
            h.merge(&decode(b));
            h.to_base64()
        }
    }
}

/// Encode a histogram for an interval (empty string when it holds nothing) and clear it.
pub fn take(h: &mut Hist) -> String {
    if h.count() == 0 {
        return String::new();
    }
    let s = h.to_base64();
    h.h.reset();
    h.clamped = 0;
    s
}

/// Requests a fixed-rate switch at `pos` of `n` has due before `t`: its schedule is `go +
/// period × (pos / n + k)`, k = 0, 1, ... (`Pacer::for_config` and `anchor`).
pub fn offered_before(go: u64, period_ns: f64, pos: u32, n: u32, t: u64) -> u64 {
    let first = go + (period_ns * pos as f64 / n.max(1) as f64) as u64;
    if t <= first {
        return 0;
    }
    ((t - 1 - first) as f64 / period_ns) as u64 + 1
}

/// `offered_before` summed over the `n` switches, exactly, in O(log n) evaluations: a switch's
/// count does not grow with its position (its first request is no earlier), so the positions
/// split into runs of equal counts, each end found by bisection.
pub fn offered_sum(go: u64, period_ns: f64, n: u32, t: u64) -> u64 {
    let f = |pos: u32| offered_before(go, period_ns, pos, n, t);
    let (mut sum, mut lo) = (0u64, 0u32);
    while lo < n {
        let v = f(lo);
        // the first position after `lo` whose count is below v (n if none)
        let (mut a, mut b) = (lo + 1, n);
        while a < b {
            let m = a + (b - a) / 2;
            if f(m) < v {
                b = m;
            } else {
                a = m + 1;
            }
        }
        sum += v * u64::from(a - lo);
        lo = a;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offered_sum_is_the_sum_over_switches() {
        let mut rng = 0x2545_f491_u64;
        for _ in 0..400 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let n = 1 + (rng % 3000) as u32;
            let period = 1e3 + (rng >> 20) as f64 % 3e9 + 0.37;
            let go = 1_000_000 + rng % 7;
            let t = go + (rng >> 11) % (5 * period as u64 + 1);
            let brute: u64 = (0..n).map(|p| offered_before(go, period, p, n, t)).sum();
            assert_eq!(offered_sum(go, period, n, t), brute, "n {n} period {period} t-go {}", t - go);
        }
        assert_eq!(offered_sum(100, 10.0, 0, 1000), 0);
    }

    #[test]
    fn offered_counts_the_schedule_and_adds_over_workers() {
        // period 10: switch 0 due at 100, 110, 120 ...; switch 1 of 2 at 105, 115, ...
        assert_eq!(offered_before(100, 10.0, 0, 2, 100), 0);
        assert_eq!(offered_before(100, 10.0, 0, 2, 101), 1);
        assert_eq!(offered_before(100, 10.0, 0, 2, 130), 3);
        assert_eq!(offered_before(100, 10.0, 1, 2, 130), 3);
        assert_eq!(offered_before(100, 10.0, 1, 2, 105), 0);
        let mut h = Hist::with_sigfig(3);
        h.record_ns(1_000);
        let mut a = LoopLoad { offered: 3, echo_sent: 1, hist_b64: take(&mut h), ..Default::default() };
        assert_eq!(h.count(), 0, "taken");
        h.record_ns(2_000);
        a.add(&LoopLoad { offered: 4, echo_lost: 2, hist_b64: take(&mut h), ..Default::default() });
        a.add(&LoopLoad::default());
        assert_eq!((a.offered, a.echo_sent, a.echo_lost, a.hist().count()), (7, 1, 2, 2));
    }
}
