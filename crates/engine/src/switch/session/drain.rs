//! After the measured phase (`Phase::Drain`): no more requests; the session waits (briefly) for
//! the answers and echoes still in flight. With none left it is settled: it keeps its connection
//! until its worker's drain is over (every session of the worker settled or ended: the worker
//! then stops them all, `driver/requests.rs`) or the drain's end, as a process of the C client
//! closes its connections only once all of them are settled (`bench/engine/hsclient.c`). Ending
//! at once instead put the closes of nearly every session into the drain, where they took the
//! CPU of the answers still due (issue 50, `docs/million.md`).

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
        if now >= self.sh.drain_end_ns() {
            return None;
        }
        let settled = self.out.pending() == 0 && self.ka.pending() == 0;
        if settled != self.settled {
            self.settled = settled;
            self.sh.session_settled(settled);
        }
        Some(self.sh.drain_end_ns())
    }

    /// The connection is over: the session no longer counts among the settled.
    pub(super) fn unsettle(&mut self) {
        if std::mem::take(&mut self.settled) {
            self.sh.session_settled(false);
        }
    }
}
