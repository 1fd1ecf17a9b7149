//! Every message read, handled in order: a flow-mod that only names a buffer id is matched to
//! its request at once (the hot path: one header test, no state machine); every other message
//! goes through the switch state machine, whose `Event` is counted here (answers, errors, echo
//! replies, the handshake's end).

use super::stats_mut;
use super::{End, Session};
use crate::switch::accounting::{Reply, SwitchStats};
use ofswitch::{frame_len, Event};
use ofwire::packet_in::NO_BUFFER;
use ofwire::{flow_mod, Header, MsgType};

/// What the flow-mod hot path tests per message, read once per call of `process`: our version,
/// the flow-mod's type code, where its buffer id is and how long its fixed part is.
struct FastFlowMods {
    version: u8,
    ty: u8,
    id_at: usize,
    end: usize,
}

impl Session {
    /// The loss timeout: `timeout_ms` when fixed; adaptive: 10 × the recent latency high-water
    /// mark, at least `timeout_floor_ms`, at most `timeout_ms` (until a first answer: `timeout_ms`).
    pub(super) fn timeout_ns(&self) -> u64 {
        let c = &self.sh.cfg;
        let ceiling = self.sh.timeout_ns();
        if !c.adaptive_timeout || self.rtt_est_ns == 0 {
            return ceiling;
        }
        (10 * self.rtt_est_ns).clamp(c.timeout_floor_ms * 1_000_000, ceiling.max(c.timeout_floor_ms * 1_000_000))
    }

    #[inline]
    fn observe(&mut self, rtt: u64) {
        self.rtt_est_ns = (self.rtt_est_ns - self.rtt_est_ns / 1024).max(rtt);
    }

    /// Whether request `seq`'s latency goes into the histogram (the workload's sampling rule,
    /// fixed by sequence number, not by timing).
    #[inline]
    fn sample(&self, seq: u32) -> bool {
        // a power of two (`Workload::latency_sample_every`): a mask, not a division (two
        // divisions per answer cost a fifth of the answer path)
        seq & (self.sample_every.max(1) - 1) == 0
    }

    /// Handle every whole message in `buf`; returns the bytes consumed.
    pub(super) fn process(&mut self, buf: &[u8]) -> Result<usize, End> {
        let now = self.sh.now_ns();
        let loading = self.sh.phase_at(now) != 0;
        let mut at = 0;
        let (stats, shared) = (self.stats.clone(), self.sh.clone());
        let mut st = stats_mut(&shared, &stats, self.pos);
        let mut merged = shared.merged.borrow_mut();
        // per-message tests hoisted out of the loop (each was a load through `Shared`)
        let count_responses = loading && self.count_responses;
        let fast_flow_mods = loading && !self.sh.cfg.keep_flows && !self.faucet;
        let version = self.sw.version;
        let wire_version = ofwire::Version::layout(version);
        let flow_mod_type = MsgType::FlowMod.code(wire_version);
        // the answer loop's own test, first: a flow-mod of our version, long enough to name a
        // buffer, read at the version's offset (one header test, no per-message lookups), when
        // nothing else wants to see every message (cbench's response count, its probe)
        let flow_mods_only = fast_flow_mods && !count_responses && self.probe.is_none();
        let (id_at, end) = flow_mod::buffer_id_at(wire_version);
        let fast = FastFlowMods { version, ty: flow_mod_type, id_at, end };
        loop {
            if flow_mods_only {
                at = self.fast_flow_mods(buf, at, &fast, &mut st, &mut merged, now);
            }
            let Some(n) = frame_len(&buf[at..]) else { break };
            let n = n.map_err(|e| End::new("malformed", e.to_string()))?;
            if buf.len() - at < n {
                if n > self.sh.scratch_len() / 2 {
                    return Err(End::new("malformed", format!("message of {n} bytes is too large")));
                }
                break;
            }
            let msg = &buf[at..at + n];
            at += n;
            let h = Header::new_unchecked(msg);
            if count_responses && crate::switch::cbench_switch::counts_as_response(msg) {
                st.responses += 1;
                if let Some(p) = &mut self.probe {
                    p.response();
                }
            }
            if let Some(p) = &mut self.probe {
                if crate::switch::cbench_switch::asks_config(msg) {
                    p.config_asked();
                }
            }
            // Hot path: a flow-mod on an up session with no flow table to fill only names a
            // buffer id, read through ofwire's zero-copy view; the state machine has nothing to
            // do. A flow-mod the view rejects goes to the switch, which reports why.
            if fast_flow_mods && h.msg_type() == flow_mod_type && h.version() == version {
                if let Some(buffer_id) = flow_mod::buffer_id_of(msg, wire_version) {
                    st.count_reply(flow_mod_type);
                    self.reply(&mut st, &mut merged, buffer_id, None, now);
                    continue;
                }
            }
            let mark = self.wbuf.len();
            let ev = match self.sw.on_message(now, msg, &mut self.wbuf) {
                Ok(ev) => ev,
                Err(e) => return Err(End::new("malformed", e.to_string())),
            };
            if self.sh.cfg.cbench_compat {
                crate::switch::cbench_switch::own_reply(msg, self.gen.dpid, &mut self.wbuf, mark);
            }
            self.on_event(ev, msg, loading, &mut st, &mut merged, now);
        }
        Ok(at)
    }

    /// The answer loop's hot path: the whole flow-mods of our version, long enough to name a
    /// buffer, from `at` on, each matched to its request at once (one header test, the buffer id
    /// read at the version's offset, no per-message lookups); returns where the first other
    /// message (or a partial one) starts. A loop of its own: per message one test of version,
    /// type and length and no `frame_len` (cachegrind: the answer path 121 -> 99 instructions
    /// per answer, with `Reply` and the refill's cut 260 -> 216 for the whole request path).
    #[inline(always)]
    fn fast_flow_mods(
        &mut self,
        buf: &[u8],
        mut at: usize,
        f: &FastFlowMods,
        st: &mut SwitchStats,
        merged: &mut crate::hist::Hist,
        now: u64,
    ) -> usize {
        while let &[v, ty, l0, l1, ..] = &buf[at..] {
            let n = u16::from_be_bytes([l0, l1]) as usize;
            if v != f.version || ty != f.ty || n < f.end || buf.len() - at < n {
                break;
            }
            let id = &buf[at..at + n][f.id_at..f.id_at + 4];
            let id = u32::from_be_bytes([id[0], id[1], id[2], id[3]]);
            at += n;
            st.count_reply(f.ty);
            self.reply(st, merged, id, None, now);
        }
        at
    }

    /// A flow-mod or packet-out naming request `buffer_id` (or, unbuffered, `marker_seq`): count
    /// it, feed the adaptive timeout, and sample its latency by the request's sequence number.
    /// Always inlined: on the flow-mod fast path `marker_seq` is a constant None, and the tests
    /// on it fold away (cachegrind: 6 instructions per answer).
    #[inline(always)]
    fn reply(&mut self, st: &mut SwitchStats, merged: &mut crate::hist::Hist, buffer_id: u32, marker_seq: Option<u32>, now: u64) {
        let rtt = match st.on_request_reply(&mut self.out, buffer_id, marker_seq, now) {
            Reply::Answered(rtt) => rtt,
            // a late answer raises the timeout too, so a slow controller is not flooded by
            // requests re-sent into the slots that timed out
            Reply::Late(rtt) => return self.observe(rtt),
            Reply::Other => return,
        };
        self.observe(rtt);
        let seq = if buffer_id == NO_BUFFER { marker_seq.unwrap_or(buffer_id) } else { buffer_id };
        if self.sample(seq) {
            if st.measuring && st.hist.is_none() {
                merged.record_ns(rtt);
            }
            if self.sh.load_account {
                self.sh.loop_hist.borrow_mut().record_ns(rtt);
            }
            // the coalescing floor from the same samples as the histogram (1 in 16 in
            // throughput mode): its cost stays off the per-answer path
            if self.sh.coalescing {
                let q = self.sh.floor.borrow_mut().observe(now, rtt);
                self.sh.park.set(q);
            }
        }
    }

    /// Everything but the flow-mod hot path.
    fn on_event(&mut self, ev: Event, msg: &[u8], loading: bool, st: &mut SwitchStats, merged: &mut crate::hist::Hist, now: u64) {
        let msg_type = Header::new_unchecked(msg).msg_type();
        if let (Event::Refused { kind: MsgType::FlowMod, ty, code }, Some((node, _))) = (&ev, &self.net) {
            use ofwire::error_names::{error_type as et, flow_mod_failed as fmf};
            if (*ty, *code) == (et::v10::FLOW_MOD_FAILED, fmf::v10::ALL_TABLES_FULL)
                || (*ty, *code) == (et::v13::FLOW_MOD_FAILED, fmf::v13::TABLE_FULL)
            {
                node.table_full();
            }
        }
        let request_reply = matches!(ev, Event::FlowMod { .. } | Event::PacketOut { lldp_sent: 0, .. });
        if request_reply && !loading {
            // answers to the learning phase's ARPs: kept apart from the measured requests (a
            // flow-mod before the ARPs, e.g. a table-miss entry, is the controller's set-up)
            if self.learned {
                st.learning_replies += 1;
                self.sh.learning.reply(now);
            }
            return;
        }
        if loading
            && self.workload.learns(&self.sh.cfg)
            && matches!(ev, Event::PacketOut { buffer_id: NO_BUFFER, marker: None, lldp_sent: 0, .. })
        {
            // a learning ARP flooded back after the drain: late, never a measured answer
            st.rare_mut().learning_late += 1;
            return;
        }
        st.count_reply(msg_type);
        match ev {
            Event::FlowMod { buffer_id, .. } => {
                let seq = if self.faucet { self.gen.faucet_answer(msg) } else { None };
                self.reply(st, merged, buffer_id, seq, now)
            }
            Event::PacketOut { buffer_id, marker, .. } => {
                let seq = marker.filter(|m| m.0 == self.index).map(|m| m.1);
                let seq = if buffer_id == NO_BUFFER { seq } else { None };
                self.reply(st, merged, buffer_id, seq, now);
            }
            Event::Error { ty, code } => st.on_error(ty, code),
            Event::EchoReply { xid, rtt_ns: None } => {
                if let Some(rtt) = self.ka.reply(xid, now, &mut st.ka) {
                    self.sh.echo_hist.borrow_mut().record_ns(rtt);
                }
            }
            Event::EchoReply { rtt_ns: Some(rtt), .. } => {
                st.rare_mut().echo_rtt_ns.push(rtt);
                if self.workload.up_after_echo() && !self.echoed {
                    self.echoed = true;
                    self.sh.session_up();
                }
            }
            Event::Connected { version } => self.connected(st, version, now),
            _ => {}
        }
    }
}
