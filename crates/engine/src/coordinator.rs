//! The coordinator: plans the run, starts the workers together, gathers their events, samples
//! resources, and merges everything into one `Outcome`. It owns no sockets.
//!
//! One worker runs on a thread of this process; more run as child processes speaking the JSON-lines
//! protocol (`protocol.rs`) on their stdin/stdout, so a worker could equally be remote. Workers
//! ignore SIGINT/SIGTERM: the coordinator catches them, tells every worker to stop, and still
//! collects their (partial) reports, so an interrupted run is written, marked "interrupted".

use crate::config::{slices, Config, Slice};
use crate::limits::{self, Plan};
use crate::protocol::{encode, Cmd, Interval, Ready, WorkerEvent, WorkerReport};
use crate::resources::Sampler;
use crate::workload::Workload;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

static SIGNALLED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    SIGNALLED.store(true, Ordering::SeqCst);
}

pub fn install_signal_handlers() {
    unsafe {
        libc::signal(libc::SIGINT, on_signal as *const () as libc::sighandler_t);
        libc::signal(libc::SIGTERM, on_signal as *const () as libc::sighandler_t);
    }
}

pub fn interrupted() -> bool {
    SIGNALLED.load(Ordering::SeqCst)
}

/// Loop totals over all workers.
#[derive(Clone, Debug, Default)]
pub struct LoopTotal {
    pub k: u32,
    pub answered: u64,
    pub sent: u64,
    pub lost: u64,
    pub up: u32,
    pub t_s: f64,
    /// Per-switch answered counts in switch order, when every worker sent them.
    pub per_switch: Vec<u64>,
    per_switch_parts: Vec<(u32, Vec<u64>)>,
    /// Replies counted as cbench counts them in this loop, in total and per switch.
    pub responses: u64,
    pub per_switch_responses: Vec<u64>,
    responses_parts: Vec<(u32, Vec<u64>)>,
    /// Network runs: switches connected, link directions probed, links (see `Interval`).
    pub net_connected: u32,
    pub net_dirs_seen: u64,
    pub net_links: u64,
    /// Robustness runs: raw latency samples (µs) of the requests answered in this loop.
    pub latency_us: Vec<u32>,
}

pub struct Outcome {
    pub cfg: Config,
    pub plan: Plan,
    pub ready: Vec<Ready>,
    pub loops: Vec<LoopTotal>,
    pub reports: Vec<WorkerReport>,
    pub sampler: Sampler,
    pub status: &'static str,
    pub error: Option<String>,
    pub warnings: Vec<String>,
    pub started_unix: f64,
    pub finished_unix: f64,
    pub nofile: (u64, u64),
    /// What the robustness attacker observed (`robust/`), when a case was configured.
    pub robustness: Option<crate::robust::Observation>,
}

enum Handle {
    Thread(tokio::sync::mpsc::UnboundedSender<Cmd>, std::thread::JoinHandle<()>),
    Child(Child, Option<ChildStdin>),
}

impl Handle {
    fn send(&mut self, cmd: &Cmd) {
        match self {
            Handle::Thread(tx, _) => {
                let _ = tx.send(cmd.clone());
            }
            Handle::Child(_, stdin) => {
                if let Some(s) = stdin {
                    if writeln!(s, "{}", encode(cmd)).and_then(|_| s.flush()).is_err() {
                        *stdin = None;
                    }
                }
            }
        }
    }
    fn pid(&self) -> u32 {
        match self {
            Handle::Thread(..) => std::process::id(),
            Handle::Child(c, _) => c.id(),
        }
    }
    fn finish(self) {
        match self {
            Handle::Thread(tx, j) => {
                drop(tx);
                let _ = j.join();
            }
            Handle::Child(mut c, stdin) => {
                drop(stdin);
                let deadline = Instant::now() + Duration::from_secs(5);
                while Instant::now() < deadline {
                    if let Ok(Some(_)) = c.try_wait() {
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                let _ = c.kill();
                let _ = c.wait();
            }
        }
    }
}

fn spawn_worker(cfg: &Config, slice: Slice, in_thread: bool, tx: mpsc::Sender<(u32, WorkerEvent)>) -> Result<Handle, String> {
    let w = slice.worker;
    if in_thread {
        let (ctx, crx) = tokio::sync::mpsc::unbounded_channel();
        let cfg = cfg.clone();
        let j = std::thread::Builder::new()
            .name(format!("worker-{w}"))
            .spawn(move || crate::worker::run(cfg, slice, crx, &mut |e| drop(tx.send((w, e)))))
            .map_err(|e| format!("cannot start a worker thread: {e}"))?;
        return Ok(Handle::Thread(ctx, j));
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find my own binary: {e}"))?;
    let mut child = Command::new(exe)
        .arg("worker")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start worker process: {e}"))?;
    let stdout = child.stdout.take().expect("piped");
    std::thread::spawn(move || {
        let mut done = false;
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            match serde_json::from_str::<WorkerEvent>(&line) {
                Ok(e) => {
                    done |= matches!(e, WorkerEvent::Done(_));
                    let _ = tx.send((w, e));
                }
                Err(e) => {
                    let _ = tx.send((w, WorkerEvent::Fatal(format!("worker {w} sent a bad line: {e}"))));
                }
            }
        }
        if !done {
            let _ = tx.send((w, WorkerEvent::Fatal(format!("worker {w} exited without a report"))));
            let _ = tx.send((w, WorkerEvent::Done(Box::default())));
        }
    });
    let mut h = Handle::Child(child, None);
    if let Handle::Child(c, stdin) = &mut h {
        *stdin = c.stdin.take();
    }
    h.send(&Cmd::Start { config: Box::new(cfg.clone()), slice });
    Ok(h)
}

fn unix_now() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0)
}

/// Run `cfg` to the end (or to Ctrl-C). `on_loop` sees each loop's totals as they complete
/// (the live display); `on_ready` the handshake results.
pub fn run(
    mut cfg: Config,
    on_ready: &mut dyn FnMut(&[Ready]),
    on_loop: &mut dyn FnMut(&LoopTotal),
) -> Result<Outcome, String> {
    let started_unix = unix_now();
    let nofile = limits::raise_nofile();
    let plan = limits::plan(&cfg, nofile.1, limits::ephemeral_ports())?;
    cfg.source_addrs = plan.source_addrs.clone();
    if !cfg.links.is_empty() && plan.workers > 1 {
        return Err(format!(
            "--links needs every switch in one worker process, but {} switches need {} workers here",
            cfg.switches, plan.workers
        ));
    }
    if cfg.network.is_some() {
        let w = crate::network::size::check(cfg.switches as u64, cfg.controllers.len().max(1) as u64, plan.workers as u64, nofile.1, crate::network::size::mem_available())?;
        if w != plan.workers as u64 {
            return Err(format!("network: needs {w} workers, the plan has {}", plan.workers));
        }
        // every worker needs the worker count: it decides which worker owns which switch
        cfg.workers = Some(plan.workers);
        if let Some(e) = crate::network::check(&cfg).into_iter().next() {
            return Err(e);
        }
        // a network's switches keep their flow tables (flow-mods go through the switch core)
        cfg.keep_flows = true;
    }
    if cfg.switches > 1024 && cfg.per_switch_histograms {
        cfg.per_switch_histograms = false;
    }
    let parts = slices(cfg.switches, plan.workers);
    let (tx, rx) = mpsc::channel();
    let mut handles = Vec::new();
    for s in &parts {
        handles.push(spawn_worker(&cfg, *s, parts.len() == 1, tx.clone())?);
    }
    drop(tx);
    let mut out = Outcome {
        cfg: cfg.clone(),
        plan,
        ready: vec![],
        loops: vec![],
        reports: vec![],
        sampler: Sampler::new(vec![], 0.0),
        status: "ok",
        error: None,
        warnings: vec![],
        started_unix,
        finished_unix: 0.0,
        nofile,
        robustness: None,
    };
    let procs = sampled_processes(&cfg, &handles);
    let go = crate::robust::attacker::Go::new();
    let attacker = crate::robust::attacker::spawn(&cfg, go.clone());
    let mut on_ready = |r: &[Ready]| {
        go.went();
        on_ready(r)
    };
    let went = collect(&mut handles, &rx, &mut out, &procs, &mut on_ready, on_loop);
    go.abandon();
    out.robustness = attacker.and_then(|a| a.join().ok());
    for h in handles {
        h.finish();
    }
    out.reports.sort_by_key(|r| r.worker);
    judge(&mut out, went);
    out.finished_unix = unix_now();
    out.warnings = crate::export::warnings(&out);
    Ok(out)
}

fn sampled_processes(cfg: &Config, handles: &[Handle]) -> Vec<(String, u32)> {
    let mut procs: Vec<(String, u32)> = vec![("engine".into(), std::process::id())];
    if handles.len() > 1 {
        procs.extend(handles.iter().enumerate().map(|(i, h)| (format!("worker-{i}"), h.pid())));
    }
    if let Some(pid) = cfg.controller_pid {
        procs.push(("controller".into(), pid));
    }
    procs
}

fn stop_all(handles: &mut [Handle], stop_sent: &mut bool) {
    if !*stop_sent {
        *stop_sent = true;
        for h in handles.iter_mut() {
            h.send(&Cmd::Stop);
        }
    }
}

/// Gather the workers' events until every one is done. Returns whether the go was given.
fn collect(
    handles: &mut [Handle],
    rx: &mpsc::Receiver<(u32, WorkerEvent)>,
    out: &mut Outcome,
    procs: &[(String, u32)],
    on_ready: &mut dyn FnMut(&[Ready]),
    on_loop: &mut dyn FnMut(&LoopTotal),
) -> bool {
    let n = handles.len();
    let (mut stop_sent, mut went, mut done) = (false, false, 0);
    let mut pending: std::collections::BTreeMap<u32, (LoopTotal, usize)> = Default::default();
    let mut go_at = Instant::now();
    while done < n {
        if interrupted() && !stop_sent {
            out.status = "interrupted";
            stop_all(handles, &mut stop_sent);
        }
        let (_, ev) = match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(x) => x,
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        match ev {
            WorkerEvent::Ready(r) => {
                out.ready.push(r);
                if out.ready.len() == n && !stop_sent {
                    out.ready.sort_by_key(|r| r.worker);
                    on_ready(&out.ready);
                    go_at = Instant::now();
                    out.sampler = Sampler::new(procs.to_vec(), 0.0);
                    for h in handles.iter_mut() {
                        h.send(&Cmd::Go);
                    }
                    went = true;
                }
            }
            WorkerEvent::Interval(iv) => merge_interval(&mut pending, iv, n, go_at, out, on_loop),
            WorkerEvent::Done(r) => {
                done += 1;
                if r.pid != 0 {
                    out.reports.push(*r);
                }
            }
            WorkerEvent::Fatal(msg) => {
                out.error.get_or_insert(msg);
                stop_all(handles, &mut stop_sent);
            }
        }
    }
    went
}

/// Decide the status from the counters (`status.rs`).
fn judge(out: &mut Outcome, went: bool) {
    let workload = Workload::of(&out.cfg);
    let sw: Vec<_> = out.reports.iter().flat_map(|r| r.switches.iter()).collect();
    let up = sw.iter().filter(|s| s.of_version.is_some() && (!workload.up_after_echo() || !s.echo_rtt_us.is_empty())).count() as u32;
    // capacity: sessions dropped during the hold are the measurement, not a fault of the run
    let lost = sw
        .iter()
        .filter(|s| s.of_version.is_some() && workload.sends_requests())
        .filter_map(|s| s.disconnect.as_ref().map(|d| format!("switch {} (dpid {}): {}", s.index, s.dpid, d.reason)))
        .collect();
    let first_failure = out
        .ready
        .iter()
        .flat_map(|r| r.failures.keys())
        .next()
        .cloned()
        .or_else(|| sw.iter().filter(|s| s.of_version.is_none()).find_map(|s| s.disconnect.as_ref().map(|d| d.reason.clone())))
        .map(|r| crate::status::explain(&r, out.cfg.versions));
    let facts = crate::status::Facts {
        switches: if workload.up_after_echo() { up } else { out.cfg.switches },
        up,
        lost,
        first_failure,
        sends_requests: workload.sends_requests(),
        measured_answered: crate::export::measured_answered(out),
        went,
        interrupted: out.status == "interrupted",
        fatal: out.error.clone(),
    };
    let (status, error) = crate::status::judge(&facts);
    out.status = status;
    out.error = error;
}

fn merge_interval(
    pending: &mut std::collections::BTreeMap<u32, (LoopTotal, usize)>,
    iv: Interval,
    n: usize,
    go_at: Instant,
    out: &mut Outcome,
    on_loop: &mut dyn FnMut(&LoopTotal),
) {
    let e = pending.entry(iv.k).or_insert_with(|| (LoopTotal { k: iv.k, ..Default::default() }, 0));
    // keep per-switch counts in worker order (slices are contiguous and ordered by worker)
    if !iv.per_switch.is_empty() {
        e.0.per_switch_parts.push((iv.worker, iv.per_switch.clone()));
    }
    if !iv.per_switch_responses.is_empty() {
        e.0.responses_parts.push((iv.worker, iv.per_switch_responses.clone()));
    }
    e.0.responses += iv.responses;
    e.0.latency_us.extend_from_slice(&iv.latency_us);
    e.0.answered += iv.answered;
    e.0.sent += iv.sent;
    e.0.lost += iv.lost;
    e.0.up += iv.up;
    e.0.net_connected += iv.net_connected;
    e.0.net_dirs_seen += iv.net_dirs_seen;
    e.0.net_links = e.0.net_links.max(iv.net_links);
    e.1 += 1;
    if e.1 == n {
        let (mut total, _) = pending.remove(&iv.k).expect("present");
        if total.per_switch_parts.len() == n {
            total.per_switch_parts.sort_by_key(|p| p.0);
            total.per_switch = total.per_switch_parts.drain(..).flat_map(|p| p.1).collect();
        }
        if total.responses_parts.len() == n {
            total.responses_parts.sort_by_key(|p| p.0);
            total.per_switch_responses = total.responses_parts.drain(..).flat_map(|p| p.1).collect();
        }
        total.t_s = go_at.elapsed().as_secs_f64();
        out.sampler.sample(total.t_s);
        on_loop(&total);
        out.loops.push(total);
    }
}
