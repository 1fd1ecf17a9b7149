//! A switch's life, connection after connection: serve one, and when it ends record why; retry
//! at once with a plain 1.0 HELLO (`hello_fallback.rs`), or, while the config reconnects, wait
//! out the backoff with no session (`wait_down`) and connect again (`switch/reconnect.rs`).

use super::socket::open;
use super::stats_mut;
use super::{End, Phase, Session};
use crate::switch::hello_fallback;
use crate::switch::reconnect::Backoff;
use crate::tls::Conn;
use std::io;
use std::net::SocketAddr;
use tokio::time::sleep_until;

impl Session {
    /// Run to the end; the outcome is recorded in the switch's stats. A session that was up and
    /// is lost is tried again after the backoff while the config reconnects (`reconnect.rs`).
    /// The cold awaits (a new connection, the backoff) are boxed: a held session's task keeps
    /// only the serving loop's state (`switch/footprint.rs`, issue 50).
    /// By reference: a session moved into an async fn is held twice in its future (the argument
    /// and the local it becomes), 1.2 KB per switch; its task owns it once (`switch/footprint.rs`).
    pub async fn run(&mut self, stream: io::Result<Conn>, addr: SocketAddr) {
        let mut backoff = Backoff::new(self.sh.cfg.reconnect_backoff_ms, self.sh.cfg.max_backoff_ms);
        let mut stream = stream;
        let mut attempt = false;
        loop {
            let before = self.established;
            let result = self.serve_stream(stream, &mut backoff).await;
            if let Err(end) = &result {
                if self.fall_back(end, !attempt) {
                    stream = Box::pin(open(&self.sh, addr, self.index, self.handshake_timeout_ns)).await;
                    continue;
                }
            }
            let came_up = self.established > before;
            let Some(now) = self.closed(result, came_up, attempt, &mut backoff) else { break };
            if !Box::pin(self.wait_down(now + backoff.next_wait(now))).await {
                break;
            }
            attempt = true;
            match Box::pin(self.reconnect(addr, &backoff)).await {
                Some(s) => stream = s,
                None => break,
            }
        }
        self.sh.session_finished();
    }

    /// One connection (or the failure to open it), served to its end.
    pub(super) async fn serve_stream(&mut self, stream: io::Result<Conn>, backoff: &mut Backoff) -> Result<(), End> {
        match stream {
            Ok(s) => {
                backoff.opened(self.sh.now_ns());
                (self.opening, self.negotiated) = (s.opening, s.negotiated().map(Box::new));
                if self.sh.cfg.cbench_compat {
                    // cbench leaves Nagle's algorithm on (its "nodelay" option sets
                    // TCP_NODELAY to 0)
                    let _ = s.tcp().set_nodelay(false);
                }
                self.serve(&s).await
            }
            Err(e) => {
                backoff.attempt_failed();
                Err(End::io(e))
            }
        }
    }

    /// A connection is over with `result`: record it. Some(now): the switch reconnects, its
    /// session down from `now`; None: this switch is done.
    fn closed(&mut self, result: Result<(), End>, came_up: bool, attempt: bool, backoff: &mut Backoff) -> Option<u64> {
        self.release_slot();
        self.unsettle();
        {
            // echoes still out: unanswered at the stop, or lost with the connection
            let mut st = stats_mut(&self.sh, &self.stats, self.pos);
            if result.is_ok() {
                self.ka.stop(&mut st.ka);
            } else {
                self.ka.reset(&mut st.ka);
            }
        }
        if attempt && !came_up {
            // OVS: an attempt that timed out or failed before it came up never resets the
            // backoff (`backoff_deadline = TIME_MAX`): the next wait doubles
            backoff.attempt_failed();
            let mut st = stats_mut(&self.sh, &self.stats, self.pos);
            st.reconnect.failures += 1;
            st.failed_since_loss = true;
        }
        let end = match result {
            Ok(()) => {
                stats_mut(&self.sh, &self.stats, self.pos).requests.in_flight_at_stop += self.out.abandon() as u64;
                return None;
            }
            Err(end) => end,
        };
        let end = if came_up { end } else { self.with_hint(end) };
        let now = self.sh.now_ns();
        self.ended(end, came_up, now);
        if !self.sh.cfg.reconnects() || self.established == 0 || self.sh.stopped() {
            return None;
        }
        self.sw.disconnect(0);
        Some(now)
    }

    /// Connect again after the backoff. None: the run ended first.
    pub(super) async fn reconnect(&mut self, addr: SocketAddr, backoff: &Backoff) -> Option<io::Result<Conn>> {
        stats_mut(&self.sh, &self.stats, self.pos).reconnect.attempts += 1;
        self.clear_buffers(); // the old connection's unread and unwritten bytes
        self.handshake_timeout_ns = backoff.handshake_timeout_ns();
        let mut phase_rx = self.sh.phase_rx.clone();
        tokio::select! {
            r = open(&self.sh, addr, self.index, self.handshake_timeout_ns) => Some(r),
            _ = async { while !self.sh.stopped() && phase_rx.changed().await.is_ok() {} } => {
                stats_mut(&self.sh, &self.stats, self.pos).reconnect.failures += 1;
                None
            }
        }
    }

    /// A first connection closed on the bitmap HELLO (`hello_fallback.rs`): from now on this
    /// switch offers 1.0 alone, and its next connection is made at once. False: no retry.
    fn fall_back(&mut self, end: &End, first: bool) -> bool {
        let ended = hello_fallback::Ended { kind: end.kind, peer_version: self.peer_version };
        if self.sh.stopped() || !hello_fallback::retry(self.sw.cfg.versions, first && self.established == 0, &ended) {
            return false;
        }
        stats_mut(&self.sh, &self.stats, self.pos).hello_fallback = true;
        self.sw.cfg.versions = hello_fallback::PLAIN;
        self.clear_buffers();
        true
    }

    /// A connection that never came up: its reason, naming `--of 1.0` where that may help.
    fn with_hint(&self, end: End) -> End {
        let ended = hello_fallback::Ended { kind: end.kind, peer_version: self.peer_version };
        let reason = hello_fallback::hint(self.sw.cfg.versions, &ended, &end.reason);
        let again = if self.stats.borrow().hello_fallback { " (also after a plain OpenFlow 1.0 HELLO)" } else { "" };
        End { reason: reason + again, ..end }
    }

    /// A connection ended by `end` at `now`: the loss is recorded (a session that had come up is
    /// lost; one that never did is a failed attempt), and with `strict` the run stops.
    fn ended(&mut self, end: End, came_up: bool, now: u64) {
        let t_s = self.sh.t_rel_s();
        let mut st = stats_mut(&self.sh, &self.stats, self.pos);
        if came_up {
            st.lost_session(now);
        }
        let during_load = self.sh.phase_at(now) != 0;
        st.end(&mut self.out, t_s, end.kind, end.reason.clone());
        if self.sh.cfg.strict && during_load {
            self.sh.fail(format!("switch {} (dpid {}): {}", self.index, st.dpid, end.reason));
        }
    }

    /// No session: wait until `until` (the backoff), the switch keeping its flow table (network
    /// runs: frames still cross it; misses are dropped, no packet-in is sent) and the requests
    /// due meanwhile counted as not sent. False: the run ended first.
    pub(super) async fn wait_down(&mut self, until: u64) -> bool {
        let mut phase_rx = self.sh.phase_rx.clone();
        loop {
            let now = self.sh.now_ns();
            self.skip_unsent(now);
            if self.sh.stopped() || self.phase(now) == Phase::Drain {
                return false;
            }
            if let Some(inbox) = &self.inbox {
                inbox.frames.borrow_mut().clear(); // LLDP from neighbours: no controller to raise it to
            }
            let fail_open_at = self.fail_open_at();
            if now >= fail_open_at {
                self.sw.set_fail_open(true);
            }
            self.network(now);
            self.wbuf.clear();
            if now >= until {
                return true;
            }
            // the measured phase's end is no phase change: wake for it too
            let wake = if self.sh.go_ns() != 0 { until.min(self.sh.end_ns()) } else { until };
            let wake = if self.sw.is_fail_open() { wake } else { wake.min(fail_open_at) };
            tokio::select! {
                _ = sleep_until(self.sh.instant_of(wake)) => {}
                _ = phase_rx.changed() => {}
                _ = async { self.net.as_ref().unwrap().1.notify.notified().await }, if self.net.is_some() => {}
            }
        }
    }

    /// When a switch without a session fails open (`ofswitch::fail_open`): fail mode standalone,
    /// 3 × the inactivity probe after the loss (OVS `fail-open.c` `trigger_duration`); never
    /// in fail mode secure.
    fn fail_open_at(&self) -> u64 {
        let c = &self.sh.cfg;
        match (c.fail_mode, self.stats.borrow().down_since) {
            (crate::result::run::FailMode::Standalone, Some(t)) => t + 3 * c.echo_interval_ms * 1_000_000,
            _ => u64::MAX,
        }
    }

    /// Requests due while the switch has no session (`Pacer::skip`, fixed rate only), counted as
    /// not sent; at most up to the end of the measured phase.
    pub(super) fn skip_unsent(&mut self, now: u64) {
        let go = self.sh.go_ns();
        if go != 0 {
            let n = self.pacer.skip(now.min(self.sh.end_ns()), go);
            stats_mut(&self.sh, &self.stats, self.pos).reconnect.not_sent_disconnected += n;
        }
    }
}
