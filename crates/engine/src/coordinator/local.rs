//! A run on this machine: the plan (`config/limits.rs`) says how many workers; each gets its
//! slice of the switches and the run loop drives them (`drive.rs`). An agent runs its part of a
//! distributed run the same way (`run_part`).

use crate::config::limits;
use crate::config::{slices, Config, Slice};
use crate::coordinator::clock::unix_now;
use crate::coordinator::drive::{drive, prepare, Run};
use crate::coordinator::handle::{spawn_worker, Handle};
use crate::coordinator::outcome::{LoopTotal, Outcome};
use crate::coordinator::records::Records;
use crate::coordinator::signals::Stop;
use crate::switch::protocol::Ready;

/// Run `cfg` on this machine with the workers its plan gives (`config/limits.rs`); a single
/// worker runs on a thread of this process; `stop` ends it early ("interrupted"). Each worker's
/// records go to `records` as its report arrives.
pub fn run(
    cfg: Config,
    stop: Stop,
    on_ready: &mut dyn FnMut(&[Ready]),
    on_loop: &mut dyn FnMut(&LoopTotal),
    records: &mut dyn Records,
) -> Result<Outcome, String> {
    let started_unix = unix_now();
    let nofile = limits::raise_nofile();
    let plan = limits::plan(&cfg, nofile.1, limits::ephemeral_ports())?;
    let cfg = prepare(cfg, &plan, nofile, true)?;
    let parts = slices(cfg.switches, plan.workers);
    start_workers(Run { cfg, plan, nofile, started_unix, remote: None, ids: vec![], switches: 0, stop }, &parts, on_ready, on_loop, records)
}

/// An agent's part of a run (`agent.rs`): the switches `slice` (global indexes) on this machine,
/// with a plan of its own: worker processes for this machine's file limit, source addresses of
/// this machine (`source`: chosen by the agent when the config gives none). In network mode one
/// worker, numbered as the agent, so the network's ownership of switches holds.
pub fn run_part(
    mut cfg: Config,
    slice: Slice,
    stop: Stop,
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
    // the agent sends its records on in its report
    let run = Run { cfg, plan, nofile, started_unix, remote: None, ids: vec![], switches: 0, stop };
    start_workers(run, &parts, on_ready, on_loop, &mut crate::coordinator::records::Keep)
}

/// Spawn one worker per slice of `parts` and drive the run (`run`'s worker ids and switch count
/// are filled from the slices).
fn start_workers(
    mut run: Run,
    parts: &[Slice],
    on_ready: &mut dyn FnMut(&[Ready]),
    on_loop: &mut dyn FnMut(&LoopTotal),
    records: &mut dyn Records,
) -> Result<Outcome, String> {
    let (tx, rx) = crate::coordinator::handle::events();
    let mut handles = Vec::new();
    for (i, s) in parts.iter().enumerate() {
        match spawn_worker(&run.cfg, *s, i as u32, parts.len() == 1, tx.clone()) {
            Ok(h) => {
                handles.push(h);
                if i == 0 {
                    crate::coordinator::fault::at("spawn", &run.stop);
                }
            }
            Err(e) => {
                // the workers already started end here, not with their sessions still open
                handles.into_iter().for_each(Handle::finish);
                return Err(e);
            }
        }
    }
    drop(tx);
    run.ids = parts.iter().map(|p| p.worker).collect();
    run.switches = parts.iter().map(|p| p.hi - p.lo).sum();
    Ok(drive(run, handles, rx, on_ready, on_loop, records))
}
