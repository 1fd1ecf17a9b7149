//! The coordinator's side of agents (`Config::agents`, docs/scale-out.md): start each agent
//! through its transport (`agents.rs`; pods dial in, `pod_link.rs`) with a slice of the switches,
//! then drive them as workers (`drive.rs`): the run loop checks every agent's clock after the
//! READY barrier and gives a common start in each agent's own clock (`agent_state.rs`); an agent
//! lost (unreachable, died) is named in one line, the others' results are kept and the result is
//! `partial` (`agent_state.rs`). Counters and histograms merge as workers' do
//! (`export/` sums reports; an agent's report is already the merge of its own workers,
//! `agent_merge.rs`).

use crate::config::limits::{self, Plan};
use crate::config::{slices, Config};
use crate::coordinator::clock::unix_now;
use crate::coordinator::drive::{drive, prepare, Run};
use crate::coordinator::handle::{Handle, Spawned};
use crate::coordinator::{LoopTotal, Outcome};
use crate::distributed::agent_state::{AgentState, Agents};
use crate::distributed::agents::Spec;
use crate::switch::protocol::{Cmd, Ready};
use std::net::SocketAddr;
use std::sync::Arc;

/// Run `cfg` over its agents (the run loop is the coordinator's, `coordinator/drive.rs`).
pub(crate) fn run(
    cfg: Config,
    stop: crate::coordinator::Stop,
    on_ready: &mut dyn FnMut(&[Ready]),
    on_loop: &mut dyn FnMut(&LoopTotal),
    records: &mut dyn crate::coordinator::Records,
) -> Result<Outcome, String> {
    let started_unix = unix_now();
    if crate::distributed::k8s::pods(&cfg).is_some() {
        return Err("agents: k8s writes a Kubernetes Job (sdnbench-engine --agents k8s ... prints it); it runs nothing here".into());
    }
    let specs = cfg.agents.iter().map(|a| crate::distributed::agents::parse(a)).collect::<Result<Vec<_>, _>>()?;
    let slots = slots(&cfg.agents, &specs);
    let n = slots.len() as u32;
    let nofile = limits::raise_nofile();
    let plan = Plan { workers: n, source_addrs: cfg.source_addrs.clone(), notes: vec![] };
    let cfg = prepare(cfg, &plan, nofile, false)?;
    // pods dial in: listen before anything starts (an address in use fails the run here)
    let pod_slots: Vec<(u32, SocketAddr)> = slots.iter().enumerate().filter_map(|(i, s)| s.pod.map(|a| (i as u32, a))).collect();
    let listeners = crate::distributed::pod_link::Listeners::bind(&pod_slots)?;
    // what every agent gets: the run, less the agent list (an agent runs its slice locally)
    let sent = Config { agents: vec![], ..cfg.clone() };
    let parts = slices(cfg.switches, n);
    let (tx, rx) = crate::coordinator::handle::events();
    let mut handles: Vec<Option<Handle>> = (0..n).map(|_| None).collect();
    let mut agents: Vec<AgentState> = slots.iter().zip(&parts).map(|(s, p)| AgentState::new(s.name.clone(), *p)).collect();
    // each agent gets its start as soon as it is there: it makes its sessions meanwhile and
    // waits at the READY barrier for the others
    let mut started = |i: usize, sp: Spawned| {
        let mut h = sp.handle;
        h.send(&Cmd::Start { config: Box::new(sent.clone()), slice: parts[i] });
        handles[i] = Some(h);
        (agents[i].bytes_to, agents[i].bytes_from) = (sp.bytes_out, sp.bytes_in);
    };
    for (i, s) in slots.iter().enumerate().filter(|(_, s)| s.pod.is_none()) {
        match start(&s.spec, &s.name, i as u32, tx.clone()) {
            Ok(sp) => started(i, sp),
            Err(e) => {
                // the agents already started end here (their stdin closes)
                handles.into_iter().flatten().for_each(Handle::finish);
                return Err(e);
            }
        }
    }
    if !pod_slots.is_empty() {
        let missing = listeners.accept(n, crate::distributed::pod_link::wait(), &stop, &mut |slot, d| {
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
    let remote = Some(Box::new(Agents(agents)) as Box<dyn crate::coordinator::remote::Remote>);
    Ok(drive(Run { cfg, plan, nofile, started_unix, remote, ids, switches, stop }, handles, rx, on_ready, on_loop, records))
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
fn start(spec: &Spec, name: &str, i: u32, tx: crate::coordinator::handle::EventTx) -> Result<Spawned, String> {
    let mut cmd = crate::distributed::agents::command(spec)?;
    // a terminal's Ctrl-C reaches the coordinator only (it stops the agents itself); an ssh
    // client in the terminal's process group would die of it and lose its agent's report
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    Spawned::spawn(cmd, i, &format!("agent {name}"), true, tx).map_err(|e| format!("agent {name}: cannot start: {e}"))
}
