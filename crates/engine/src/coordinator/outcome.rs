//! What a run leaves: `Outcome`, everything the exporter and the summary read, and the
//! per-loop totals over all workers (`LoopTotal`), merged from the workers' intervals.

use crate::config::limits::Plan;
use crate::config::Config;
use crate::coordinator::records::Records;
use crate::coordinator::resources::Sampler;
use crate::result::SwitchReport;
use crate::switch::protocol::{Interval, Ready, WorkerReport};

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
    /// Fixed-rate and keep-alive runs: the loop's account over all workers (`switch/load.rs`).
    pub load: Option<crate::switch::load::LoopLoad>,
}

/// A run as it ended: its config and plan, what every worker reported, the status judged.
pub struct Outcome {
    pub cfg: Config,
    pub plan: Plan,
    pub ready: Vec<Ready>,
    pub loops: Vec<LoopTotal>,
    /// The workers' reports, sorted by worker; their `switches` are what the run's `Records`
    /// kept (none when they went to the columnar file as they came).
    pub reports: Vec<WorkerReport>,
    /// Every switch's record, folded as it came (`digest.rs`): what the figures read.
    pub digest: crate::coordinator::digest::Digest,
    /// Records kept (`Keep`) that came before their worker's report, by worker.
    pub arrived: std::collections::BTreeMap<u32, Vec<SwitchReport>>,
    pub sampler: Sampler,
    pub status: &'static str,
    pub error: Option<String>,
    pub warnings: Vec<String>,
    pub started_unix: f64,
    pub finished_unix: f64,
    pub nofile: (u64, u64),
    /// What the robustness attacker observed (`robust/`), when a case was configured.
    pub robustness: Option<crate::result::Observation>,
    /// The result's agents section (`distributed/agent_state.rs`); empty when the workers were local.
    pub agents: Vec<crate::result::Agent>,
    /// The switches this run is responsible for (an agent: its slice; otherwise all).
    pub part_switches: u32,
}

impl Outcome {
    /// A run as it starts: nothing reported, nothing judged (status `ok` until `judge`).
    pub(crate) fn new(cfg: Config, plan: Plan, started_unix: f64, nofile: (u64, u64), part_switches: u32) -> Outcome {
        Outcome {
            cfg,
            plan,
            ready: vec![],
            loops: vec![],
            reports: vec![],
            digest: Default::default(),
            arrived: Default::default(),
            sampler: Sampler::new(vec![], 0.0),
            status: "ok",
            error: None,
            warnings: vec![],
            started_unix,
            finished_unix: 0.0,
            nofile,
            robustness: None,
            agents: vec![],
            part_switches,
        }
    }

    /// Some of `worker`'s records as they arrive: folded into the digest, then handed to
    /// `records`, which keeps them (until the worker's report) or takes them (to the columnar file).
    pub(crate) fn add_switches(&mut self, worker: u32, recs: Vec<SwitchReport>, records: &mut dyn Records) {
        for s in &recs {
            self.digest.add(&self.cfg, worker, s);
        }
        let kept = records.take(worker, recs);
        if !kept.is_empty() {
            self.arrived.entry(worker).or_default().extend(kept);
        }
    }

    /// A worker's report as it arrives: its records (those sent before it, then its own) as
    /// `add_switches` takes them.
    pub(crate) fn add_report(&mut self, mut r: WorkerReport, records: &mut dyn Records) {
        let recs = std::mem::take(&mut r.switches);
        self.add_switches(r.worker, recs, records);
        r.switches = self.arrived.remove(&r.worker).unwrap_or_default();
        self.reports.push(r);
    }
}

impl LoopTotal {
    /// Loop `k`, nothing added yet.
    pub(crate) fn new(k: u32) -> LoopTotal {
        LoopTotal { k, ..Default::default() }
    }

    /// Add one worker's interval of this loop (its per-switch counts kept apart until `assemble`).
    pub(crate) fn add(&mut self, iv: &Interval) {
        if let Some(l) = &iv.load {
            self.load.get_or_insert_with(Default::default).add(l);
        }
        // keep per-switch counts in worker order (slices are contiguous and ordered by worker)
        if !iv.per_switch.is_empty() {
            self.per_switch_parts.push((iv.worker, iv.per_switch.clone()));
        }
        if !iv.per_switch_responses.is_empty() {
            self.responses_parts.push((iv.worker, iv.per_switch_responses.clone()));
        }
        self.responses += iv.responses;
        self.latency_us.extend_from_slice(&iv.latency_us);
        self.answered += iv.answered;
        self.sent += iv.sent;
        self.lost += iv.lost;
        self.up += iv.up;
        self.net_connected += iv.net_connected;
        self.net_dirs_seen += iv.net_dirs_seen;
        self.net_links = self.net_links.max(iv.net_links);
    }

    /// The per-switch counts in switch order, when all `n` workers sent them (`from`: how many
    /// workers reported this loop).
    pub(crate) fn assemble(&mut self, n: usize, from: usize) {
        if self.per_switch_parts.len() == n && from == n {
            self.per_switch_parts.sort_by_key(|p| p.0);
            self.per_switch = self.per_switch_parts.drain(..).flat_map(|p| p.1).collect();
        }
        if self.responses_parts.len() == n && from == n {
            self.responses_parts.sort_by_key(|p| p.0);
            self.per_switch_responses = self.responses_parts.drain(..).flat_map(|p| p.1).collect();
        }
    }
}
