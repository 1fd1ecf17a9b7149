//! What the sessions of one worker share (`Shared`: one thread, so `Cell`/`RefCell` and no
//! locks), the inboxes of linked switches, the address each switch connects from, and the report
//! a switch's counters make (`switch_report`). The worker itself is `worker.rs`.

use crate::config::Config;
use crate::hist::Hist;
use crate::result::SwitchReport;
use crate::switch::accounting::SwitchStats;
use std::cell::{Cell, RefCell};
use std::net::SocketAddr;
use std::rc::Rc;
use tokio::sync::{watch, Notify};
use tokio::time::{sleep_until, Duration, Instant};

const SCRATCH: usize = 256 * 1024;

/// A read into the scratch buffer starts on this boundary (`read_at`).
const LINE: usize = 64;

/// Where a session puts its `keep` bytes of a partial message and its next read in the worker's
/// scratch `buf`: (start, at), `at - start == keep`, the read landing at `buf[at..]` on a 64-byte
/// boundary of memory. The buffer's allocation starts 16 bytes into a page, and the kernel copies
/// a read into user space at about a third of the speed per byte when the destination sits 8 to
/// 32 bytes past the socket data's offset in its page (at 0 for the controller's large writes):
/// a false dependency of each line's load on the previous line's store (`_copy_to_iter` was 36%
/// of the engine's CPU, 15% of cbench's; `bench.py copy`: 0.54–0.73 ns per byte at 8 and 16,
/// 0.20–0.26 at 0, 64 and 2,064, `AMD EPYC`; docs/engine-figures.md, "The kernel's copy, aligned").
pub fn read_at(buf: &[u8], keep: usize) -> (usize, usize) {
    let base = buf.as_ptr() as usize;
    let at = (base + keep).next_multiple_of(LINE) - base;
    (at - keep, at)
}

/// The longest drain after the last loop, however long the loss timeout (`drain_end_ns`); the
/// C client of `bench.py held` drains as long (`bench/engine/held.py`, `DRAIN_MAX_MS`).
pub const DRAIN_MAX_MS: u64 = 10_000;

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
    /// Where sessions with nothing left unwritten build their requests before the write
    /// (`Session::send_requests`): one buffer that stays in cache for the worker's switches.
    pub wscratch: Rc<RefCell<Vec<u8>>>,
    up: Cell<u32>,
    finished: Cell<u32>,
    /// Sessions waiting in the drain with nothing left in flight (`drain.rs`): they keep their
    /// connection until the worker's drain is over, as a C client's process does.
    settled: Cell<u32>,
    /// Session tasks alive (`driver/requests.rs`): spawned, not yet at their end.
    tasks: Cell<u32>,
    changed: Notify,
    /// Inboxes of the switches that have links, by dpid.
    pub inboxes: RefCell<std::collections::HashMap<u64, Rc<Inbox>>>,
    /// This worker's part of the emulated network (`network/`), when the config has one.
    pub net: RefCell<Option<Rc<crate::network::node::Node>>>,
    /// The learning phase's counters (`learning.rs`).
    pub learning: crate::switch::learning::Learning,
    /// Wake coalescing (`coalesce.rs`): on in throughput mode with `coalesce_pct` > 0.
    pub coalescing: bool,
    pub park: std::sync::Arc<crate::switch::coalesce::Park>,
    pub floor: RefCell<crate::switch::coalesce::Floor>,
    /// Per-loop account of a fixed-rate or keep-alive run (`load.rs`): on, and this loop's
    /// request latencies and echo round trips (taken at each loop's end).
    pub load_account: bool,
    pub loop_hist: RefCell<Hist>,
    pub echo_hist: RefCell<Hist>,
    /// Fixed-rate runs: the go wakes the sessions group by group (`stagger.rs`), not at once.
    pub stagger: Option<crate::switch::stagger::Stagger>,
    /// The switches touched since the last loop boundary, and the running totals (`tally.rs`).
    pub tally: crate::switch::tally::Tally,
    /// Where a backlog sits, this loop (`trace.rs`): turns, timer lag, blocked writes, capped reads.
    pub trace: crate::switch::trace::Trace,
    /// TLS runs: the worker's TLS client (or why it could not be made; `Config::tls`).
    pub tls: Option<crate::tls::Tls>,
}

impl Shared {
    pub fn new(cfg: Config, n_local: u32) -> Shared {
        let (phase_tx, phase_rx) = watch::channel(0);
        Shared {
            n_local,
            epoch: Instant::now(),
            go_ns: Cell::new(0),
            stop: Cell::new(false),
            fatal: RefCell::new(None),
            phase_rx,
            phase_tx,
            merged: RefCell::new(Hist::with_sigfig(3)),
            scratch: Rc::new(RefCell::new(vec![0; SCRATCH + LINE])),
            wscratch: Rc::new(RefCell::new(Vec::with_capacity(SCRATCH))),
            up: Cell::new(0),
            finished: Cell::new(0),
            settled: Cell::new(0),
            tasks: Cell::new(0),
            changed: Notify::new(),
            inboxes: RefCell::new(Default::default()),
            net: RefCell::new(None),
            learning: Default::default(),
            coalescing: cfg.coalescing(),
            park: crate::switch::coalesce::current(),
            floor: RefCell::new(crate::switch::coalesce::Floor::new(cfg.coalesce_pct)),
            load_account: cfg.mode == crate::config::Mode::FixedRate || cfg.echo_every_ms > 0,
            loop_hist: RefCell::new(Hist::with_sigfig(3)),
            echo_hist: RefCell::new(Hist::with_sigfig(3)),
            stagger: (cfg.mode == crate::config::Mode::FixedRate).then(|| crate::switch::stagger::Stagger::new(n_local)),
            tally: Default::default(),
            trace: Default::default(),
            tls: cfg.tls.as_ref().map(|t| crate::tls::Client::new(t, cfg.controller())),
            cfg,
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
    /// The drain after the last loop ends when nothing is left in flight, or at the latest
    /// this long after the loops' end: the loss timeout, so that a request sent in the last
    /// loop has its whole timeout (its answer counted, or it counted lost) before the run calls
    /// it in flight at the stop; bounded by `DRAIN_MAX_MS` (issue 50: `bench/engine/held.py`
    /// judges the engine and the C client under this one drain).
    pub fn drain_end_ns(&self) -> u64 {
        self.end_ns() + self.timeout_ns().min(DRAIN_MAX_MS * 1_000_000)
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
        go != 0 && now >= go + self.cfg.warmup as u64 * self.cfg.loop_period_ns() && now < self.end_ns()
    }
    pub fn miss_send_len(&self) -> Option<u16> {
        if self.cfg.buffered {
            Some(128)
        } else {
            None
        }
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
    /// A session has nothing left in flight in the drain (`settled` false: it no longer waits).
    pub fn session_settled(&self, settled: bool) {
        self.settled.set(if settled { self.settled.get() + 1 } else { self.settled.get() - 1 });
        self.changed.notify_waiters();
    }
    /// The drain is over for every session: each has ended or has nothing left in flight.
    pub fn all_settled(&self, n: u32) -> bool {
        self.finished.get() + self.settled.get() >= n
    }
    /// A session's task was spawned (`task_ended` at its end).
    pub fn task_spawned(&self) {
        self.tasks.set(self.tasks.get() + 1);
    }
    pub fn task_ended(&self) {
        self.tasks.set(self.tasks.get() - 1);
    }
    /// Session tasks alive: what the worker holds for its switches beside their records.
    #[cfg(test)]
    pub fn tasks_alive(&self) -> u32 {
        self.tasks.get()
    }
    pub fn up_count(&self) -> u32 {
        self.up.get()
    }
    pub fn finished_count(&self) -> u32 {
        self.finished.get()
    }
    pub fn fatal(&self) -> Option<String> {
        self.fatal.borrow().clone()
    }
    /// Wait until `done()` holds (true) or `deadline` passes (false); re-checked on every
    /// session change.
    pub async fn wait_until(&self, done: impl Fn() -> bool, deadline: Option<Instant>) -> bool {
        loop {
            let notified = self.changed.notified();
            if done() {
                return true;
            }
            match deadline {
                None => notified.await,
                Some(d) => tokio::select! {
                    _ = notified => {}
                    _ = sleep_until(d) => return done(),
                },
            }
        }
    }
    /// Sessions send their learning requests on their next turn (`learning.rs`).
    pub fn open_learning(&self, expected: u64) {
        self.learning.open(expected, self.now_ns());
        let _ = self.phase_tx.send(2);
    }
    /// The measured phase begins `settle_ms` from now. Every waiting session is told at once,
    /// except in a staggered run, where `release_staggered` wakes them group by group.
    pub fn go(&self, settle_ms: u64) {
        self.go_ns.set(self.now_ns() + settle_ms * 1_000_000);
        self.trace.take(); // the first loop's trace starts here, not with the handshakes
        if self.stagger.is_none() {
            let _ = self.phase_tx.send(1);
        }
    }
    /// A staggered run's go (`stagger.rs`): wake each group of sessions at its first request.
    pub async fn release_staggered(&self) {
        if let Some(s) = &self.stagger {
            // no session wakes after its first request or its first echo (`keepalive.rs`)
            let mut period = crate::switch::pacer::rate_period_ns(&self.cfg);
            if self.cfg.echo_every_ms > 0 {
                period = period.min(self.cfg.echo_every_ms as f64 * 1e6);
            }
            s.release(self.go_ns(), period, self.end_ns(), |ns| self.instant_of(ns)).await;
        }
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

/// A switch's report; `loops`: the loop boundaries its worker took (its per-loop columns).
pub fn switch_report(s: &SwitchStats, worker: u32, loops: u32) -> SwitchReport {
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
        hello_fallback: s.hello_fallback,
        handshake_ms: s.handshake_ns.map(|n| n as f64 / 1e6),
        tcp_connect_us: s.opening.map(|o| o.tcp_connect_ns as f64 / 1e3),
        tls_handshake_us: s.tls.as_ref().and(s.opening).map(|o| o.tls_handshake_ns as f64 / 1e3),
        openflow_handshake_us: s.of_handshake_ns.map(|n| n as f64 / 1e3),
        tls_version: s.tls.as_ref().map(|t| t.version.clone()),
        tls_cipher_suite: s.tls.as_ref().map(|t| t.cipher_suite.clone()),
        requests: s.requests,
        late_ns_sum: s.rare().late_ns_sum,
        late_ns_max: s.rare().late_ns_max,
        learning_replies: s.learning_replies,
        learning_late_replies: s.rare().learning_late,
        lldp_packet_outs: s.rare().lldp_out,
        lldp_packet_ins: s.rare().lldp_in,
        errors: s.rare().errors.iter().map(|((t, c), n)| (format!("{t}.{c}"), *n)).collect(),
        replies_by_type: s.replies_by_name(),
        answered_per_loop: s.answered_at.per_loop(loops),
        sent_per_loop: s.sent_at.per_loop(loops),
        latency: s.hist.as_ref().filter(|h| h.count() > 0).map(|h| h.summary()),
        echo_rtt_us: s.rare().echo_rtt_ns.iter().map(|&n| n as f64 / 1000.0).collect(),
        disconnect: s.disconnect.clone(),
        keepalive: s.ka.clone(),
        reconnect: s.reconnect.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The drain lasts the loss timeout (a request of the last loop gets all of it), at most
    /// `DRAIN_MAX_MS`; it once stopped at 1 s, before a 2 s timeout had passed (issue 50).
    #[test]
    fn the_drain_lasts_the_timeout_up_to_its_bound() {
        let drain_ms = |timeout_ms: u64| {
            let sh = Shared::new(Config { timeout_ms, ..Config::default() }, 1);
            (sh.drain_end_ns() - sh.end_ns()) / 1_000_000
        };
        assert_eq!(drain_ms(200), 200);
        assert_eq!(drain_ms(2000), 2000);
        assert_eq!(drain_ms(DRAIN_MAX_MS), DRAIN_MAX_MS);
        assert_eq!(drain_ms(60_000), DRAIN_MAX_MS);
    }

    /// Whatever a partial message's length and wherever the buffer starts, the read lands on a
    /// cache line, right after the partial bytes, and leaves the read at least SCRATCH - keep.
    #[test]
    fn a_read_lands_on_a_cache_line_right_after_the_partial_message() {
        let sh = Shared::new(Config::default(), 1);
        let whole = sh.scratch.borrow();
        for skew in [0, 1, 16, 63] {
            let buf = &whole[skew..];
            for keep in [0, 1, 15, 16, 63, 64, 65, 80 * 1024 + 7, SCRATCH / 2] {
                let (start, at) = read_at(buf, keep);
                assert_eq!(at - start, keep, "skew {skew}, keep {keep}");
                assert_eq!((buf.as_ptr() as usize + at) % LINE, 0, "skew {skew}, keep {keep}");
                assert!(start < LINE, "skew {skew}, keep {keep}: the partial starts within a line of the buffer's start");
                assert!(buf.len() - at >= SCRATCH - keep - skew, "skew {skew}, keep {keep}");
            }
        }
    }
}
