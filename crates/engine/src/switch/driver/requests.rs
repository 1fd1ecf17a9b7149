//! The request workloads (throughput, latency, fixed-rate): connect every switch of the slice,
//! report ready, wait for the go, tick the loops, drain, report. What each session sends is set
//! by its `Pacer`; how replies are judged by `accounting.rs`.

use crate::config::{Config, Slice};
use crate::switch::accounting::SwitchStats;
use crate::switch::protocol::{Cmd, Interval, Ready, Switches, WorkerEvent, WorkerReport, PROTOCOL, SWITCHES_PER_EVENT};
use crate::switch::session::{socket::open, Session};
use crate::switch::shared::{switch_report, Shared};
use crate::switch::tally::Counted;
use std::cell::RefCell;
use std::net::SocketAddr;
use std::rc::Rc;
use tokio::sync::{mpsc::UnboundedReceiver, Semaphore};
use tokio::time::{sleep_until, Duration, Instant};

type Stats = Vec<Rc<RefCell<SwitchStats>>>;

pub async fn run(cfg: Config, slice: Slice, mut cmds: UnboundedReceiver<Cmd>, emit: &mut dyn FnMut(WorkerEvent)) {
    let addr: SocketAddr = match crate::config::limits::resolve(cfg.controller()) {
        Ok(a) => a,
        Err(e) => return emit(WorkerEvent::Fatal(e)),
    };
    let n = slice.hi - slice.lo;
    let sh = Rc::new(Shared::new(cfg, n));
    match crate::network::attach::attach(&sh.cfg, slice).await {
        Ok(net) => *sh.net.borrow_mut() = net,
        Err(e) => return emit(WorkerEvent::Fatal(e)),
    }
    let t_connect = Instant::now();
    let stats = spawn_sessions(&sh, slice, addr);
    let handshake = async {
        sh.wait_until(|| sh.up_count() + sh.finished_count() >= n || sh.stopped(), None).await;
        let mut r = ready(&sh, &stats, slice.worker, t_connect);
        r.learning = learn(&sh).await;
        r
    };
    // before READY the coordinator sends nothing but a stop (or goes away): it ends the wait
    let go = match tokio::select! { r = handshake => Some(r), _ = cmds.recv() => None } {
        Some(r) => {
            emit(WorkerEvent::Ready(r));
            matches!(cmds.recv().await, Some(Cmd::Go))
        }
        None => false,
    };
    let mut stopped_early = !go;
    if go {
        sh.go(sh.cfg.settle_ms);
        if let Some(node) = &*sh.net.borrow() {
            crate::network::attach::go(node, &sh.cfg);
        }
    } else {
        sh.stop_all();
    }
    if !stopped_early && sh.stagger.is_some() {
        let sh2 = sh.clone();
        tokio::task::spawn_local(async move { sh2.release_staggered().await });
    }
    if !stopped_early {
        stopped_early = tick(&sh, &stats, slice.worker, &mut cmds, emit).await;
    }
    // Let sessions drain: once each has ended or has nothing left in flight (`drain.rs`), or
    // the drain is over, stop them all.
    let finish_by = sh.instant_of(sh.drain_end_ns()) + Duration::from_millis(500);
    sh.wait_until(|| sh.all_settled(n), Some(finish_by)).await;
    if sh.finished_count() < n {
        sh.stop_all();
    }
    // Stopped sessions record their end on their next turn: wait for all of them
    wait_ended(&sh, n, ENDS_QUIET).await;
    if let Some(msg) = sh.fatal() {
        emit(WorkerEvent::Fatal(msg));
    }
    let mut rep = report(&sh, &stats, slice.worker, stopped_early);
    // what the ended sessions freed goes back to the system before the records go, so the end
    // of a run is not the worker's peak (docs/million.md, "The end of a run")
    crate::trim::give_back();
    send_records(&sh, &stats, slice.worker, emit);
    let net = sh.net.borrow().clone();
    if let Some(node) = net {
        rep.network = Some(crate::network::attach::finish(&node).await);
    }
    emit(WorkerEvent::Done(Box::new(rep)));
}

/// How long the stopped sessions may go without one of them ending before the worker stops
/// waiting for the rest (a session that never takes its turn must not hold the run).
const ENDS_QUIET: Duration = Duration::from_secs(5);

/// Wait until all `n` sessions have ended, as long as they keep ending: the wait ends once `quiet`
/// passes with none ending. A fixed bound ran out on a saturated machine (issue 50: at 1,000,000
/// sessions on 2 cores, 5 s after the stop 876,000 had not had their turn), so the worker
/// trimmed and sent its records with their memory still held and its peak came at the end.
async fn wait_ended(sh: &Shared, n: u32, quiet: Duration) -> bool {
    loop {
        let before = sh.finished_count();
        if sh.wait_until(|| sh.finished_count() >= n, Some(Instant::now() + quiet)).await {
            return true;
        }
        if sh.finished_count() == before {
            return false;
        }
    }
}

/// The learning phase (`learning.rs`): give the controller `learn_after_ms` to finish its own
/// handshake with every switch, open the phase, and wait for it to drain.
async fn learn(sh: &Shared) -> crate::switch::learning::Drain {
    let up = u64::from(sh.up_count());
    if !crate::switch::workload::Workload::of(&sh.cfg).learns(&sh.cfg) || up == 0 || sh.stopped() {
        return crate::switch::learning::Drain { ended: "none".into(), ..Default::default() };
    }
    sh.wait_until(|| sh.stopped(), Some(Instant::now() + Duration::from_millis(sh.cfg.learn_after_ms))).await;
    sh.open_learning(up * u64::from(crate::switch::workload::learning_requests(&sh.cfg)));
    sh.learning.drain(&|| sh.now_ns(), &|| sh.stopped(), sh.cfg.learn_quiet_ms, sh.cfg.learn_deadline_ms).await
}

/// Every switch's record, made here (the loop boundaries and the report read them all), and the
/// task that starts the sessions (`launch`).
fn spawn_sessions(sh: &Rc<Shared>, slice: Slice, addr: SocketAddr) -> Stats {
    let workload = crate::switch::workload::Workload::of(&sh.cfg);
    let mut stats = Vec::with_capacity((slice.hi - slice.lo) as usize);
    for index in slice.lo..slice.hi {
        let mut s = SwitchStats::new(index, sh.cfg.first_dpid + index as u64, sh.cfg.per_switch_histograms);
        s.sample_every = workload.latency_sample_every(&sh.cfg);
        s.loop_lat_ns = sh.cfg.robustness.is_some().then(Vec::new);
        stats.push(Rc::new(RefCell::new(s)));
    }
    tokio::task::spawn_local(launch(sh.clone(), stats.clone(), slice.lo, addr));
    stats
}

/// Start the switches' sessions in order, each once one of the worker's `connect_parallel`
/// slots is free (its session gives the slot back once its first OpenFlow handshake is done or
/// its first attempt ends: `Session::holding`). So at most `connect_parallel` session tasks are
/// alive beside those that came up: the switches still to connect hold no task (issue 50: one
/// task per switch from the start cost each worker ~20,000 futures and a semaphore queue as
/// long, allocated and polled before the first connect). After a stop, the switches not yet
/// started end without connecting.
async fn launch(sh: Rc<Shared>, stats: Stats, lo: u32, addr: SocketAddr) {
    let slots = Rc::new(Semaphore::new(sh.cfg.connect_parallel.max(1) as usize));
    let mut rest = stats.into_iter().enumerate();
    for (pos, st) in rest.by_ref() {
        slots.acquire().await.expect("semaphore open").forget();
        if sh.stopped() {
            sh.session_finished();
            break;
        }
        sh.task_spawned();
        let index = lo + pos as u32;
        tokio::task::spawn_local(session_task(sh.clone(), st, index, pos as u32, slots.clone(), addr));
    }
    rest.for_each(|_| sh.session_finished());
}

/// One switch's task, started with a connect slot taken: the connection, the session to its
/// end. Its future is what the worker holds per switch (`footprint.rs` prints its size).
async fn session_task(sh: Rc<Shared>, st: Rc<RefCell<SwitchStats>>, index: u32, pos: u32, slots: Rc<Semaphore>, addr: SocketAddr) {
    // boxed: the connect's state is freed once it is done, not held for the session's life
    let stream = Box::pin(open(&sh, addr, index, sh.cfg.connect_timeout_ms * 1_000_000)).await;
    let mut session = Session::new(sh.clone(), st, index, pos).holding(slots);
    session.run(stream, addr).await;
    sh.task_ended();
}

/// The size of a switch's task future (`footprint.rs`).
#[cfg(test)]
pub fn task_size() -> usize {
    let sh = Rc::new(Shared::new(Config::default(), 1));
    let st = Rc::new(RefCell::new(SwitchStats::new(0, 1, false)));
    std::mem::size_of_val(&session_task(sh, st, 0, 0, Rc::new(Semaphore::new(1)), "127.0.0.1:1".parse().unwrap()))
}

fn ready(sh: &Shared, stats: &Stats, worker: u32, t_connect: Instant) -> Ready {
    let mut ready = Ready {
        worker,
        protocol: PROTOCOL.into(),
        pid: std::process::id(),
        up: sh.up_count(),
        failed: sh.n_local - sh.up_count(),
        handshake_s: t_connect.elapsed().as_secs_f64(),
        ..Default::default()
    };
    // failures are sessions that never came up (attempted = up + failed); one lost after its
    // handshake is up, and reported as lost (`disconnects`, the status)
    for st in stats {
        let st = st.borrow();
        if let (Some(d), None) = (&st.disconnect, st.handshake_ns) {
            *ready.failures.entry(d.reason.clone()).or_insert(0) += 1;
        }
    }
    ready
}

fn report(sh: &Shared, stats: &Stats, worker: u32, stopped_early: bool) -> WorkerReport {
    // Per-switch histograms (when kept) were not recorded twice: merge them in now.
    let mut merged = sh.merged.borrow_mut();
    let now = sh.now_ns();
    for st in stats {
        // a switch still down was down until the measured phase ended (or now, if lost after)
        let mut s = st.borrow_mut();
        let end = if sh.go_ns() != 0 && s.down_since.is_some_and(|t| t < sh.end_ns()) { sh.end_ns().min(now) } else { now };
        s.close_down_time(end, sh.cfg.reconnects());
        drop(s);
        if let Some(h) = &st.borrow().hist {
            merged.merge(h);
        }
    }
    WorkerReport {
        worker,
        pid: std::process::id(),
        // sent before, a block at a time (`send_records`)
        switches: vec![],
        hist_b64: merged.to_base64(),
        hist_clamped: merged.clamped,
        stopped_early,
        capacity: None,
        network: None,
        coalesce: sh.park.report(),
        agent: None,
    }
}

/// The switches' records, [`SWITCHES_PER_EVENT`] at a time, before the report: the worker never
/// holds them all, nor their text, nor does the coordinator, which takes each block as it comes.
fn send_records(sh: &Shared, stats: &Stats, worker: u32, emit: &mut dyn FnMut(WorkerEvent)) {
    for block in stats.chunks(SWITCHES_PER_EVENT) {
        let records = block.iter().map(|s| switch_report(&s.borrow(), worker, sh.tally.loops())).collect();
        emit(WorkerEvent::Switches(Switches { worker, records }));
    }
}

/// The loop boundaries: at each, the switches touched since the last one are visited
/// (`tally.rs`) and the worker's totals reported. Returns true when stopped early.
async fn tick(sh: &Shared, stats: &Stats, worker: u32, cmds: &mut UnboundedReceiver<Cmd>, emit: &mut dyn FnMut(WorkerEvent)) -> bool {
    let total = sh.cfg.warmup + sh.cfg.loops;
    let (mut prev, mut prev_offered) = (Counted::default(), 0);
    for k in 1..=total {
        let at = sh.instant_of(sh.go_ns() + k as u64 * sh.cfg.loop_period_ns());
        let stop = tokio::select! {
            _ = sleep_until(at) => false,
            c = cmds.recv() => !matches!(c, Some(Cmd::Go)),
        };
        if stop || sh.stopped() {
            sh.stop_all();
            return true;
        }
        let mut iv = Interval { worker, k, ..Default::default() };
        let cum = sh.tally.boundary(k, stats, |s| {
            if let Some(v) = s.loop_lat_ns.as_mut() {
                iv.latency_us.extend(v.drain(..).map(|ns| u32::try_from((ns + 500) / 1000).unwrap_or(u32::MAX)));
            }
        });
        if stats.len() <= crate::switch::protocol::PER_SWITCH_IN_INTERVALS {
            per_switch(&mut iv, stats, k);
        }
        if let Some(n) = sh.net.borrow().as_ref() {
            (iv.net_connected, iv.net_dirs_seen, iv.net_links) = n.progress();
        }
        (iv.answered, iv.sent, iv.responses) = (cum.answered - prev.answered, cum.sent - prev.sent, cum.responses - prev.responses);
        (iv.lost, iv.up) = (cum.lost, cum.up as u32);
        if sh.load_account {
            let t = (sh.go_ns() + k as u64 * sh.cfg.loop_period_ns()).min(sh.end_ns());
            iv.load = Some(loop_load(sh, t, &cum, &prev, &mut prev_offered));
        }
        prev = cum;
        emit(WorkerEvent::Interval(iv));
        if sh.net.borrow().as_ref().is_some_and(|n| n.prov_done()) {
            // the provisioning traffic ended: nothing left to measure, end the run here
            sh.stop_all();
            return false;
        }
    }
    false
}

/// Small slices: every switch's answers and responses in loop `k`.
fn per_switch(iv: &mut Interval, stats: &Stats, k: u32) {
    for st in stats {
        let s = st.borrow();
        iv.per_switch.push(s.answered_at.at(k) - s.answered_at.at(k - 1));
        iv.per_switch_responses.push(s.responses_at.at(k) - s.responses_at.at(k - 1));
    }
}

/// This loop's account (`load.rs`), ending at `t` (worker clock): the counts since the last
/// boundary (`prev`, `prev_offered`), the backlog (offered by `t`, neither sent nor skipped
/// while disconnected), the loop's histograms.
fn loop_load(sh: &Shared, t: u64, c: &Counted, prev: &Counted, prev_offered: &mut u64) -> crate::switch::load::LoopLoad {
    let period = crate::switch::pacer::rate_period_ns(&sh.cfg);
    let offered_now = match sh.stagger {
        Some(_) => crate::switch::load::offered_sum(sh.go_ns(), period, sh.n_local, t),
        None => 0,
    };
    crate::switch::load::LoopLoad {
        offered: offered_now - std::mem::replace(prev_offered, offered_now),
        late: c.late - prev.late,
        not_sent_disconnected: c.not_sent_disconnected - prev.not_sent_disconnected,
        backlog: offered_now.saturating_sub(c.sent + c.not_sent_disconnected),
        echo_sent: c.echo_sent - prev.echo_sent,
        echo_answered: c.echo_answered - prev.echo_answered,
        echo_lost: c.echo_lost - prev.echo_lost,
        hist_b64: crate::switch::load::take(&mut sh.loop_hist.borrow_mut()),
        echo_hist_b64: crate::switch::load::take(&mut sh.echo_hist.borrow_mut()),
        trace: sh.trace.take(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use tokio::net::TcpListener;
    use tokio::task::{spawn_local, LocalSet};

    /// The wait for the stopped sessions' ends goes on while they keep ending, however long
    /// that takes in all, and ends after `quiet` without one.
    #[tokio::test(flavor = "current_thread")]
    async fn the_wait_for_the_ends_lasts_while_sessions_keep_ending() {
        let quiet = Duration::from_millis(150);
        for (n, ending) in [(12u32, 12u32), (12, 5)] {
            let sh = Rc::new(Shared::new(Config::default(), n));
            let ends = sh.clone();
            LocalSet::new()
                .run_until(async move {
                    spawn_local(async move {
                        for _ in 0..ending {
                            tokio::time::sleep(Duration::from_millis(50)).await;
                            ends.session_finished();
                        }
                    });
                    let t = Instant::now();
                    let all = wait_ended(&sh, n, quiet).await;
                    let took = t.elapsed();
                    assert_eq!((all, sh.finished_count()), (ending == n, ending), "ended of {n}");
                    // 12 ends 50 ms apart take 600 ms, four times `quiet`: a fixed bound would have cut them
                    assert!(took >= Duration::from_millis(50 * u64::from(ending)), "returned after {took:?}");
                    if ending < n {
                        assert!(took >= Duration::from_millis(50 * u64::from(ending)) + quiet, "gave up after {took:?}");
                    }
                })
                .await;
        }
    }

    /// Against a controller that accepts and never speaks (no handshake ever completes), a
    /// worker of 200 switches with 4 connect slots holds 4 session tasks, not 200 (issue 50: the
    /// tasks of the switches still to connect cost memory and the scheduler's time); once
    /// stopped, the switches never started end without connecting.
    #[tokio::test(flavor = "current_thread")]
    async fn a_session_task_is_spawned_only_once_a_connect_slot_is_free() {
        let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = l.local_addr().unwrap();
        let n = 200;
        let cfg = Config {
            switches: n,
            connect_parallel: 4,
            connect_timeout_ms: 60_000,
            controllers: vec![addr.to_string()],
            ..Config::default()
        };
        LocalSet::new()
            .run_until(async move {
                let accepted = Rc::new(Cell::new(0u32));
                let counter = accepted.clone();
                spawn_local(async move {
                    let mut held = Vec::new(); // kept open, never answered
                    while let Ok((s, _)) = l.accept().await {
                        held.push(s);
                        counter.set(counter.get() + 1);
                    }
                });
                let sh = Rc::new(Shared::new(cfg, n));
                let _stats = spawn_sessions(&sh, Slice { worker: 0, lo: 0, hi: n }, addr);
                tokio::time::sleep(Duration::from_millis(300)).await; // loopback: every connect that may happen has
                assert_eq!(accepted.get(), 4, "connections opened while no handshake completes");
                assert_eq!(sh.tasks_alive(), 4, "session tasks alive while 4 handshakes wait");
                sh.stop_all();
                let done = sh.wait_until(|| sh.finished_count() >= n, Some(Instant::now() + Duration::from_secs(5))).await;
                assert!(done, "{} of {n} sessions finished after the stop", sh.finished_count());
                assert_eq!((accepted.get(), sh.tasks_alive()), (4, 0), "no switch connects after the stop");
            })
            .await;
    }
}
