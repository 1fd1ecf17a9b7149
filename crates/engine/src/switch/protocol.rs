//! The coordinator ↔ worker protocol: JSON lines.
//!
//! A worker reads commands on stdin and writes events on stdout, one JSON object per line, so the
//! same worker can run under the local coordinator (a child process), over `ssh host
//! sdnbench-engine worker`, or behind any byte stream. Sequence:
//!
//! ```text
//! coordinator → worker   {"start": {"config": {...}, "slice": {"worker": 0, "lo": 0, "hi": 500}}}
//! worker → coordinator   {"ready": {...}}            all its sessions up (or failed)
//! agent → coordinator    {"listening": {...}}        network mode: its TCP address for frames
//! coordinator → agent    {"peers": {"addrs": [..]}}  ... every agent's, once all are known
//! coordinator → agent    "ping"                      agents only: clock check (after every Ready)
//! agent → coordinator    {"pong": {...}}             its CLOCK_REALTIME when the ping arrived
//! coordinator → worker   "go"                        every worker is ready: start loading
//! coordinator → agent    {"go_at": {"unix_ns": T}}   agents: start when the agent's clock reads T
//! worker → coordinator   {"interval": {...}}         one per loop, as it ends
//! coordinator → worker   "stop"                      optional: end early, in any phase (Ctrl-C, SIGTERM);
//!                                                    at EOF a worker exits at once, an agent stops
//! worker → coordinator   {"switches": {...}}         its switches' records, [`SWITCHES_PER_EVENT`] at a time
//! worker → coordinator   {"done": {...}}             its report: histogram, the records not sent before
//! worker → coordinator   {"fatal": "..."}            the worker cannot go on (e.g. --strict)
//! ```
//! Times inside are relative to the worker's own go. An agent (`agent.rs`: one machine's part,
//! itself a coordinator of local workers) speaks the same protocol; the coordinator measures each
//! agent's clock offset NTP-style (ping/pong) and sends a common start time in the agent's own
//! clock (`go_at`), refusing the run beyond `max_skew_ms`.

use crate::config::{Config, Slice};
use crate::result::{AgentFacts, Capacity, SwitchReport};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const PROTOCOL: &str = "sdnbench.engine.worker/3";

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cmd {
    Start {
        config: Box<Config>,
        slice: Slice,
    },
    Go,
    Stop,
    /// Agents: answer with a `pong` carrying the clock.
    Ping,
    /// Agents: go when the agent's CLOCK_REALTIME reads `unix_ns`.
    GoAt {
        unix_ns: u64,
    },
    /// Agents in network mode: every agent's frame-transport address, by agent number.
    Peers {
        addrs: Vec<String>,
    },
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkerEvent {
    Ready(Ready),
    Interval(Interval),
    /// Some of the worker's records, final, sent before its `Done` so that neither side holds
    /// all of them (as records or as text) at once (docs/million.md).
    Switches(Switches),
    Done(Box<WorkerReport>),
    Fatal(String),
    Pong(Pong),
    /// Agents in network mode, before the Ready: where this agent takes the others' frames.
    Listening(Listening),
    /// Never on the wire: the coordinator's reader saw the stream end without a report.
    #[serde(skip)]
    Lost(String),
}

/// How many records a `switches` event carries (one columnar block, `export/columnar.rs`). The
/// coordinator holds up to one parsed event per worker and its queue's (`coordinator/handle.rs`),
/// about 3.2 KB a record: at 1,000,000 switches (51 workers) 4,096 a time held ~700 MB at the end.
pub const SWITCHES_PER_EVENT: usize = 1_024;

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Switches {
    pub worker: u32,
    /// In switch order, continuing the worker's records sent before.
    pub records: Vec<SwitchReport>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Listening {
    pub worker: u32,
    /// HOST:PORT (TCP).
    pub addr: String,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Pong {
    pub worker: u32,
    /// The agent's CLOCK_REALTIME (ns since the Unix epoch) when it read the ping.
    pub clock_ns: u64,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Ready {
    pub worker: u32,
    pub protocol: String,
    pub pid: u32,
    pub up: u32,
    pub failed: u32,
    /// From the first connect to the last session up.
    pub handshake_s: f64,
    /// Why sessions failed, with counts (bounded: one entry per distinct reason).
    pub failures: BTreeMap<String, u32>,
    /// The learning phase, drained before the Ready (`learning.rs`).
    #[serde(default)]
    pub learning: crate::switch::learning::Drain,
    /// Agents: CLOCK_REALTIME (ns) when the Ready was written (informative; the offset is
    /// measured with `ping`).
    #[serde(default)]
    pub clock_ns: u64,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Interval {
    pub worker: u32,
    /// 1-based loop number.
    pub k: u32,
    pub answered: u64,
    pub sent: u64,
    pub lost: u64,
    pub up: u32,
    /// Answered requests of each switch in this loop (slice order), for cbench-style lines;
    /// only sent for small slices (at most `PER_SWITCH_IN_INTERVALS` switches).
    #[serde(default)]
    pub per_switch: Vec<u64>,
    /// Replies counted as cbench counts them in this loop, in total and per switch.
    #[serde(default)]
    pub responses: u64,
    #[serde(default)]
    pub per_switch_responses: Vec<u64>,
    /// Network runs, for the live line: this worker's switches connected so far, the link
    /// directions whose probes it received (each direction is received by one worker), and the
    /// network's links (the same in every worker).
    #[serde(default)]
    pub net_connected: u32,
    #[serde(default)]
    pub net_dirs_seen: u64,
    #[serde(default)]
    pub net_links: u64,
    /// Robustness runs: the latency (µs) of every request this worker's switches had answered
    /// in this loop, raw (by answer time); empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub latency_us: Vec<u32>,
    /// Fixed-rate and keep-alive runs: offered, late, backlog, echoes and latency of this loop
    /// (`load.rs`); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<crate::switch::load::LoopLoad>,
}

pub const PER_SWITCH_IN_INTERVALS: usize = 256;

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct WorkerReport {
    pub worker: u32,
    pub pid: u32,
    pub switches: Vec<SwitchReport>,
    /// Merged latency histogram of the worker's measured loops (HdrHistogram V2, base64).
    pub hist_b64: String,
    pub hist_clamped: u64,
    pub stopped_early: bool,
    pub capacity: Option<Capacity>,
    /// The emulated network's figures of this worker (`network/`).
    #[serde(default)]
    pub network: Option<crate::network::node::NetReport>,
    /// Wake coalescing in this worker (`coalesce.rs`).
    #[serde(default)]
    pub coalesce: crate::switch::coalesce::Report,
    /// Agents: what the agent decided and measured on its machine (`agent.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<AgentFacts>,
}

pub fn encode<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("protocol values always serialize")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_one_line_json() {
        let c = Cmd::Start { config: Box::new(Config::default()), slice: Slice { worker: 1, lo: 0, hi: 4 } };
        let line = encode(&c);
        assert!(!line.contains('\n'));
        assert!(line.starts_with("{\"start\":"));
        match serde_json::from_str::<Cmd>(&line).unwrap() {
            Cmd::Start { slice, .. } => assert_eq!(slice.hi, 4),
            _ => panic!("wrong command"),
        }
        assert_eq!(encode(&Cmd::Go), "\"go\"");
    }

    #[test]
    fn events_round_trip() {
        let e = WorkerEvent::Interval(Interval { worker: 2, k: 3, answered: 10, ..Default::default() });
        let back: WorkerEvent = serde_json::from_str(&encode(&e)).unwrap();
        match back {
            WorkerEvent::Interval(i) => assert_eq!((i.worker, i.k, i.answered), (2, 3, 10)),
            _ => panic!("wrong event"),
        }
    }
}
