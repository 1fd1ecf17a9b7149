//! The result's `totals` (every switch's counters summed) and `disconnects`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Counters over every switch and every loop (warm-up included). Invariants in SCHEMA.md.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Totals {
    pub requests_sent: u64,
    pub requests_answered: u64,
    pub requests_lost: u64,
    pub extra_replies: u64,
    pub extra_per_answered: f64,
    pub unmatched_replies: u64,
    pub late_replies: u64,
    pub requests_in_flight_at_stop: u64,
    pub requests_discarded: u64,
    pub invalid_packet_ins_sent: u64,
    pub late_latency_us: LateLatency,
    pub learning_replies: u64,
    pub learning_late_replies: u64,
    pub errors: u64,
    pub errors_by_code: BTreeMap<String, u64>,
    pub replies_by_type: BTreeMap<String, u64>,
    /// Switches whose session was lost (the length of `disconnects`).
    pub disconnects: u64,
    #[serde(flatten)]
    pub reconnect: ReconnectTotals,
}

/// The latency of late answers (µs).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LateLatency {
    pub count: u64,
    pub mean: f64,
    pub max: f64,
}

/// The reconnection counters summed over switches (`src/switch/reconnect.rs`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ReconnectTotals {
    pub sessions_lost: u64,
    pub reconnect_attempts: u64,
    pub reconnects: u64,
    pub reconnect_failures: u64,
    pub switches_down_at_stop: u64,
    pub switches_reconnecting_at_stop: u64,
    pub disconnected_ms: f64,
    pub requests_not_sent_disconnected: u64,
}

/// One switch whose session was lost (the first loss).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Disconnect {
    pub index: u32,
    pub dpid: u64,
    /// Seconds from the start of the measured phase (negative: before it).
    pub t_s: f64,
    /// `closed`, `reset`, `malformed`, `timeout`, `refused` or `protocol`.
    pub kind: String,
    pub reason: String,
}
