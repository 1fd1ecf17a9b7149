//! The per-switch records behind a worker's loop-boundary counts (`tally.rs`): the counters a
//! boundary sums, and a cumulative counter kept only where it changed.

/// The counters a loop boundary sums over the worker's switches.
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counted {
    pub answered: u64,
    pub sent: u64,
    pub responses: u64,
    pub lost: u64,
    pub late: u64,
    pub not_sent_disconnected: u64,
    pub echo_sent: u64,
    pub echo_answered: u64,
    pub echo_lost: u64,
    pub up: u64,
}

impl Counted {
    /// `self + now - was`, field by field (a switch's `lost` and `up` can go down: wrapping
    /// arithmetic, whose result is the true total, which is never negative).
    pub fn moved(&mut self, was: &Counted, now: &Counted) {
        let f = |t: &mut u64, w: u64, n: u64| *t = t.wrapping_add(n).wrapping_sub(w);
        f(&mut self.answered, was.answered, now.answered);
        f(&mut self.sent, was.sent, now.sent);
        f(&mut self.responses, was.responses, now.responses);
        f(&mut self.lost, was.lost, now.lost);
        f(&mut self.late, was.late, now.late);
        f(&mut self.not_sent_disconnected, was.not_sent_disconnected, now.not_sent_disconnected);
        f(&mut self.echo_sent, was.echo_sent, now.echo_sent);
        f(&mut self.echo_answered, was.echo_answered, now.echo_answered);
        f(&mut self.echo_lost, was.echo_lost, now.echo_lost);
        f(&mut self.up, was.up, now.up);
    }
}

/// A cumulative counter at each loop boundary, kept as (loop, value) where it changed.
#[derive(Default, Clone, Debug)]
pub struct LoopColumn(Vec<(u32, u64)>);

impl LoopColumn {
    pub fn record(&mut self, k: u32, v: u64) {
        if self.last() != v {
            self.0.push((k, v));
        }
    }
    pub fn last(&self) -> u64 {
        self.0.last().map_or(0, |p| p.1)
    }
    /// The value at boundary `k` (0 before the first point).
    pub fn at(&self, k: u32) -> u64 {
        match self.0.partition_point(|p| p.0 <= k) {
            0 => 0,
            i => self.0[i - 1].1,
        }
    }
    /// Per-loop increments over loops 1..=`loops` (the report's `answered_per_loop`).
    pub fn per_loop(&self, loops: u32) -> Vec<u64> {
        let mut out = Vec::with_capacity(loops as usize);
        let (mut prev, mut i) = (0, 0);
        for k in 1..=loops {
            while i < self.0.len() && self.0[i].0 <= k {
                i += 1;
            }
            let v = if i == 0 { 0 } else { self.0[i - 1].1 };
            out.push(v - prev);
            prev = v;
        }
        out
    }
}
