//! The result's `network`: the emulated network's figures, every worker's merged
//! (`src/network/`; filled by `export/network.rs`).

pub(crate) mod events;
pub(crate) mod frames;
pub(crate) mod provision;
pub(crate) mod stream;

use events::Applied;
use frames::{Counters, HostCounters};
use provision::ProvisionReport;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use stream::StreamReport;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Network {
    pub links: u64,
    pub links_probed_both_ways: u64,
    pub links_raised_both_ways: u64,
    /// LLDP/BDDP frames that crossed links, both directions of every link.
    pub lldp_forwarded: u64,
    /// `ok`, or the frame-counter invariant that broke.
    pub invariant: String,
    pub counters: Counters,
    pub frames_to_other_workers: u64,
    pub transport_delay: TransportDelay,
    /// Host frames, per flow keyed `src->dst` (host indexes).
    pub hosts: HostCounters,
    /// Scheduled events as each worker applied them, by event then worker.
    pub events: Vec<Applied>,
    /// Probes that crossed each link, per direction.
    pub lldp_per_link: Vec<[u64; 2]>,
    /// Of those, the ones the receiving switch raised to its controller. Invariant: raised ≤ crossed.
    pub lldp_raised_per_link: Vec<[u64; 2]>,
    /// `[dpid, flow entries]` at the end.
    pub flows_per_switch: Vec<(u64, u64)>,
    /// Some worker's frame streams did not close in time (counts may be short).
    pub timed_out: bool,
    /// Flow-mods the switches refused with TABLE_FULL.
    pub table_full: u64,
    /// Null unless `network.provisioning` (`src/network/provision.rs`).
    pub provisioning: Option<Checked<ProvisionReport>>,
    /// Null unless `network.stream` (`src/network/stream.rs`).
    pub stream: Option<Checked<StreamReport>>,
    /// OF1.3 role changes the switches saw, in time order.
    pub roles: Vec<Role>,
    pub discovery: Discovery,
}

/// A record and its invariant: `ok`, or the one that broke.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Checked<T> {
    #[serde(flatten)]
    pub record: T,
    pub invariant: String,
}

/// How long frames took between switches, within a worker and across workers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TransportDelay {
    pub same_worker: Brief,
    pub cross_worker: Brief,
}

/// A histogram in brief (µs).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Brief {
    /// `us`.
    pub unit: String,
    pub count: u64,
    pub min: f64,
    pub p50: f64,
    pub p99: f64,
    pub max: f64,
}

/// One OF1.3 role change a switch saw.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Role {
    pub dpid: u64,
    /// CLOCK_MONOTONIC ns.
    pub mono_ns: u64,
    /// 0 = the first controller address.
    pub channel: u32,
    /// EQUAL 1, MASTER 2, SLAVE 3.
    pub role: u32,
}

/// The southbound view of discovery (RFC 8456 §5.1.1); times in ms since the first switch connected.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Discovery {
    /// CLOCK_MONOTONIC (Python's `time.monotonic_ns()`), so a northbound poller can align its times.
    pub first_connect_mono_ns: u64,
    pub switches_connected: u32,
    /// When the last link direction carried its first probe (null until every link carried probes both ways).
    pub complete_ms: Option<f64>,
    /// Per link, per direction: `[first, last]` probe that crossed it (null: none).
    pub probes_ms: Vec<[[Option<f64>; 2]; 2]>,
}
