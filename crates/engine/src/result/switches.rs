//! The result's `switches`: one record per emulated switch, in switch order. The same record is
//! what a worker reports for each of its switches (`switch::protocol::WorkerReport`): the
//! worker's session fills it (`switch/accounting.rs`, `switch/keepalive.rs`, `hist.rs`), the
//! exporter writes it as it came.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
pub struct SwitchReport {
    pub index: u32,
    pub dpid: u64,
    pub worker: u32,
    /// Negotiated OpenFlow version ("1.0", "1.3"), or null if the handshake never finished.
    pub of_version: Option<String>,
    /// The controller closed the first connection on the HELLO with a version bitmap, and the
    /// switch was retried with a plain OpenFlow 1.0 HELLO (`hello_fallback.rs`). Written only
    /// when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hello_fallback: bool,
    pub handshake_ms: Option<f64>,
    /// The first session that came up: its TCP connect (µs), its TLS handshake (µs; TLS runs
    /// only) and its OpenFlow handshake (HELLO sent until the switch was up, µs), each timed
    /// alone. Written only when the session came up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcp_connect_us: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls_handshake_us: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openflow_handshake_us: Option<f64>,
    /// TLS runs: the version and the cipher suite that session agreed ("TLSv1_3",
    /// "TLS13_AES_128_GCM_SHA256"). Written only over TLS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls_cipher_suite: Option<String>,
    // flattened: the record's keys are the counters' own, in their order (no key of its own)
    #[serde(flatten)]
    pub requests: RequestCounts,
    /// Latency of the late answers (ns): sum and max.
    #[serde(default)]
    pub late_ns_sum: u64,
    #[serde(default)]
    pub late_ns_max: u64,
    pub learning_replies: u64,
    #[serde(default)]
    pub learning_late_replies: u64,
    #[serde(default)]
    pub lldp_packet_outs: u64,
    #[serde(default)]
    pub lldp_packet_ins: u64,
    pub errors: BTreeMap<String, u64>,
    pub replies_by_type: BTreeMap<String, u64>,
    /// Answered requests in each loop (warm-up loops included, first).
    pub answered_per_loop: Vec<u64>,
    pub sent_per_loop: Vec<u64>,
    pub latency: Option<Summary>,
    pub echo_rtt_us: Vec<f64>,
    pub disconnect: Option<Disconnect>,
    /// The periodic keep-alive (`echo_every_ms`; `keepalive.rs`): echoes sent, answered, lost, late.
    #[serde(default, skip_serializing_if = "KeepaliveCounts::is_zero")]
    pub keepalive: KeepaliveCounts,
    /// Reconnection (`reconnect.rs`, `accounting.rs`).
    #[serde(default)]
    pub reconnect: ReconnectCounts,
}

// One switch's requests and the replies that named them (or named none), in a switch's record;
// the same counters are what a switch counts (`SwitchStats`) and what the run sums
// (`coordinator/digest.rs`). The rules of each are `switch/accounting.rs`'s. Invariant: `sent =
// answered + late + lost + discarded + in_flight_at_stop`.
// Plain comments, not doc comments: flattened into `SwitchReport`, a doc comment here or on a
// field would be a description in the schema (`SwitchReport`'s own), which has none for these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RequestCounts {
    pub sent: u64,
    pub answered: u64,
    pub lost: u64,
    pub extra: u64,
    pub unmatched: u64,
    pub late: u64,
    #[serde(default)]
    pub in_flight_at_stop: u64,
    #[serde(default)]
    pub discarded: u64,
}

impl RequestCounts {
    /// Add `o`'s counts to these (a sum over switches).
    pub fn add(&mut self, o: &RequestCounts) {
        let RequestCounts { sent, answered, lost, extra, unmatched, late, in_flight_at_stop, discarded } = *o;
        self.sent += sent;
        self.answered += answered;
        self.lost += lost;
        self.extra += extra;
        self.unmatched += unmatched;
        self.late += late;
        self.in_flight_at_stop += in_flight_at_stop;
        self.discarded += discarded;
    }
}

// filled by `Hist::summary` (`hist.rs`)
/// Percentiles in microseconds (what the JSON and the text output show).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Summary {
    pub count: u64,
    pub mean_us: f64,
    pub stdev_us: f64,
    pub min_us: f64,
    pub p50_us: f64,
    pub p90_us: f64,
    pub p99_us: f64,
    pub p99_9_us: f64,
    pub max_us: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Disconnect {
    /// Seconds from the start of the measured phase (negative: before it).
    pub t_s: f64,
    /// closed | reset | malformed | timeout | refused | protocol
    pub kind: String,
    pub reason: String,
}

/// One switch's reconnection counters. Invariants: `sessions_lost = reconnects +
/// down_at_stop`, `attempts = reconnects + failures`, `disconnected_ns = 0` iff
/// `sessions_lost = 0`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ReconnectCounts {
    /// Established sessions that ended before the run did (`reconnect.rs`).
    pub sessions_lost: u64,
    /// Connections tried after a loss; those that came up (handshake done); those that did not.
    pub attempts: u64,
    pub reconnects: u64,
    pub failures: u64,
    /// The switch had no session when the run ended, after a loss.
    pub down_at_stop: bool,
    /// Down at the stop, but only waiting out the backoff (no attempt failed since the loss).
    pub reconnecting_at_stop: bool,
    /// Time without a session after a loss (closed at re-establishment or the run's end).
    pub disconnected_ns: u64,
    /// Requests due while the switch had no session (fixed-rate schedule), never sent.
    pub not_sent_disconnected: u64,
    /// When the session was last re-established (s from the start of the measured phase).
    pub last_back_t_s: Option<f64>,
}

/// A switch's keep-alive counters (in `switches[].keepalive`; summed in `load.keepalive`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct KeepaliveCounts {
    /// Echo requests sent (periodic keep-alive).
    pub sent: u64,
    /// Answered within the timeout.
    pub answered: u64,
    /// Not answered within the timeout (a late reply does not take it back: see `late`).
    pub lost: u64,
    /// Of the lost, those whose reply came after the timeout.
    pub late: u64,
    /// Neither answered nor timed out when the session ended.
    pub in_flight_at_stop: u64,
}

impl KeepaliveCounts {
    /// Nothing counted (the field is then left out of a switch's record).
    pub fn is_zero(&self) -> bool {
        *self == KeepaliveCounts::default()
    }

    /// Add `o`'s counts to these (a sum over switches; destructured, so a new field must be summed).
    pub fn add(&mut self, o: &KeepaliveCounts) {
        let KeepaliveCounts { sent, answered, lost, late, in_flight_at_stop } = *o;
        self.sent += sent;
        self.answered += answered;
        self.lost += lost;
        self.late += late;
        self.in_flight_at_stop += in_flight_at_stop;
    }
}
