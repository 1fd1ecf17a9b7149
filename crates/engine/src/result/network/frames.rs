//! The network's frame counters (`network.counters`, counted by `src/network/router.rs`) and
//! the hosts' frames (`network.hosts`, counted by `src/network/hosts.rs`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Frame counters (`src/network/router.rs`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Counters {
    /// Frames sent on a port that has a link, up or down.
    pub tx_linked: u64,
    /// Frames that crossed a link to the peer switch.
    pub rx_linked: u64,
    /// The link was down at transmit or at arrival.
    pub dropped_down: u64,
    /// Sent on a port without a peer (never `tx_linked`).
    pub dropped_unlinked: u64,
    /// Frames still on their way when the workers stopped.
    pub in_transit: u64,
    /// Frames handed to a host (after the link delay).
    pub to_hosts: u64,
    /// Refused by a switch itself (never transmitted, outside the invariant): output to a port
    /// that is down.
    pub switch_dropped_out_port_down: u64,
    /// Refused by a switch itself: output to a port that does not exist.
    pub switch_dropped_out_no_port: u64,
    /// Refused by a switch itself: a frame arriving on a port that is down.
    pub switch_dropped_in_port_down: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Flow {
    pub injected: u64,
    pub delivered: u64,
    /// ns since the measured phase began (0: never).
    pub first_injected_ns: u64,
    pub first_delivered_ns: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HostCounters {
    pub injected: u64,
    pub delivered: u64,
    /// Delivered to a host whose MAC is not the frame's destination (flooded copies).
    pub delivered_foreign: u64,
    /// Keyed "src->dst" (host indexes) so it survives JSON.
    pub flows: BTreeMap<String, Flow>,
}
