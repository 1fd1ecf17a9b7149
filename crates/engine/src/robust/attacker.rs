//! The attacking switch: one thread with plain non-blocking sockets, so a case that stalls,
//! floods or dribbles cannot disturb the workers' runtime. It plays `ofmutate` steps, reads
//! everything the controller sends (counting types and errors), answers through the switch
//! core once a case has shaken hands, and finally probes the session with an echo.

use crate::config::robust::RobustSpec;
use crate::config::Config;
use crate::result::robustness::{Idle, Observation, SeenError};
use ofmutate::{Ctx, Step};
use ofswitch::{Event, Switch, SwitchConfig};
use ofwire::{ErrorMsg, Header, MsgType, Version, HEADER_LEN};
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// xid of the echo request that probes the session after the window.
pub const PROBE_XID: u32 = 0x5eed_0001;
/// Longest wait for a case's handshake, and for the probe's answer.
const HANDSHAKE_WAIT: Duration = Duration::from_secs(3);
const PROBE_WAIT: Duration = Duration::from_millis(1000);
/// A flood keeps at most this much unsent (the controller's TCP window holds it back).
const FLOOD_QUEUE: usize = 256 * 1024;

#[derive(Clone, Copy)]
enum GoState {
    Waiting,
    Went(Instant),
    Abandoned,
}

/// The measured phase's start, told to the attacker by the coordinator (or that it never came).
#[derive(Clone)]
pub struct Go(Arc<Mutex<GoState>>);

impl Go {
    pub fn new() -> Go {
        Go(Arc::new(Mutex::new(GoState::Waiting)))
    }
    pub fn went(&self) {
        *self.0.lock().expect("go lock") = GoState::Went(Instant::now());
    }
    pub fn abandon(&self) {
        let mut g = self.0.lock().expect("go lock");
        if matches!(*g, GoState::Waiting) {
            *g = GoState::Abandoned;
        }
    }
    fn wait(&self) -> Option<Instant> {
        loop {
            match *self.0.lock().expect("go lock") {
                GoState::Went(t) => return Some(t),
                GoState::Abandoned => return None,
                GoState::Waiting => {}
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Default for Go {
    fn default() -> Go {
        Go::new()
    }
}

/// Start the attacker of `cfg.robustness` (None: no robustness case configured).
pub fn spawn(cfg: &Config, go: Go) -> Option<JoinHandle<Observation>> {
    let spec = cfg.robustness.clone()?;
    let cfg = cfg.clone();
    Some(std::thread::Builder::new().name("attacker".into()).spawn(move || run(&cfg, &spec, go)).expect("a thread"))
}

fn run(cfg: &Config, spec: &RobustSpec, go: Go) -> Observation {
    let ctx = super::ctx(cfg, spec);
    let case = ofmutate::find(&spec.case).expect("validated case name");
    let mut obs = Observation {
        case: case.name.into(),
        family: case.family.into(),
        of_version: ctx.version,
        attacker_dpid: ctx.dpid,
        ..Default::default()
    };
    let Some(t_go) = go.wait() else {
        obs.notes.push("the measured phase never began: nothing sent".into());
        return obs;
    };
    let start = t_go + Duration::from_millis(spec.at_ms);
    std::thread::sleep(start.saturating_duration_since(Instant::now()));
    let deadline = start + Duration::from_millis(spec.observe_ms);
    obs.started_s = t_go.elapsed().as_secs_f64();
    let mut a = Attacker {
        t_go,
        ctx,
        obs,
        s: None,
        switch: None,
        rbuf: Vec::new(),
        out: Vec::new(),
        idle: Vec::new(),
        hs_started: None,
        flood_i: 0,
        probe_sent: None,
        framer: Framer::default(),
        tail: Framer::default(),
        replies: Vec::new(),
    };
    let mut script = (case.script)(&a.ctx);
    let syn = if script.first() == Some(&Step::SynFlood) {
        script.remove(0);
        let s = start_syn(cfg, spec, deadline);
        std::thread::sleep(Duration::from_millis(ofmutate::SYN_HEAD_START_MS).min(deadline.saturating_duration_since(Instant::now())));
        Some(s)
    } else {
        None
    };
    match connect(cfg.controller()) {
        Ok(s) => {
            a.s = Some(s);
            a.obs.connected = true;
        }
        Err(e) => a.obs.connect_error = Some(e),
    }
    for step in script {
        if Instant::now() >= deadline {
            a.obs.notes.push("the window ended before every step was sent".into());
            break;
        }
        a.step(step, deadline);
    }
    a.pump_until(deadline, |_| false);
    if let Some(h) = syn {
        match h.join() {
            Ok(sent) => {
                (a.obs.syn_sent, a.obs.syn_refused) = (sent.sent, sent.refused);
                a.obs.notes.extend(sent.error.map(|e| format!("syn flood: {e}")));
            }
            Err(_) => a.obs.notes.push("syn flood: its thread panicked".into()),
        }
    }
    a.finish();
    // the window's end (the phases "during" / "after" split here); the drain of a flood and the
    // probe may run past it, until finished_s
    a.obs.ended_s = (deadline - t_go).as_secs_f64();
    a.obs.finished_s = t_go.elapsed().as_secs_f64();
    a.obs
}

/// The SYN flood of a `syn-flood` case, on its own thread until the window's end.
fn start_syn(cfg: &Config, spec: &RobustSpec, deadline: Instant) -> JoinHandle<super::syn::Sent> {
    let dst = crate::config::limits::resolve(cfg.controller());
    let (syn, seed) = (spec.syn.clone(), spec.seed);
    std::thread::Builder::new()
        .name("syn-flood".into())
        .spawn(move || match (syn, dst) {
            (Some(s), Ok(SocketAddr::V4(d))) => super::syn::flood(&s, d, seed, deadline),
            (None, _) => super::syn::Sent { error: Some("no robustness.syn given".into()), ..Default::default() },
            (_, d) => super::syn::Sent { error: Some(format!("the controller is not an IPv4 address: {d:?}")), ..Default::default() },
        })
        .expect("a thread")
}

fn connect(addr: &str) -> Result<TcpStream, String> {
    let sa: SocketAddr = crate::config::limits::resolve(addr)?;
    let s = TcpStream::connect_timeout(&sa, Duration::from_secs(2)).map_err(|e| format!("connect {addr}: {e}"))?;
    s.set_nonblocking(true).map_err(|e| e.to_string())?;
    let _ = s.set_nodelay(true);
    Ok(s)
}

struct Attacker {
    t_go: Instant,
    ctx: Ctx,
    obs: Observation,
    s: Option<TcpStream>,
    switch: Option<Switch>,
    rbuf: Vec<u8>,
    out: Vec<u8>,
    idle: Vec<TcpStream>,
    hs_started: Option<Instant>,
    flood_i: u32,
    probe_sent: Option<Instant>,
    /// Over the bytes that went out (the probe waits for a boundary).
    framer: Framer,
    /// Over everything queued in `out`: the switch core's replies are only appended between
    /// messages, never inside a message a case is dribbling or left truncated.
    tail: Framer,
    replies: Vec<u8>,
}

/// Where our own outgoing stream stands: between messages or inside one (or unframeable after
/// a length below 8). The probe is only sent between messages, or it would complete a
/// truncated message instead of being read as an echo.
#[derive(Default)]
pub struct Framer {
    head: Vec<u8>,
    left: usize,
    broken: bool,
}

impl Framer {
    pub fn feed(&mut self, mut b: &[u8]) {
        while !b.is_empty() && !self.broken {
            if self.left > 0 {
                let n = self.left.min(b.len());
                self.left -= n;
                b = &b[n..];
                continue;
            }
            let n = (HEADER_LEN - self.head.len()).min(b.len());
            self.head.extend_from_slice(&b[..n]);
            b = &b[n..];
            match ofwire::frame_len(&self.head) {
                Ok(None) => {}
                Ok(Some(len)) => {
                    self.head.clear();
                    self.left = len - HEADER_LEN;
                }
                Err(_) => {
                    self.head.clear();
                    self.broken = true;
                }
            }
        }
    }
    pub fn between_messages(&self) -> bool {
        !self.broken && self.left == 0 && self.head.is_empty()
    }
}

impl Attacker {
    fn t(&self) -> f64 {
        self.t_go.elapsed().as_secs_f64()
    }
    fn now_ns(&self) -> u64 {
        self.t_go.elapsed().as_nanos() as u64
    }
    fn open(&self) -> bool {
        self.s.is_some() && self.obs.closed_by_controller.is_none()
    }
    fn closed(&mut self, how: &str) {
        if self.obs.closed_by_controller.is_none() {
            self.obs.closed_by_controller = Some((how.into(), self.t()));
        }
    }

    /// Write what is queued, as far as the socket takes it. Returns whether anything went.
    fn flush(&mut self) -> bool {
        let Some(s) = self.s.as_mut() else { return false };
        if self.out.is_empty() || self.obs.closed_by_controller.is_some() {
            return false;
        }
        match s.write(&self.out) {
            Ok(n) => {
                self.framer.feed(&self.out[..n]);
                self.out.drain(..n);
                self.obs.bytes_sent += n as u64;
                n > 0
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => false,
            Err(_) => {
                self.closed("reset");
                false
            }
        }
    }

    /// Read what has arrived and handle every whole message. Returns whether anything came.
    fn read(&mut self) -> bool {
        let mut got = false;
        let mut buf = [0u8; 65536];
        while let Some(s) = self.s.as_mut() {
            if self.obs.closed_by_controller.is_some() {
                break;
            }
            match s.read(&mut buf) {
                Ok(0) => self.closed("eof"),
                Ok(n) => {
                    self.rbuf.extend_from_slice(&buf[..n]);
                    got = true;
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(_) => self.closed("reset"),
            }
        }
        loop {
            let len = match ofwire::frame_len(&self.rbuf) {
                Ok(Some(len)) if len <= self.rbuf.len() => len,
                Ok(_) => break,
                Err(_) => {
                    let len = Header::new_unchecked(&self.rbuf).length();
                    self.obs.notes.push(format!("the controller sent a message of length {len}; rest of its stream ignored"));
                    self.rbuf.clear();
                    break;
                }
            };
            let msg: Vec<u8> = self.rbuf.drain(..len).collect();
            self.handle(&msg);
        }
        got
    }

    fn handle(&mut self, msg: &[u8]) {
        let h = Header::new_unchecked(msg);
        let kind = MsgType::from_wire(h.version(), h.msg_type());
        *self.obs.received.entry(kind.name().to_string()).or_default() += 1;
        let xid = h.xid();
        if let (MsgType::Error, Ok(e)) = (kind, ErrorMsg::parse(h.payload())) {
            let v = Version::layout(h.version());
            let (t, c) = e.names(v);
            let t_s = self.t();
            self.obs.errors.push(SeenError { t_s, typ: e.typ, code: e.code, name: format!("{t}/{c}") });
        }
        if kind == MsgType::EchoReply && xid == PROBE_XID {
            if let Some(at) = self.probe_sent {
                self.obs.probe_answered = Some(true);
                self.obs.probe_rtt_ms = Some(at.elapsed().as_secs_f64() * 1e3);
            }
        }
        let now = self.now_ns();
        if let Some(sw) = self.switch.as_mut() {
            match sw.on_message(now, msg, &mut self.replies) {
                Ok(Event::Connected { .. }) => {
                    let ms = self.hs_started.map(|t| t.elapsed().as_secs_f64() * 1e3);
                    self.obs.handshake_ms = ms;
                }
                Ok(_) => {}
                Err(e) => {
                    if self.obs.notes.len() < 8 {
                        self.obs.notes.push(format!("switch core refused a controller message: {e}"));
                    }
                }
            }
        }
    }

    /// Queue our own bytes.
    fn queue(&mut self, b: &[u8]) {
        self.tail.feed(b);
        self.out.extend_from_slice(b);
    }

    /// Move the switch core's replies into the queue when it is between messages.
    fn release(&mut self) {
        if !self.replies.is_empty() && self.tail.between_messages() {
            let r = std::mem::take(&mut self.replies);
            self.queue(&r);
        }
    }

    /// Exchange bytes until `until`, the session closes, or `done` says so.
    fn pump_until(&mut self, until: Instant, done: impl Fn(&Attacker) -> bool) {
        while Instant::now() < until && !done(self) {
            let got = self.read();
            self.release();
            let moved = got | self.flush();
            if !self.open() {
                break;
            }
            if !moved {
                std::thread::sleep(Duration::from_micros(500));
            }
        }
    }

    fn step(&mut self, step: Step, deadline: Instant) {
        match step {
            Step::Handshake { dpid } => {
                let mut sc = SwitchConfig::new(dpid);
                sc.versions = ofwire::Versions::of(&[self.ctx.version]);
                sc.echo_interval_ns = 0;
                let mut sw = Switch::new(sc);
                sw.start(self.now_ns(), &mut self.replies);
                self.switch = Some(sw);
                self.release();
                self.hs_started = Some(Instant::now());
                let until = deadline.min(Instant::now() + HANDSHAKE_WAIT);
                self.pump_until(until, |a| a.obs.handshake_ms.is_some());
                if self.obs.handshake_ms.is_none() {
                    self.obs.notes.push("the case's handshake did not complete".into());
                }
            }
            Step::Send(bytes) => {
                self.queue(&bytes);
                self.pump_until(deadline, |a| a.out.is_empty());
            }
            Step::Dribble { bytes, gap_ms } => {
                for b in bytes {
                    self.queue(&[b]);
                    let until = deadline.min(Instant::now() + Duration::from_millis(gap_ms));
                    self.pump_until(until, |_| false);
                    if !self.open() || Instant::now() >= deadline {
                        break;
                    }
                }
            }
            Step::Flood => self.flood(deadline),
            Step::Wait { ms } => {
                let until = deadline.min(Instant::now() + Duration::from_millis(ms));
                self.pump_until(until, |_| false);
            }
            Step::IdleConnections { n } => self.open_idle(n, deadline),
            Step::SynFlood => self.obs.notes.push("a SYN flood is only a case's first step; ignored".into()),
        }
    }

    fn flood(&mut self, deadline: Instant) {
        while Instant::now() < deadline && self.open() {
            while self.out.len() < FLOOD_QUEUE {
                self.flood_i += 1;
                let m = ofmutate::flood_message(&self.ctx, self.flood_i);
                self.queue(&m);
            }
            let got = self.read();
            self.release();
            let moved = got | self.flush();
            if !moved {
                std::thread::sleep(Duration::from_micros(200));
            }
        }
        // let the queue drain (a message cut in half would corrupt the probe); what is still
        // queued after that was never sent
        self.pump_until(Instant::now() + Duration::from_secs(1), |a| a.out.is_empty());
        let per = ofmutate::flood_message(&self.ctx, 1).len() as u64;
        self.obs.flood_sent = (self.flood_i as u64).saturating_sub(self.out.len() as u64 / per.max(1));
    }

    /// Open idle connections one after another (`Step::IdleConnections`), growing until the
    /// controller does not take one, the engine's files run out, the window ends, or `n`.
    fn open_idle(&mut self, n: u32, deadline: Instant) {
        let room = files_room();
        let mut idle = Idle { limit: n.max(1).min(u32::try_from(room).unwrap_or(u32::MAX)), files_room: room, ..Idle::default() };
        let addr = self.s.as_ref().and_then(|s| s.peer_addr().ok());
        // the first connection (the case's own) is one of them when it is idle too
        if self.s.is_some() {
            idle.opened += 1;
        }
        idle.stopped_by = "count".into();
        while idle.opened + idle.refused < idle.limit {
            if Instant::now() >= deadline {
                idle.stopped_by = "window".into();
                break;
            }
            let Some(a) = addr else { break };
            match connect_within(a, IDLE_CONNECT_WAIT) {
                Ok(s) => {
                    let _ = s.set_nonblocking(true);
                    self.idle.push(s);
                    idle.opened += 1;
                }
                Err(e) => {
                    idle.refused += 1;
                    idle.stopped_by = "refused".into();
                    idle.refusal = Some(format!("connection {} {}", idle.opened + idle.refused, refusal(&e)));
                    break;
                }
            }
        }
        if idle.stopped_by == "count" && idle.limit < n {
            idle.stopped_by = "files".into();
        }
        self.obs.idle = Some(idle);
    }

    /// After the window: count idle connections the controller closed, probe the session with
    /// an echo, close everything.
    fn finish(&mut self) {
        let mut closed = 0;
        let mut buf = [0u8; 4096];
        for s in &mut self.idle {
            loop {
                match s.read(&mut buf) {
                    Ok(0) => {
                        closed += 1;
                        break;
                    }
                    Ok(_) => continue,
                    Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                    Err(_) => {
                        closed += 1;
                        break;
                    }
                }
            }
        }
        self.read();
        if let Some(i) = self.obs.idle.as_mut() {
            i.closed_by_controller = closed + u32::from(self.obs.closed_by_controller.is_some());
        }
        self.idle.clear();
        if self.open() && !(self.framer.between_messages() && self.out.is_empty()) {
            self.obs.notes.push("no probe: our stream is inside a message (as the case left it)".into());
        } else if self.open() {
            let echo = ofwire::Message::new(
                ofwire::version::Version::from_wire(self.ctx.version).unwrap_or(ofwire::version::Version::V13),
                PROBE_XID,
                ofwire::Body::EchoRequest(b"sdnbench".to_vec()),
            );
            self.queue(&echo.to_vec());
            self.probe_sent = Some(Instant::now());
            self.obs.probe_answered = Some(false);
            self.pump_until(Instant::now() + PROBE_WAIT, |a| a.obs.probe_answered == Some(true));
        }
        self.s = None;
    }
}

/// How long a connection of the flood may take (`connect_within`): on loopback an accepted
/// connect takes microseconds; a controller that takes none for this long refuses it.
const IDLE_CONNECT_WAIT: Duration = Duration::from_secs(1);

/// Connect to `a`, trying a fresh SYN every `IDLE_RETRY` for up to `wait`: a SYN that finds the
/// controller's accept queue full is dropped (Linux; the kernel would retry only after 1 s), so
/// a controller that takes connections a little slower than we open them is not counted as
/// refusing; one that takes none for `wait` is.
fn connect_within(a: SocketAddr, wait: Duration) -> std::io::Result<TcpStream> {
    let t0 = Instant::now();
    loop {
        match TcpStream::connect_timeout(&a, IDLE_RETRY) {
            Err(e) if matches!(e.kind(), ErrorKind::TimedOut | ErrorKind::WouldBlock) && t0.elapsed() < wait => continue,
            r => return r,
        }
    }
}

/// How long one SYN of the connection flood is waited for before a fresh one is sent.
const IDLE_RETRY: Duration = Duration::from_millis(50);

/// Files the engine keeps for itself beside the flood (as `limits::RESERVED_FDS` per worker).
const RESERVED_FDS: u64 = 64;

/// Files this process may still open: soft RLIMIT_NOFILE less those open and `RESERVED_FDS`.
fn files_room() -> u64 {
    let open = std::fs::read_dir("/proc/self/fd").map(|d| d.count() as u64).unwrap_or(0);
    let mut r = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit only writes the struct we pass.
    let soft = if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) } == 0 { r.rlim_cur } else { 1024 };
    soft.saturating_sub(open + RESERVED_FDS)
}

/// How the controller did not take a connection, in words.
fn refusal(e: &std::io::Error) -> String {
    match e.kind() {
        ErrorKind::TimedOut | ErrorKind::WouldBlock => {
            format!("not accepted within {} s (its accept queue was full)", IDLE_CONNECT_WAIT.as_secs())
        }
        ErrorKind::ConnectionRefused => "refused".into(),
        ErrorKind::ConnectionReset => "reset".into(),
        _ => format!("failed: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::Framer;

    #[test]
    fn framer_knows_message_boundaries() {
        let mut f = Framer::default();
        assert!(f.between_messages());
        f.feed(&[4, 2, 0, 12, 0, 0]);
        assert!(!f.between_messages());
        f.feed(&[0, 1, 9, 9, 9, 9, 4, 2, 0, 8, 0, 0, 0, 2]);
        assert!(f.between_messages());
        f.feed(&[4, 2, 0, 20, 0, 0, 0, 3, 1]);
        assert!(!f.between_messages());
        let mut z = Framer::default();
        z.feed(&[4, 10, 0, 0, 0, 0, 0, 1]);
        assert!(!z.between_messages());
    }

    #[test]
    fn files_room_is_the_soft_limit_less_what_is_open() {
        let room = super::files_room();
        let soft = unsafe {
            let mut r = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
            libc::getrlimit(libc::RLIMIT_NOFILE, &mut r);
            r.rlim_cur
        };
        assert!(room > 0 && room < soft - super::RESERVED_FDS, "{room} of {soft}");
    }
}
