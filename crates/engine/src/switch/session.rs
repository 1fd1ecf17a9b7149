//! One emulated switch's connection: handshake, learning, load, drain — one loop, one task.
//!
//! The loop never blocks on one direction: it reads whatever is there (into the worker's shared
//! scratch buffer; only a partial trailing message is kept per session), answers through the
//! switch state machine, generates requests as the pacer allows, and writes what it can. It
//! sleeps only on socket readiness, the next timer (pacer, keep-alive, phase change, loss
//! timeout) or a phase change from the worker: no spinning, in any mode.
//!
//! A malformed message, a disconnect or a reset ends only this session (recorded in its
//! `SwitchStats`); with `strict` it also asks the worker to stop the whole run. With `reconnect`
//! (the default; `reconnect.rs`) a session that was up is then tried again after Open vSwitch's
//! backoff, the switch keeping its flow table while it is down (`wait_down`; fail mode
//! `standalone` fails open after 3 probe intervals, as OVS).

use crate::switch::accounting::SwitchStats;
use crate::switch::hello_fallback;
use crate::switch::outstanding::Outstanding;
use crate::switch::pacer::Pacer;
use crate::switch::shared::Shared;
use crate::switch::workload::Workload;
use ofswitch::{frame_len, Event, Learning, PacketInGen, Switch, SwitchConfig};
use ofwire::{flow_mod, packet_in::NO_BUFFER, Header, MsgType, OFP10, OFP13};
use std::cell::RefCell;
use std::io;
use std::net::SocketAddr;
use std::rc::Rc;
use tokio::io::Interest;
use tokio::net::{TcpSocket, TcpStream};
use tokio::time::sleep_until;

/// Why a session ended (kept in the switch's record).
pub struct End {
    pub kind: &'static str,
    pub reason: String,
}

impl End {
    fn new(kind: &'static str, reason: impl Into<String>) -> End {
        End { kind, reason: reason.into() }
    }
    fn io(e: io::Error) -> End {
        match e.kind() {
            io::ErrorKind::ConnectionReset => End::new("reset", "connection reset by the controller"),
            io::ErrorKind::BrokenPipe => End::new("closed", "the controller closed the connection"),
            io::ErrorKind::ConnectionRefused => End::new("refused", "connection refused"),
            _ => End::new("io", e.to_string()),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// Handshake / learning; waiting for the worker's go.
    Wait,
    Load,
    /// Run over: wait (briefly) for the answers still in flight.
    Drain,
}

/// One read; returns (bytes, drained). A read that did not fill the buffer drained the socket,
/// so its readiness is cleared right away (by reporting WouldBlock to `try_io`) instead of by a
/// second read that would only return EAGAIN: one syscall less per wake. Safe with edge-triggered
/// readiness: data arriving after this read is a new event, which clearing does not erase.
fn read_drained(s: &TcpStream, buf: &mut [u8]) -> io::Result<(usize, bool)> {
    use std::os::fd::AsRawFd;
    let fd = s.as_raw_fd();
    let mut got = None;
    let r = s.try_io(Interest::READABLE, || {
        let n = unsafe { libc::recv(fd, buf.as_mut_ptr() as *mut libc::c_void, buf.len(), 0) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        let n = n as usize;
        if n > 0 && n < buf.len() {
            got = Some(n);
            return Err(io::ErrorKind::WouldBlock.into());
        }
        Ok(n)
    });
    match (r, got) {
        (_, Some(n)) => Ok((n, true)),
        (Ok(n), None) => Ok((n, false)),
        (Err(e), None) => Err(e),
    }
}

pub async fn connect(addr: SocketAddr, source: Option<SocketAddr>) -> io::Result<TcpStream> {
    let sock = if addr.is_ipv4() { TcpSocket::new_v4()? } else { TcpSocket::new_v6()? };
    if let Some(src) = source {
        // Let connect() pick the port per destination, not bind(): otherwise every bound socket
        // holds a port of its own and the ports run out long before the 4-tuples do.
        #[cfg(target_os = "linux")]
        unsafe {
            use std::os::fd::AsRawFd;
            let one: libc::c_int = 1;
            libc::setsockopt(sock.as_raw_fd(), libc::IPPROTO_IP, libc::IP_BIND_ADDRESS_NO_PORT, &one as *const _ as *const _, 4);
        }
        sock.bind(src)?;
    }
    let s = sock.connect(addr).await?;
    s.set_nodelay(true)?;
    Ok(s)
}

pub struct Session {
    sh: Rc<Shared>,
    stats: Rc<RefCell<SwitchStats>>,
    sw: Switch,
    gen: PacketInGen,
    out: Outstanding,
    pacer: Pacer,
    partial: Vec<u8>,
    wbuf: Vec<u8>,
    wpos: usize,
    index: u32,
    /// Position among the worker's switches (its group of a staggered go, `stagger.rs`).
    pos: u32,
    /// The periodic keep-alive under load (`keepalive.rs`; off unless `echo_every_ms`).
    ka: crate::switch::keepalive::Keepalive,
    echoed: bool,
    /// The learning ARPs were sent (or this session had none to send).
    learned: bool,
    inbox: Option<Rc<crate::switch::shared::Inbox>>,
    /// The emulated network, when the config has one: this worker's node and our inbox in it.
    net: Option<(Rc<crate::network::node::Node>, Rc<crate::network::node::Inbox>)>,
    /// Network runs: the controllers after the first (channels 1..; `network/channels.rs`).
    chans: crate::network::channels::Channels,
    workload: Workload,
    sample_every: u32,
    /// Count replies as cbench counts them (`cbench_switch::counts_as_response`): only for the cbench
    /// profile, whose RESULT line prints them; other runs skip the per-message check.
    count_responses: bool,
    /// The `faucet` profile: a flow-mod answers the request whose MAC its match names
    /// (`ofswitch::faucet`), not a buffer id, so it never takes the flow-mod fast path.
    faucet: bool,
    /// One of the worker's `connect_parallel` slots, held from connect() until the first OpenFlow
    /// handshake is done or the first attempt ends (`holding`).
    slot: Option<Rc<tokio::sync::Semaphore>>,
    /// Recent latency high-water mark (decays by 1/1024 per answer), for the adaptive timeout.
    rtt_est_ns: u64,
    /// Sessions that came up (handshake done): 1 + the reconnects (`reconnect.rs`).
    established: u32,
    /// cbench's latency-mode pacing (`Config::cbench_compat`, latency mode only).
    probe: Option<crate::switch::cbench_switch::ProbeState>,
    /// Loops whose pause was drained (`loop_pause`).
    drained_loops: u64,
    /// How long this connection may take to come up: `connect_timeout_ms` for the first, OVS's
    /// rule for a reconnection (`Backoff::handshake_timeout_ns`).
    handshake_timeout_ns: u64,
    /// The version byte of the first message the controller sent on this connection
    /// (`hello_fallback.rs`).
    peer_version: Option<u8>,
}

impl Session {
    pub fn new(sh: Rc<Shared>, stats: Rc<RefCell<SwitchStats>>, index: u32, pos_in_worker: u32) -> Session {
        let c = &sh.cfg;
        let net = sh.net.borrow().clone().and_then(|n| n.inbox(index).map(|b| (n, b)));
        let dpid = net.as_ref().map_or(c.first_dpid + index as u64, |(n, _)| n.model.dpids[index as usize]);
        let mut sc = SwitchConfig::new(dpid);
        sc.ports = c.ports;
        sc.versions = c.versions;
        sc.keep_flows = c.keep_flows;
        if let Some((n, _)) = &net {
            // a network switch forwards: packet-outs and its flow table put frames on its ports
            sc.ports = n.model.ports(index);
            sc.forward = true;
            sc.keep_flows = true;
            sc.max_flows = n.table_size;
        }
        sc.echo_interval_ns = c.echo_interval_ms * 1_000_000;
        // a reconnecting switch probes as OVS's rconn: idle one interval -> echo, no answer for
        // one more -> disconnect; without reconnection, 3 intervals (as before)
        sc.echo_timeout_ns = if c.reconnects() { sc.echo_interval_ns } else { 3 * sc.echo_interval_ns };
        for &(a, pa, b, pb) in &c.links {
            if a == dpid {
                sc.links.push((pa, b, pb));
            }
            if b == dpid {
                sc.links.push((pb, a, pa));
            }
        }
        // a linked port past `ports` exists (a stack port: no load traffic comes from it)
        sc.ports = sc.links.iter().map(|l| l.0).fold(sc.ports, u32::max);
        let inbox = if sc.links.is_empty() {
            None
        } else {
            let i = Rc::new(crate::switch::shared::Inbox::default());
            sh.inboxes.borrow_mut().insert(dpid, i.clone());
            Some(i)
        };
        let pacer = Pacer::for_config(c, pos_in_worker, sh.n_local);
        let version = if c.versions & (1 << OFP13) != 0 { OFP13 } else { OFP10 };
        Session {
            gen: PacketInGen::with_profile(c.profile(), version, index, c.macs, c.ports, c.frame_size),
            workload: Workload::of(c),
            sample_every: Workload::of(c).latency_sample_every(c),
            count_responses: c.traffic == "cbench",
            faucet: c.profile() == ofswitch::Profile::Faucet,
            rtt_est_ns: 0,
            established: 0,
            probe: (c.cbench_compat && c.mode == crate::config::Mode::Latency).then(Default::default),
            drained_loops: 0,
            handshake_timeout_ns: c.connect_timeout_ms * 1_000_000,
            peer_version: None,
            sw: Switch::new(sc),
            out: Outstanding::new(1),
            pacer,
            partial: Vec::new(),
            wbuf: Vec::with_capacity(256),
            wpos: 0,
            index,
            pos: pos_in_worker,
            ka: crate::switch::keepalive::Keepalive::new(c.echo_every_ms * 1_000_000, pos_in_worker, sh.n_local),
            echoed: false,
            learned: false,
            inbox,
            net,
            chans: Default::default(),
            slot: None,
            stats,
            sh,
        }
    }

    /// Hold a slot of `slots` (taken with `forget()`) until this session's first OpenFlow
    /// handshake is done: `connect_parallel` then bounds the handshakes in progress, not only
    /// the TCP connects (issue 32).
    pub fn holding(mut self, slots: Rc<tokio::sync::Semaphore>) -> Session {
        self.slot = Some(slots);
        self
    }

    fn release_slot(&mut self) {
        if let Some(s) = self.slot.take() {
            s.add_permits(1);
        }
    }

    /// Run to the end; the outcome is recorded in the switch's stats. A session that was up and
    /// is lost is tried again after the backoff while the config reconnects (`reconnect.rs`).
    pub async fn run(mut self, stream: io::Result<TcpStream>, addr: SocketAddr) {
        let cfg = &self.sh.cfg;
        let mut backoff = crate::switch::reconnect::Backoff::new(cfg.reconnect_backoff_ms, cfg.max_backoff_ms);
        let mut stream = stream;
        let mut attempt = false;
        loop {
            let before = self.established;
            let result = match stream {
                Ok(s) => {
                    backoff.opened(self.sh.now_ns());
                    if self.sh.cfg.cbench_compat {
                        // cbench leaves Nagle's algorithm on (its "nodelay" option sets
                        // TCP_NODELAY to 0)
                        let _ = s.set_nodelay(false);
                    }
                    self.serve(&s).await
                }
                Err(e) => {
                    backoff.attempt_failed();
                    Err(End::io(e))
                }
            };
            if let Err(end) = &result {
                if self.fall_back(end, !attempt) {
                    let src = crate::switch::shared::source_for(&self.sh.cfg, self.index);
                    stream = connect(addr, src).await;
                    continue;
                }
            }
            self.release_slot();
            {
                // echoes still out: unanswered at the stop, or lost with the connection
                let mut st = self.stats.borrow_mut();
                if result.is_ok() {
                    self.ka.stop(&mut st.ka);
                } else {
                    self.ka.reset(&mut st.ka);
                }
            }
            let came_up = self.established > before;
            if attempt && !came_up {
                // OVS: an attempt that timed out or failed before it came up never resets the
                // backoff (`backoff_deadline = TIME_MAX`): the next wait doubles
                backoff.attempt_failed();
                let mut st = self.stats.borrow_mut();
                st.reconnect.failures += 1;
                st.failed_since_loss = true;
            }
            let end = match result {
                Ok(()) => {
                    self.stats.borrow_mut().in_flight_at_stop += self.out.abandon() as u64;
                    break;
                }
                Err(end) => end,
            };
            let end = if came_up { end } else { self.with_hint(end) };
            let now = self.sh.now_ns();
            self.ended(end, came_up, now);
            if !self.sh.cfg.reconnects() || self.established == 0 || self.sh.stopped() {
                break;
            }
            self.sw.disconnect(0);
            if !self.wait_down(now + backoff.next_wait(now)).await {
                break;
            }
            self.stats.borrow_mut().reconnect.attempts += 1;
            attempt = true;
            self.partial.clear(); // the old connection's unread and unwritten bytes
            self.wbuf.clear();
            self.wpos = 0;
            let src = crate::switch::shared::source_for(&self.sh.cfg, self.index);
            self.handshake_timeout_ns = backoff.handshake_timeout_ns();
            let mut phase_rx = self.sh.phase_rx.clone();
            stream = tokio::select! {
                r = connect(addr, src) => r,
                _ = async { while !self.sh.stopped() && phase_rx.changed().await.is_ok() {} } => {
                    self.stats.borrow_mut().reconnect.failures += 1;
                    break;
                }
            };
        }
        self.sh.session_finished();
    }

    /// A first connection closed on the bitmap HELLO (`hello_fallback.rs`): from now on this
    /// switch offers 1.0 alone, and its next connection is made at once. False: no retry.
    fn fall_back(&mut self, end: &End, first: bool) -> bool {
        let ended = hello_fallback::Ended { kind: end.kind, peer_version: self.peer_version };
        if self.sh.stopped() || !hello_fallback::retry(self.sw.cfg.versions, first && self.established == 0, &ended) {
            return false;
        }
        self.stats.borrow_mut().hello_fallback = true;
        self.sw.cfg.versions = hello_fallback::PLAIN;
        self.partial.clear();
        self.wbuf.clear();
        self.wpos = 0;
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
        let mut st = self.stats.borrow_mut();
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
    async fn wait_down(&mut self, until: u64) -> bool {
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
            (crate::config::FailMode::Standalone, Some(t)) => t + 3 * c.echo_interval_ms * 1_000_000,
            _ => u64::MAX,
        }
    }

    /// Requests due while the switch has no session (`Pacer::skip`, fixed rate only), counted as
    /// not sent; at most up to the end of the measured phase.
    fn skip_unsent(&mut self, now: u64) {
        let go = self.sh.go_ns();
        if go != 0 {
            let n = self.pacer.skip(now.min(self.sh.end_ns()), go);
            self.stats.borrow_mut().reconnect.not_sent_disconnected += n;
        }
    }

    fn phase(&self, now: u64) -> Phase {
        match self.sh.phase_at(now) {
            0 => Phase::Wait,
            1 => Phase::Load,
            _ => Phase::Drain,
        }
    }

    async fn serve(&mut self, s: &TcpStream) -> Result<(), End> {
        let started = self.sh.now_ns();
        let first = self.established == 0;
        self.peer_version = None;
        // a HELLO retry (`hello_fallback.rs`) is the same switch's first session still
        let first_try = first && !self.stats.borrow().hello_fallback;
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
            self.connect_channels(started).await;
        }
        let mut phase_rx = self.sh.phase_rx.clone();
        let handshake_deadline = started + self.handshake_timeout_ns;
        loop {
            self.compact();
            let now = self.sh.now_ns();
            let phase = self.phase(now);
            if self.sh.stopped() {
                self.network(now); // the network's last look at this switch (its flow entries now)
                return Ok(());
            }
            if !self.sw.is_up() && now > handshake_deadline {
                return Err(End::new("timeout", "no handshake from the controller in time"));
            }
            let mut deadline = if self.sw.is_up() { u64::MAX } else { handshake_deadline };
            let (paused, pause_edge) = if matches!(phase, Phase::Wait) { (false, u64::MAX) } else { self.loop_pause(s, now)? };
            match phase {
                Phase::Wait => {
                    self.learn(now);
                    if self.sh.go_ns() != 0 {
                        deadline = deadline.min(self.sh.go_ns());
                    }
                }
                Phase::Load => {
                    self.pacer.anchor(self.sh.go_ns());
                    let measuring = self.sh.measuring(now);
                    self.stats.borrow_mut().measuring = measuring;
                    deadline = deadline.min(pause_edge);
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
                    deadline = deadline.min(self.sh.end_ns());
                }
                Phase::Drain => {
                    self.sh.park.set(0); // the drain's answers are read as they come
                    self.stats.borrow_mut().measuring = false;
                    if self.ka.pending() > 0 {
                        // an echo whose timeout passed is lost, not in flight at the stop
                        self.ka.expire(now, self.sh.timeout_ns(), &mut self.stats.borrow_mut().ka);
                    }
                    if (self.out.pending() == 0 && self.ka.pending() == 0) || now >= self.sh.drain_end_ns() {
                        return Ok(());
                    }
                    deadline = deadline.min(self.sh.drain_end_ns());
                }
            }
            if self.ka.pending() > 0 {
                let t = self.ka.expire(now, self.sh.timeout_ns(), &mut self.stats.borrow_mut().ka);
                deadline = deadline.min(t);
            }
            if self.out.pending() > 0 {
                let timeout = self.timeout_ns();
                // late answers are still matched for 10 × timeout_ms (at least 10 s), or the last
                // KEEP_LATE timed-out requests, whichever is less
                let horizon = (10 * self.sh.timeout_ns()).max(10_000_000_000);
                let lost = self.out.expire(now.saturating_sub(timeout), now.saturating_sub(horizon));
                self.stats.borrow_mut().lost += lost as u64;
                deadline = deadline.min(now + timeout / 4 + 1);
            }
            match self.sw.poll(now, &mut self.wbuf) {
                Ok(next) => deadline = deadline.min(next),
                Err(e) => return Err(End::new("timeout", e.to_string())),
            }
            self.links(now);
            self.network(now);
            if !paused {
                self.flush(s)?;
            }
            if self.sh.cfg.busy_poll && !paused {
                // cbench's poll() always asks for POLLOUT, so it returns at once: cbench spins,
                // reading as soon as an answer is there; so does this switch (`Config::busy_poll`)
                tokio::task::yield_now().await;
                self.read_all(s)?;
                continue;
            }
            let interest = if self.wpos == self.wbuf.len() { Interest::READABLE } else { Interest::READABLE | Interest::WRITABLE };
            let until = self.sh.instant_of(deadline);
            // a staggered go wakes this session with its group, not with the others (`stagger.rs`)
            let staggered = self.sh.stagger.as_ref().filter(|_| phase == Phase::Wait);
            tokio::select! {
                _ = async { staggered.unwrap().wait(self.pos).await }, if staggered.is_some() => {}
                r = s.ready(interest), if !paused => {
                    let ready = r.map_err(End::io)?;
                    if ready.is_readable() || ready.is_read_closed() {
                        self.read_all(s)?;
                    }
                }
                _ = sleep_until(until) => {}
                _ = phase_rx.changed() => {}
                _ = async { self.inbox.as_ref().unwrap().notify.notified().await }, if self.inbox.is_some() => {}
                _ = async { self.net.as_ref().unwrap().1.notify.notified().await }, if self.net.is_some() => {}
                _ = self.chans.notify.notified(), if !self.chans.is_empty() => {}
            }
        }
    }

    /// cbench's pause after each loop (`Config::loop_gap_ms`): (whether `now` is in one, when
    /// that next changes). In the pause a switch neither sends nor reads. At the first call
    /// after a pause (the next loop's, or the drain's after the last), what arrived meanwhile is
    /// read and thrown away (`read_discarding`) and the probe counter reset, as cbench's
    /// `fakeswitch_get_count` does after every loop.
    fn loop_pause(&mut self, s: &TcpStream, now: u64) -> Result<(bool, u64), End> {
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
    fn read_discarding(&mut self, s: &TcpStream) -> Result<(), End> {
        let scratch_rc = self.sh.scratch.clone();
        let mut scratch = scratch_rc.borrow_mut();
        let wire = ofwire::Version::layout(self.sw.version);
        loop {
            let keep = self.partial.len();
            scratch[..keep].copy_from_slice(&self.partial);
            let n = match s.try_read(&mut scratch[keep..]) {
                Ok(0) => return Err(End::new("closed", "the controller closed the connection")),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(e) => return Err(End::io(e)),
            };
            let (buf, now) = (&scratch[..keep + n], self.sh.now_ns());
            let mut at = 0;
            let mut st = self.stats.borrow_mut();
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

    /// The learning phase's requests, once, when the worker opens it (`learning.rs`): the
    /// traffic profile's (`Profile::learning`).
    fn learn(&mut self, now: u64) {
        if self.sh.cfg.cbench_compat && !self.learned && self.sw.is_up() {
            // cbench: its -L packet-in (xid 1) in the same write as the features reply
            self.learned = true;
            if self.sh.cfg.learn {
                self.gen.emit_cbench_learn(&mut self.wbuf, 1);
            }
            return;
        }
        if self.learned || !self.sw.is_up() || !self.sh.learning.is_open() {
            return;
        }
        self.learned = true;
        if self.workload.learns(&self.sh.cfg) {
            let n = learning_requests(&self.sh.cfg);
            match self.sh.cfg.profile().learning() {
                // cbench's -L packet-in takes xid 1; its requests then start at xid 2
                Some(Learning::CbenchDestination) => self.gen.emit_cbench_learn(&mut self.wbuf, 1),
                Some(Learning::HostArps | Learning::FirstHost) => {
                    for h in 1..=n {
                        self.gen.emit_arp(&mut self.wbuf, 0x4000_0000 | h, h);
                    }
                }
                None => {}
            }
            self.sh.learning.requests_sent(u64::from(n), now);
        }
    }

    /// LLDP between linked switches: raise what neighbours sent us as packet-ins, and hand what
    /// our controller sent out of a linked port to the neighbour.
    fn links(&mut self, now: u64) {
        if !self.sw.is_up() {
            return;
        }
        if let Some(inbox) = &self.inbox {
            let frames = std::mem::take(&mut *inbox.frames.borrow_mut());
            let mut st = self.stats.borrow_mut();
            for (port, frame) in frames {
                self.sw.frame_from_link(now, port, &frame, &mut self.wbuf);
                st.lldp_in += 1;
            }
        }
        if self.sw.link_out.is_empty() {
            return;
        }
        let out = std::mem::take(&mut self.sw.link_out);
        self.stats.borrow_mut().lldp_out += out.len() as u64;
        let boxes = self.sh.inboxes.borrow();
        for (dpid, port, frame) in out {
            if let Some(b) = boxes.get(&dpid) {
                b.frames.borrow_mut().push((port, frame));
                b.notify.notify_one();
            }
        }
    }

    /// Network runs with several controllers: connect to the others too (one channel each).
    async fn connect_channels(&mut self, now: u64) {
        let addrs = &self.sh.cfg.controllers;
        if self.net.is_none() || addrs.len() < 2 {
            return;
        }
        let resolved: Vec<std::net::SocketAddr> = addrs[1..].iter().filter_map(|a| crate::config::limits::resolve(a).ok()).collect();
        match crate::network::channels::Channels::connect(&resolved).await {
            Ok(mut c) => {
                c.start(&mut self.sw, now);
                c.flush();
                self.chans = c;
            }
            Err(_) => self.chans.errors += 1,
        }
    }

    /// The emulated network: apply scheduled port changes, run the frames that arrived through
    /// the switch, and hand what it transmitted (packet-outs, forwarding) to the network.
    fn network(&mut self, now: u64) {
        let Some((node, inbox)) = self.net.as_ref() else { return };
        let (sw, chans) = (&mut self.sw, &mut self.chans);
        if !chans.is_empty() {
            chans.turn(sw, now, &mut self.wbuf);
        }
        let ports = std::mem::take(&mut *inbox.ports.borrow_mut());
        let frames = std::mem::take(&mut *inbox.frames.borrow_mut());
        chans.with_outs(&mut self.wbuf, |outs| {
            for (port, up) in ports {
                sw.set_port_state(now, port, up, outs);
            }
            for f in &frames {
                if node.arrive(f) {
                    let before = sw.counters.packet_ins;
                    sw.receive_frame(now, f.port, &f.data, outs);
                    if sw.counters.packet_ins != before {
                        node.raised(f);
                    }
                }
            }
        });
        chans.flush();
        node.transmit(self.index, &mut self.sw.tx);
        let c = &self.sw.counters;
        node.switch_state(self.index, [c.dropped_out_down, c.dropped_out_no_port, c.dropped_in], self.sw.flows.len() as u64);
    }

    /// The requests due now, in one write: fewer, larger syscalls (measured: writing 128-request
    /// chunks instead cost a third of the efficiency). With nothing of this session's left
    /// unwritten they are built in the worker's shared buffer and written at once, and only what
    /// the socket does not take is kept here: one buffer for all the worker's switches stays in
    /// cache, where a window's worth per switch (84 KB each at 1,024 requests) did not.
    fn send_requests(&mut self, s: &TcpStream, now: u64) -> Result<(), End> {
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
            let mut st = self.stats.borrow_mut();
            st.sent += n as u64;
            st.sent
        };
        crate::switch::exceptions::inject(&self.sh.cfg, sent - n as u64, sent, buf);
        if !shared {
            return Ok(());
        }
        let mut at = 0;
        while at < scratch.len() {
            match s.try_write(&scratch[at..]) {
                Ok(k) => at += k,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
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
        let due = self.ka.due(now, go, end, &mut self.stats.borrow_mut().ka);
        if let Some(xid) = due {
            ofwire::Message { version: self.sw.version, xid, body: ofwire::Body::EchoRequest(Vec::new()) }.emit_append(&mut self.wbuf);
        }
    }

    /// Write what the socket takes. Written bytes are skipped by an offset (`wpos`), not moved:
    /// the buffer is cleared once all of it is out, or compacted once before appending more.
    fn flush(&mut self, s: &TcpStream) -> Result<(), End> {
        while self.wpos < self.wbuf.len() {
            match s.try_write(&self.wbuf[self.wpos..]) {
                Ok(n) => self.wpos += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) => return Err(End::io(e)),
            }
        }
        if self.wpos == self.wbuf.len() {
            self.wbuf.clear();
            self.wpos = 0;
            if self.wbuf.capacity() > 256 * 1024 {
                self.wbuf.shrink_to(64 * 1024);
            }
        }
        Ok(())
    }

    /// Drop what was written once it is most of the buffer (amortized: each byte moves at most
    /// once more), so a partly written buffer does not grow without bound.
    fn compact(&mut self) {
        if self.wpos > 0 && self.wpos >= self.wbuf.len() / 2 {
            self.wbuf.drain(..self.wpos);
            self.wpos = 0;
        }
    }

    /// Read until the socket would block (bounded, so one busy session cannot starve others).
    fn read_all(&mut self, s: &TcpStream) -> Result<(), End> {
        let scratch_rc = self.sh.scratch.clone();
        let mut scratch = scratch_rc.borrow_mut();
        for _ in 0..16 {
            let keep = self.partial.len();
            scratch[..keep].copy_from_slice(&self.partial);
            let n = match read_drained(s, &mut scratch[keep..]) {
                Ok((0, _)) => return Err(End::new("closed", "the controller closed the connection")),
                Ok(x) => x,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(e) => return Err(End::io(e)),
            };
            self.peer_version.get_or_insert(scratch[0]);
            let used = self.process(&scratch[..keep + n.0])?;
            self.partial.clear();
            self.partial.extend_from_slice(&scratch[used..keep + n.0]);
            if n.1 {
                return Ok(());
            }
        }
        Ok(())
    }

    /// The loss timeout: `timeout_ms` when fixed; adaptive: 10 × the recent latency high-water
    /// mark, at least `timeout_floor_ms`, at most `timeout_ms` (until a first answer: `timeout_ms`).
    fn timeout_ns(&self) -> u64 {
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
    fn process(&mut self, buf: &[u8]) -> Result<usize, End> {
        let now = self.sh.now_ns();
        let loading = self.sh.phase_at(now) != 0;
        let mut at = 0;
        let (stats, shared) = (self.stats.clone(), self.sh.clone());
        let mut st = stats.borrow_mut();
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
        let (buffer_id_at, flow_mod_end) = flow_mod::buffer_id_at(wire_version);
        while let Some(n) = frame_len(&buf[at..]) {
            let n = n.map_err(|e| End::new("malformed", e.to_string()))?;
            if buf.len() - at < n {
                if n > self.sh.scratch_len() / 2 {
                    return Err(End::new("malformed", format!("message of {n} bytes is too large")));
                }
                break;
            }
            let msg = &buf[at..at + n];
            at += n;
            if flow_mods_only && msg[0] == version && msg[1] == flow_mod_type && n >= flow_mod_end {
                let id = &msg[buffer_id_at..buffer_id_at + 4];
                st.count_reply(flow_mod_type);
                self.reply(&mut st, &mut merged, u32::from_be_bytes([id[0], id[1], id[2], id[3]]), None, now);
                continue;
            }
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

    /// A flow-mod or packet-out naming request `buffer_id` (or, unbuffered, `marker_seq`): count
    /// it, feed the adaptive timeout, and sample its latency by the request's sequence number.
    #[inline]
    fn reply(&mut self, st: &mut SwitchStats, merged: &mut crate::hist::Hist, buffer_id: u32, marker_seq: Option<u32>, now: u64) {
        let late = st.late;
        let answered = st.on_request_reply(&mut self.out, buffer_id, marker_seq, now);
        if st.late != late {
            // a late answer raises the timeout too, so a slow controller is not flooded by
            // requests re-sent into the slots that timed out
            self.observe(st.late_ns_last);
        }
        if let Some(rtt) = answered {
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
            st.learning_late += 1;
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
                st.echo_rtt_ns.push(rtt);
                if self.workload.up_after_echo() && !self.echoed {
                    self.echoed = true;
                    self.sh.session_up();
                }
            }
            Event::Connected { version } => {
                st.version = version;
                st.state = crate::switch::accounting::SessionState::Up;
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
            _ => {}
        }
    }
}

/// Learning requests one switch sends (`Profile::learning_requests`): one gratuitous ARP per host
/// (at most 65,535), or cbench's one `-L` packet-in.
pub fn learning_requests(cfg: &crate::config::Config) -> u32 {
    cfg.profile().learning_requests(cfg.macs)
}
