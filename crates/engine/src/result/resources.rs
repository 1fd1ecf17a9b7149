//! The result's `resources`: CPU and memory of the engine's and the controller's processes,
//! sampled once per loop by the coordinator (`src/coordinator/resources.rs`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Resources {
    /// When each sample was taken (s from the start of the measured phase).
    pub t_s: Vec<f64>,
    pub processes: Vec<ProcSeries>,
}

/// One process's samples, one per entry of `t_s`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ProcSeries {
    /// `engine`, `worker N`, `controller`, ...
    pub label: String,
    pub pid: u32,
    pub cpu_percent: Vec<f64>,
    pub rss_bytes: Vec<u64>,
    pub threads: Vec<u32>,
    /// Time its threads waited for a CPU (schedstat), ms per sample interval.
    pub run_delay_ms: Vec<f64>,
}
