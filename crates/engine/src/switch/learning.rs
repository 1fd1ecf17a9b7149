//! The learning phase drains before anything is measured (issue 13.4).
//!
//! A request workload whose traffic profile needs learned hosts first sends one gratuitous ARP
//! per host (`macs` per switch; the request is a packet-in with xid `0x4000_0000 | host`). A
//! learning controller answers each, typically with a flooding packet-out.
//!
//! The ARPs go out `learn_after_ms` after the worker's last session came up, not at the end of
//! each handshake: os-ken and Ryu drop packet-ins until their own handshake is over (OF1.3:
//! after the port-description reply), so ARPs sent at once were mostly never answered.
//! The measured phase starts only when, in every worker:
//! - `drained`: every learning request was answered (replies >= requests), or
//! - `quiet`: no learning reply came for `learn_quiet_ms` (a controller that does not answer
//!   ARPs at all, e.g. a proactive one), or
//! - `deadline`: `learn_deadline_ms` passed since the switches came up.
//!
//! The result says which (`learning.ended`, the worst over workers), how long it took and how
//! many learning requests were still unanswered; a warning names them when some were. A
//! learning reply that arrives after the measured phase began is counted apart
//! (`learning_late_replies`) and never as an answer or an unmatched reply of the measured phase.

use serde::{Deserialize, Serialize};
use std::cell::Cell;
use tokio::time::{sleep_until, Duration, Instant};

/// How often the drain re-checks its counters.
const POLL: Duration = Duration::from_millis(10);

/// One worker's learning counters (single thread: `Cell`s).
#[derive(Default)]
pub struct Learning {
    sent: Cell<u64>,
    replies: Cell<u64>,
    /// `now_ns` of the last learning request sent or reply received.
    last_ns: Cell<u64>,
    /// Learning requests the up sessions will send once the phase is open.
    expected: Cell<u64>,
    open: Cell<bool>,
}

/// What a worker's learning phase did (sent with its Ready).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Drain {
    pub sent: u64,
    pub replies: u64,
    pub duration_s: f64,
    /// `none` (no learning phase), `drained`, `quiet`, `deadline`, `stopped`.
    pub ended: String,
}

impl Learning {
    /// Open the learning phase: sessions send their ARPs on their next turn.
    pub fn open(&self, expected: u64, now_ns: u64) {
        self.expected.set(expected);
        self.last_ns.set(now_ns);
        self.open.set(true);
    }

    pub fn is_open(&self) -> bool {
        self.open.get()
    }

    pub fn requests_sent(&self, n: u64, now_ns: u64) {
        self.sent.set(self.sent.get() + n);
        self.last_ns.set(now_ns);
    }

    pub fn reply(&self, now_ns: u64) {
        self.replies.set(self.replies.get() + 1);
        self.last_ns.set(now_ns);
    }

    /// Why the learning phase is over now, or None while it must go on.
    pub fn verdict(&self, now_ns: u64, started_ns: u64, quiet_ms: u64, deadline_ms: u64) -> Option<&'static str> {
        if self.expected.get() == 0 {
            return Some("none");
        }
        if self.sent.get() >= self.expected.get() && self.replies.get() >= self.sent.get() {
            return Some("drained");
        }
        if now_ns.saturating_sub(started_ns) >= deadline_ms * 1_000_000 {
            return Some("deadline");
        }
        if now_ns.saturating_sub(self.last_ns.get()) >= quiet_ms * 1_000_000 {
            return Some("quiet");
        }
        None
    }

    /// Wait until the learning phase is over (see the module doc), or `stopped()`.
    pub async fn drain(&self, now_ns: &dyn Fn() -> u64, stopped: &dyn Fn() -> bool, quiet_ms: u64, deadline_ms: u64) -> Drain {
        let (t0, started) = (Instant::now(), now_ns());
        let ended = loop {
            if stopped() {
                break "stopped";
            }
            if let Some(v) = self.verdict(now_ns(), started, quiet_ms, deadline_ms) {
                break v;
            }
            sleep_until(Instant::now() + POLL).await;
        };
        Drain { sent: self.sent.get(), replies: self.replies.get(), duration_s: t0.elapsed().as_secs_f64(), ended: ended.into() }
    }
}

/// Order of badness, for the summary over workers.
fn rank(ended: &str) -> u8 {
    match ended {
        "none" => 0,
        "drained" => 1,
        "quiet" => 2,
        "deadline" => 3,
        _ => 4,
    }
}

/// The workers' drains as one: counts summed, the longest duration, the worst ending.
pub fn merge(drains: &[&Drain]) -> Drain {
    let mut m = Drain { ended: "none".into(), ..Drain::default() };
    for d in drains {
        m.sent += d.sent;
        m.replies += d.replies;
        m.duration_s = m.duration_s.max(d.duration_s);
        if rank(&d.ended) > rank(&m.ended) {
            m.ended = d.ended.clone();
        }
    }
    m
}

/// The warning a result carries when learning requests were left unanswered.
pub fn warning(d: &Drain) -> Option<String> {
    let outstanding = d.sent.saturating_sub(d.replies);
    (outstanding > 0).then(|| {
        let why = match d.ended.as_str() {
            "deadline" => "the learning deadline (learn_deadline_ms) passed",
            "quiet" => "no learning reply came for learn_quiet_ms",
            _ => "the run was stopped",
        };
        format!(
            "learning did not drain: {outstanding} of {} learning requests were unanswered after {:.1} s ({why}); \
             late learning replies are counted apart, never as measured answers",
            d.sent, d.duration_s
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn verdicts() {
        let l = Learning::default();
        assert_eq!(l.verdict(5 * MS, 0, 100, 1000), Some("none"), "no learning phase");
        l.open(3, 0);
        assert_eq!(l.verdict(MS, 0, 100, 1000), None, "open, but the sessions have not sent yet");
        l.requests_sent(3, 0);
        assert_eq!(l.verdict(50 * MS, 0, 100, 1000), None);
        l.reply(60 * MS);
        assert_eq!(l.verdict(150 * MS, 0, 100, 1000), None, "a reply 90 ms ago: not quiet");
        assert_eq!(l.verdict(161 * MS, 0, 100, 1000), Some("quiet"));
        l.reply(170 * MS);
        l.reply(170 * MS);
        assert_eq!(l.verdict(171 * MS, 0, 100, 1000), Some("drained"));
        let slow = Learning::default();
        slow.open(10, 0);
        slow.requests_sent(10, 0);
        for t in (0..1000).step_by(200) {
            slow.reply(t * MS); // 5 of 10, the last at 800 ms
        }
        assert_eq!(slow.verdict(999 * MS, 0, 300, 1000), None);
        assert_eq!(slow.verdict(1001 * MS, 0, 300, 1000), Some("deadline"), "replies keep coming but the deadline passed");
    }

    #[test]
    fn merge_sums_and_keeps_the_worst() {
        let a = Drain { sent: 10, replies: 10, duration_s: 0.5, ended: "drained".into() };
        let b = Drain { sent: 10, replies: 4, duration_s: 2.0, ended: "deadline".into() };
        let m = merge(&[&a, &b]);
        assert_eq!((m.sent, m.replies, m.duration_s, m.ended.as_str()), (20, 14, 2.0, "deadline"));
        assert!(warning(&m).unwrap().starts_with("learning did not drain: 6 of 20"));
        assert_eq!(warning(&a), None);
    }
}
