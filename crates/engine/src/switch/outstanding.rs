//! Requests in flight on one switch, indexed by sequence number.
//!
//! Sequence numbers are issued in order, so the requests in flight are a window
//! `base .. next` kept in a ring: matching a reply is an index computation, not a hash lookup.
//! Answered requests inside the window are marked and popped once everything before them is
//! resolved. A request older than the timeout at the front of the window is lost.
//!
//! Invariants: `pending` counts the unanswered requests in the window; every issued sequence
//! number is resolved exactly once (answered, lost or abandoned); a skipped one (`skip_seq`) is
//! never issued.

/// A slot holds the send time of a request in flight, `ANSWERED` once matched, or the send time
/// with a flag: `TIMED_OUT` (the loss timeout passed; an answer now is *late*, with its latency)
/// or `OVERTAKEN` (a request sent after it was answered first: it leaves the window, see
/// `live`). Times are below 2^62 ns (146 years).
const ANSWERED: u64 = u64::MAX;
const TIMED_OUT: u64 = 1 << 63;
const OVERTAKEN: u64 = 1 << 62;
const TIME: u64 = OVERTAKEN - 1;
/// Resolved requests kept at the front so a repeated reply is still recognised.
const KEEP: usize = 64;
/// Timed-out requests kept (at most) so a late answer is still matched, with its latency.
const KEEP_LATE: usize = 1024;

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
    /// Slot `i` (< `len`) becomes `v`.
    #[inline]
    fn set(&mut self, i: usize, v: u64) {
        let m = self.buf.len() - 1;
        self.buf[(self.head + i) & m] = v;
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
    /// `push_back` of `v`, `n` times (grown once).
    #[inline]
    fn push_back_n(&mut self, v: u64, n: usize) {
        while self.len + n > self.buf.len() {
            self.grow();
        }
        let m = self.buf.len() - 1;
        for i in self.len..self.len + n {
            self.buf[(self.head + i) & m] = v;
        }
        self.len += n;
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
    /// Unanswered and not timed out (overtaken ones included).
    pending: u32,
    /// Of `pending`, those overtaken by a later request's answer.
    overtaken: u32,
    /// Requests before this sequence number were already checked for overtaking / expiry.
    scan_seq: u32,
    expire_seq: u32,
}

/// What a reply's sequence number meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Match {
    /// First answer to a request in flight: latency in ns from its (scheduled) send time.
    Answered(u64),
    /// First answer to a request whose loss timeout had passed: its latency in ns.
    Late(u64),
    /// A second answer to a request already answered (a multi-message reply).
    Again,
    /// Not a request we know: too old to be kept, or never sent.
    Unknown,
}

impl Outstanding {
    pub fn new(first_seq: u32) -> Outstanding {
        Outstanding { base: first_seq, slots: Ring::default(), pending: 0, overtaken: 0, scan_seq: first_seq, expire_seq: first_seq }
    }

    /// Requests unanswered and not timed out.
    pub fn pending(&self) -> u32 {
        self.pending
    }

    /// Requests that still hold a window slot: pending, minus those overtaken by the answer to a
    /// later one. A controller that answers in order and drops a request thus frees its slot at
    /// the next answer, not only at the loss timeout, so a window keeps the controller loaded
    /// (a reordering controller only lends the window a slot until the late answer comes).
    pub fn live(&self) -> u32 {
        self.pending - self.overtaken
    }

    /// The sequence number the next request gets.
    pub fn next_seq(&self) -> u32 {
        self.base.wrapping_add(self.slots.len() as u32)
    }

    /// Record a request sent (or scheduled) at `t_ns`; returns its sequence number.
    #[inline]
    pub fn push(&mut self, t_ns: u64) -> u32 {
        let seq = self.next_seq();
        self.slots.push_back(t_ns.min(TIME));
        self.pending += 1;
        seq
    }

    /// Pass over the next sequence number: one no request may have (`NO_BUFFER`, the buffer id
    /// that means "none"). It is resolved at once and is not an answer, so the requests in flight
    /// before it are not overtaken (an `answer` to it would mark them, and a window would then
    /// send up to a window's worth more).
    pub fn skip_seq(&mut self) {
        self.slots.push_back(ANSWERED);
    }

    /// `push(t_ns)`, `n` times: returns the first sequence number (the others follow it).
    #[inline]
    pub fn push_n(&mut self, t_ns: u64, n: u32) -> u32 {
        let seq = self.next_seq();
        self.slots.push_back_n(t_ns.min(TIME), n as usize);
        self.pending += n;
        seq
    }

    /// Index of `seq` in the ring, clamped to 0 for sequence numbers already trimmed.
    fn index(&self, seq: u32) -> usize {
        let d = seq.wrapping_sub(self.base);
        if d > u32::MAX / 2 {
            0
        } else {
            d as usize
        }
    }

    #[inline(always)]
    pub fn answer(&mut self, seq: u32, now_ns: u64) -> Match {
        let i = seq.wrapping_sub(self.base) as usize;
        let Some(&mut v) = self.slots.get_mut(i) else {
            return Match::Unknown;
        };
        // The common case, inline: a pending request answered in order. `ANSWERED` has both
        // flag bits set, so it takes the other path too.
        if v & (TIMED_OUT | OVERTAKEN) == 0 && seq == self.scan_seq {
            self.pending -= 1;
            self.scan_seq = seq.wrapping_add(1);
            if i == 0 && self.slots.len() > KEEP {
                // the front, with more than KEEP held (a full window): it is what `trim` would
                // drop first, so drop it here; `trim` goes on only if the next one is resolved
                self.slots.pop_front();
                self.base = self.base.wrapping_add(1);
                if self.slots.front().is_some_and(|&t| t & (TIMED_OUT | OVERTAKEN) != 0) {
                    self.trim();
                }
            } else {
                self.slots.set(i, ANSWERED);
                if self.slots.len() > KEEP {
                    self.trim();
                }
            }
            return Match::Answered(now_ns.saturating_sub(v));
        }
        self.answer_other(i, v, now_ns)
    }

    /// Everything but an in-order answer: a repeat, a late answer, or one that overtakes.
    #[inline(never)]
    fn answer_other(&mut self, i: usize, v: u64, now_ns: u64) -> Match {
        if v == ANSWERED {
            return Match::Again;
        }
        if let Some(slot) = self.slots.get_mut(i) {
            *slot = ANSWERED;
        }
        let rtt = now_ns.saturating_sub(v & TIME);
        if v & TIMED_OUT != 0 {
            self.trim();
            return Match::Late(rtt);
        }
        self.pending -= 1;
        if v & OVERTAKEN != 0 {
            self.overtaken -= 1;
        }
        self.overtake_before(i);
        self.trim();
        Match::Answered(rtt)
    }

    /// Requests sent before the one at index `i` and still unanswered are overtaken.
    #[inline]
    fn overtake_before(&mut self, i: usize) {
        let from = self.index(self.scan_seq);
        if from < i {
            for j in from..i {
                if let Some(s) = self.slots.get_mut(j) {
                    if *s & (TIMED_OUT | OVERTAKEN) == 0 {
                        *s |= OVERTAKEN;
                        self.overtaken += 1;
                    }
                }
            }
        }
        if from <= i {
            self.scan_seq = self.base.wrapping_add(i as u32 + 1);
        }
    }

    fn trim(&mut self) {
        while let Some(&t) = self.slots.front() {
            let n = self.slots.len();
            let drop = (t == ANSWERED && n > KEEP) || (t != ANSWERED && t & TIMED_OUT != 0 && n > KEEP_LATE);
            if !drop {
                break;
            }
            self.slots.pop_front();
            self.base = self.base.wrapping_add(1);
        }
    }

    /// Time out requests sent before `deadline_ns` and still unanswered; returns how many.
    /// Timed-out requests older than `forget_before_ns` are dropped (an answer then is unknown).
    pub fn expire(&mut self, deadline_ns: u64, forget_before_ns: u64) -> u32 {
        let mut timed_out = 0;
        let mut overtaken = 0;
        let from = self.index(self.expire_seq);
        let mut next = self.slots.len();
        for (j, slot) in self.slots.iter_mut().enumerate().skip(from) {
            if *slot == ANSWERED || *slot & TIMED_OUT != 0 {
                continue;
            }
            if *slot & TIME >= deadline_ns {
                next = j;
                break;
            }
            if *slot & OVERTAKEN != 0 {
                overtaken += 1;
            }
            *slot = (*slot & TIME) | TIMED_OUT;
            timed_out += 1;
        }
        self.expire_seq = self.base.wrapping_add(next as u32);
        self.pending -= timed_out;
        self.overtaken -= overtaken;
        while let Some(&t) = self.slots.front() {
            let forget = t == ANSWERED || (t & TIMED_OUT != 0 && t & TIME < forget_before_ns);
            if !forget || (t == ANSWERED && self.slots.len() <= KEEP) {
                break;
            }
            self.slots.pop_front();
            self.base = self.base.wrapping_add(1);
        }
        self.trim();
        timed_out
    }

    /// The (scheduled) send time of the oldest request still pending, neither answered nor timed
    /// out: its loss timeout is the session's next loss timer, the only one it needs (a session
    /// woken more often finds nothing due; at a standing queue of L those empty turns were
    /// L / (timeout / 4) per request). Resolved requests before it are passed over once each.
    pub fn oldest_pending(&mut self) -> Option<u64> {
        if self.pending == 0 {
            return None;
        }
        let mut i = self.index(self.expire_seq);
        while let Some(&mut v) = self.slots.get_mut(i) {
            if v & TIMED_OUT == 0 {
                self.expire_seq = self.base.wrapping_add(i as u32);
                return Some(v & TIME);
            }
            i += 1;
        }
        None
    }

    /// Everything still pending (end of run or disconnect): returns how many.
    pub fn abandon(&mut self) -> u32 {
        let n = self.pending;
        self.base = self.next_seq();
        self.slots.clear();
        self.pending = 0;
        self.overtaken = 0;
        self.scan_seq = self.base;
        self.expire_seq = self.base;
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oldest pending request by a walk over every slot (what `oldest_pending` must find).
    fn oldest_by_walk(o: &mut Outstanding) -> Option<u64> {
        o.slots.iter_mut().map(|v| *v).find(|v| v & TIMED_OUT == 0).map(|v| v & TIME)
    }

    #[test]
    fn the_loss_timer_is_the_oldest_pending_request() {
        let mut o = Outstanding::new(7);
        assert_eq!(o.oldest_pending(), None);
        let s = o.push_n(100, 3); // 100 100 100
        o.push(200);
        assert_eq!(o.oldest_pending(), Some(100));
        o.answer(s, 150);
        o.answer(s + 2, 150); // overtakes s + 1: still pending, still the oldest
        assert_eq!(o.oldest_pending(), Some(100));
        assert_eq!(o.expire(150, 0), 1);
        assert_eq!(o.oldest_pending(), Some(200));
        o.answer(s + 3, 250);
        assert_eq!((o.oldest_pending(), o.pending()), (None, 0));
        // random answers, drops and expiries: always the walk's answer
        let (mut o, mut rng, mut t) = (Outstanding::new(u32::MAX - 300), 0x9e37_79b9_u64, 1_000u64);
        for _ in 0..20_000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            t += rng % 5;
            match rng % 4 {
                0 | 1 => {
                    o.push(t);
                }
                2 => {
                    let seq = o.next_seq().wrapping_sub(1 + (rng >> 8) as u32 % 40);
                    o.answer(seq, t);
                }
                _ => {
                    o.expire(t.saturating_sub(60), t.saturating_sub(400));
                }
            }
            assert_eq!(o.oldest_pending(), oldest_by_walk(&mut o));
        }
    }

    #[test]
    fn push_n_is_n_pushes() {
        // across the ring's growth (16, 32, ...) and its wrap (after answers moved the head)
        let (mut one, mut many) = (Outstanding::new(5), Outstanding::new(5));
        for (t, n) in [(10u64, 3u32), (20, 0), (30, 40), (40, 1), (50, 100)] {
            let first = one.next_seq();
            for _ in 0..n {
                one.push(t);
            }
            assert_eq!(many.push_n(t, n), first);
            assert_eq!((many.next_seq(), many.pending(), many.live()), (one.next_seq(), one.pending(), one.live()));
            for seq in first..first + n / 2 {
                assert_eq!(one.answer(seq, t + 7), many.answer(seq, t + 7), "seq {seq}");
            }
        }
        for seq in 0..300 {
            assert_eq!(one.answer(seq, 99), many.answer(seq, 99), "seq {seq}");
        }
    }

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
        assert_eq!(o.expire(35, 0), 2, "seq 10 and 12 are older than 35 and unanswered");
        assert_eq!(o.pending(), 1);
        assert_eq!(o.answer(10, 60), Match::Late(50), "a late answer, with its latency");
        assert_eq!(o.answer(10, 61), Match::Again);
        assert_eq!(o.answer(13, 60), Match::Answered(20));
        assert_eq!(o.expire(1000, 0), 0);
        assert_eq!(o.answer(12, 2000), Match::Late(1970));
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
        assert_eq!(o.expire(TIME, 0), 0);
    }

    #[test]
    fn a_dropped_request_leaves_the_window_at_the_next_answer() {
        let mut o = Outstanding::new(1);
        for t in 0..4 {
            o.push(t);
        }
        assert_eq!(o.answer(2, 10), Match::Answered(9));
        assert_eq!((o.pending(), o.live()), (3, 2), "seq 1 overtaken by seq 2");
        assert_eq!(o.answer(4, 10), Match::Answered(7));
        assert_eq!((o.pending(), o.live()), (2, 0), "seq 3 too");
        assert_eq!(o.answer(1, 11), Match::Answered(11), "a reordered answer still counts");
        assert_eq!((o.pending(), o.live()), (1, 0));
        assert_eq!(o.expire(100, 0), 1);
        assert_eq!((o.pending(), o.live()), (0, 0));
    }

    #[test]
    fn timed_out_requests_are_forgotten_after_the_horizon() {
        let mut o = Outstanding::new(1);
        o.push(0);
        o.push(50);
        assert_eq!(o.expire(100, 10), 2);
        assert_eq!(o.answer(1, 200), Match::Unknown, "sent before the horizon: forgotten");
        assert_eq!(o.answer(2, 200), Match::Late(150));
    }

    #[test]
    fn a_skipped_sequence_number_overtakes_nothing() {
        let mut o = Outstanding::new(u32::MAX - 2);
        assert_eq!((o.push(0), o.push(0)), (u32::MAX - 2, u32::MAX - 1));
        o.skip_seq();
        assert_eq!((o.pending(), o.live()), (2, 2), "the two in flight keep their slots");
        assert_eq!(o.push(1), 0);
        assert_eq!(o.answer(u32::MAX, 5), Match::Again, "never a request's");
        assert_eq!(o.answer(u32::MAX - 2, 5), Match::Answered(5));
        assert_eq!(o.answer(u32::MAX - 1, 6), Match::Answered(6));
        assert_eq!(o.answer(0, 7), Match::Answered(6));
        assert_eq!((o.pending(), o.live()), (0, 0));
        assert_eq!(o.expire(TIME, 0), 0);
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
