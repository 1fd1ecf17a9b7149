//! One worker's emulated switches, the per-switch hot path: a `Session` per switch, paced by a
//! `Pacer`, sending what its `Workload` says; the answers matched in `Outstanding` and counted
//! in `accounting`. A worker reports to the coordinator over `protocol`.
//!
//! Inside, dependencies point one way (`tests/layers.rs`, `INSIDE`): `worker` runs a `driver`
//! (one per workload), a driver starts `session`s, a session uses the pieces below it (`shared`,
//! `protocol`, `accounting`, `pacer`, ...), and `workload`, what a run's switches send, is the
//! bottom: it reads the config only.

pub(crate) mod accounting;
pub(crate) mod cbench_switch;
pub(crate) mod coalesce;
pub(crate) mod columns;
pub(crate) mod driver;
pub(crate) mod exceptions;
#[cfg(test)]
pub(crate) mod footprint;
pub(crate) mod hello_fallback;
pub(crate) mod keepalive;
pub(crate) mod learning;
pub(crate) mod load;
pub(crate) mod outstanding;
pub(crate) mod pacer;
pub(crate) mod protocol;
pub(crate) mod rare;
pub(crate) mod reconnect;
pub(crate) mod replies;
pub(crate) mod session;
pub(crate) mod shared;
pub(crate) mod stagger;
pub(crate) mod tally;
pub(crate) mod trace;
pub(crate) mod worker;
pub(crate) mod workload;
