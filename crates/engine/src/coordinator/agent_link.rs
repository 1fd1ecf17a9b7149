//! The coordinator's side of agents (`Config::agents`, docs/scale-out.md): start each agent
//! through its transport (`agents.rs`; pods dial in, `pod_link.rs`) with a slice of the switches,
//! check every agent's clock after the READY barrier (`clock.rs`) and give a common start in each
//! agent's own clock; an agent lost (unreachable, died) is named in one line, the others' results
//! are kept and the result is `partial`. Counters and histograms merge as workers' do
//! (`export/` sums reports; an agent's report is already the merge of its own workers,
//! `agent_merge.rs`).

use crate::config::limits::{self, Plan};
use crate::config::{slices, Config, Slice};
use crate::coordinator::agents::Spec;
use crate::coordinator::{drive, prepare, Handle, LoopTotal, Outcome, Run, Spawned};
use crate::switch::protocol::{Cmd, Pong, Ready};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// One agent as the coordinator sees it.
#[derive(Debug, Default)]
pub struct AgentState {
    pub name: String,
    pub slice: Slice,
    /// One line: why it is not in the result (unreachable, died).
    pub lost: Option<String>,
    pub last_fatal: Option<String>,
    ping_sent_ns: u64,
    pub offset_ns: Option<i64>,
    pub rtt_ns: u64,
    /// The run was refused on the clock check.
    pub refused: bool,
    /// Network mode: where it takes the other agents' frames (HOST:PORT).
    pub net_addr: Option<String>,
    /// Bytes of protocol (JSON lines) written to and read from the agent.
    pub bytes_to: Arc<AtomicU64>,
    pub bytes_from: Arc<AtomicU64>,
}

/// Run `cfg` over its agents.
pub fn run(cfg: Config, on_ready: &mut dyn FnMut(&[Ready]), on_loop: &mut dyn FnMut(&LoopTotal)) -> Result<Outcome, String> {
    let started_unix = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0);
    if crate::coordinator::k8s::pods(&cfg).is_some() {
        return Err("agents: k8s writes a Kubernetes Job (sdnbench-engine --agents k8s ... prints it); it runs nothing here".into());
    }
    let specs = cfg.agents.iter().map(|a| crate::coordinator::agents::parse(a)).collect::<Result<Vec<_>, _>>()?;
    let slots = slots(&cfg.agents, &specs);
    let n = slots.len() as u32;
    let nofile = limits::raise_nofile();
    let plan = Plan { workers: n, source_addrs: cfg.source_addrs.clone(), notes: vec![] };
    let cfg = prepare(cfg, &plan, nofile, false)?;
    // pods dial in: listen before anything starts (an address in use fails the run here)
    let pod_slots: Vec<(u32, SocketAddr)> = slots.iter().enumerate().filter_map(|(i, s)| s.pod.map(|a| (i as u32, a))).collect();
    let listeners = crate::coordinator::pod_link::Listeners::bind(&pod_slots)?;
    // what every agent gets: the run, less the agent list (an agent runs its slice locally)
    let sent = Config { agents: vec![], ..cfg.clone() };
    let parts = slices(cfg.switches, n);
    let (tx, rx) = mpsc::channel();
    let mut handles: Vec<Option<Handle>> = (0..n).map(|_| None).collect();
    let mut agents: Vec<AgentState> =
        slots.iter().zip(&parts).map(|(s, p)| AgentState { name: s.name.clone(), slice: *p, ..Default::default() }).collect();
    // each agent gets its start as soon as it is there: it makes its sessions meanwhile and
    // waits at the READY barrier for the others
    let mut started = |i: usize, sp: Spawned| {
        let mut h = sp.handle;
        h.send(&Cmd::Start { config: Box::new(sent.clone()), slice: parts[i] });
        handles[i] = Some(h);
        (agents[i].bytes_to, agents[i].bytes_from) = (sp.bytes_out, sp.bytes_in);
    };
    for (i, s) in slots.iter().enumerate().filter(|(_, s)| s.pod.is_none()) {
        started(i, start(&s.spec, &s.name, i as u32, tx.clone())?);
    }
    if !pod_slots.is_empty() {
        let missing = listeners.accept(n, crate::coordinator::pod_link::wait(), &mut |slot, d| {
            let label = format!("agent {}", slots[slot as usize].name);
            started(slot as usize, Spawned::socket(d.stream, d.reader, slot, &label, tx.clone()));
        });
        for (slot, line) in missing {
            let _ = tx.send((slot, crate::switch::protocol::WorkerEvent::Lost(line)));
        }
    }
    let handles: Vec<Handle> = handles.into_iter().map(|h| h.unwrap_or_else(|| Handle::Socket(None, Arc::default()))).collect();
    drop(tx);
    let ids = (0..n).collect();
    let switches = cfg.switches;
    Ok(drive(Run { cfg, plan, nofile, started_unix, agents, ids, switches }, handles, rx, on_ready, on_loop))
}

/// One agent slot: its name, how it is started, and for a pod the address it dials.
struct Slot {
    name: String,
    spec: Spec,
    pod: Option<SocketAddr>,
}

/// The agent list expanded to slots: `pods:N@ADDR` is N slots named `pod:I` (I = slot index).
fn slots(names: &[String], specs: &[Spec]) -> Vec<Slot> {
    let mut out = Vec::new();
    for (name, spec) in names.iter().zip(specs) {
        match spec {
            Spec::Pods { n, listen } => {
                for _ in 0..*n {
                    out.push(Slot { name: format!("pod:{}", out.len()), spec: spec.clone(), pod: Some(*listen) });
                }
            }
            _ => out.push(Slot { name: name.clone(), spec: spec.clone(), pod: None }),
        }
    }
    out
}

/// Start an agent by its command (local, netns, ssh).
fn start(spec: &Spec, name: &str, i: u32, tx: mpsc::Sender<(u32, crate::switch::protocol::WorkerEvent)>) -> Result<Spawned, String> {
    let mut cmd = crate::coordinator::agents::command(spec)?;
    // a terminal's Ctrl-C reaches the coordinator only (it stops the agents itself); an ssh
    // client in the terminal's process group would die of it and lose its agent's report
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    Spawned::spawn(cmd, i, &format!("agent {name}"), true, tx).map_err(|e| format!("agent {name}: cannot start: {e}"))
}

/// Network mode: an agent announced its frame address; once every live agent has, tell them all.
pub(crate) fn listening(agents: &mut [AgentState], handles: &mut [Handle], w: usize, addr: String) {
    agents[w].net_addr = Some(addr);
    if agents.iter().all(|a| a.net_addr.is_some()) {
        let addrs: Vec<String> = agents.iter().filter_map(|a| a.net_addr.clone()).collect();
        for h in handles.iter_mut() {
            h.send(&Cmd::Peers { addrs: addrs.clone() });
        }
    }
}

/// After the READY barrier: a ping to every live agent (its pong gives the clock offset).
pub(crate) fn ping(agents: &mut [AgentState], handles: &mut [Handle], alive: &[bool]) {
    for (i, a) in agents.iter_mut().enumerate().filter(|(i, _)| alive[*i]) {
        a.ping_sent_ns = crate::coordinator::clock::realtime_ns();
        handles[i].send(&Cmd::Ping);
    }
}

pub fn pong(a: &mut AgentState, p: &Pong) {
    let t1 = crate::coordinator::clock::realtime_ns();
    a.rtt_ns = t1.saturating_sub(a.ping_sent_ns);
    a.offset_ns = Some(crate::coordinator::clock::offset_ns(a.ping_sent_ns, t1, p.clock_ns));
}

/// Refuse a clock beyond `max_skew_ms` (one line naming the agent), or send every live agent the
/// common start in its own clock; returns how far ahead the start is.
pub(crate) fn go_at(agents: &[AgentState], handles: &mut [Handle], alive: &[bool], max_skew_ms: f64) -> Result<Duration, String> {
    let live = || agents.iter().enumerate().filter(|(i, _)| alive[*i]);
    for (_, a) in live() {
        crate::coordinator::clock::check(&a.name, a.offset_ns.unwrap_or(0), a.rtt_ns, max_skew_ms)?;
    }
    // far enough ahead for the go to reach every agent: 100 ms plus twice the slowest round trip
    let lead_ns = 100_000_000 + 2 * live().map(|(_, a)| a.rtt_ns).max().unwrap_or(0);
    let t = crate::coordinator::clock::realtime_ns() + lead_ns;
    for (i, a) in live() {
        let unix_ns = (t as i64 + a.offset_ns.unwrap_or(0)) as u64;
        handles[i].send(&Cmd::GoAt { unix_ns });
    }
    Ok(Duration::from_nanos(lead_ns))
}

/// The agent's stream ended without a report: say why, in one line.
pub fn lost(a: &mut AgentState, msg: String, during_run: bool) {
    let when = if during_run { "during the run" } else { "before the start" };
    let why = match &a.last_fatal {
        Some(f) => format!("agent {}: {f}", a.name),
        None => msg,
    };
    a.lost = Some(format!("{why}; lost {when}, its switches {}..{} are not in the result", a.slice.lo, a.slice.hi));
}

/// Lost agents make the result partial (failed stays failed); the line names each.
pub fn judge(out: &mut Outcome) {
    let lost: Vec<String> = out.agents.iter().filter_map(|a| a.lost.clone()).collect();
    if lost.is_empty() {
        return;
    }
    // partial: the lost agents' switches are what is missing, so they are the whole story
    let rest = match out.status {
        "ok" | "partial" => String::new(),
        _ => out.error.take().map(|e| format!("; {e}")).unwrap_or_default(),
    };
    if out.status == "ok" {
        out.status = "partial";
    }
    out.error = Some(format!("{}{rest}", lost.join("; ")));
}

/// The result's `agents` section: each agent's slice, state, clock, protocol traffic and the
/// facts it reported (local plan, memory).
pub fn agents(o: &Outcome) -> Vec<crate::result::Agent> {
    o.agents
        .iter()
        .map(|a| {
            let rep = o.reports.iter().find(|r| r.worker == a.slice.worker);
            let facts = rep.and_then(|r| r.agent.as_ref());
            let up = rep.map_or(0, |r| r.switches.iter().filter(|s| s.of_version.is_some()).count() as u64);
            let rss = facts.map_or(0, |f| f.rss_bytes_peak);
            let state = if a.lost.is_some() {
                "lost"
            } else if a.refused {
                "refused"
            } else {
                "ok"
            };
            crate::result::Agent {
                name: a.name.clone(),
                index: a.slice.worker,
                switches: [a.slice.lo, a.slice.hi],
                state: state.into(),
                lost: a.lost.clone(),
                clock_offset_ms: a.offset_ns.map(|o| o as f64 / 1e6),
                rtt_ms: a.rtt_ns as f64 / 1e6,
                net_addr: a.net_addr.clone(),
                protocol_bytes_to_agent: a.bytes_to.load(Ordering::Relaxed),
                protocol_bytes_from_agent: a.bytes_from.load(Ordering::Relaxed),
                sessions_up: up,
                rss_bytes_peak: rss,
                rss_bytes_per_session: rss.checked_div(up).unwrap_or(0),
                local: facts.cloned(),
            }
        })
        .collect()
}
