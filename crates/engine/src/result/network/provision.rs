//! `network.provisioning`: per flow, when its frame entered and left the network
//! (`src/network/provision.rs` records it and checks its invariants).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Per flow: when its frame entered the ingress switch and left the egress switch (ns since the
/// measured phase began; 0: not yet / never).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ProvisionReport {
    pub flows: u32,
    pub started: u64,
    pub provisioned: u64,
    pub timed_out: u64,
    pub in_flight: u64,
    /// Deliveries of a flow after its first, or after it timed out.
    pub late: u64,
    pub started_ns: Vec<u64>,
    pub delivered_ns: Vec<u64>,
    /// When the announcements went out (ns since go).
    pub announced_ns: u64,
    /// Go itself on CLOCK_MONOTONIC (ns): a northbound client aligns its request times with it.
    #[serde(default)]
    pub go_mono_ns: u64,
    /// Frames sent again (`repeat_ms`).
    #[serde(default)]
    pub repeated: u64,
}
