//! The drivers: what a worker does with its slice of switches for each `Workload`. A driver
//! starts the `Session`s (`session/`), reports to the coordinator over `protocol` and follows its
//! commands; the sessions below it never see a driver.
//!
//! `requests.rs` (throughput, latency, fixed-rate, network): every switch at once, a ready, the
//! go, the loops, the drain. `capacity.rs`: one switch after another until one fails.

pub(crate) mod capacity;
pub(crate) mod requests;

use crate::config::{Config, Slice};
use crate::switch::protocol::{Cmd, WorkerEvent};
use crate::switch::workload::Workload;
use tokio::sync::mpsc::UnboundedReceiver;

/// Run the config's workload over one worker's slice of switches.
pub async fn run(cfg: Config, slice: Slice, cmds: UnboundedReceiver<Cmd>, emit: &mut dyn FnMut(WorkerEvent)) {
    match Workload::of(&cfg) {
        Workload::Requests | Workload::Network => requests::run(cfg, slice, cmds, emit).await,
        Workload::Capacity => capacity::run(cfg, slice, cmds, emit).await,
    }
}
