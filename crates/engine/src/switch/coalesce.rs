//! Wake coalescing (throughput mode): fewer wake-ups per answer against a slow controller.
//!
//! Against a controller that answers 10,000 requests/s, one answer at a time, a worker that
//! sleeps on its sockets wakes once per answer: each wake-up is a context switch, a read, and a
//! write of the refill, about 13 µs of engine CPU per answered request on this machine, CPU
//! taken from the controller being measured. Network cards solve the same problem with
//! interrupt moderation; the worker does it in user space: just before its runtime parks (sleeps
//! on the sockets), it first waits a short *quantum*, so that one wake-up then handles every
//! answer that arrived meanwhile, and the refills go out in one write per switch.
//!
//! The quantum delays when an answer is read, so it adds to the measured latency; it is kept to
//! `pct` percent of the lowest latency this worker measured in the last 100–200 ms (every
//! sample's error is then below `pct` percent of itself), at most `MAX_QUANTUM_NS`, and it is 0
//! (no waiting) when that would be below `MIN_QUANTUM_NS` (a fast controller: nothing to gain).
//! Only in throughput mode, only while loading: a fixed-rate pacer's send times and latency
//! mode's single request are never delayed. `coalesce_pct` 0 turns it off.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

pub const MAX_QUANTUM_NS: u64 = 1_000_000;
pub const MIN_QUANTUM_NS: u64 = 50_000;
/// The lowest latency is taken over the current and the previous epoch of this length.
pub const EPOCH_NS: u64 = 100_000_000;

/// Shared between the worker's sessions (which set the quantum) and its runtime's park hook.
#[derive(Debug, Default)]
pub struct Park {
    quantum_ns: AtomicU64,
    /// Parks that waited a quantum, and the time they waited in total.
    pub waits: AtomicU64,
    pub waited_ns: AtomicU64,
    pub max_quantum_ns: AtomicU64,
}

impl Park {
    pub fn new() -> Arc<Park> {
        Arc::new(Park::default())
    }

    /// The runtime's `on_thread_park` hook.
    pub fn before_park(&self) {
        let q = self.quantum_ns.load(Relaxed);
        if q > 0 {
            std::thread::sleep(Duration::from_nanos(q));
            self.waits.fetch_add(1, Relaxed);
            self.waited_ns.fetch_add(q, Relaxed);
        }
    }

    pub fn set(&self, q: u64) {
        if self.quantum_ns.load(Relaxed) != q {
            self.quantum_ns.store(q, Relaxed);
            self.max_quantum_ns.fetch_max(q, Relaxed);
        }
    }
}

thread_local! {
    static CURRENT: std::cell::RefCell<Option<Arc<Park>>> = const { std::cell::RefCell::new(None) };
}

/// Make `park` the one `current()` returns on this thread (the worker's runtime thread).
pub fn install(park: &Arc<Park>) {
    CURRENT.with(|c| *c.borrow_mut() = Some(park.clone()));
}

/// The park of the runtime on this thread (a fresh, unhooked one when there is none).
pub fn current() -> Arc<Park> {
    CURRENT.with(|c| c.borrow().clone()).unwrap_or_default()
}

/// What coalescing did in one worker (summed over workers in the result's `efficiency`).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Report {
    pub waits: u64,
    pub waited_ns: u64,
    pub max_quantum_ns: u64,
}

impl Park {
    pub fn report(&self) -> Report {
        Report {
            waits: self.waits.load(Relaxed),
            waited_ns: self.waited_ns.load(Relaxed),
            max_quantum_ns: self.max_quantum_ns.load(Relaxed),
        }
    }
}

/// The lowest latency seen in the current and the previous epoch, and the quantum it allows.
#[derive(Clone, Debug)]
pub struct Floor {
    pct: f64,
    epoch_start: u64,
    cur: u64,
    prev: u64,
    /// `quantum()` of the current floor, recomputed only when the floor moves (a new minimum
    /// or a new epoch), not per sample: the float arithmetic was a tenth of the answer path.
    q: u64,
}

impl Floor {
    pub fn new(pct: f64) -> Floor {
        Floor { pct, epoch_start: 0, cur: u64::MAX, prev: u64::MAX, q: 0 }
    }

    /// Record one measured latency at `now`; returns the quantum to use from now on.
    #[inline]
    pub fn observe(&mut self, now: u64, rtt_ns: u64) -> u64 {
        if now.saturating_sub(self.epoch_start) >= EPOCH_NS {
            self.prev = self.cur;
            self.cur = u64::MAX;
            self.epoch_start = now;
            self.cur = rtt_ns;
            self.q = self.quantum();
        } else if rtt_ns < self.cur {
            self.cur = rtt_ns;
            self.q = self.quantum();
        }
        self.q
    }

    pub fn quantum(&self) -> u64 {
        let floor = self.cur.min(self.prev);
        if floor == u64::MAX || self.pct <= 0.0 {
            return 0;
        }
        let q = ((floor as f64 * self.pct / 100.0) as u64).min(MAX_QUANTUM_NS);
        if q < MIN_QUANTUM_NS {
            0
        } else {
            q
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantum_is_pct_of_the_lowest_recent_latency_bounded() {
        let mut f = Floor::new(1.0);
        assert_eq!(f.quantum(), 0, "nothing measured: no waiting");
        assert_eq!(f.observe(1, 20_000_000), 200_000, "1% of 20 ms");
        assert_eq!(f.observe(2, 30_000_000), 200_000, "the lowest counts");
        assert_eq!(f.observe(3, 200_000_000), 200_000);
        let mut g = Floor::new(1.0);
        assert_eq!(g.observe(1, 500_000_000), MAX_QUANTUM_NS, "at most 1 ms");
        assert_eq!(g.observe(2, 4_000_000), 0, "1% of 4 ms is 40 µs: below the minimum, off");
        assert_eq!(Floor::new(0.0).observe(1, 500_000_000), 0, "pct 0 turns it off");
    }

    #[test]
    fn an_old_low_latency_expires_after_two_epochs() {
        let mut f = Floor::new(1.0);
        f.observe(0, 10_000_000);
        assert_eq!(f.observe(EPOCH_NS, 90_000_000), 100_000, "the previous epoch's 10 ms still holds");
        assert_eq!(f.observe(2 * EPOCH_NS, 90_000_000), 900_000, "two epochs on, only 90 ms remains");
    }

    #[test]
    fn park_waits_only_with_a_quantum_and_counts() {
        let p = Park::default();
        p.before_park();
        assert_eq!(p.waits.load(Relaxed), 0);
        p.set(60_000);
        let t = std::time::Instant::now();
        p.before_park();
        assert!(t.elapsed() >= Duration::from_micros(60));
        assert_eq!((p.waits.load(Relaxed), p.waited_ns.load(Relaxed)), (1, 60_000));
        p.set(0);
        assert_eq!(p.max_quantum_ns.load(Relaxed), 60_000);
    }
}
