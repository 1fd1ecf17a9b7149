//! A worker: one single-threaded tokio runtime running a slice of the switches.
//!
//! It never prints. It reports through `emit` (the coordinator's channel, or stdout as JSON lines
//! when it runs as a child process) and takes `Cmd`s from `cmds`. Several workers (processes)
//! hold more sessions than one process's file limit allows, and use more cores.

use crate::accounting::{SessionState, SwitchStats};
use crate::config::{Config, Mode, Slice};
use crate::hist::Hist;
use crate::protocol::{Cmd, Interval, Ready, SwitchReport, WorkerEvent, WorkerReport, PROTOCOL};
use crate::session::{connect, Session};
use std::cell::{Cell, RefCell};
use std::net::SocketAddr;
use std::rc::Rc;
use tokio::sync::{mpsc::UnboundedReceiver, watch, Notify, Semaphore};
use tokio::time::{sleep_until, Duration, Instant};

const SCRATCH: usize = 256 * 1024;

/// Frames arriving at a switch from a linked neighbour: (local port, frame).
#[derive(Default)]
pub struct Inbox {
    pub frames: RefCell<Vec<(u32, Vec<u8>)>>,
    pub notify: Notify,
}

/// State every session of a worker shares (single thread: `Cell`/`RefCell`, no locks).
pub struct Shared {
    pub cfg: Config,
    pub n_local: u32,
    epoch: Instant,
    go_ns: Cell<u64>,
    stop: Cell<bool>,
    fatal: RefCell<Option<String>>,
    pub phase_rx: watch::Receiver<u8>,
    phase_tx: watch::Sender<u8>,
    pub merged: RefCell<Hist>,
    pub scratch: Rc<RefCell<Vec<u8>>>,
    up: Cell<u32>,
    finished: Cell<u32>,
    changed: Notify,
    /// Inboxes of the switches that have links, by dpid.
    pub inboxes: RefCell<std::collections::HashMap<u64, Rc<Inbox>>>,
}

impl Shared {
    pub fn new(cfg: Config, n_local: u32) -> Shared {
        let (phase_tx, phase_rx) = watch::channel(0);
        Shared {
            cfg,
            n_local,
            epoch: Instant::now(),
            go_ns: Cell::new(0),
            stop: Cell::new(false),
            fatal: RefCell::new(None),
            phase_rx,
            phase_tx,
            merged: RefCell::new(Hist::with_sigfig(3)),
            scratch: Rc::new(RefCell::new(vec![0; SCRATCH])),
            up: Cell::new(0),
            finished: Cell::new(0),
            changed: Notify::new(),
            inboxes: RefCell::new(Default::default()),
        }
    }

    #[inline]
    pub fn now_ns(&self) -> u64 {
        self.epoch.elapsed().as_nanos() as u64 + 1
    }
    pub fn instant_of(&self, ns: u64) -> Instant {
        self.epoch + Duration::from_nanos(ns.min(self.now_ns() + 86_400_000_000_000))
    }
    /// Seconds since the measured phase began (negative before).
    pub fn t_rel_s(&self) -> f64 {
        let go = self.go_ns.get();
        if go == 0 {
            return -(self.now_ns() as f64) / 1e9;
        }
        (self.now_ns() as f64 - go as f64) / 1e9
    }
    pub fn go_ns(&self) -> u64 {
        self.go_ns.get()
    }
    pub fn end_ns(&self) -> u64 {
        self.go_ns.get() + self.cfg.run_ms() * 1_000_000
    }
    pub fn drain_end_ns(&self) -> u64 {
        self.end_ns() + self.timeout_ns().min(1_000_000_000)
    }
    pub fn timeout_ns(&self) -> u64 {
        self.cfg.timeout_ms * 1_000_000
    }
    /// 0: waiting for go, 1: loading, 2: drain/after.
    #[inline]
    pub fn phase_at(&self, now: u64) -> u8 {
        let go = self.go_ns.get();
        if go == 0 || now < go {
            0
        } else if now < self.end_ns() {
            1
        } else {
            2
        }
    }
    #[inline]
    pub fn measuring(&self, now: u64) -> bool {
        let go = self.go_ns.get();
        go != 0 && now >= go + self.cfg.warmup as u64 * self.cfg.loop_ms * 1_000_000 && now < self.end_ns()
    }
    pub fn miss_send_len(&self) -> Option<u16> {
        if self.cfg.buffered { Some(128) } else { None }
    }
    pub fn scratch_len(&self) -> usize {
        SCRATCH
    }
    pub fn stopped(&self) -> bool {
        self.stop.get()
    }
    pub fn stop_all(&self) {
        self.stop.set(true);
        let _ = self.phase_tx.send(3);
        self.changed.notify_waiters();
    }
    pub fn fail(&self, msg: String) {
        self.fatal.borrow_mut().get_or_insert(msg);
        self.stop_all();
    }
    pub fn session_up(&self) {
        self.up.set(self.up.get() + 1);
        self.changed.notify_waiters();
    }
    pub fn session_finished(&self) {
        self.finished.set(self.finished.get() + 1);
        self.changed.notify_waiters();
    }
    fn go(&self, settle_ms: u64) {
        self.go_ns.set(self.now_ns() + settle_ms * 1_000_000);
        let _ = self.phase_tx.send(1);
    }
}

/// The local address switch `index` connects from.
pub fn source_for(cfg: &Config, index: u32) -> Option<SocketAddr> {
    if cfg.source_addrs.is_empty() {
        return None;
    }
    let a = &cfg.source_addrs[index as usize % cfg.source_addrs.len()];
    a.parse::<std::net::IpAddr>().ok().map(|ip| SocketAddr::new(ip, 0))
}

/// Run one worker to completion. Blocks the calling thread.
pub fn run(cfg: Config, slice: Slice, cmds: UnboundedReceiver<Cmd>, emit: &mut dyn FnMut(WorkerEvent)) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio runtime");
    let local = tokio::task::LocalSet::new();
    local.block_on(&rt, async move {
        if cfg.mode == Mode::Capacity {
            crate::capacity::run(cfg, slice, cmds, emit).await
        } else {
            run_load(cfg, slice, cmds, emit).await
        }
    });
}

async fn run_load(cfg: Config, slice: Slice, mut cmds: UnboundedReceiver<Cmd>, emit: &mut dyn FnMut(WorkerEvent)) {
    let addr: SocketAddr = match crate::limits::resolve(&cfg.controller) {
        Ok(a) => a,
        Err(e) => return emit(WorkerEvent::Fatal(e)),
    };
    let n = slice.hi - slice.lo;
    let per_switch_hist = cfg.per_switch_histograms;
    let sh = Rc::new(Shared::new(cfg, n));
    let permits = Rc::new(Semaphore::new(sh.cfg.connect_parallel.max(1) as usize));
    let mut stats = Vec::with_capacity(n as usize);
    let t_connect = Instant::now();
    for (pos, index) in (slice.lo..slice.hi).enumerate() {
        let mut s = SwitchStats::new(index, sh.cfg.first_dpid + index as u64, per_switch_hist);
        s.sample_every = crate::session::latency_sample_every(sh.cfg.mode);
        let st = Rc::new(RefCell::new(s));
        stats.push(st.clone());
        let (sh2, permits) = (sh.clone(), permits.clone());
        tokio::task::spawn_local(async move {
            let permit = permits.acquire().await.expect("semaphore open");
            let stream = connect(addr, source_for(&sh2.cfg, index)).await;
            drop(permit);
            Session::new(sh2, st, index, pos as u32).run(stream).await;
        });
    }
    // Everyone up (or failed): tell the coordinator, then wait for its go.
    loop {
        let notified = sh.changed.notified();
        if sh.up.get() + sh.finished.get() >= n || sh.stopped() {
            break;
        }
        notified.await;
    }
    let mut ready = Ready {
        worker: slice.worker,
        protocol: PROTOCOL.into(),
        pid: std::process::id(),
        up: sh.up.get(),
        failed: n - sh.up.get(),
        handshake_s: t_connect.elapsed().as_secs_f64(),
        ..Default::default()
    };
    for st in &stats {
        if let Some(d) = &st.borrow().disconnect {
            *ready.failures.entry(d.reason.clone()).or_insert(0) += 1;
        }
    }
    emit(WorkerEvent::Ready(ready));
    let mut stopped_early = false;
    match cmds.recv().await {
        Some(Cmd::Go) => sh.go(sh.cfg.settle_ms),
        _ => {
            stopped_early = true;
            sh.stop_all();
        }
    }
    if !stopped_early {
        stopped_early = tick(&sh, &stats, slice.worker, &mut cmds, emit).await;
    }
    // Let sessions drain (they end by themselves at drain end), or stop now.
    let finish_by = sh.instant_of(sh.drain_end_ns()) + Duration::from_millis(500);
    if !all_finished_by(&sh, n, finish_by).await {
        sh.stop_all();
    }
    // Stopped sessions record their end on their next turn: wait for all of them (bounded).
    all_finished_by(&sh, n, Instant::now() + Duration::from_secs(5)).await;
    if let Some(msg) = sh.fatal.borrow().clone() {
        emit(WorkerEvent::Fatal(msg));
    }
    // Per-switch histograms (when kept) were not recorded twice: merge them in now.
    let mut merged = sh.merged.borrow_mut();
    for st in &stats {
        if let Some(h) = &st.borrow().hist {
            merged.merge(h);
        }
    }
    let report = WorkerReport {
        worker: slice.worker,
        pid: std::process::id(),
        switches: stats.iter().map(|s| switch_report(&s.borrow(), slice.worker)).collect(),
        hist_b64: merged.to_base64(),
        hist_clamped: merged.clamped,
        stopped_early,
        capacity: None,
    };
    emit(WorkerEvent::Done(Box::new(report)));
}

/// Snapshot every switch at each loop boundary. Returns true when stopped early.
/// Waits until all `n` sessions have finished (true) or `deadline` passes (false).
async fn all_finished_by(sh: &Shared, n: u32, deadline: Instant) -> bool {
    loop {
        let notified = sh.changed.notified();
        if sh.finished.get() >= n {
            return true;
        }
        tokio::select! {
            _ = notified => {}
            _ = sleep_until(deadline) => return sh.finished.get() >= n,
        }
    }
}

async fn tick(
    sh: &Shared,
    stats: &[Rc<RefCell<SwitchStats>>],
    worker: u32,
    cmds: &mut UnboundedReceiver<Cmd>,
    emit: &mut dyn FnMut(WorkerEvent),
) -> bool {
    let total = sh.cfg.warmup + sh.cfg.loops;
    let (mut prev_answered, mut prev_sent) = (0u64, 0u64);
    for k in 1..=total {
        let at = sh.instant_of(sh.go_ns.get() + k as u64 * sh.cfg.loop_ms * 1_000_000);
        let stop = tokio::select! {
            _ = sleep_until(at) => false,
            c = cmds.recv() => !matches!(c, Some(Cmd::Go)),
        };
        if stop || sh.stopped() {
            sh.stop_all();
            return true;
        }
        let mut iv = Interval { worker, k, ..Default::default() };
        let per_switch = stats.len() <= crate::protocol::PER_SWITCH_IN_INTERVALS;
        for st in stats {
            let mut s = st.borrow_mut();
            let (a, se) = (s.answered, s.sent);
            if per_switch {
                iv.per_switch.push(a - s.answered_at.last().copied().unwrap_or(0));
            }
            s.answered_at.push(a);
            s.sent_at.push(se);
            iv.answered += a;
            iv.sent += se;
            iv.lost += s.lost;
            iv.up += (s.state == SessionState::Up) as u32;
        }
        let (a, se) = (iv.answered, iv.sent);
        iv.answered -= prev_answered;
        iv.sent -= prev_sent;
        prev_answered = a;
        prev_sent = se;
        emit(WorkerEvent::Interval(iv));
    }
    false
}

fn deltas(cum: &[u64]) -> Vec<u64> {
    let mut prev = 0;
    cum.iter()
        .map(|&c| {
            let d = c - prev;
            prev = c;
            d
        })
        .collect()
}

pub fn switch_report(s: &SwitchStats, worker: u32) -> SwitchReport {
    SwitchReport {
        index: s.index,
        dpid: s.dpid,
        worker,
        of_version: match s.version {
            1 => Some("1.0".into()),
            4 => Some("1.3".into()),
            0 => None,
            v => Some(format!("0x{v:02x}")),
        },
        handshake_ms: s.handshake_ns.map(|n| n as f64 / 1e6),
        sent: s.sent,
        answered: s.answered,
        lost: s.lost,
        extra: s.extra,
        unmatched: s.unmatched,
        late: s.late,
        learning_replies: s.learning_replies,
        lldp_packet_outs: s.lldp_out,
        lldp_packet_ins: s.lldp_in,
        errors: s.errors.iter().map(|((t, c), n)| (format!("{t}.{c}"), *n)).collect(),
        replies_by_type: s.replies_by_name(),
        answered_per_loop: deltas(&s.answered_at),
        sent_per_loop: deltas(&s.sent_at),
        latency: s.hist.as_ref().filter(|h| h.count() > 0).map(|h| h.summary()),
        echo_rtt_us: s.echo_rtt_ns.iter().map(|&n| n as f64 / 1000.0).collect(),
        disconnect: s.disconnect.clone(),
    }
}
