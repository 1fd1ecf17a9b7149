//! A worker's loop-boundary counts without a walk over every switch.
//!
//! A session marks its switch *touched* whenever it borrows the switch's stats to change them
//! (`Session::stats_mut`; the first time in a loop it is put on the list). At each loop
//! boundary the worker's ticker visits only the switches on the list: for each it adds the
//! change of its counters since the last boundary (`Counted`) to the running totals, and appends
//! the new cumulative values to the switch's loop columns (`LoopColumn`, sparse: a point only when
//! a value changed). At 1,000,000 switches with a few thousand active per second, a boundary
//! costs the active switches, not the million (the walk over every switch was an eighth of the
//! engine's CPU at 200,000 switches, and three dense columns of 8 bytes per switch per loop).
//!
//! Invariant (checked by the tests): after each boundary the totals equal the sums over every
//! switch of its counters, and a switch's dense column equals the per-loop values it had.

use crate::switch::accounting::{SessionState, SwitchStats};
pub use crate::switch::columns::Counted;
use std::cell::{Cell, RefCell};

/// A switch's counters as a boundary sums them.
pub fn counted(s: &SwitchStats) -> Counted {
    Counted {
        answered: s.requests.answered,
        sent: s.requests.sent,
        responses: s.responses,
        lost: s.requests.lost,
        late: s.requests.late,
        not_sent_disconnected: s.reconnect.not_sent_disconnected,
        echo_sent: s.ka.sent,
        echo_answered: s.ka.answered,
        echo_lost: s.ka.lost,
        up: (s.state == SessionState::Up) as u64,
    }
}

/// The worker's side: which switches were touched since the last boundary, and the totals.
pub struct Tally {
    epoch: Cell<u32>,
    touched: RefCell<Vec<u32>>,
    totals: Cell<Counted>,
    loops: Cell<u32>,
}

impl Default for Tally {
    fn default() -> Tally {
        // switches start with mark 0: their first change puts them on the list
        Tally { epoch: Cell::new(1), touched: RefCell::default(), totals: Cell::default(), loops: Cell::new(0) }
    }
}

impl Tally {
    /// The switch at `pos` is about to change its counters (called on every borrow for change).
    #[inline]
    pub fn touch(&self, st: &mut SwitchStats, pos: u32) {
        let e = self.epoch.get();
        if st.tally_mark != e {
            st.tally_mark = e;
            self.touched.borrow_mut().push(pos);
        }
    }

    /// Loop boundary `k`: every switch touched since the last one is visited, in position order,
    /// by `visit` (after its counters went into the totals and its columns); returns the totals.
    pub fn boundary(&self, k: u32, stats: &[std::rc::Rc<RefCell<SwitchStats>>], mut visit: impl FnMut(&mut SwitchStats)) -> Counted {
        let mut touched = std::mem::take(&mut *self.touched.borrow_mut());
        self.epoch.set(self.epoch.get().wrapping_add(1).max(1));
        touched.sort_unstable();
        let mut totals = self.totals.get();
        for &pos in &touched {
            let mut s = stats[pos as usize].borrow_mut();
            let now = counted(&s);
            totals.moved(&s.tally_seen, &now);
            s.tally_seen = now;
            s.answered_at.record(k, now.answered);
            s.responses_at.record(k, now.responses);
            s.sent_at.record(k, now.sent);
            visit(&mut s);
        }
        touched.clear();
        *self.touched.borrow_mut() = touched; // the list's capacity kept for the next loop
        self.totals.set(totals);
        self.loops.set(k);
        totals
    }

    /// Loop boundaries taken so far.
    pub fn loops(&self) -> u32 {
        self.loops.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    fn stats(n: u32) -> Vec<Rc<RefCell<SwitchStats>>> {
        (0..n).map(|i| Rc::new(RefCell::new(SwitchStats::new(i, i as u64 + 1, false)))).collect()
    }

    fn sum(stats: &[Rc<RefCell<SwitchStats>>]) -> Counted {
        let mut t = Counted::default();
        for s in stats {
            t.moved(&Counted::default(), &counted(&s.borrow()));
        }
        t
    }

    #[test]
    fn totals_equal_the_sums_and_columns_the_dense_values() {
        // a scripted run: in each loop some switches change, some counters go down
        // (a late answer takes one off `lost`; a session goes down), most switches rest
        let st = stats(50);
        let t = Tally::default();
        let mut dense: Vec<Vec<u64>> = vec![Vec::new(); 50];
        let mut rng = 0x9e37_79b9_u64;
        for k in 1..=40u32 {
            for _ in 0..(k % 7) * 3 {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let pos = (rng % 50) as u32;
                let mut s = st[pos as usize].borrow_mut();
                t.touch(&mut s, pos);
                match rng % 5 {
                    0 => s.requests.sent += 3,
                    1 => s.requests.answered += 1,
                    2 => s.requests.lost += 2,
                    3 if s.requests.lost > 0 => {
                        s.requests.lost -= 1;
                        s.requests.late += 1
                    }
                    _ => s.state = if s.state == SessionState::Up { SessionState::Connecting } else { SessionState::Up },
                }
                s.ka.sent += rng % 2;
            }
            let totals = t.boundary(k, &st, |_| {});
            assert_eq!(totals, sum(&st), "loop {k}");
            for (i, s) in st.iter().enumerate() {
                dense[i].push(s.borrow().requests.answered);
            }
        }
        assert_eq!(t.loops(), 40);
        for (i, s) in st.iter().enumerate() {
            let want: Vec<u64> = dense[i].iter().scan(0, |p, &v| Some(v - std::mem::replace(p, v))).collect();
            assert_eq!(s.borrow().answered_at.per_loop(40), want, "switch {i}");
            assert_eq!(s.borrow().answered_at.at(40), s.borrow().requests.answered);
        }
    }

    #[test]
    fn an_untouched_switch_is_not_visited_and_a_touched_one_once() {
        let st = stats(4);
        let t = Tally::default();
        for _ in 0..3 {
            let mut s = st[2].borrow_mut();
            t.touch(&mut s, 2);
            s.requests.sent += 1;
        }
        let mut seen = Vec::new();
        t.boundary(1, &st, |s| seen.push(s.index));
        assert_eq!(seen, vec![2]);
        seen.clear();
        t.boundary(2, &st, |s| seen.push(s.index));
        assert!(seen.is_empty(), "nothing changed in loop 2");
        assert_eq!(st[2].borrow().sent_at.per_loop(3), vec![3, 0, 0]);
        assert_eq!(st[0].borrow().sent_at.per_loop(2), vec![0, 0]);
    }
}
