//! `network.stream`: per host pair, its sequence record (`src/network/stream.rs` records it and
//! checks its invariants).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A break in one pair's sequence: the arrival before it and the arrival after it (ns since go).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Gap {
    pub before_seq: u32,
    pub before_ns: u64,
    pub after_seq: u32,
    pub after_ns: u64,
}

/// One scheduled event as one pair saw it: the last arrival before and the first after
/// (`after_ns` 0: nothing arrived after it).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AroundEvent {
    pub event: u32,
    /// When the event was applied (ns since go).
    pub at_ns: u64,
    pub before_seq: Option<u32>,
    pub before_ns: u64,
    pub after_seq: Option<u32>,
    pub after_ns: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PairReport {
    pub src: u32,
    pub dst: u32,
    pub sent: u64,
    /// When sequence number 0 left (ns since go; 0: not yet).
    pub first_sent_ns: u64,
    pub received: u64,
    pub reordered: u64,
    pub first_seq: Option<u32>,
    pub last_seq: Option<u32>,
    pub first_rx_ns: u64,
    pub last_rx_ns: u64,
    pub gaps: Vec<Gap>,
    /// Gaps beyond `MAX_GAPS` (counted, not kept).
    pub gaps_dropped: u64,
    /// The largest jump in sequence numbers (frames missing) and in time between arrivals (ns).
    pub max_seq_gap: u64,
    pub max_time_gap_ns: u64,
    pub events: Vec<AroundEvent>,
    /// How late the pair's latest frame left after its due time (ns): the sender's own timing
    /// error, so any figure read from arrival times may stray this far from the schedule.
    #[serde(default)]
    pub max_late_ns: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StreamReport {
    pub interval_us: u64,
    /// Go on CLOCK_MONOTONIC (ns): the origin of every time here.
    pub go_mono_ns: u64,
    pub pairs: Vec<PairReport>,
}
