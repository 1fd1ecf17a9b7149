//! Where a backlog sits, per loop (issue 50): one worker's counters of its sessions' turns,
//! taken at each loop boundary into the loop's account (`load.rs`) and summed over workers.
//!
//! A queue of answers or requests sits in one of four places, and each has a column:
//! - **the sender** (requests due, not yet built): `backlog` (`load.rs`, already there);
//! - **the send queue** (built, not taken by the socket): `write_blocked`, the turns that left
//!   bytes unwritten because the socket was full;
//! - **the socket** (answers the kernel holds for a session): `read_capped`, the turns that read
//!   their bound of reads and left the rest for the next turn;
//! - **the worker** (sessions due and not yet run): `timer_lag_max_us`, how late the latest
//!   timer-driven turn of the loop ran after its deadline, and `turns` / `timer_turns`, the
//!   sessions' wake-ups (the work the worker did to move the loop's traffic);
//! - **the answer path** (the controller): the loop's latency less the above, `p50_us` /
//!   `p99_us` with no lag on this side.
//!
//! Counting costs a `Cell` increment per turn (one per wake-up, not per message).

use serde::{Deserialize, Serialize};
use std::cell::Cell;

/// The counters of the loop under way (one worker, one thread).
#[derive(Debug, Default)]
pub struct Trace {
    turns: Cell<u64>,
    timer_turns: Cell<u64>,
    timer_lag_max_ns: Cell<u64>,
    write_blocked: Cell<u64>,
    read_capped: Cell<u64>,
}

impl Trace {
    /// A session's turn.
    #[inline]
    pub fn turn(&self) {
        self.turns.set(self.turns.get() + 1);
    }
    /// A turn woken by the session's timer, `lag_ns` after its deadline.
    #[inline]
    pub fn timer_turn(&self, lag_ns: u64) {
        self.timer_turns.set(self.timer_turns.get() + 1);
        self.timer_lag_max_ns.set(self.timer_lag_max_ns.get().max(lag_ns));
    }
    /// A write that left bytes unwritten (the socket was full).
    #[inline]
    pub fn write_blocked(&self) {
        self.write_blocked.set(self.write_blocked.get() + 1);
    }
    /// A turn that read its bound of reads with more to read.
    #[inline]
    pub fn read_capped(&self) {
        self.read_capped.set(self.read_capped.get() + 1);
    }
    /// This loop's counts; the counters start again from 0.
    pub fn take(&self) -> LoopTrace {
        LoopTrace {
            turns: self.turns.take(),
            timer_turns: self.timer_turns.take(),
            timer_lag_max_us: self.timer_lag_max_ns.take() / 1_000,
            write_blocked: self.write_blocked.take(),
            read_capped: self.read_capped.take(),
        }
    }
}

/// One loop of one worker (or their sum over workers and agents: counts add, the lag is the
/// largest).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LoopTrace {
    pub turns: u64,
    pub timer_turns: u64,
    pub timer_lag_max_us: u64,
    pub write_blocked: u64,
    pub read_capped: u64,
}

impl LoopTrace {
    pub fn add(&mut self, o: &LoopTrace) {
        self.turns += o.turns;
        self.timer_turns += o.timer_turns;
        self.timer_lag_max_us = self.timer_lag_max_us.max(o.timer_lag_max_us);
        self.write_blocked += o.write_blocked;
        self.read_capped += o.read_capped;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loop_takes_its_counts_and_workers_add_with_the_largest_lag() {
        let t = Trace::default();
        (0..5).for_each(|_| t.turn());
        t.timer_turn(3_000_000);
        t.timer_turn(1_000);
        t.write_blocked();
        t.read_capped();
        let mut a = t.take();
        assert_eq!(a, LoopTrace { turns: 5, timer_turns: 2, timer_lag_max_us: 3_000, write_blocked: 1, read_capped: 1 });
        assert_eq!(t.take(), LoopTrace::default(), "the next loop starts from 0");
        a.add(&LoopTrace { turns: 1, timer_turns: 1, timer_lag_max_us: 7, write_blocked: 0, read_capped: 2 });
        assert_eq!(a, LoopTrace { turns: 6, timer_turns: 3, timer_lag_max_us: 3_000, write_blocked: 1, read_capped: 3 });
    }
}
