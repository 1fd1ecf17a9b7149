//! A worker: one single-threaded tokio runtime running a slice of the switches.
//!
//! It never prints. It reports through `emit` (the coordinator's channel, or stdout as JSON lines
//! when it runs as a child process) and takes `Cmd`s from `cmds`. Several workers (processes)
//! hold more sessions than one process's file limit allows, and use more cores. What its
//! sessions share is `shared.rs`; what they send, the run's `Workload`; its driver (`driver/`)
//! starts them.

use crate::config::{Config, Slice};
use crate::switch::protocol::{Cmd, WorkerEvent};
use tokio::sync::mpsc::UnboundedReceiver;

/// Run one worker to completion. Blocks the calling thread.
pub fn run(cfg: Config, slice: Slice, cmds: UnboundedReceiver<Cmd>, emit: &mut dyn FnMut(WorkerEvent)) {
    let park = crate::switch::coalesce::Park::new();
    crate::switch::coalesce::install(&park);
    let hook = park.clone();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .on_thread_park(move || hook.before_park())
        .build()
        .expect("tokio runtime");
    let local = tokio::task::LocalSet::new();
    local.block_on(&rt, crate::switch::driver::run(cfg, slice, cmds, emit));
}
