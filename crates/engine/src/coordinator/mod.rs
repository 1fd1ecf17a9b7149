//! The coordinator: plans the run, starts the workers together, gathers their events, samples
//! resources, and merges everything into one `Outcome`. It owns no sockets.
//!
//! One worker runs on a thread of this process; more run as child processes speaking the JSON-lines
//! protocol (`protocol.rs`) on their stdin/stdout, so a worker could equally be remote. Workers
//! ignore SIGINT/SIGTERM: the coordinator catches them, tells every worker to stop, and still
//! collects their (partial) reports, so an interrupted run is written, marked "interrupted".

pub(crate) mod agent_link;
pub(crate) mod agents;
pub(crate) mod clock;
pub(crate) mod figures;
pub(crate) mod k8s;
pub(crate) mod pod_link;
pub(crate) mod resources;
pub(crate) mod status;

use crate::config::limits::{self, Plan};
use crate::config::{slices, Config, Slice};
use crate::coordinator::resources::Sampler;
use crate::switch::protocol::{encode, Cmd, Interval, Ready, WorkerEvent, WorkerReport};
use crate::switch::workload::Workload;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
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

/// Stop the run as a signal would (an agent whose coordinator said stop, or went away).
pub fn request_stop() {
    SIGNALLED.store(true, Ordering::SeqCst);
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
    /// Agents (`agent_link.rs`); empty when the workers were local.
    pub agents: Vec<crate::coordinator::agent_link::AgentState>,
    /// The switches this run is responsible for (an agent: its slice; otherwise all).
    pub part_switches: u32,
}

pub(crate) enum Handle {
    Thread(tokio::sync::mpsc::UnboundedSender<Cmd>, std::thread::JoinHandle<()>),
    /// A child process (a local worker, or an agent behind `ip netns exec`/`ssh`) and the bytes
    /// of protocol written to it.
    Child(Child, Option<ChildStdin>, Arc<AtomicU64>),
    /// An agent that dialled in (`pod_link.rs`): the connection (None once it failed or for a
    /// pod that never came) and the bytes of protocol written to it.
    Socket(Option<std::net::TcpStream>, Arc<AtomicU64>),
}

/// Write one protocol line; a stream that fails is dropped (its reader reports the loss).
fn send_line<W: Write>(w: &mut Option<W>, bytes: &AtomicU64, cmd: &Cmd) {
    if let Some(s) = w {
        let line = encode(cmd);
        bytes.fetch_add(line.len() as u64 + 1, Ordering::Relaxed);
        if writeln!(s, "{line}").and_then(|_| s.flush()).is_err() {
            *w = None;
        }
    }
}

impl Handle {
    pub(crate) fn send(&mut self, cmd: &Cmd) {
        match self {
            Handle::Thread(tx, _) => {
                let _ = tx.send(cmd.clone());
            }
            Handle::Child(_, stdin, bytes) => send_line(stdin, bytes, cmd),
            Handle::Socket(sock, bytes) => send_line(sock, bytes, cmd),
        }
    }
    fn pid(&self) -> u32 {
        match self {
            Handle::Thread(..) | Handle::Socket(..) => std::process::id(),
            Handle::Child(c, ..) => c.id(),
        }
    }
    fn finish(self) {
        match self {
            Handle::Thread(tx, j) => {
                drop(tx);
                let _ = j.join();
            }
            Handle::Child(mut c, stdin, _) => {
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
            // its end of the stream closes: the agent stops, as an agent whose stdin closed
            Handle::Socket(s, _) => drop(s),
        }
    }
}

/// Start the worker of `slice`; its events are tagged with `w`, its handle's index.
fn spawn_worker(cfg: &Config, slice: Slice, w: u32, in_thread: bool, tx: mpsc::Sender<(u32, WorkerEvent)>) -> Result<Handle, String> {
    if in_thread {
        let (ctx, crx) = tokio::sync::mpsc::unbounded_channel();
        let cfg = cfg.clone();
        let j = std::thread::Builder::new()
            .name(format!("worker-{}", slice.worker))
            .spawn(move || crate::switch::worker::run(cfg, slice, crx, &mut |e| drop(tx.send((w, e)))))
            .map_err(|e| format!("cannot start a worker thread: {e}"))?;
        return Ok(Handle::Thread(ctx, j));
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find my own binary: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.arg("worker");
    let child =
        Spawned::spawn(cmd, w, &format!("worker {}", slice.worker), false, tx).map_err(|e| format!("cannot start worker process: {e}"))?;
    let mut h = child.handle;
    h.send(&Cmd::Start { config: Box::new(cfg.clone()), slice });
    Ok(h)
}

/// A child speaking the protocol, its reader thread started. `keep_stderr`: read the child's
/// stderr (echoed with `label`), its last line kept for the line that says why it was lost.
pub(crate) struct Spawned {
    pub handle: Handle,
    pub bytes_in: Arc<AtomicU64>,
    pub bytes_out: Arc<AtomicU64>,
}

impl Spawned {
    pub(crate) fn spawn(
        mut cmd: Command,
        w: u32,
        label: &str,
        keep_stderr: bool,
        tx: mpsc::Sender<(u32, WorkerEvent)>,
    ) -> std::io::Result<Spawned> {
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped());
        cmd.stderr(if keep_stderr { Stdio::piped() } else { Stdio::inherit() });
        let mut child = cmd.spawn()?;
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().map(|e| {
            let label = label.to_string();
            std::thread::spawn(move || {
                let mut last = String::new();
                for line in BufReader::new(e).lines().map_while(Result::ok) {
                    eprintln!("{label}: {line}");
                    if !line.trim().is_empty() {
                        last = line;
                    }
                }
                last
            })
        });
        let bytes_in = Arc::new(AtomicU64::new(0));
        let counted = bytes_in.clone();
        let label = label.to_string();
        std::thread::spawn(move || read_events(BufReader::new(stdout), w, &label, stderr, &counted, &tx));
        let bytes_out = Arc::new(AtomicU64::new(0));
        let stdin = child.stdin.take();
        Ok(Spawned { handle: Handle::Child(child, stdin, bytes_out.clone()), bytes_in, bytes_out })
    }
}

impl Spawned {
    /// An agent that dialled in (`pod_link.rs`): `reader` (past its hello line) carries its
    /// events, `stream` takes the commands.
    pub(crate) fn socket(
        stream: std::net::TcpStream,
        reader: BufReader<std::net::TcpStream>,
        w: u32,
        label: &str,
        tx: mpsc::Sender<(u32, WorkerEvent)>,
    ) -> Spawned {
        let bytes_in = Arc::new(AtomicU64::new(0));
        let counted = bytes_in.clone();
        let label = label.to_string();
        std::thread::spawn(move || read_events(reader, w, &label, None, &counted, &tx));
        let bytes_out = Arc::new(AtomicU64::new(0));
        Spawned { handle: Handle::Socket(Some(stream), bytes_out.clone()), bytes_in, bytes_out }
    }
}

/// Forward a child's events; at the end without a report, one `Lost` line saying why.
fn read_events(
    r: impl BufRead,
    w: u32,
    label: &str,
    stderr: Option<std::thread::JoinHandle<String>>,
    bytes_in: &AtomicU64,
    tx: &mpsc::Sender<(u32, WorkerEvent)>,
) {
    let mut done = false;
    for line in r.lines() {
        let Ok(line) = line else { break };
        bytes_in.fetch_add(line.len() as u64 + 1, Ordering::Relaxed);
        match serde_json::from_str::<WorkerEvent>(&line) {
            Ok(e) => {
                done |= matches!(e, WorkerEvent::Done(_));
                let _ = tx.send((w, e));
            }
            Err(e) => {
                let _ = tx.send((w, WorkerEvent::Fatal(format!("{label} sent a bad line: {e}"))));
            }
        }
    }
    if !done {
        let why = stderr.and_then(|j| j.join().ok()).filter(|s| !s.is_empty());
        let msg = match why {
            Some(why) => format!("{label} exited without a report ({why})"),
            None => format!("{label} exited without a report"),
        };
        let _ = tx.send((w, WorkerEvent::Lost(msg)));
    }
}

fn unix_now() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0)
}

/// Run `cfg` to the end (or to Ctrl-C). `on_loop` sees each loop's totals as they complete
/// (the live display); `on_ready` the handshake results.
pub fn run(cfg: Config, on_ready: &mut dyn FnMut(&[Ready]), on_loop: &mut dyn FnMut(&LoopTotal)) -> Result<Outcome, String> {
    if !cfg.agents.is_empty() {
        return crate::coordinator::agent_link::run(cfg, on_ready, on_loop);
    }
    let started_unix = unix_now();
    let nofile = limits::raise_nofile();
    let plan = limits::plan(&cfg, nofile.1, limits::ephemeral_ports())?;
    let cfg = prepare(cfg, &plan, nofile, true)?;
    let parts = slices(cfg.switches, plan.workers);
    start_workers(Run { cfg, plan, nofile, started_unix, agents: vec![], ids: vec![], switches: 0 }, &parts, on_ready, on_loop)
}

/// An agent's part of a run (`agent.rs`): the switches `slice` (global indexes) on this machine,
/// with a plan of its own: worker processes for this machine's file limit, source addresses of
/// this machine (`source`: chosen by the agent when the config gives none). In network mode one
/// worker, numbered as the agent, so the network's ownership of switches holds.
pub fn run_part(
    mut cfg: Config,
    slice: Slice,
    source: &dyn Fn(&Config, u32) -> Vec<String>,
    on_ready: &mut dyn FnMut(&[Ready]),
    on_loop: &mut dyn FnMut(&LoopTotal),
) -> Result<Outcome, String> {
    let started_unix = unix_now();
    let nofile = limits::raise_nofile();
    let n = slice.hi - slice.lo;
    let network = cfg.network.is_some();
    if cfg.source_addrs.is_empty() {
        cfg.source_addrs = source(&cfg, n);
    }
    let local = Config { switches: n, workers: if network { Some(1) } else { None }, ..cfg.clone() };
    let plan = limits::plan(&local, nofile.1, limits::ephemeral_ports())?;
    cfg.source_addrs = plan.source_addrs.clone();
    let parts: Vec<Slice> = if network {
        vec![slice]
    } else {
        slices(n, plan.workers).into_iter().map(|s| Slice { worker: s.worker, lo: s.lo + slice.lo, hi: s.hi + slice.lo }).collect()
    };
    start_workers(Run { cfg, plan, nofile, started_unix, agents: vec![], ids: vec![], switches: 0 }, &parts, on_ready, on_loop)
}

/// Spawn one worker per slice of `parts` and drive the run (`run`'s worker ids and switch count
/// are filled from the slices).
fn start_workers(
    mut run: Run,
    parts: &[Slice],
    on_ready: &mut dyn FnMut(&[Ready]),
    on_loop: &mut dyn FnMut(&LoopTotal),
) -> Result<Outcome, String> {
    let (tx, rx) = mpsc::channel();
    let mut handles = Vec::new();
    for (i, s) in parts.iter().enumerate() {
        handles.push(spawn_worker(&run.cfg, *s, i as u32, parts.len() == 1, tx.clone())?);
    }
    drop(tx);
    run.ids = parts.iter().map(|p| p.worker).collect();
    run.switches = parts.iter().map(|p| p.hi - p.lo).sum();
    Ok(drive(run, handles, rx, on_ready, on_loop))
}

/// The config as the workers get it: source addresses planned, the network checked.
pub(crate) fn prepare(mut cfg: Config, plan: &Plan, nofile: (u64, u64), size_check: bool) -> Result<Config, String> {
    cfg.source_addrs = plan.source_addrs.clone();
    if !cfg.links.is_empty() && plan.workers > 1 {
        return Err(format!(
            "--links needs every switch in one worker process, but {} switches need {} workers here",
            cfg.switches, plan.workers
        ));
    }
    if cfg.network.is_some() {
        if size_check {
            let w = crate::network::size::check(
                cfg.switches as u64,
                cfg.controllers.len().max(1) as u64,
                plan.workers as u64,
                nofile.1,
                crate::network::size::mem_available(),
            )?;
            if w != plan.workers as u64 {
                return Err(format!("network: needs {w} workers, the plan has {}", plan.workers));
            }
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
    Ok(cfg)
}

/// What `drive` needs besides the handles.
pub(crate) struct Run {
    pub cfg: Config,
    pub plan: Plan,
    pub nofile: (u64, u64),
    pub started_unix: f64,
    /// Agents (empty: local workers): their names, slices, clocks and traffic.
    pub agents: Vec<crate::coordinator::agent_link::AgentState>,
    /// The worker id (`Slice::worker`) of each handle, in handle order.
    pub ids: Vec<u32>,
    /// The switches of all handles together.
    pub switches: u32,
}

/// Start the workers (or agents) together, gather them, judge.
pub(crate) fn drive(
    run: Run,
    mut handles: Vec<Handle>,
    rx: mpsc::Receiver<(u32, WorkerEvent)>,
    on_ready: &mut dyn FnMut(&[Ready]),
    on_loop: &mut dyn FnMut(&LoopTotal),
) -> Outcome {
    let Run { cfg, plan, nofile, started_unix, agents, ids, switches: ids_switches } = run;
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
        agents,
        part_switches: ids_switches,
    };
    let procs = sampled_processes(&cfg, &handles, !out.agents.is_empty());
    let go = crate::robust::attacker::Go::new();
    let attacker = crate::robust::attacker::spawn(&cfg, go.clone());
    let mut on_ready = |r: &[Ready]| {
        go.went();
        on_ready(r)
    };
    let went = collect(&mut handles, &ids, &rx, &mut out, &procs, &mut on_ready, on_loop);
    go.abandon();
    out.robustness = attacker.and_then(|a| a.join().ok());
    for h in handles {
        h.finish();
    }
    out.reports.sort_by_key(|r| r.worker);
    judge(&mut out, went);
    crate::coordinator::agent_link::judge(&mut out);
    out.finished_unix = unix_now();
    out.warnings = figures::warnings(&out);
    out
}

fn sampled_processes(cfg: &Config, handles: &[Handle], agents: bool) -> Vec<(String, u32)> {
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

struct Gather {
    ids: Vec<u32>,
    alive: Vec<bool>,
    ready: Vec<bool>,
    phase: Phase,
    stop_sent: bool,
    go_at: Instant,
    pending: std::collections::BTreeMap<u32, (LoopTotal, Vec<u32>)>,
}

/// Gather the workers' events until every one is done (or lost). Returns whether the go was given.
fn collect(
    handles: &mut [Handle],
    ids: &[u32],
    rx: &mpsc::Receiver<(u32, WorkerEvent)>,
    out: &mut Outcome,
    procs: &[(String, u32)],
    on_ready: &mut dyn FnMut(&[Ready]),
    on_loop: &mut dyn FnMut(&LoopTotal),
) -> bool {
    let n = handles.len();
    let agents = !out.agents.is_empty();
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
        if interrupted() && !g.stop_sent {
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
            WorkerEvent::Pong(p) if agents => crate::coordinator::agent_link::pong(&mut out.agents[w], &p),
            WorkerEvent::Listening(l) if agents => crate::coordinator::agent_link::listening(&mut out.agents, handles, w, l.addr),
            WorkerEvent::Pong(_) | WorkerEvent::Listening(_) => {}
            WorkerEvent::Interval(iv) => merge_interval(&mut g, iv, out, on_loop),
            WorkerEvent::Done(r) => {
                done += 1;
                if r.pid != 0 {
                    out.reports.push(*r);
                }
            }
            WorkerEvent::Fatal(msg) if agents => out.agents[w].last_fatal = Some(msg),
            WorkerEvent::Fatal(msg) => {
                out.error.get_or_insert(msg);
                stop_all(handles, &mut g.stop_sent);
            }
            WorkerEvent::Lost(msg) => {
                done += 1;
                g.alive[w] = false;
                if agents {
                    crate::coordinator::agent_link::lost(&mut out.agents[w], msg, g.phase == Phase::Went);
                    flush_complete(&mut g, out, on_loop);
                } else {
                    out.error.get_or_insert(msg);
                    stop_all(handles, &mut g.stop_sent);
                }
            }
        }
        advance(&mut g, handles, out, procs, on_ready);
    }
    g.phase == Phase::Went
}

/// Move on when every live worker is there: the go (local workers), or the clock check and a
/// common start (agents); a clock too far off stops everything with one line.
fn advance(g: &mut Gather, handles: &mut [Handle], out: &mut Outcome, procs: &[(String, u32)], on_ready: &mut dyn FnMut(&[Ready])) {
    let all = |v: &[bool], alive: &[bool]| alive.iter().zip(v).all(|(a, x)| !a || *x) && alive.iter().any(|a| *a);
    if g.stop_sent && g.phase != Phase::Went {
        g.phase = Phase::Stopped;
    }
    if g.phase == Phase::WaitReady && all(&g.ready, &g.alive) {
        out.ready.sort_by_key(|r| r.worker);
        on_ready(&out.ready);
        if out.agents.is_empty() {
            for h in handles.iter_mut() {
                h.send(&Cmd::Go);
            }
            start_clocks(g, out, procs, Duration::ZERO);
        } else {
            crate::coordinator::agent_link::ping(&mut out.agents, handles, &g.alive);
            g.phase = Phase::Clock;
        }
    }
    if g.phase == Phase::Clock {
        let ponged: Vec<bool> = out.agents.iter().map(|a| a.offset_ns.is_some()).collect();
        if !all(&ponged, &g.alive) {
            return;
        }
        match crate::coordinator::agent_link::go_at(&out.agents, handles, &g.alive, out.cfg.max_skew_ms) {
            Ok(lead) => start_clocks(g, out, procs, lead),
            Err(line) => {
                out.error = Some(line);
                out.agents.iter_mut().for_each(|a| a.refused = true);
                stop_all(handles, &mut g.stop_sent);
                g.phase = Phase::Stopped;
            }
        }
    }
}

fn start_clocks(g: &mut Gather, out: &mut Outcome, procs: &[(String, u32)], lead: Duration) {
    g.go_at = Instant::now() + lead;
    out.sampler = Sampler::new(procs.to_vec(), 0.0);
    g.phase = Phase::Went;
}

/// Decide the status from the counters (`status.rs`).
pub(crate) fn judge(out: &mut Outcome, went: bool) {
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
        .map(|r| crate::coordinator::status::explain(&r, out.cfg.versions));
    let facts = crate::coordinator::status::Facts {
        switches: if workload.up_after_echo() { up } else { out.part_switches },
        up,
        lost,
        reconnects: sw.iter().map(|s| s.reconnect.reconnects).sum(),
        back: sw.iter().filter(|s| s.of_version.is_some() && s.disconnect.is_some() && !s.reconnect.down_at_stop).count() as u32,
        first_failure,
        sends_requests: workload.sends_requests(),
        measured_answered: figures::measured_answered(out),
        went,
        interrupted: out.status == "interrupted",
        fatal: out.error.clone(),
    };
    let (status, error) = crate::coordinator::status::judge(&facts);
    out.status = status;
    out.error = error;
}

fn merge_interval(g: &mut Gather, iv: Interval, out: &mut Outcome, on_loop: &mut dyn FnMut(&LoopTotal)) {
    let e = g.pending.entry(iv.k).or_insert_with(|| (LoopTotal { k: iv.k, ..Default::default() }, vec![]));
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
        if total.per_switch_parts.len() == n && from.len() == n {
            total.per_switch_parts.sort_by_key(|p| p.0);
            total.per_switch = total.per_switch_parts.drain(..).flat_map(|p| p.1).collect();
        }
        if total.responses_parts.len() == n && from.len() == n {
            total.responses_parts.sort_by_key(|p| p.0);
            total.per_switch_responses = total.responses_parts.drain(..).flat_map(|p| p.1).collect();
        }
        total.t_s = g.go_at.elapsed().as_secs_f64();
        out.sampler.sample(total.t_s);
        on_loop(&total);
        out.loops.push(total);
    }
}
