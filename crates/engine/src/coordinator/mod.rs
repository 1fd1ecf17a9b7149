//! The coordinator: plans the run, starts the workers together, gathers their events, samples
//! resources, and merges everything into one `Outcome`. It opens no OpenFlow session.
//!
//! One worker runs on a thread of this process; more run as child processes speaking the JSON-lines
//! protocol (`protocol.rs`) on their stdin/stdout, so a worker could equally be remote. Workers
//! ignore SIGINT: the coordinator catches it (and SIGTERM), tells every worker to stop, and still
//! collects their (partial) reports, so an interrupted run is written, marked "interrupted". A
//! worker's own SIGTERM stops it the same way; none outlives the coordinator (`children.rs`).
//! A run over agents (other machines, pods) is `distributed/`'s: it starts them and drives them
//! with this run loop, through `remote.rs`.
//!
//! This file only names the parts; no part imports it.
//! - the run on this machine: `local.rs` (and `run_part`, an agent's part of a run);
//! - the run loop: `drive.rs` (prepare, start, end, judge) and `gather.rs` (the events), talking
//!   through `handle.rs` to each worker or agent, and through `remote.rs` to the agents' state;
//! - what a run leaves: `outcome.rs`, judged by `status.rs`; the switches' records folded as they come
//!   (`digest.rs`) and handed to the caller's `Records` (`records.rs`); `figures.rs` derives the figures,
//!   `resources.rs` samples CPU and memory, `clock.rs` agrees clocks; `signals.rs` the `Stop` handle (and Ctrl-C, SIGTERM);
//!   `load.rs` the load section of fixed-rate and keep-alive runs; `fault.rs` a fault a test
//!   injects at a named point.

pub(crate) mod clock;
pub(crate) mod digest;
pub(crate) mod drive;
pub mod fault;
pub(crate) mod figures;
mod gather;
pub(crate) mod handle;
pub(crate) mod load;
mod local;
mod outcome;
pub(crate) mod records;
pub(crate) mod remote;
pub(crate) mod resources;
mod signals;
pub(crate) mod status;

pub(crate) use drive::judge;
pub use local::{run, run_part};
pub use outcome::{LoopTotal, Outcome};
pub use records::{Discard, Keep, Records};
pub use signals::{install_signal_handlers, Stop};
