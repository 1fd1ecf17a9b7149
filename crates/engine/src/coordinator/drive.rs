//! The run loop's frame: the config as the workers get it (`prepare`), then `drive` starts the
//! robustness attacker beside the workers (or agents), gathers them (`gather.rs`), lets them
//! end, and judges the run from the counters (`status.rs`).

use crate::config::limits::Plan;
use crate::config::Config;
use crate::coordinator::clock::unix_now;
use crate::coordinator::handle::Handle;
use crate::coordinator::outcome::{LoopTotal, Outcome};
use crate::coordinator::records::Records;
use crate::coordinator::remote::Remote;
use crate::coordinator::{figures, gather, status};
use crate::switch::protocol::{Ready, WorkerEvent};
use crate::switch::workload::Workload;
use std::sync::mpsc;

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
    /// Agents (None: local workers): their names, slices, clocks and traffic.
    pub remote: Option<Box<dyn Remote>>,
    /// The worker id (`Slice::worker`) of each handle, in handle order.
    pub ids: Vec<u32>,
    /// The switches of all handles together.
    pub switches: u32,
    /// Requested: tell every worker (or agent) to stop, and end the run "interrupted".
    pub stop: crate::coordinator::signals::Stop,
}

/// Start the workers (or agents) together, gather them, judge.
pub(crate) fn drive(
    run: Run,
    mut handles: Vec<Handle>,
    rx: mpsc::Receiver<(u32, WorkerEvent)>,
    on_ready: &mut dyn FnMut(&[Ready]),
    on_loop: &mut dyn FnMut(&LoopTotal),
    records: &mut dyn Records,
) -> Outcome {
    crate::coordinator::fault::at("started", &run.stop);
    let Run { cfg, plan, nofile, started_unix, mut remote, ids, switches: ids_switches, stop } = run;
    let mut out = Outcome::new(cfg.clone(), plan, started_unix, nofile, ids_switches);
    let go = crate::robust::attacker::Go::new();
    let attacker = crate::robust::attacker::spawn(&cfg, go.clone());
    let mut on_ready = |r: &[Ready]| {
        go.went();
        on_ready(r)
    };
    let went = gather::collect(&mut handles, &stop, &ids, &rx, &mut out, remote.as_deref_mut(), &mut on_ready, on_loop, records);
    go.abandon();
    out.robustness = attacker.and_then(|a| a.join().ok());
    // a reader (or a worker thread) still sending waits on the bounded queue: closed, it goes on
    // (a child's reader then reads its pipe to the end), so every worker can end
    drop(rx);
    // what the readers parsed and the coordinator encoded is freed: back to the system
    crate::trim::give_back();
    for h in handles {
        h.finish();
    }
    out.reports.sort_by_key(|r| r.worker);
    judge(&mut out, went);
    if let Some(r) = &remote {
        r.judge(&mut out.status, &mut out.error);
        out.agents = r.section(&out.reports, &out.digest);
    }
    out.finished_unix = unix_now();
    out.warnings = figures::warnings(&out);
    out
}

/// Decide the status from the counters (`status.rs`).
pub(crate) fn judge(out: &mut Outcome, went: bool) {
    let workload = Workload::of(&out.cfg);
    let d = &out.digest;
    let up = if workload.up_after_echo() { d.counts.up_echoed } else { d.counts.up };
    // capacity: sessions dropped during the hold are the measurement, not a fault of the run
    let lost = d
        .losses()
        .filter(|l| l.up && workload.sends_requests())
        .map(|l| format!("switch {} (dpid {}): {}", l.at.index, l.at.dpid, l.at.reason))
        .collect();
    let first_failure = out
        .ready
        .iter()
        .flat_map(|r| r.failures.keys())
        .next()
        .cloned()
        .or_else(|| d.losses().find(|l| !l.up).map(|l| l.at.reason.clone()))
        .map(|r| status::explain(&r, out.cfg.versions));
    let facts = status::Facts {
        switches: if workload.up_after_echo() { up } else { out.part_switches },
        up,
        lost,
        reconnects: d.sums.reconnects,
        back: d.counts.back,
        first_failure,
        sends_requests: workload.sends_requests(),
        measured_answered: figures::measured_answered(out),
        went,
        interrupted: out.status == "interrupted",
        fatal: out.error.clone(),
    };
    let (status, error) = status::judge(&facts);
    out.status = status;
    out.error = error;
}
