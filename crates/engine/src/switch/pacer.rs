//! When a switch may send its next request. One value per mode, combined with the same loop:
//! a window (throughput: `window` in flight; latency: one in flight) or a fixed offered rate
//! (open loop). For the fixed rate every request has a *scheduled* send time, and its latency is
//! measured from that time, not from when it actually left, so a slow controller cannot hide
//! its queueing (coordinated omission; oha and wrk2 do the same).

use crate::config::{Config, Mode, MAX_IN_FLIGHT_OPEN_LOOP};
use crate::switch::outstanding::Outstanding;
use ofswitch::PacketInGen;

/// `fill_socket`: the bytes of requests kept queued in front of the socket (cbench's BUFLEN,
/// its output buffer, which it refills whenever the socket takes more).
pub const FILL_SOCKET_BYTES: usize = 65_536;

/// How many requests of `request_len` bytes may be added now to a write buffer holding
/// `unwritten` bytes: all that fit below `FILL_SOCKET_BYTES` (cbench's `-t`), or no limit.
pub fn socket_room(fill_socket: bool, unwritten: usize, request_len: usize) -> u32 {
    if !fill_socket {
        return u32::MAX;
    }
    (FILL_SOCKET_BYTES.saturating_sub(unwritten) / request_len.max(1)) as u32
}

/// A request's sequence number is its buffer id, so `NO_BUFFER` is never one: passed over.
#[inline]
fn skip_no_buffer(out: &mut Outstanding) {
    if out.next_seq() == ofwire::packet_in::NO_BUFFER {
        out.skip_seq();
    }
}

/// A fixed-rate switch's period: `rate` spread evenly over all switches.
pub fn rate_period_ns(c: &Config) -> f64 {
    1e9 / (c.rate / c.switches.max(1) as f64).max(1e-9)
}

#[derive(Clone, Debug)]
pub enum Pacer {
    Window { size: u32 },
    Rate { period_ns: f64, first_ns: u64, sent: u64, started: bool, offset_ns: f64 },
}

impl Pacer {
    /// `pos`/`n`: this switch's position among the worker's switches (to stagger the schedule).
    pub fn for_config(c: &Config, pos: u32, n: u32) -> Pacer {
        match c.mode {
            Mode::FixedRate => {
                let period_ns = rate_period_ns(c);
                let offset_ns = period_ns * pos as f64 / n.max(1) as f64;
                Pacer::Rate { period_ns, first_ns: 0, sent: 0, started: false, offset_ns }
            }
            _ => Pacer::Window { size: c.window_per_switch() },
        }
    }

    /// Anchor a fixed rate's schedule at the go (once): the first request is due at `go +
    /// offset` however late the session first looks (`stagger.rs`). A window has no schedule.
    #[inline]
    pub fn anchor(&mut self, go: u64) {
        if let Pacer::Rate { first_ns, started: started @ false, offset_ns, .. } = self {
            *first_ns = go + *offset_ns as u64;
            *started = true;
        }
    }

    /// Append the requests due at `now`, at most `max`; returns how many.
    #[inline]
    pub fn fill(&mut self, now: u64, out: &mut Outstanding, gen: &mut PacketInGen, wbuf: &mut Vec<u8>, miss: Option<u16>, max: u32) -> u32 {
        let mut n = 0;
        match self {
            Pacer::Window { size } => {
                // the window's free slots in one run of sequence numbers (`emit_run`), unless
                // the run would hold NO_BUFFER, which is never a request's
                let k = size.saturating_sub(out.live()).min(max);
                if out.next_seq().checked_add(k).is_some() {
                    let first = out.push_n(now, k);
                    gen.emit_run(wbuf, first, k, miss);
                    return k;
                }
                while out.live() < *size && n < max {
                    skip_no_buffer(out);
                    let seq = out.push(now);
                    gen.emit(wbuf, seq, miss);
                    n += 1;
                }
            }
            Pacer::Rate { period_ns, first_ns, sent, started, offset_ns } => {
                if !*started {
                    *first_ns = now + *offset_ns as u64;
                    *started = true;
                }
                loop {
                    let due = *first_ns + (*sent as f64 * *period_ns) as u64;
                    if due > now || out.pending() >= MAX_IN_FLIGHT_OPEN_LOOP || n >= max {
                        break;
                    }
                    *sent += 1;
                    skip_no_buffer(out);
                    let seq = out.push(due);
                    gen.emit(wbuf, seq, miss);
                    n += 1;
                }
            }
        }
        n
    }

    /// The switch has no session (`reconnect.rs`): move the schedule past every request due up
    /// to `now` (a fixed rate starts at `go` if it had not) and return how many will never be
    /// sent. A window has none: a closed loop sends only as answers come.
    pub fn skip(&mut self, now: u64, go: u64) -> u64 {
        let Pacer::Rate { period_ns, first_ns, sent, started, offset_ns } = self else { return 0 };
        if !*started {
            if go == 0 || now < go {
                return 0;
            }
            *first_ns = go + *offset_ns as u64;
            *started = true;
        }
        let before = *sent;
        while *first_ns + (*sent as f64 * *period_ns) as u64 <= now {
            *sent += 1;
        }
        *sent - before
    }

    /// Whether a request is sent only when an earlier one leaves the window (a window), not on
    /// a schedule (a fixed rate, capped only by `MAX_IN_FLIGHT_OPEN_LOOP`, whose next send is
    /// due at `next_due` whatever is in flight).
    pub fn waits_for_answers(&self) -> bool {
        matches!(self, Pacer::Window { .. })
    }

    /// When to wake for the next scheduled request (never, for a window).
    pub fn next_due(&self) -> u64 {
        match self {
            Pacer::Window { .. } => u64::MAX,
            Pacer::Rate { period_ns, first_ns, sent, .. } => *first_ns + (*sent as f64 * *period_ns) as u64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skip_moves_a_fixed_rate_past_what_was_due_and_a_window_has_nothing_due() {
        let c = Config { mode: Mode::FixedRate, rate: 1000.0, switches: 1, ..Config::default() };
        let mut p = Pacer::for_config(&c, 0, 1);
        assert_eq!(p.skip(5_000_000, 0), 0, "before the go nothing is due");
        // go at 1 ms: due at 1, 2, ..., 10 ms (period 1 ms) -> 10 by 10.5 ms
        assert_eq!(p.skip(10_500_000, 1_000_000), 10);
        assert_eq!(p.skip(10_900_000, 1_000_000), 0);
        let (mut o, mut g, mut w) = (Outstanding::new(1), gen(), vec![]);
        assert_eq!(p.fill(11_000_000, &mut o, &mut g, &mut w, None, u32::MAX), 1, "no burst of the skipped ones");
        let mut win = Pacer::for_config(&Config::default(), 0, 1);
        assert_eq!(win.skip(u64::MAX / 2, 1), 0);
    }

    fn gen() -> PacketInGen {
        PacketInGen::new(4, 0, 10, 4, 64)
    }

    #[test]
    fn window_keeps_exactly_size_in_flight() {
        let c = Config { window: 8, ..Config::default() };
        let mut p = Pacer::for_config(&c, 0, 1);
        let (mut o, mut g, mut w) = (Outstanding::new(1), gen(), vec![]);
        assert_eq!(p.fill(0, &mut o, &mut g, &mut w, Some(128), u32::MAX), 8);
        assert_eq!(p.fill(0, &mut o, &mut g, &mut w, Some(128), u32::MAX), 0);
        o.answer(1, 1);
        assert_eq!(p.fill(1, &mut o, &mut g, &mut w, Some(128), u32::MAX), 1);
        // an answer to seq 4 passes seq 2 and 3: presumed dropped, they leave the window
        o.answer(4, 2);
        assert_eq!(p.fill(2, &mut o, &mut g, &mut w, Some(128), u32::MAX), 3);
        assert_eq!(p.next_due(), u64::MAX);
    }

    #[test]
    fn a_window_refill_is_one_request_per_sequence_number_and_never_no_buffer() {
        let c = Config { window: 8, ..Config::default() };
        let one_by_one = |seqs: &mut dyn Iterator<Item = u32>| {
            let (mut g, mut w) = (gen(), vec![]);
            seqs.for_each(|seq| g.emit(&mut w, seq, Some(128)));
            w
        };
        // a run that ends just before NO_BUFFER (u32::MAX - 9 ..= u32::MAX - 2)
        let mut p = Pacer::for_config(&c, 0, 1);
        let (mut o, mut g, mut w) = (Outstanding::new(u32::MAX - 9), gen(), vec![]);
        assert_eq!(p.fill(0, &mut o, &mut g, &mut w, Some(128), u32::MAX), 8);
        assert_eq!(w, one_by_one(&mut (u32::MAX - 9..u32::MAX - 1)));
        // one that would hold it: MAX-3 ..= MAX-1, then 0 ..= 4: still exactly the window
        let mut p = Pacer::for_config(&c, 0, 1);
        let (mut o, mut g, mut w) = (Outstanding::new(u32::MAX - 3), gen(), vec![]);
        assert_eq!(p.fill(0, &mut o, &mut g, &mut w, Some(128), u32::MAX), 8);
        assert_eq!(w, one_by_one(&mut (u32::MAX - 3..u32::MAX).chain(0..5)));
        assert_eq!((o.pending(), o.live()), (8, 8), "nothing in flight was overtaken");
        assert_eq!(p.fill(1, &mut o, &mut g, &mut w, Some(128), u32::MAX), 0, "the window is full");
    }

    #[test]
    fn a_fixed_rate_passes_over_no_buffer_and_sends_every_request_due() {
        let c = Config { mode: Mode::FixedRate, rate: 1000.0, switches: 1, ..Config::default() };
        let mut p = Pacer::for_config(&c, 0, 1);
        let (mut o, mut g, mut w) = (Outstanding::new(u32::MAX - 1), gen(), vec![]);
        // due at 0, 1, 2 ms: MAX-1, then (MAX passed over) 0 and 1
        assert_eq!(p.fill(0, &mut o, &mut g, &mut w, None, u32::MAX), 1);
        assert_eq!(p.fill(2_000_000, &mut o, &mut g, &mut w, None, u32::MAX), 2);
        let (mut g2, mut want) = (gen(), vec![]);
        [u32::MAX - 1, 0, 1].iter().for_each(|&seq| g2.emit(&mut want, seq, None));
        assert_eq!(w, want);
        assert_eq!((o.pending(), o.live()), (3, 3));
    }

    #[test]
    fn socket_filling_is_bounded_by_bytes_not_a_window() {
        let c = Config { fill_socket: true, window: 8, ..Config::default() };
        let mut p = Pacer::for_config(&c, 0, 1);
        let (mut o, mut g, mut w) = (Outstanding::new(1), gen(), vec![]);
        let room = socket_room(true, 0, 82);
        assert_eq!(room, 799);
        assert_eq!(p.fill(0, &mut o, &mut g, &mut w, Some(128), room), 799, "the window of 8 does not apply");
        assert_eq!(socket_room(true, 65_000, 82), 6);
        assert_eq!(socket_room(false, 65_000, 82), u32::MAX);
    }

    #[test]
    fn socket_filling_keeps_more_in_flight_than_the_open_loop_cap() {
        // cbench's -t has no cap on unanswered requests (fakeswitch.c, b6cbd02, lines 486-490):
        // 65,536 (MAX_IN_FLIGHT_OPEN_LOOP) held the engine's queue below cbench's (issue 48)
        let c = Config { mode: Mode::Throughput, fill_socket: true, ..Config::default() };
        let mut p = Pacer::for_config(&c, 0, 1);
        let (mut o, mut g, mut w) = (Outstanding::new(1), gen(), vec![]);
        let first = p.fill(0, &mut o, &mut g, &mut w, None, 70_000);
        assert_eq!(first + p.fill(1, &mut o, &mut g, &mut w, None, 70_000), 140_000);
        const { assert!(140_000 > MAX_IN_FLIGHT_OPEN_LOOP) };
    }

    #[test]
    fn latency_mode_is_one_in_flight() {
        let c = Config { mode: Mode::Latency, window: 100, ..Config::default() };
        let mut p = Pacer::for_config(&c, 0, 1);
        let (mut o, mut g, mut w) = (Outstanding::new(1), gen(), vec![]);
        assert_eq!(p.fill(0, &mut o, &mut g, &mut w, None, u32::MAX), 1);
        assert_eq!(p.fill(5, &mut o, &mut g, &mut w, None, u32::MAX), 0);
    }

    #[test]
    fn fixed_rate_schedules_and_measures_from_schedule() {
        // 2 switches at 2000/s total: 1000/s each, one every 1 ms
        let c = Config { mode: Mode::FixedRate, rate: 2000.0, switches: 2, ..Config::default() };
        let mut p = Pacer::for_config(&c, 0, 2);
        let (mut o, mut g, mut w) = (Outstanding::new(1), gen(), vec![]);
        assert_eq!(p.fill(1_000_000, &mut o, &mut g, &mut w, None, u32::MAX), 1, "the first is due at once");
        assert_eq!(p.next_due(), 2_000_000);
        // woken 3.5 ms late: three requests were due, all go out, stamped with their schedule
        assert_eq!(p.fill(5_500_000, &mut o, &mut g, &mut w, None, u32::MAX), 4);
        assert_eq!(o.answer(2, 5_600_000), crate::switch::outstanding::Match::Answered(3_600_000));
        // the second switch is staggered by half a period
        let mut q = Pacer::for_config(&c, 1, 2);
        q.fill(1_000_000, &mut o, &mut g, &mut w, None, u32::MAX);
        assert_eq!(q.next_due(), 1_500_000);
    }
}
