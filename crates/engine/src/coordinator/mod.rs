//! The coordinator: plans the run, starts the workers together, gathers their events, samples
//! resources, and merges everything into one `Outcome`. It opens no OpenFlow session: its only
//! sockets are its links to agents and to pods that dial in (`pod_link.rs`).
//!
//! One worker runs on a thread of this process; more run as child processes speaking the JSON-lines
//! protocol (`protocol.rs`) on their stdin/stdout, so a worker could equally be remote. Workers
//! ignore SIGINT/SIGTERM: the coordinator catches them, tells every worker to stop, and still
//! collects their (partial) reports, so an interrupted run is written, marked "interrupted".
//!
//! This file only names the parts; no part imports it.
//! - the run: `run` here picks `local.rs` (workers on this machine) or `agent_link.rs` (agents,
//!   started by `agents.rs`, pods dialling in through `pod_link.rs`, Kubernetes by `k8s.rs`);
//! - the run loop: `drive.rs` (prepare, start, end, judge) and `gather.rs` (the events), talking
//!   through `handle.rs` to each worker or agent, `agent_state.rs` for each agent;
//! - what a run leaves: `outcome.rs`, judged by `status.rs`; `figures.rs` derives the figures,
//!   `resources.rs` samples CPU and memory, `clock.rs` agrees clocks; `signals.rs` is Ctrl-C;
//!   `load.rs` the load section of fixed-rate and keep-alive runs.

pub(crate) mod agent_link;
pub(crate) mod agent_state;
pub(crate) mod agents;
pub(crate) mod clock;
mod drive;
pub(crate) mod figures;
mod gather;
mod handle;
pub(crate) mod k8s;
pub(crate) mod load;
mod local;
mod outcome;
pub(crate) mod pod_link;
pub(crate) mod resources;
mod signals;
pub(crate) mod status;

pub(crate) use drive::judge;
pub use local::run_part;
pub use outcome::{LoopTotal, Outcome};
pub use signals::{install_signal_handlers, request_stop};

use crate::config::Config;
use crate::switch::protocol::Ready;

/// Run `cfg` to the end (or to Ctrl-C), over its agents when it names any. `on_loop` sees each
/// loop's totals as they complete (the live display); `on_ready` the handshake results.
pub fn run(cfg: Config, on_ready: &mut dyn FnMut(&[Ready]), on_loop: &mut dyn FnMut(&LoopTotal)) -> Result<Outcome, String> {
    if cfg.agents.is_empty() {
        local::run(cfg, on_ready, on_loop)
    } else {
        agent_link::run(cfg, on_ready, on_loop)
    }
}
