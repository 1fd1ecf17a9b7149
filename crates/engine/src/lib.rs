//! `sdnbench-engine` as a library: emulate OpenFlow switches and measure a controller.
//! `run(config)` drives a whole run in-process (Rust tests use it); the binary (`main.rs`) only
//! parses arguments and prints.

pub mod accounting;
pub mod agent;
pub mod agent_link;
pub mod agent_merge;
pub mod agents;
pub mod cbench;
pub mod cbench_switch;
pub mod cli;
pub mod clock;
pub mod coalesce;
pub mod config;
pub mod coordinator;
pub mod export;
pub mod hist;
pub mod k8s;
pub mod learning;
pub mod limits;
pub mod network;
pub mod output;
pub mod outstanding;
pub mod pacer;
pub mod protocol;
pub mod reconnect;
pub mod resources;
pub mod robust;
pub mod run;
pub mod session;
pub mod status;
pub mod validate;
pub mod worker;
pub mod workload;

pub use config::{Config, Mode};

/// A finished run: the merged outcome and its JSON document (schema `sdnbench.engine/1`).
pub struct Report {
    pub outcome: coordinator::Outcome,
    pub json: serde_json::Value,
}

impl Report {
    pub fn status(&self) -> &'static str {
        self.outcome.status
    }
}

/// Run `config` to the end, quietly. Err: the config is invalid or the run cannot start (one
/// line each). A run with more than one worker process starts this executable as `worker`, so
/// in-process callers other than the engine binary should keep `workers` at 1 (the default for
/// runs within one process's file limit).
pub fn run(config: Config) -> Result<Report, String> {
    let errs = config.validate();
    if !errs.is_empty() {
        return Err(errs.join("; "));
    }
    let outcome = coordinator::run(config, &mut |_| {}, &mut |_| {})?;
    let json = export::build(&outcome);
    Ok(Report { outcome, json })
}
