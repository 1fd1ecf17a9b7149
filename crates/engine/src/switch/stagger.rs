//! The go of a fixed-rate run, staggered (issue 42).
//!
//! A worker's sessions sleep until the measured phase begins. Told of it all at once (one watch
//! change), every session of the worker wakes at the go, runs one turn of its loop and sleeps
//! again, though at a low per-switch rate almost none has a request due: at 1,000,000 switches
//! and 20,000 requests/s, each switch sends once every 50 s. Those 1,000,000 turns (two per
//! session: the go is set `settle_ms` ahead, so each woke once for the change and once at the
//! go) came before any request due at the go; on 2 cores they took seconds, the first loops sent
//! 9–16 requests/s instead of 20,000, and every request due meanwhile went out late (p50 3.9 s,
//! measured from its schedule).
//!
//! Staggered instead: a fixed-rate switch's first request is due `offset = period × pos / n`
//! after the go (`Pacer::for_config`), so the sessions are woken in `groups` of consecutive
//! positions, group `g` at `go + period × g / groups` (no later than the end of the measured
//! phase): no session wakes before its group's earliest first request, each wakes once, and the
//! wake-ups are spread over one period. A session woken earlier by anything else (an answer, its
//! keep-alive) starts its schedule then; the schedule is anchored at the go either way
//! (`Pacer::anchor`), so a late wake-up sends what was due at once, each request stamped with
//! its scheduled time.

use tokio::sync::Notify;
use tokio::time::sleep_until;

/// Groups per worker: at most this many timers for the go, and at most `n / GROUPS` + 1
/// sessions woken by one.
pub const GROUPS: u32 = 1024;

/// The sessions of one worker, in groups by position.
pub struct Stagger {
    groups: Vec<Notify>,
    n: u32,
}

impl Stagger {
    pub fn new(n: u32) -> Stagger {
        let k = n.clamp(1, GROUPS);
        Stagger { groups: (0..k).map(|_| Notify::new()).collect(), n: n.max(1) }
    }

    /// The group of the session at `pos` (of `n`): consecutive positions, nearly equal groups.
    pub fn group_of(&self, pos: u32) -> usize {
        (pos as u64 * self.groups.len() as u64 / self.n as u64) as usize
    }

    /// Wait for the go of the session at `pos`'s group.
    pub async fn wait(&self, pos: u32) {
        self.groups[self.group_of(pos)].notified().await
    }

    /// When group `g` (of `groups`) is woken: at its earliest first request, at most at `end`.
    pub fn wake_at(go: u64, period_ns: f64, g: usize, groups: usize, end: u64) -> u64 {
        (go + (period_ns * g as f64 / groups as f64) as u64).min(end)
    }

    /// Wake every group at its time; `at(ns)` maps the worker's clock to an `Instant`.
    pub async fn release(&self, go: u64, period_ns: f64, end: u64, at: impl Fn(u64) -> tokio::time::Instant) {
        let k = self.groups.len();
        for (g, n) in self.groups.iter().enumerate() {
            sleep_until(at(Self::wake_at(go, period_ns, g, k, end))).await;
            n.notify_waiters();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_consecutive_positions_and_wake_before_their_first_request() {
        let s = Stagger::new(20_000);
        assert_eq!(s.groups.len(), 1024);
        assert_eq!((s.group_of(0), s.group_of(19), s.group_of(20), s.group_of(19_999)), (0, 0, 1, 1023));
        // a switch's first request is due at go + period × pos / n; its group wakes no later
        let (go, period, n) = (1_000u64, 50e9, 20_000u32);
        for pos in [0, 1, 19, 20, 777, 19_999] {
            let first = go + (period * pos as f64 / n as f64) as u64;
            assert!(Stagger::wake_at(go, period, s.group_of(pos), 1024, u64::MAX) <= first, "pos {pos}");
        }
        assert_eq!(Stagger::wake_at(go, period, 1023, 1024, 5_000), 5_000, "never after the end");
        let few = Stagger::new(3);
        assert_eq!((few.groups.len(), few.group_of(2)), (3, 2));
    }
}
