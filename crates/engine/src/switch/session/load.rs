//! The measured phase (`Phase::Load`): requests as the pacer allows, written in one go; the
//! keep-alive's echoes; and cbench's pause after each loop, in which a switch neither sends nor
//! reads.

use super::stats_mut;
use super::{End, Session};
use crate::switch::workload::Workload;
use crate::tls::Conn;
use ofswitch::frame_len;
use std::io;

impl Session {
    /// A turn of the measured phase (`paused` and `pause_edge` from `loop_pause`). Returns when
    /// the next request, echo, pause edge or the phase's end is due.
    pub(super) fn load_turn(&mut self, s: &Conn, now: u64, paused: bool, pause_edge: u64, first: bool) -> Result<u64, End> {
        self.pacer.anchor(self.sh.go_ns());
        let measuring = self.sh.measuring(now);
        stats_mut(&self.sh, &self.stats, self.pos).measuring = measuring;
        let mut deadline = pause_edge;
        if !paused && self.sw.is_up() && self.workload != Workload::Network {
            self.send_requests(s, now)?;
            deadline = deadline.min(self.pacer.next_due());
        } else if !paused && !first {
            self.skip_unsent(now); // reconnecting: no session yet
        }
        if self.ka.on() && self.sw.is_up() {
            self.keepalive(now);
            deadline = deadline.min(self.ka.next_due());
        }
        Ok(deadline.min(self.sh.end_ns()))
    }

    /// cbench's pause after each loop (`Config::loop_gap_ms`): (whether `now` is in one, when
    /// that next changes). In the pause a switch neither sends nor reads. At the first call
    /// after a pause (the next loop's, or the drain's after the last), what arrived meanwhile is
    /// read and thrown away (`read_discarding`) and the probe counter reset, as cbench's
    /// `fakeswitch_get_count` does after every loop.
    pub(super) fn loop_pause(&mut self, s: &Conn, now: u64) -> Result<(bool, u64), End> {
        let c = &self.sh.cfg;
        if c.loop_gap_ms == 0 {
            return Ok((false, u64::MAX));
        }
        let (period, since, loop_ns) = (c.loop_period_ns(), now.saturating_sub(self.sh.go_ns()), c.loop_ms * 1_000_000);
        let (total, start) = ((c.warmup + c.loops) as u64, now - since % period);
        let index = (since / period).min(total);
        if index < total && since % period >= loop_ns {
            return Ok((true, start + period));
        }
        if index > self.drained_loops {
            self.drained_loops = index;
            self.read_discarding(s)?;
            if let Some(p) = &mut self.probe {
                p.at_loop(index);
            }
        }
        Ok((false, if index < total { start + loop_ns } else { u64::MAX }))
    }

    /// Read until the socket is empty and throw every whole message away; an answer among them
    /// takes its request off the books as discarded (`SwitchStats::on_discarded_reply`).
    fn read_discarding(&mut self, s: &Conn) -> Result<(), End> {
        let scratch_rc = self.sh.scratch.clone();
        let mut scratch = scratch_rc.borrow_mut();
        let wire = ofwire::Version::layout(self.sw.version);
        loop {
            let (start, at) = crate::switch::shared::read_at(&scratch, self.partial.len());
            scratch[start..at].copy_from_slice(&self.partial);
            let n = match s.read(&mut scratch[at..]).map(|r| r.0) {
                Ok(0) => return Err(End::new("closed", "the controller closed the connection")),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(e) => return Err(End::io(e)),
            };
            let (buf, now) = (&scratch[start..at + n], self.sh.now_ns());
            let mut at = 0;
            let mut st = stats_mut(&self.sh, &self.stats, self.pos);
            while let Some(Ok(len)) = frame_len(&buf[at..]) {
                if buf.len() - at < len {
                    break;
                }
                if let Some(seq) = crate::switch::cbench_switch::answered_buffer_id(&buf[at..at + len], wire) {
                    st.on_discarded_reply(&mut self.out, seq, now);
                }
                at += len;
            }
            self.partial.clear();
            self.partial.extend_from_slice(&buf[at..]);
        }
    }

    /// The requests due now, in one write: fewer, larger syscalls (measured: writing 128-request
    /// chunks instead cost a third of the efficiency). With nothing of this session's left
    /// unwritten they are built in the worker's shared buffer and written at once, and only what
    /// the socket does not take is kept here: one buffer for all the worker's switches stays in
    /// cache, where a window's worth per switch (84 KB each at 1,024 requests) did not.
    fn send_requests(&mut self, s: &Conn, now: u64) -> Result<(), End> {
        let room = crate::switch::pacer::socket_room(self.sh.cfg.fill_socket, self.wbuf.len() - self.wpos, self.gen.frame_len() + 24);
        let shared = self.wpos == self.wbuf.len();
        let wscratch = self.sh.wscratch.clone();
        let mut scratch = wscratch.borrow_mut();
        let buf = if shared { &mut *scratch } else { &mut self.wbuf };
        let msl = if self.gen.profile.buffered() { self.sh.miss_send_len() } else { None };
        let room = match &self.probe {
            Some(p) => room.min(p.may_send()), // reset at each loop's start (`loop_pause`)
            None => room,
        };
        let n = self.pacer.fill(now, &mut self.out, &mut self.gen, buf, msl, room);
        if let Some(p) = &mut self.probe {
            p.sent(n);
        }
        let sent = {
            let mut st = stats_mut(&self.sh, &self.stats, self.pos);
            st.requests.sent += n as u64;
            st.requests.sent
        };
        crate::switch::exceptions::inject(&self.sh.cfg, sent - n as u64, sent, buf);
        if !shared {
            return Ok(());
        }
        let mut at = 0;
        while at < scratch.len() {
            match s.write(&scratch[at..]) {
                Ok(k) => at += k,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    self.sh.trace.write_blocked();
                    break;
                }
                Err(e) => return Err(End::io(e)),
            }
        }
        self.wbuf.clear();
        self.wpos = 0;
        self.wbuf.extend_from_slice(&scratch[at..]);
        scratch.clear();
        Ok(())
    }

    /// The periodic keep-alive's echo, when one is due (`keepalive.rs`): appended to what is
    /// left to write, sent by this turn's flush.
    fn keepalive(&mut self, now: u64) {
        let (go, end) = (self.sh.go_ns(), self.sh.end_ns());
        let due = self.ka.due(now, go, end, &mut stats_mut(&self.sh, &self.stats, self.pos).ka);
        if let Some(xid) = due {
            ofwire::Message { version: self.sw.version, xid, body: ofwire::Body::EchoRequest(Vec::new()) }.emit_append(&mut self.wbuf);
        }
    }
}
