//! When (and whether) the responder answers a packet-in: the known-answer knobs.
//!
//! - `--rate R`: at most R answers per second per process, a token bucket of depth 1 — the
//!   i-th answer leaves at `max(ready_i, left_{i-1} + 1/R)`, so answers are spaced exactly 1/R
//!   apart once requests arrive faster than R/s; nothing is refused, answers wait in order.
//! - `--delay-us D`: every answer leaves D µs after its packet-in arrived (`ready_i = arrival + D`).
//! - `--drop-one-in K`: the K-th, 2K-th, ... packet-in gets no answer at all.
//! - `--drop-echo-one-in K`: the K-th, 2K-th, ... echo request gets no reply (the engine's
//!   keep-alive loss known answer); echoes are otherwise answered at once, never queued.
//!
//! At most `MAX_WAITING` answers wait; then the loop stops reading until some leave, so a fast
//! sender is held back by TCP like a slow controller holds it back. With none set, `Gate::open()` answers at once and the loop writes straight into the socket
//! buffer as before. Release times never decrease, so the waiting answers form one FIFO queue.

use std::collections::VecDeque;

/// Deferred answers held at most (then reading pauses; see `full`).
pub const MAX_WAITING: usize = 1024;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Knobs {
    pub rate: f64,
    pub delay_ns: u64,
    pub drop_one_in: u64,
    pub drop_echo_one_in: u64,
}

/// One deferred answer: when it leaves, to which connection, with which xid and buffer id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Due {
    pub at_ns: u64,
    pub fd: i32,
    pub xid: u32,
    pub buffer_id: u32,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Now,
    At(u64),
    Drop,
}

pub struct Gate {
    k: Knobs,
    gap_ns: u64,
    last_ns: Option<u64>,
    seen: u64,
    echoes_seen: u64,
    pub queue: VecDeque<Due>,
}

impl Gate {
    pub fn new(k: Knobs) -> Gate {
        let gap_ns = if k.rate > 0.0 { (1e9 / k.rate).round() as u64 } else { 0 };
        Gate { k, gap_ns, last_ns: None, seen: 0, echoes_seen: 0, queue: VecDeque::new() }
    }

    /// Enough answers wait: stop reading requests until some leave (the queue stays bounded and
    /// the sender feels TCP back-pressure, as from a controller that is really this slow).
    pub fn full(&self) -> bool {
        self.queue.len() >= MAX_WAITING
    }

    /// No packet-in knob set: every packet-in is answered at once (the echo knob is apart).
    pub fn is_open(&self) -> bool {
        Knobs { drop_echo_one_in: 0, ..self.k } == Knobs::default()
    }

    /// Whether the echo request arriving now goes unanswered (`drop_echo_one_in`).
    pub fn drop_echo(&mut self) -> bool {
        self.echoes_seen += 1;
        self.k.drop_echo_one_in > 0 && self.echoes_seen.is_multiple_of(self.k.drop_echo_one_in)
    }

    /// The verdict for a packet-in arriving at `now_ns`.
    pub fn decide(&mut self, now_ns: u64) -> Verdict {
        self.seen += 1;
        if self.k.drop_one_in > 0 && self.seen.is_multiple_of(self.k.drop_one_in) {
            return Verdict::Drop;
        }
        let mut at = now_ns + self.k.delay_ns;
        if self.gap_ns > 0 {
            if let Some(last) = self.last_ns {
                at = at.max(last + self.gap_ns);
            }
        }
        self.last_ns = Some(at);
        if at <= now_ns {
            Verdict::Now
        } else {
            Verdict::At(at)
        }
    }

    /// The answers due by `now_ns`, oldest first, taken off the queue.
    pub fn take_due(&mut self, now_ns: u64, out: &mut Vec<Due>) {
        while self.queue.front().is_some_and(|d| d.at_ns <= now_ns) {
            out.push(self.queue.pop_front().unwrap());
        }
    }
}

/// CLOCK_MONOTONIC in nanoseconds (the clock the timerfd uses).
pub fn now_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_gate_answers_at_once() {
        let mut g = Gate::new(Knobs::default());
        assert!(g.is_open());
        assert_eq!(g.decide(5), Verdict::Now);
    }

    #[test]
    fn rate_spaces_answers_exactly_one_gap_apart() {
        let mut g = Gate::new(Knobs { rate: 10_000.0, ..Default::default() });
        // a burst of 4 at t=1000: the first leaves at once, the rest 100 µs apart
        let v: Vec<_> = (0..4).map(|_| g.decide(1000)).collect();
        assert_eq!(v, [Verdict::Now, Verdict::At(101_000), Verdict::At(201_000), Verdict::At(301_000)]);
        // a request long after: no waiting
        assert_eq!(g.decide(10_000_000), Verdict::Now);
        // 1 s of requests every 10 µs: 10,000 (+1 for the first) answers leave within that second
        let mut g = Gate::new(Knobs { rate: 10_000.0, ..Default::default() });
        let within = (0..100_000u64)
            .map(|i| g.decide(i * 10_000))
            .filter(|v| match v {
                Verdict::Now => true,
                Verdict::At(t) => *t <= 1_000_000_000,
                Verdict::Drop => false,
            })
            .count();
        assert_eq!(within, 10_001);
    }

    #[test]
    fn delay_and_drop() {
        let mut g = Gate::new(Knobs { delay_ns: 50_000, drop_one_in: 3, ..Default::default() });
        assert_eq!(g.decide(0), Verdict::At(50_000));
        assert_eq!(g.decide(10), Verdict::At(50_010));
        assert_eq!(g.decide(20), Verdict::Drop);
        assert_eq!(g.decide(30), Verdict::At(50_030));
        let answered = (0..300).filter(|i| g.decide(*i) != Verdict::Drop).count();
        assert_eq!(answered, 200);
    }

    #[test]
    fn every_kth_echo_is_dropped_and_packet_ins_stay_open() {
        let mut g = Gate::new(Knobs { drop_echo_one_in: 10, ..Default::default() });
        assert!(g.is_open(), "the echo knob leaves packet-ins on the fast path");
        let dropped: Vec<u64> = (1..=30).filter(|_| g.drop_echo()).collect();
        assert_eq!(dropped.len(), 3);
        assert!(!Gate::new(Default::default()).drop_echo());
    }

    #[test]
    fn take_due_is_fifo_and_stops_at_the_future() {
        let mut g = Gate::new(Knobs { delay_ns: 1, ..Default::default() });
        for (i, at) in [10u64, 20, 30].iter().enumerate() {
            g.queue.push_back(Due { at_ns: *at, fd: 3, xid: i as u32, buffer_id: 0 });
        }
        let mut out = vec![];
        g.take_due(25, &mut out);
        assert_eq!(out.iter().map(|d| d.xid).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(g.queue.len(), 1);
    }
}
