//! The run loop: the workers' (or agents') events, gathered until each is done or lost. It
//! waits for every worker's READY, gives the go (agents: after the clock check,
//! `remote.rs`), and merges the intervals into loop totals as they complete. A signal, or
//! a local worker's fatal error or loss, tells everyone to stop; a lost agent is named and the
//! others go on.

use crate::coordinator::handle::Handle;
use crate::coordinator::outcome::{LoopTotal, Outcome};
use crate::coordinator::records::Records;
use crate::coordinator::remote::{Go, Remote};
use crate::coordinator::resources::Sampler;
use crate::coordinator::signals::Stop;
use crate::switch::protocol::{Cmd, Interval, Ready, WorkerEvent};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Tell every worker to stop, once.
fn stop_all(handles: &mut [Handle], stop_sent: &mut bool) {
    if !*stop_sent {
        *stop_sent = true;
        for h in handles.iter_mut() {
            h.send(&Cmd::Stop);
        }
    }
}

/// Where the gathering stands.
#[derive(PartialEq, Eq)]
enum Phase {
    WaitReady,
    /// Agents: pings sent, waiting for every pong.
    Clock,
    Went,
    Stopped,
}

/// The gathering's state: which workers are alive and ready, and the loops not yet complete.
struct Gather {
    ids: Vec<u32>,
    alive: Vec<bool>,
    ready: Vec<bool>,
    phase: Phase,
    stop_sent: bool,
    go_at: Instant,
    pending: std::collections::BTreeMap<u32, (LoopTotal, Vec<u32>)>,
}

/// Gather the workers' events until every one is done (or lost), or `stop` is requested (then
/// every worker is told to stop, and their partial reports still gathered). Each report's
/// records go to `records` as it arrives. Returns whether the go was given.
#[allow(clippy::too_many_arguments)]
pub(crate) fn collect(
    handles: &mut [Handle],
    stop: &Stop,
    ids: &[u32],
    rx: &mpsc::Receiver<(u32, WorkerEvent)>,
    out: &mut Outcome,
    mut remote: Option<&mut (dyn Remote + 'static)>,
    on_ready: &mut dyn FnMut(&[Ready]),
    on_loop: &mut dyn FnMut(&LoopTotal),
    records: &mut dyn Records,
) -> bool {
    let n = handles.len();
    let procs = &sampled_processes(&out.cfg, handles, remote.is_some());
    let mut g = Gather {
        ids: ids.to_vec(),
        alive: vec![true; n],
        ready: vec![false; n],
        phase: Phase::WaitReady,
        stop_sent: false,
        go_at: Instant::now(),
        pending: Default::default(),
    };
    let mut done = 0;
    while done < n {
        if stop.requested() && !g.stop_sent {
            out.status = "interrupted";
            stop_all(handles, &mut g.stop_sent);
        }
        let (w, ev) = match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(x) => x,
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        let w = w as usize;
        match ev {
            WorkerEvent::Ready(r) => {
                g.ready[w] = true;
                out.ready.push(r);
            }
            WorkerEvent::Pong(p) => remote.iter_mut().for_each(|r| r.pong(w, &p)),
            WorkerEvent::Listening(l) => remote.iter_mut().for_each(|r| r.listening(handles, w, l.addr.clone())),
            WorkerEvent::Interval(iv) => merge_interval(&mut g, iv, out, on_loop),
            WorkerEvent::Switches(s) => out.add_switches(s.worker, s.records, records),
            WorkerEvent::Done(r) => {
                done += 1;
                if r.pid != 0 {
                    out.add_report(*r, records);
                }
            }
            WorkerEvent::Fatal(msg) if remote.is_some() => remote.iter_mut().for_each(|r| r.fatal(w, msg.clone())),
            WorkerEvent::Fatal(msg) => {
                out.error.get_or_insert(msg);
                stop_all(handles, &mut g.stop_sent);
            }
            WorkerEvent::Lost(msg) => {
                done += 1;
                g.alive[w] = false;
                if let Some(r) = remote.as_deref_mut() {
                    r.lost(w, msg, g.phase == Phase::Went);
                    flush_complete(&mut g, out, on_loop);
                } else {
                    out.error.get_or_insert(msg);
                    stop_all(handles, &mut g.stop_sent);
                }
            }
        }
        advance(&mut g, handles, out, remote.as_deref_mut(), procs, on_ready);
    }
    g.phase == Phase::Went
}

/// The processes whose CPU and memory the run samples: this one, each worker process, the
/// controller when its pid is given.
fn sampled_processes(cfg: &crate::config::Config, handles: &[Handle], agents: bool) -> Vec<(String, u32)> {
    let mut procs: Vec<(String, u32)> = vec![("engine".into(), std::process::id())];
    // an agent's processes are on its machine: it samples them itself (`AgentFacts`)
    if handles.len() > 1 && !agents {
        procs.extend(handles.iter().enumerate().map(|(i, h)| (format!("worker-{i}"), h.pid())));
    }
    if let Some(pid) = cfg.controller_pid {
        procs.push(("controller".into(), pid));
    }
    procs
}

/// Move on when every live worker is there: the go (local workers), or the clock check and a
/// common start (agents); a clock too far off stops everything with one line.
fn advance(
    g: &mut Gather,
    handles: &mut [Handle],
    out: &mut Outcome,
    mut remote: Option<&mut (dyn Remote + 'static)>,
    procs: &[(String, u32)],
    on_ready: &mut dyn FnMut(&[Ready]),
) {
    let all = |v: &[bool], alive: &[bool]| alive.iter().zip(v).all(|(a, x)| !a || *x) && alive.iter().any(|a| *a);
    if g.stop_sent && g.phase != Phase::Went {
        g.phase = Phase::Stopped;
    }
    if g.phase == Phase::WaitReady && all(&g.ready, &g.alive) {
        out.ready.sort_by_key(|r| r.worker);
        on_ready(&out.ready);
        match remote {
            None => {
                for h in handles.iter_mut() {
                    h.send(&Cmd::Go);
                }
                start_clocks(g, out, procs, Duration::ZERO);
                return;
            }
            Some(ref mut r) => {
                r.ping(handles, &g.alive);
                g.phase = Phase::Clock;
            }
        }
    }
    if let (Phase::Clock, Some(r)) = (&g.phase, remote) {
        match r.go(handles, &g.alive, out.cfg.max_skew_ms) {
            Go::Wait => {}
            Go::At(lead) => start_clocks(g, out, procs, lead),
            Go::Refused(line) => {
                out.error = Some(line);
                stop_all(handles, &mut g.stop_sent);
                g.phase = Phase::Stopped;
            }
        }
    }
}

/// The go is given (`lead` from now): loop times and resource samples count from there.
fn start_clocks(g: &mut Gather, out: &mut Outcome, procs: &[(String, u32)], lead: Duration) {
    g.go_at = Instant::now() + lead;
    out.sampler = Sampler::new(procs.to_vec(), 0.0);
    g.phase = Phase::Went;
}

/// Add a worker's interval to its loop's total; pass on every loop now complete.
fn merge_interval(g: &mut Gather, iv: Interval, out: &mut Outcome, on_loop: &mut dyn FnMut(&LoopTotal)) {
    let e = g.pending.entry(iv.k).or_insert_with(|| (LoopTotal::new(iv.k), vec![]));
    e.0.add(&iv);
    e.1.push(iv.worker);
    flush_complete(g, out, on_loop);
}

/// Loops every live worker has reported, in order (an agent lost mid-run is not waited for).
fn flush_complete(g: &mut Gather, out: &mut Outcome, on_loop: &mut dyn FnMut(&LoopTotal)) {
    let n = g.alive.len();
    loop {
        let Some((&k, (_, from))) = g.pending.iter().next() else { return };
        let complete = (0..n).all(|i| !g.alive[i] || from.contains(&g.ids[i]));
        if !complete {
            return;
        }
        let (mut total, from) = g.pending.remove(&k).expect("present");
        total.assemble(n, from.len());
        total.t_s = g.go_at.elapsed().as_secs_f64();
        out.sampler.sample(total.t_s);
        on_loop(&total);
        out.loops.push(total);
    }
}
