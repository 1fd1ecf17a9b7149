//! After the measured phase (`Phase::Drain`): no more requests; the session waits (briefly) for
//! the answers and echoes still in flight, and ends once none is left or the drain is over.

use super::stats_mut;
use super::Session;

impl Session {
    /// A turn of the drain. Returns when the drain ends, or None: this session is done.
    pub(super) fn drain_turn(&mut self, now: u64) -> Option<u64> {
        self.sh.park.set(0); // the drain's answers are read as they come
        stats_mut(&self.sh, &self.stats, self.pos).measuring = false;
        if self.ka.pending() > 0 {
            // an echo whose timeout passed is lost, not in flight at the stop
            self.ka.expire(now, self.sh.timeout_ns(), &mut stats_mut(&self.sh, &self.stats, self.pos).ka);
        }
        if (self.out.pending() == 0 && self.ka.pending() == 0) || now >= self.sh.drain_end_ns() {
            return None;
        }
        Some(self.sh.drain_end_ns())
    }
}
