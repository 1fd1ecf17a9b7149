//! Each agent as the coordinator's run loop sees it (`coordinator/gather.rs`, through
//! `coordinator::remote::Remote`): its slice, the clock check after the READY barrier (a ping,
//! its pong, a common start in the agent's own clock; `coordinator/clock.rs`), the frame
//! addresses of a network run, the one line that says why it was lost, and its line in the
//! result (`section`). Starting the agents is `agent_link.rs`.

use crate::config::Slice;
use crate::coordinator::clock;
use crate::coordinator::digest::Digest;
use crate::coordinator::handle::Handle;
use crate::coordinator::remote::{Go, Remote};
use crate::switch::protocol::{Cmd, Pong, WorkerReport};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
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

impl AgentState {
    /// An agent named `name` that runs the switches of `slice`, not yet heard from.
    pub(crate) fn new(name: String, slice: Slice) -> AgentState {
        AgentState { name, slice, ..Default::default() }
    }
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
        a.ping_sent_ns = clock::realtime_ns();
        handles[i].send(&Cmd::Ping);
    }
}

/// The agent's pong: its round trip and clock offset (`clock.rs`).
pub(crate) fn pong(a: &mut AgentState, p: &Pong) {
    let t1 = clock::realtime_ns();
    a.rtt_ns = t1.saturating_sub(a.ping_sent_ns);
    a.offset_ns = Some(clock::offset_ns(a.ping_sent_ns, t1, p.clock_ns));
}

/// Refuse a clock beyond `max_skew_ms` (one line naming the agent), or send every live agent the
/// common start in its own clock; returns how far ahead the start is.
pub(crate) fn go_at(agents: &[AgentState], handles: &mut [Handle], alive: &[bool], max_skew_ms: f64) -> Result<Duration, String> {
    let live = || agents.iter().enumerate().filter(|(i, _)| alive[*i]);
    for (_, a) in live() {
        clock::check(&a.name, a.offset_ns.unwrap_or(0), a.rtt_ns, max_skew_ms)?;
    }
    // far enough ahead for the go to reach every agent: 100 ms plus twice the slowest round trip
    let lead_ns = 100_000_000 + 2 * live().map(|(_, a)| a.rtt_ns).max().unwrap_or(0);
    let t = clock::realtime_ns() + lead_ns;
    for (i, a) in live() {
        let unix_ns = (t as i64 + a.offset_ns.unwrap_or(0)) as u64;
        handles[i].send(&Cmd::GoAt { unix_ns });
    }
    Ok(Duration::from_nanos(lead_ns))
}

/// The agent's stream ended without a report: say why, in one line.
pub(crate) fn lost(a: &mut AgentState, msg: String, during_run: bool) {
    let when = if during_run { "during the run" } else { "before the start" };
    let why = match &a.last_fatal {
        Some(f) => format!("agent {}: {f}", a.name),
        None => msg,
    };
    a.lost = Some(format!("{why}; lost {when}, its switches {}..{} are not in the result", a.slice.lo, a.slice.hi));
}

/// Lost agents make the result partial (failed stays failed); the line names each.
pub(crate) fn judge(agents: &[AgentState], status: &mut &'static str, error: &mut Option<String>) {
    let lost: Vec<String> = agents.iter().filter_map(|a| a.lost.clone()).collect();
    if lost.is_empty() {
        return;
    }
    // partial: the lost agents' switches are what is missing, so they are the whole story
    let rest = match *status {
        "ok" | "partial" => String::new(),
        _ => error.take().map(|e| format!("; {e}")).unwrap_or_default(),
    };
    if *status == "ok" {
        *status = "partial";
    }
    *error = Some(format!("{}{rest}", lost.join("; ")));
}

/// The result's `agents` section: each agent's slice, state, clock, protocol traffic and the
/// facts it reported (local plan, memory).
pub(crate) fn section(agents: &[AgentState], reports: &[WorkerReport], digest: &Digest) -> Vec<crate::result::Agent> {
    agents
        .iter()
        .map(|a| {
            let rep = reports.iter().find(|r| r.worker == a.slice.worker);
            let facts = rep.and_then(|r| r.agent.as_ref());
            let up = rep.map_or(0, |r| digest.up_of(r.worker));
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

/// The agents of one run, as the run loop drives them.
pub(crate) struct Agents(pub Vec<AgentState>);

impl Remote for Agents {
    fn listening(&mut self, handles: &mut [Handle], w: usize, addr: String) {
        listening(&mut self.0, handles, w, addr)
    }
    fn fatal(&mut self, w: usize, msg: String) {
        self.0[w].last_fatal = Some(msg);
    }
    fn lost(&mut self, w: usize, msg: String, during_run: bool) {
        lost(&mut self.0[w], msg, during_run)
    }
    fn ping(&mut self, handles: &mut [Handle], alive: &[bool]) {
        ping(&mut self.0, handles, alive)
    }
    fn pong(&mut self, w: usize, p: &Pong) {
        pong(&mut self.0[w], p)
    }
    fn go(&mut self, handles: &mut [Handle], alive: &[bool], max_skew_ms: f64) -> Go {
        if self.0.iter().zip(alive).any(|(a, live)| *live && a.offset_ns.is_none()) {
            return Go::Wait;
        }
        match go_at(&self.0, handles, alive, max_skew_ms) {
            Ok(lead) => Go::At(lead),
            Err(line) => {
                self.0.iter_mut().for_each(|a| a.refused = true);
                Go::Refused(line)
            }
        }
    }
    fn judge(&self, status: &mut &'static str, error: &mut Option<String>) {
        judge(&self.0, status, error)
    }
    fn section(&self, reports: &[WorkerReport], digest: &Digest) -> Vec<crate::result::Agent> {
        section(&self.0, reports, digest)
    }
}
