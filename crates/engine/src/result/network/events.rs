//! Scheduled events as the workers applied them (`network.events`; `src/network/events.rs`
//! records them), and a link's state, as the network spec's events name it too.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// When one event was applied by one worker (times in ms since the measured phase began).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Applied {
    pub event: u32,
    pub worker: u32,
    pub at_ms: u64,
    pub actual_ms: f64,
    pub state: LinkState,
    /// The port ends this worker set: (dpid, port).
    pub ends: Vec<(u64, u32)>,
    /// The same instant in CLOCK_MONOTONIC ns (the clock of `network.discovery`'s times and of
    /// a northbound poller), for change-detection times (RFC 8456 §5.1.8).
    #[serde(default)]
    pub mono_ns: u64,
    /// Southbound reactions (RFC 8456 §5.1.8 without a northbound view), CLOCK_MONOTONIC ns, 0
    /// = none seen by this worker: for a link coming up, the first probe of the controller that
    /// crossed it afterwards, per direction (seen by the worker owning the receiving end); for
    /// a link or port going down, the first change in the flow-entry count of one of this
    /// worker's end switches afterwards (the controller's flows reacting).
    #[serde(default)]
    pub first_probe_after_ns: [u64; 2],
    #[serde(default)]
    pub flows_changed_ns: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum LinkState {
    Up,
    Down,
}
