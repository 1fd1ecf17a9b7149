//! Requests in flight on one switch, indexed by sequence number.
//!
//! Sequence numbers are issued in order, so the requests in flight are a window
//! `base .. next` kept in a ring: matching a reply is an index computation, not a hash lookup.
//! Answered requests inside the window are marked and popped once everything before them is
//! resolved. A request older than the timeout at the front of the window is lost.
//!
//! Invariants: `pending` counts the unanswered requests in the window; every issued sequence
//! number is resolved exactly once (answered, lost or abandoned).


/// Sent time of a request, or `ANSWERED` once matched, or `LOST` once timed out.
const ANSWERED: u64 = u64::MAX;
const LOST: u64 = u64::MAX - 1;
/// Resolved requests kept at the front so a repeated reply is still recognised.
const KEEP: usize = 64;

/// A ring of send times, power-of-two sized (index by mask), grown by doubling when full.
#[derive(Debug, Default)]
struct Ring {
    buf: Vec<u64>,
    head: usize,
    len: usize,
}

impl Ring {
    #[inline]
    fn len(&self) -> usize {
        self.len
    }
    #[inline]
    fn get_mut(&mut self, i: usize) -> Option<&mut u64> {
        if i >= self.len {
            return None;
        }
        let m = self.buf.len() - 1;
        Some(&mut self.buf[(self.head + i) & m])
    }
    #[inline]
    fn front(&self) -> Option<&u64> {
        (self.len > 0).then(|| &self.buf[self.head])
    }
    #[inline]
    fn push_back(&mut self, v: u64) {
        if self.len == self.buf.len() {
            self.grow();
        }
        let m = self.buf.len() - 1;
        self.buf[(self.head + self.len) & m] = v;
        self.len += 1;
    }
    #[inline]
    fn pop_front(&mut self) {
        if self.len > 0 {
            self.head = (self.head + 1) & (self.buf.len() - 1);
            self.len -= 1;
        }
    }
    fn grow(&mut self) {
        let cap = (self.buf.len() * 2).max(16);
        let mut nb = vec![0; cap];
        for (i, slot) in nb.iter_mut().enumerate().take(self.len) {
            *slot = self.buf[(self.head + i) & (self.buf.len() - 1)];
        }
        self.buf = nb;
        self.head = 0;
    }
    fn clear(&mut self) {
        self.head = 0;
        self.len = 0;
    }
    /// The elements in order, front first: `buf[head..]` then `buf[..head]`, `len` of them.
    fn iter_mut(&mut self) -> impl Iterator<Item = &mut u64> {
        let (head, len) = (self.head, self.len);
        let (a, b) = self.buf.split_at_mut(head);
        b.iter_mut().chain(a.iter_mut()).take(len)
    }
}

#[derive(Debug, Default)]
pub struct Outstanding {
    base: u32,
    slots: Ring,
    pending: u32,
}

/// What a reply's sequence number meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Match {
    /// First answer to a request in flight: latency in ns from its (scheduled) send time.
    Answered(u64),
    /// A second answer to a request already answered (a multi-message reply).
    Again,
    /// Not a request in flight: too old (already lost), or never sent.
    Unknown,
}

impl Outstanding {
    pub fn new(first_seq: u32) -> Outstanding {
        Outstanding { base: first_seq, slots: Ring::default(), pending: 0 }
    }

    pub fn pending(&self) -> u32 {
        self.pending
    }

    /// The sequence number the next request gets.
    pub fn next_seq(&self) -> u32 {
        self.base.wrapping_add(self.slots.len() as u32)
    }

    /// Record a request sent (or scheduled) at `t_ns`; returns its sequence number.
    #[inline]
    pub fn push(&mut self, t_ns: u64) -> u32 {
        let seq = self.next_seq();
        self.slots.push_back(t_ns.min(LOST - 1));
        self.pending += 1;
        seq
    }

    #[inline]
    pub fn answer(&mut self, seq: u32, now_ns: u64) -> Match {
        let i = seq.wrapping_sub(self.base) as usize;
        let Some(slot) = self.slots.get_mut(i) else {
            return Match::Unknown;
        };
        if *slot == ANSWERED {
            return Match::Again;
        }
        if *slot == LOST {
            return Match::Unknown;
        }
        let rtt = now_ns.saturating_sub(*slot);
        *slot = ANSWERED;
        self.pending -= 1;
        self.trim();
        Match::Answered(rtt)
    }

    fn trim(&mut self) {
        while self.slots.len() > KEEP && self.slots.front().is_some_and(|&t| t >= LOST) {
            self.slots.pop_front();
            self.base = self.base.wrapping_add(1);
        }
    }

    /// Mark requests sent before `deadline_ns` and still unanswered as lost; returns how many.
    pub fn expire(&mut self, deadline_ns: u64) -> u32 {
        let mut lost = 0;
        for slot in self.slots.iter_mut() {
            if *slot >= LOST {
                continue;
            }
            if *slot >= deadline_ns {
                break;
            }
            *slot = LOST;
            lost += 1;
        }
        self.pending -= lost;
        self.trim();
        lost
    }

    /// Everything still unanswered (end of run or disconnect): returns how many.
    pub fn abandon(&mut self) -> u32 {
        let n = self.pending;
        self.base = self.next_seq();
        self.slots.clear();
        self.pending = 0;
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answer_in_and_out_of_order() {
        let mut o = Outstanding::new(1);
        let a = o.push(100);
        let b = o.push(200);
        let c = o.push(300);
        assert_eq!((a, b, c), (1, 2, 3));
        assert_eq!(o.answer(b, 250), Match::Answered(50));
        assert_eq!(o.answer(b, 260), Match::Again);
        assert_eq!(o.answer(a, 400), Match::Answered(300));
        assert_eq!(o.pending(), 1);
        assert_eq!(o.answer(99, 400), Match::Unknown);
        assert_eq!(o.answer(4, 400), Match::Unknown, "never sent");
        assert_eq!(o.abandon(), 1);
        assert_eq!(o.answer(c, 500), Match::Unknown);
        assert_eq!(o.push(0), 4);
    }

    #[test]
    fn expiry_counts_loss_once() {
        let mut o = Outstanding::new(10);
        for t in [10, 20, 30, 40] {
            o.push(t);
        }
        o.answer(11, 50);
        assert_eq!(o.expire(35), 2, "seq 10 and 12 are older than 35 and unanswered");
        assert_eq!(o.pending(), 1);
        assert_eq!(o.answer(10, 60), Match::Unknown, "a late answer to a lost request");
        assert_eq!(o.answer(13, 60), Match::Answered(20));
        assert_eq!(o.expire(1000), 0);
    }

    #[test]
    fn long_runs_stay_bounded() {
        let mut o = Outstanding::new(0);
        for i in 0..100_000u64 {
            let s = o.push(i);
            assert_eq!(o.answer(s, i + 1), Match::Answered(1));
        }
        assert!(o.slots.len() <= KEEP + 1);
        assert_eq!(o.pending(), 0);
    }

    #[test]
    fn the_ring_grows_with_its_head_anywhere() {
        let mut o = Outstanding::new(0);
        for i in 0..100u64 {
            let s = o.push(i);
            o.answer(s, i);
        }
        // head is now inside the buffer; grow it several times over
        let first = o.next_seq();
        for i in 0..1000u64 {
            o.push(i);
        }
        assert_eq!(o.pending(), 1000);
        for k in 0..1000u32 {
            assert_eq!(o.answer(first + k, 5000), Match::Answered(5000 - k as u64), "seq {}", first + k);
        }
        assert_eq!(o.pending(), 0);
        assert_eq!(o.expire(u64::MAX), 0);
    }

    #[test]
    fn sequence_numbers_wrap() {
        let mut o = Outstanding::new(u32::MAX - 1);
        let a = o.push(0);
        let b = o.push(0);
        let c = o.push(0);
        assert_eq!((a, b, c), (u32::MAX - 1, u32::MAX, 0));
        assert_eq!(o.answer(0, 5), Match::Answered(5));
    }
}
