//! The handshake: the switch's HELLO (xid 1 as cbench's), the channels to a network run's other
//! controllers, and the switch coming up (`Event::Connected`): first, or again after a loss.

use super::Session;
use crate::switch::accounting::{SessionState, SwitchStats};

impl Session {
    /// A connection opened at `started`: send the HELLO; a first one also joins the network and
    /// opens the channels to its other controllers.
    pub(super) async fn start(&mut self, started: u64) {
        self.peer_version = None;
        self.opened_at = started;
        // a HELLO retry (`hello_fallback.rs`) is the same switch's first session still
        let first_try = self.established == 0 && !self.stats.borrow().hello_fallback;
        if let (Some((n, _)), true) = (&self.net, first_try) {
            n.connected();
        }
        let hello_at = self.wbuf.len();
        self.sw.start(started, &mut self.wbuf);
        if self.sh.cfg.cbench_compat {
            self.wbuf[hello_at + 4..hello_at + 8].copy_from_slice(&1u32.to_be_bytes());
            // cbench's HELLO is xid 1
        }
        if first_try {
            Box::pin(self.connect_channels(started)).await; // network runs: its state only while it runs
        }
    }

    /// The handshake is done at `now`, at `version`: the session is up (a capacity run's once an
    /// echo went round), or up again after a loss (`switch/reconnect.rs`).
    pub(super) fn connected(&mut self, st: &mut SwitchStats, version: u8, now: u64) {
        st.version = version;
        st.state = SessionState::Up;
        self.gen.version = version;
        self.established += 1;
        if self.established > 1 {
            // re-established (`reconnect.rs`): requests due during the handshake were not
            // sent, and the fixed-rate schedule resumes from now, without a burst
            st.reestablished(now);
            self.sw.set_fail_open(false); // OVS leaves fail-open once a controller is admitted
            st.reconnect.last_back_t_s = Some(self.sh.t_rel_s());
            let go = self.sh.go_ns();
            if go != 0 {
                st.reconnect.not_sent_disconnected += self.pacer.skip(now.min(self.sh.end_ns()), go);
            }
            return;
        }
        st.handshake_ns = Some(now);
        (st.opening, st.of_handshake_ns, st.tls) = (Some(self.opening), Some(now - self.opened_at), self.negotiated.clone());
        if let Some(slots) = self.slot.take() {
            slots.add_permits(1); // `holding`
        }
        if self.workload.up_after_echo() {
            // up only once an echo went round: the session works end to end
            self.sw.echo_now(now, &mut self.wbuf);
            return;
        }
        self.sh.session_up();
    }
}
