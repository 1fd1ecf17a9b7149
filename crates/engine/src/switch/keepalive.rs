//! The periodic keep-alive of a switch under load (`echo_every_ms`, issue 42): an echo request
//! every period during the measured phase, whatever else the switch sends or receives, counted
//! beside the requests.
//!
//! Open vSwitch probes only an idle controller connection (`inactivity_probe`, 5 s: the
//! `echo_interval_ms` probe, `ofswitch`'s `poll`); a million idle OVS switches are 200,000 echo
//! round trips/s at 5 s. This is that traffic as a load of its own, at any interval: switch `pos`
//! of `n` sends its first echo at `go + every × pos / n` (spread like the fixed-rate schedule)
//! and then every `every`. An echo unanswered `timeout` after it was sent is lost; a reply after
//! that is late (counted, never answered); the session is not dropped for it (the idle probe
//! still decides that, as OVS). Echo xids are `ECHO_XID | seq`, apart from the idle probe's.
//!
//! Invariant (per switch, tested): `sent = answered + lost + late_pending + in_flight_at_stop`
//! where a late reply moves one echo from lost to late: `sent = answered + lost + in_flight`
//! with `late ≤ lost`.

use crate::result::switches::KeepaliveCounts;
use std::collections::VecDeque;

/// The high half of a periodic echo's xid (`ofswitch`'s idle probe uses 0xffff_0000).
pub const ECHO_XID: u32 = 0xfffe_0000;

/// Timed-out echoes remembered for a late reply (older ones are forgotten: a reply to one is
/// then not recognised, and counted nowhere).
const KEEP_LATE: usize = 4;

/// One session's keep-alive schedule and the echoes it has in flight.
#[derive(Debug, Default)]
pub struct Keepalive {
    every_ns: u64,
    offset_ns: u64,
    /// 0 until anchored at the go.
    next_ns: u64,
    seq: u16,
    in_flight: VecDeque<(u32, u64)>,
    timed_out: VecDeque<u32>,
}

impl Keepalive {
    /// `every_ns` 0: off. Switch `pos` of `n` is staggered by `every × pos / n`.
    pub fn new(every_ns: u64, pos: u32, n: u32) -> Keepalive {
        let offset_ns = if every_ns == 0 { 0 } else { (every_ns as u128 * pos as u128 / n.max(1) as u128) as u64 };
        Keepalive { every_ns, offset_ns, ..Default::default() }
    }

    pub fn on(&self) -> bool {
        self.every_ns != 0
    }

    /// When the next echo is due (`u64::MAX`: off or not anchored).
    pub fn next_due(&self) -> u64 {
        if self.every_ns == 0 || self.next_ns == 0 {
            u64::MAX
        } else {
            self.next_ns
        }
    }

    /// Echoes still waiting for their reply.
    pub fn pending(&self) -> usize {
        self.in_flight.len()
    }

    /// The xids of the echoes due at `now` (at most one: a late turn sends one, not a burst),
    /// anchoring the schedule at `go` first. Only before `end`.
    pub fn due(&mut self, now: u64, go: u64, end: u64, c: &mut KeepaliveCounts) -> Option<u32> {
        if self.every_ns == 0 {
            return None;
        }
        if self.next_ns == 0 {
            self.next_ns = go + self.offset_ns;
        }
        if now < self.next_ns || now >= end {
            return None;
        }
        while self.next_ns <= now {
            self.next_ns += self.every_ns;
        }
        self.seq = self.seq.wrapping_add(1);
        let xid = ECHO_XID | self.seq as u32;
        self.in_flight.push_back((xid, now));
        c.sent += 1;
        Some(xid)
    }

    /// An echo reply `xid` at `now`: its round trip when it answers one of ours in time.
    pub fn reply(&mut self, xid: u32, now: u64, c: &mut KeepaliveCounts) -> Option<u64> {
        if xid & 0xffff_0000 != ECHO_XID {
            return None;
        }
        if let Some(i) = self.in_flight.iter().position(|&(x, _)| x == xid) {
            let (_, sent) = self.in_flight.remove(i).expect("present");
            c.answered += 1;
            return Some(now.saturating_sub(sent));
        }
        if let Some(i) = self.timed_out.iter().position(|&x| x == xid) {
            self.timed_out.remove(i);
            c.late += 1;
        }
        None
    }

    /// Echoes sent before `now - timeout` are lost; returns when the oldest left times out.
    pub fn expire(&mut self, now: u64, timeout: u64, c: &mut KeepaliveCounts) -> u64 {
        while let Some(&(xid, sent)) = self.in_flight.front() {
            if sent + timeout > now {
                return sent + timeout;
            }
            self.in_flight.pop_front();
            c.lost += 1;
            if self.timed_out.len() == KEEP_LATE {
                self.timed_out.pop_front();
            }
            self.timed_out.push_back(xid);
        }
        u64::MAX
    }

    /// The session ended: what is in flight stays unanswered.
    pub fn stop(&mut self, c: &mut KeepaliveCounts) {
        c.in_flight_at_stop += self.in_flight.len() as u64;
        self.in_flight.clear();
    }

    /// A new connection (reconnect): the old one's echoes will never be answered.
    pub fn reset(&mut self, c: &mut KeepaliveCounts) {
        c.lost += self.in_flight.len() as u64;
        self.in_flight.clear();
        self.timed_out.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staggered_periodic_one_per_turn_and_never_after_the_end() {
        let mut c = KeepaliveCounts::default();
        let mut k = Keepalive::new(1_000, 1, 4); // offset 250
        assert_eq!(k.next_due(), u64::MAX, "not anchored");
        assert_eq!(k.due(100, 100, 10_000, &mut c), None);
        assert_eq!(k.next_due(), 350);
        assert_eq!(k.due(350, 100, 10_000, &mut c), Some(ECHO_XID | 1));
        // a turn 2.5 periods late sends one echo, and the schedule moves past now
        assert_eq!(k.due(2_900, 100, 10_000, &mut c), Some(ECHO_XID | 2));
        assert_eq!(k.next_due(), 3_350);
        assert_eq!(k.due(3_400, 100, 3_000, &mut c), None, "the measured phase is over");
        assert_eq!(c.sent, 2);
        assert!(!Keepalive::new(0, 0, 1).on());
    }

    #[test]
    fn answered_lost_late_and_in_flight_add_up() {
        let mut c = KeepaliveCounts::default();
        let mut k = Keepalive::new(100, 0, 1);
        let a = k.due(0, 0, u64::MAX, &mut c).unwrap();
        let b = k.due(100, 0, u64::MAX, &mut c).unwrap();
        let d = k.due(200, 0, u64::MAX, &mut c).unwrap();
        assert_eq!(k.reply(a, 30, &mut c), Some(30));
        assert_eq!(k.reply(a, 31, &mut c), None, "once");
        assert_eq!(k.reply(0xffff_0001, 31, &mut c), None, "the idle probe's xid is not ours");
        assert_eq!(k.expire(240, 50, &mut c), 250, "b timed out; d times out at 250");
        assert_eq!((c.lost, k.pending()), (1, 1));
        assert_eq!(k.reply(b, 260, &mut c), None, "late");
        k.stop(&mut c);
        assert_eq!((c.sent, c.answered, c.lost, c.late, c.in_flight_at_stop), (3, 1, 1, 1, 1));
        assert_eq!(c.sent, c.answered + c.lost + c.in_flight_at_stop);
        let _ = d;
    }
}
