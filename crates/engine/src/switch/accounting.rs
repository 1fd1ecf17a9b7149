//! Per-switch accounting: what was sent, what was answered, what came back, and how it ended.
//!
//! The rules (issue: "cbench done right"):
//! - a request is *answered* by the first flow-mod or packet-out that names it, by buffer id, or
//!   (for unbuffered packet-ins) by the marker in the frame the packet-out carries;
//! - every further request-related reply message (flow-mod, packet-out) is *extra*: a controller
//!   that sends a flow-mod and a packet-out per packet-in scores one answered request and one extra
//!   message, never two answers;
//! - a reply that names no request (e.g. a flow-mod without buffer id), or one we no longer
//!   know, is *unmatched* (and extra);
//! - a request unanswered after the loss timeout is *lost*, until an answer comes: then it is
//!   *late* (not lost, not answered), with its latency; a request still in flight when the
//!   session ends by a disconnect is lost; one still in flight when the run's drain ends is
//!   *in flight at stop*; `controller cbench` only: an answer that arrives in the pause after a
//!   loop is read and thrown away, as cbench does, and its request is *discarded* (neither
//!   answered nor lost). Invariant: `sent = answered + late + lost + discarded + in_flight_at_stop`;
//! - reply messages are counted by type, errors by (type, code), and a session's end is kept
//!   with its time and reason (the first one);
//! - reconnection (`reconnect.rs`): every established session that ends before the run does is
//!   *lost*; each lost session is either re-established by a later attempt or the switch is down
//!   at the stop. Invariants: `sessions_lost = reconnects + down_at_stop` and
//!   `attempts = reconnects + failures` ([`ReconnectCounts`]); `disconnected_ns` runs from each
//!   loss to the session's re-establishment (or the end of the measured phase) and is 0 exactly
//!   when nothing was lost.

use crate::hist::Hist;
use crate::result::switches::{Disconnect, KeepaliveCounts, ReconnectCounts, RequestCounts};
use crate::switch::columns::{Counted, LoopColumn};
use crate::switch::outstanding::{Match, Outstanding};
use ofwire::{packet_in::NO_BUFFER, MsgType};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionState {
    Connecting,
    Up,
    Down,
}

/// What a flow-mod or packet-out was to the requests in flight
/// ([`SwitchStats::on_request_reply`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The first answer to a request in flight: its latency in ns.
    Answered(u64),
    /// The first answer to a request already lost: its latency in ns.
    Late(u64),
    /// A repeat, or a reply that names no request we know (counted as extra).
    Other,
}

#[derive(Debug)]
pub struct SwitchStats {
    pub index: u32,
    pub dpid: u64,
    pub state: SessionState,
    pub version: u8,
    /// The controller closed the first connection on the bitmap HELLO, and the switch offered
    /// 1.0 alone from then on (`hello_fallback.rs`).
    pub hello_fallback: bool,
    pub handshake_ns: Option<u64>,
    /// The first session that came up: its connection's opening (TCP connect, TLS handshake:
    /// `tls::conn::Opening`) and its OpenFlow handshake (HELLO sent to up), ns.
    pub opening: Option<crate::tls::conn::Opening>,
    pub of_handshake_ns: Option<u64>,
    /// That session over TLS: the version and cipher suite agreed (boxed: TCP runs hold 8 B).
    pub tls: Option<Box<crate::tls::conn::Negotiated>>,
    /// Sent, answered, lost, extra, unmatched, late, in flight at stop (neither answered nor
    /// timed out when the run's drain ended), discarded (the answer came in the pause after a
    /// loop and was thrown away uncounted, as cbench throws it away: `Config::loop_gap_ms`,
    /// `controller cbench` only); the rules above.
    pub requests: RequestCounts,
    /// Flow-mods and packet-outs answering the learning phase (not measured).
    pub learning_replies: u64,
    /// What most switches never write (late latency, late learning answers, LLDP, errors, a
    /// capacity probe's echoes): made on first use (`rare.rs`; `rare()`, `rare_mut()`).
    pub rare: Option<Box<crate::switch::rare::Rare>>,
    /// Reply messages by wire type code (the version is in `version`; `replies.rs`).
    pub replies: crate::switch::replies::Replies,
    pub disconnect: Option<Disconnect>,
    /// Counter values at each loop boundary where they changed (filled by the worker's ticker,
    /// `tally.rs`).
    pub answered_at: LoopColumn,
    /// Replies counted the way cbench counts them (`cbench_responses.rs`), and at each loop end.
    pub responses: u64,
    pub responses_at: LoopColumn,
    pub sent_at: LoopColumn,
    /// The ticker's bookkeeping (`tally.rs`): the loop this switch was last put on its list of
    /// touched switches, and its counters at the last boundary.
    pub tally_mark: u32,
    pub tally_seen: Counted,
    /// Latency of answered requests, recorded only while `measuring`.
    pub hist: Option<Box<Hist>>,
    pub measuring: bool,
    /// Record the latency of one answered request in this many (by sequence number).
    pub sample_every: u32,
    /// The periodic keep-alive's counters (`keepalive.rs`).
    pub ka: KeepaliveCounts,
    /// Reconnection (`reconnect.rs`): the counters the switch's report carries.
    pub reconnect: ReconnectCounts,
    /// Since when the switch has had no session (after a loss), if it has none now.
    pub down_since: Option<u64>,
    /// An attempt failed since the last loss (the controller refused, or never finished the
    /// handshake); false while the switch is only waiting out its backoff.
    pub failed_since_loss: bool,
    /// Robustness runs: the latency of every answered request since the last loop boundary
    /// (raw samples, taken by the worker's ticker at each boundary); None: not kept.
    pub loop_lat_ns: Option<Vec<u64>>,
}

impl SwitchStats {
    pub fn new(index: u32, dpid: u64, hist: bool) -> SwitchStats {
        SwitchStats {
            index,
            dpid,
            state: SessionState::Connecting,
            version: 0,
            hello_fallback: false,
            handshake_ns: None,
            opening: None,
            of_handshake_ns: None,
            tls: None,
            requests: RequestCounts::default(),
            learning_replies: 0,
            rare: None,
            replies: Default::default(),
            disconnect: None,
            answered_at: LoopColumn::default(),
            responses: 0,
            responses_at: LoopColumn::default(),
            sent_at: LoopColumn::default(),
            tally_mark: 0,
            tally_seen: Counted::default(),
            hist: if hist { Some(Box::new(Hist::new())) } else { None },
            measuring: false,
            sample_every: 1,
            ka: Default::default(),
            loop_lat_ns: None,
            reconnect: ReconnectCounts::default(),
            down_since: None,
            failed_since_loss: false,
        }
    }

    /// The rarely written parts (zeros and empties when none was written).
    pub fn rare(&self) -> &crate::switch::rare::Rare {
        self.rare.as_deref().unwrap_or(&crate::switch::rare::NONE)
    }

    /// The rarely written parts, to write: the block is made on first use.
    pub fn rare_mut(&mut self) -> &mut crate::switch::rare::Rare {
        self.rare.get_or_insert_with(Default::default)
    }

    /// Count any message from the controller by its type.
    #[inline]
    pub fn count_reply(&mut self, type_code: u8) {
        self.replies.count(type_code);
    }

    /// An answer read in the pause after a loop (cbench's drain): it takes its request off the
    /// books as *discarded* (a first answer only: a request answered before, or late, keeps
    /// what it is), and counts nowhere else.
    pub fn on_discarded_reply(&mut self, out: &mut Outstanding, seq: u32, now_ns: u64) {
        if let Match::Answered(_) = out.answer(seq, now_ns) {
            self.requests.discarded += 1;
        }
    }

    /// A flow-mod or packet-out arrived: what it was to the requests in flight ([`Reply`]).
    /// Inlined into the reader's loop (`Session::reply`): as a call it was a sixth of the
    /// instructions per answered request (cachegrind, `bench.py instructions`).
    #[inline(always)]
    pub fn on_request_reply(&mut self, out: &mut Outstanding, buffer_id: u32, marker_seq: Option<u32>, now_ns: u64) -> Reply {
        let seq = if buffer_id != NO_BUFFER { Some(buffer_id) } else { marker_seq };
        let Some(seq) = seq else {
            self.requests.unmatched += 1;
            self.requests.extra += 1;
            return Reply::Other;
        };
        match out.answer(seq, now_ns) {
            Match::Answered(rtt) => {
                self.requests.answered += 1;
                if let Some(v) = self.loop_lat_ns.as_mut() {
                    v.push(rtt);
                }
                // the sampling rule first: it is false for all but one answer in
                // `sample_every`, so the other two tests are made only for those (a power of
                // two, `Workload::latency_sample_every`: a mask, not a division)
                if seq & (self.sample_every.max(1) - 1) == 0 && self.measuring {
                    if let Some(h) = self.hist.as_mut() {
                        h.record_ns(rtt);
                    }
                }
                Reply::Answered(rtt)
            }
            Match::Again => {
                self.requests.extra += 1;
                Reply::Other
            }
            Match::Late(rtt) => {
                self.requests.late += 1;
                self.requests.lost = self.requests.lost.saturating_sub(1);
                let r = self.rare_mut();
                r.late_ns_sum += rtt;
                r.late_ns_max = r.late_ns_max.max(rtt);
                r.late_ns_last = rtt;
                Reply::Late(rtt)
            }
            Match::Unknown => {
                self.requests.unmatched += 1;
                self.requests.extra += 1;
                Reply::Other
            }
        }
    }

    pub fn on_error(&mut self, ty: u16, code: u16) {
        *self.rare_mut().errors.entry((ty, code)).or_insert(0) += 1;
    }

    /// The session ended: everything in flight is lost; the first reason wins.
    pub fn end(&mut self, out: &mut Outstanding, t_s: f64, kind: &str, reason: String) {
        self.requests.lost += out.abandon() as u64;
        self.state = SessionState::Down;
        if self.disconnect.is_none() {
            self.disconnect = Some(Disconnect { t_s, kind: kind.into(), reason });
        }
    }

    /// An established session was lost at `now`: the switch is down from now on.
    pub fn lost_session(&mut self, now: u64) {
        self.reconnect.sessions_lost += 1;
        self.failed_since_loss = false;
        self.down_since.get_or_insert(now);
    }

    /// A session came up again at `now` (after a reconnect attempt).
    pub fn reestablished(&mut self, now: u64) {
        self.reconnect.reconnects += 1;
        if let Some(t) = self.down_since.take() {
            self.reconnect.disconnected_ns += now.saturating_sub(t);
        }
    }

    /// The run is over: a switch still down was down until `end` (the measured phase's end, or
    /// the stop when earlier). With `reconnecting`, one that was only waiting out its backoff
    /// (no attempt failed since the loss) is reconnecting, not lost.
    pub fn close_down_time(&mut self, end: u64, reconnecting: bool) {
        if let Some(t) = self.down_since.take() {
            self.reconnect.disconnected_ns += end.saturating_sub(t);
            self.reconnect.down_at_stop = true;
            self.reconnect.reconnecting_at_stop = reconnecting && !self.failed_since_loss;
        }
    }

    /// Reply counts by type name, for export.
    pub fn replies_by_name(&self) -> BTreeMap<String, u64> {
        let v = if self.version == 0 { ofwire::OFP13 } else { self.version };
        let mut m = BTreeMap::new();
        for (code, n) in self.replies.nonzero() {
            *m.entry(MsgType::from_wire(v, code).name().to_string()).or_insert(0) += n;
        }
        m
    }

    /// Request-related reply messages (flow-mods and packet-outs).
    #[cfg(test)]
    pub fn request_replies(&self) -> u64 {
        self.replies.get(14) + self.replies.get(13)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats() -> (SwitchStats, Outstanding) {
        let mut s = SwitchStats::new(0, 1, true);
        s.measuring = true;
        (s, Outstanding::new(1))
    }

    #[test]
    fn flow_mod_plus_packet_out_is_one_answer_and_one_extra() {
        let (mut s, mut o) = stats();
        for _ in 0..3 {
            let seq = o.push(0);
            s.requests.sent += 1;
            // os-ken OF1.0 simple switch: flow-mod without buffer id, then packet-out with it
            s.count_reply(14);
            assert_eq!(s.on_request_reply(&mut o, NO_BUFFER, None, 10), Reply::Other);
            s.count_reply(13);
            assert_eq!(s.on_request_reply(&mut o, seq, None, 10), Reply::Answered(10));
        }
        assert_eq!((s.requests.answered, s.requests.extra, s.requests.unmatched), (3, 3, 3));
        assert_eq!(s.request_replies(), 6);
        assert_eq!(s.replies_by_name()["flow_mod"], 3);
        assert_eq!(s.hist.as_ref().unwrap().count(), 3);
    }

    #[test]
    fn two_replies_naming_the_same_request() {
        let (mut s, mut o) = stats();
        let seq = o.push(0);
        assert!(matches!(s.on_request_reply(&mut o, seq, None, 5), Reply::Answered(_)));
        assert!(!matches!(s.on_request_reply(&mut o, NO_BUFFER, Some(seq), 6), Reply::Answered(_)));
        assert_eq!((s.requests.answered, s.requests.extra, s.requests.unmatched), (1, 1, 0));
    }

    #[test]
    fn loss_by_timeout_and_late_reply() {
        let (mut s, mut o) = stats();
        let a = o.push(0);
        let b = o.push(100);
        s.requests.sent = 2;
        s.requests.lost += o.expire(50, 0) as u64;
        assert_eq!(s.requests.lost, 1);
        assert_eq!(s.on_request_reply(&mut o, a, None, 200), Reply::Late(200), "the late answer's latency");
        assert_eq!((s.requests.late, s.requests.lost), (1, 0), "the answer to a lost request is late, not answered, not lost");
        assert_eq!((s.rare().late_ns_sum, s.rare().late_ns_max, s.rare().late_ns_last), (200, 200, 200));
        assert_eq!(s.on_request_reply(&mut o, b, None, 200), Reply::Answered(100));
        assert_eq!(s.requests.answered, 1);
        assert_eq!(
            s.requests.sent,
            s.requests.answered + s.requests.late + s.requests.lost + s.requests.discarded + s.requests.in_flight_at_stop
        );
    }

    #[test]
    fn an_answer_thrown_away_in_the_pause_discards_its_request_once() {
        let (mut s, mut o) = stats();
        let (a, b) = (o.push(0), o.push(0));
        s.requests.sent = 2;
        s.on_discarded_reply(&mut o, a, 10);
        s.on_discarded_reply(&mut o, a, 11);
        assert_eq!((s.requests.discarded, s.requests.answered, s.requests.extra), (1, 0, 0), "a second reply to it changes nothing");
        s.on_request_reply(&mut o, a, None, 12);
        assert_eq!(s.requests.answered, 0, "a discarded request is never answered afterwards");
        s.on_request_reply(&mut o, b, None, 12);
        assert_eq!(
            s.requests.sent,
            s.requests.answered + s.requests.late + s.requests.lost + s.requests.discarded + s.requests.in_flight_at_stop
        );
    }

    #[test]
    fn disconnect_loses_what_is_in_flight_and_keeps_first_reason() {
        let (mut s, mut o) = stats();
        for _ in 0..5 {
            o.push(0);
        }
        s.end(&mut o, 1.5, "closed", "controller closed the connection".into());
        s.end(&mut o, 2.0, "reset", "later".into());
        assert_eq!(s.requests.lost, 5);
        assert_eq!(s.state, SessionState::Down);
        let d = s.disconnect.unwrap();
        assert_eq!((d.kind.as_str(), d.t_s), ("closed", 1.5));
    }

    #[test]
    fn lost_sessions_are_reestablished_or_down_at_stop() {
        let (mut s, _) = stats();
        s.lost_session(100);
        s.reconnect.attempts += 2;
        s.reconnect.failures += 1;
        s.reestablished(1_100);
        s.lost_session(2_000);
        s.close_down_time(2_500, true);
        let r = &s.reconnect;
        assert!(r.reconnecting_at_stop, "lost, no attempt failed yet: waiting out its backoff");
        assert_eq!(r.sessions_lost, r.reconnects + r.down_at_stop as u64);
        assert_eq!(r.attempts, r.reconnects + r.failures);
        assert_eq!(r.disconnected_ns, 1_000 + 500);
        assert_eq!(s.down_since, None);
    }

    #[test]
    fn the_rare_block_is_made_only_by_what_writes_it() {
        let (mut s, mut o) = stats();
        let seq = o.push(0);
        s.requests.sent = 1;
        s.count_reply(14);
        s.on_request_reply(&mut o, seq, None, 10);
        assert!(s.rare.is_none(), "an answer on time writes nothing rare");
        assert_eq!((s.rare().late_ns_sum, s.rare().errors.len()), (0, 0));
        s.on_error(1, 2);
        assert!(s.rare.is_some());
    }

    #[test]
    fn not_measuring_means_no_latency_samples() {
        let (mut s, mut o) = stats();
        s.measuring = false;
        let seq = o.push(0);
        s.on_request_reply(&mut o, seq, None, 10);
        assert_eq!(s.requests.answered, 1);
        assert_eq!(s.hist.as_ref().unwrap().count(), 0);
    }

    #[test]
    fn errors_by_type_and_code() {
        let (mut s, _) = stats();
        s.on_error(1, 2);
        s.on_error(1, 2);
        s.on_error(3, 0);
        assert_eq!(s.rare().errors.values().sum::<u64>(), 3);
        assert_eq!(s.rare().errors[&(1, 2)], 2);
    }
}
