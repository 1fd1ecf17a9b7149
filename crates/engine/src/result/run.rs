//! The sections of the result that describe the run as a whole: the engine, the handshake, the
//! loops, throughput and latency, the learning phase and efficiency (capacity: the workers' own
//! record, `capacity.rs`, summed), and the reconnection in effect (with OVS's fail modes,
//! which `params.fail_mode` names too).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The engine process that wrote the result.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Engine {
    /// `sdnbench-engine`.
    pub name: String,
    pub version: String,
    /// Worker processes (a merge: the files merged).
    pub workers: u32,
    /// The coordinator's pid.
    pub pid: u32,
    /// Open-file limits after raising them.
    pub nofile_soft: u64,
    pub nofile_hard: u64,
    /// Local addresses the sessions connected from.
    pub source_addrs: Vec<String>,
}

/// Sessions brought up before the measured loops. Invariant: `sessions_attempted =
/// sessions_up + Σ failures.count`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Handshake {
    pub sessions_attempted: u32,
    pub sessions_up: u32,
    pub sessions_failed: u32,
    /// Until the last session was up (s).
    pub duration_s: f64,
    pub rate_per_s: f64,
    pub failures: Vec<Failure>,
    /// Sessions whose controller closed the first connection on the HELLO with a version
    /// bitmap, retried offering OpenFlow 1.0 alone (a plain 1.0 HELLO; `switches[].hello_fallback`).
    /// Written only when not 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hello_fallbacks: u32,
    /// The opening of each switch's first session that came up, step by step (µs; raw samples
    /// in `switches[]`): the TCP connect, the TLS handshake (TLS runs; null on TCP) and the
    /// OpenFlow handshake (HELLO sent until the switch was up), each timed alone. Null when no
    /// session came up.
    #[serde(default)]
    pub tcp_connect_us: Option<Percentiles>,
    #[serde(default)]
    pub tls_handshake_us: Option<Percentiles>,
    #[serde(default)]
    pub openflow_handshake_us: Option<Percentiles>,
}

/// A figure's samples summarized (nearest rank; µs).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Percentiles {
    pub count: u64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
}

/// How the switches reached the controller (RFC 8456 §4.8: "whether the connection is
/// encrypted").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Transport {
    /// `tcp` or `tls` (`params.tls` set).
    #[schemars(extend("enum" = ["tcp", "tls"]))]
    pub protocol: String,
    /// The TLS version the sessions agreed, as rustls names it (`TLSv1_2`, `TLSv1_3`); the most
    /// common one if they differ; null on TCP or when no TLS session came up.
    pub tls_version: Option<String>,
    /// The cipher suite, as rustls names it (`TLS13_AES_128_GCM_SHA256`), as `tls_version`.
    pub cipher_suite: Option<String>,
    /// Switches whose first session came up over TLS (== `handshake.sessions_up` in a TLS run).
    pub sessions_tls: u32,
}

impl Default for Transport {
    fn default() -> Transport {
        Transport { protocol: "tcp".into(), tls_version: None, cipher_suite: None, sessions_tls: 0 }
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Sessions that failed for one reason.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Failure {
    pub reason: String,
    pub count: u32,
}

/// Per loop (warm-up loops included, first), one column per figure.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Loops {
    pub loop_ms: u64,
    pub warmup: u32,
    /// The loop number, from 1.
    pub k: Vec<u32>,
    /// When the loop ended (s from the start of the measured phase).
    pub t_s: Vec<f64>,
    pub answered: Vec<u64>,
    pub sent: Vec<u64>,
    pub lost_cumulative: Vec<u64>,
    pub sessions_up: Vec<u32>,
    /// Robustness runs: every answered request's latency (µs) per loop, raw; null otherwise.
    pub latency_us: Option<Vec<Vec<u32>>>,
}

/// Answered requests per second in the measured loops.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Throughput {
    /// `answered requests/s`.
    pub unit: String,
    pub per_loop: Vec<f64>,
    pub mean: f64,
    pub stdev: f64,
    pub min: f64,
    pub max: f64,
}

/// The reconnection settings of the run (`params`' own, restated for readers).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Reconnect {
    pub on: bool,
    pub backoff_ms: u64,
    pub max_backoff_ms: u64,
    pub fail_mode: FailMode,
}

/// OVS's fail modes (ovs-vsctl set-fail-mode). While disconnected, `secure` keeps the flow
/// table and drops table misses; `standalone` does the same until the controller has been away
/// for 3 × the inactivity probe, then forwards on its own ("fail-open", `ofswitch::fail_open`;
/// network mode). Neither sends a packet-in: a request due while disconnected is not sent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FailMode {
    /// Mininet's default for its OVS switches.
    #[default]
    Secure,
    /// Open vSwitch's own default.
    Standalone,
}

/// The learning phase (`src/switch/learning.rs`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Learning {
    pub requests: u64,
    pub replies: u64,
    pub outstanding: u64,
    pub duration_s: f64,
    /// `none` (no learning phase), `drained`, `quiet`, `deadline`, `stopped`.
    pub ended: String,
}

/// Latency of the requests answered in the measured loops, all workers' histograms merged (µs).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Latency {
    /// `us`.
    pub unit: String,
    pub count: u64,
    pub mean: f64,
    pub stdev: f64,
    pub min: f64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub p99_9: f64,
    pub max: f64,
    /// Samples above the histogram's range (60 s), counted at its top.
    pub clamped: u64,
    /// The merged histogram, HdrHistogram V2 serialized, base64.
    pub hdr_v2_base64: String,
    /// `[value µs, count]` per bucket.
    pub buckets_us: Vec<(f64, u64)>,
}

/// What the engine cost (the coordinator's machine only).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Efficiency {
    /// The engine's CPU time during the measured loops.
    pub engine_cpu_s: f64,
    pub measured_answered: u64,
    pub answered_per_engine_cpu_s: f64,
    pub coalescing: Coalescing,
}

/// Wake coalescing over all workers (`src/switch/coalesce.rs`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Coalescing {
    /// `params.coalesce_pct` when coalescing was on, else 0.
    pub pct: f64,
    /// Parks that waited, and the time waited.
    pub waits: u64,
    pub waited_s: f64,
    /// The largest quantum: the bound on what coalescing added to any latency sample.
    pub max_quantum_us: f64,
}
