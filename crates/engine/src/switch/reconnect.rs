//! Reconnection as Open vSwitch does it (lib/rconn.c), pure: when to try again after a session
//! is lost. The session (`session/`) owns the sockets and the clock; this only decides.
//!
//! OVS's rules, in its words (`reconnect`, `disconnect`):
//! - a connection that opens sets `backoff_deadline = now + backoff`; an attempt that fails
//!   before it opens sets it to "never" (so a failed attempt never resets the backoff);
//! - on a loss (or a failed attempt): if `now >= backoff_deadline` (the session outlived its
//!   backoff) the backoff starts over at 1 s; else it doubles while below `max_backoff / 2`,
//!   and is `max_backoff` after that; the next attempt is `backoff` later.
//!
//! So a controller that closes every session at once is retried after 1, 2, 4, 8, 8, ... s (the
//! default `max_backoff` is 8 s), and one that held the session longer than the last backoff is
//! retried after 1 s again. OVS counts in whole seconds; here in ns (`first_ns` is OVS's 1 s).

/// The backoff state of one switch.
#[derive(Clone, Debug)]
pub struct Backoff {
    first_ns: u64,
    max_ns: u64,
    backoff_ns: u64,
    deadline_ns: u64,
}

impl Backoff {
    /// `first_ms`: the first wait (OVS: 1 s); `max_ms`: the ceiling (OVS `max_backoff`, 8 s).
    pub fn new(first_ms: u64, max_ms: u64) -> Backoff {
        let first_ns = first_ms.max(1) * 1_000_000;
        Backoff { first_ns, max_ns: (max_ms * 1_000_000).max(first_ns), backoff_ns: 0, deadline_ns: 0 }
    }

    /// A connection opened at `now` (OVS: `rc->backoff_deadline = time_now() + rc->backoff`).
    pub fn opened(&mut self, now: u64) {
        self.deadline_ns = now.saturating_add(self.backoff_ns);
    }

    /// How long an attempt may take to finish its handshake before it is given up (OVS
    /// `timeout_CONNECTING`: `MAX(1, backoff)` seconds, 1 s being `first_ms` here). An attempt
    /// given up is a failed one (`attempt_failed`): the next wait doubles, as in OVS.
    pub fn handshake_timeout_ns(&self) -> u64 {
        self.backoff_ns.max(self.first_ns)
    }

    /// An attempt failed before it opened (OVS: `backoff_deadline = TIME_MAX`).
    pub fn attempt_failed(&mut self) {
        self.deadline_ns = u64::MAX;
    }

    /// The session was lost, or an attempt failed, at `now`: how long to wait before the next
    /// attempt (OVS `disconnect`).
    pub fn next_wait(&mut self, now: u64) -> u64 {
        self.backoff_ns = if now >= self.deadline_ns {
            self.first_ns
        } else if self.backoff_ns < self.max_ns / 2 {
            (2 * self.backoff_ns).max(self.first_ns)
        } else {
            self.max_ns
        };
        self.backoff_ns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: u64 = 1_000_000_000;

    #[test]
    fn a_handshake_is_given_up_after_the_backoff_but_at_least_the_first_wait() {
        let mut b = Backoff::new(1000, 8000);
        assert_eq!(b.handshake_timeout_ns(), S, "OVS: MAX(1, backoff), backoff 0 at first");
        b.opened(0);
        b.next_wait(1); // lost at once: 1 s
        b.opened(2 * S);
        assert_eq!(b.next_wait(2 * S + 1), 2 * S);
        assert_eq!(b.handshake_timeout_ns(), 2 * S);
    }

    #[test]
    fn immediate_closes_double_to_max_backoff() {
        // a controller that closes every session as soon as it opens: 1, 2, 4, 8, 8 s
        let mut b = Backoff::new(1000, 8000);
        let mut now = 0;
        b.opened(now);
        let mut waits = vec![];
        for _ in 0..6 {
            now += 1; // lost just after opening
            let w = b.next_wait(now);
            waits.push(w / S);
            now += w;
            b.opened(now);
        }
        assert_eq!(waits, [1, 2, 4, 8, 8, 8]);
    }

    #[test]
    fn a_session_that_outlived_its_backoff_starts_over_at_one_second() {
        let mut b = Backoff::new(1000, 8000);
        b.opened(0);
        assert_eq!(b.next_wait(10), S);
        b.opened(S + 10);
        assert_eq!(b.next_wait(S + 20), 2 * S, "lost within its 1 s backoff: doubles");
        b.opened(3 * S + 20);
        assert_eq!(b.next_wait(5 * S + 20), S, "held for its whole 2 s backoff: starts over");
    }

    #[test]
    fn failed_attempts_never_reset() {
        // the controller is down: every attempt is refused, however long apart
        let mut b = Backoff::new(1000, 8000);
        b.opened(0);
        let mut now = 100 * S;
        assert_eq!(b.next_wait(now), S);
        let mut waits = vec![];
        for _ in 0..5 {
            now += 1000 * S;
            b.attempt_failed();
            waits.push(b.next_wait(now) / S);
        }
        assert_eq!(waits, [2, 4, 8, 8, 8]);
    }

    #[test]
    fn configurable_first_and_max() {
        let mut b = Backoff::new(100, 500);
        b.opened(0);
        let w: Vec<u64> = (0..5)
            .map(|_| {
                b.attempt_failed();
                b.next_wait(1) / 1_000_000
            })
            .collect();
        assert_eq!(w, [100, 200, 400, 500, 500], "doubles while below max/2, then max");
        let mut one = Backoff::new(1000, 1000);
        one.opened(0);
        assert_eq!(one.next_wait(1), S);
        one.attempt_failed();
        assert_eq!(one.next_wait(2), S);
    }
}
