//! The result's `agents`: one entry per agent of a distributed run (docs/scale-out.md), with
//! what each agent reported about itself ([`AgentFacts`], sent in its worker report).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One agent: its slice, state, clock, protocol traffic and what it reported about itself.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
pub struct Agent {
    /// As in `params.agents`; a pod is `pod:I`, pod 0's own slice `local`; a merge: the file.
    pub name: String,
    pub index: u32,
    /// Its switches, `[lo, hi)`.
    pub switches: [u32; 2],
    #[schemars(extend("enum" = ["ok", "lost", "refused"]))]
    pub state: String,
    /// Why it is lost (unreachable, died), in one line.
    pub lost: Option<String>,
    /// Agent minus coordinator, NTP-style from one ping (null: not measured).
    pub clock_offset_ms: Option<f64>,
    pub rtt_ms: f64,
    /// Network mode: where it takes the other agents' frames (HOST:PORT).
    pub net_addr: Option<String>,
    /// JSON lines of the worker protocol, the final report included.
    pub protocol_bytes_to_agent: u64,
    pub protocol_bytes_from_agent: u64,
    pub sessions_up: u64,
    /// Sum of the agent's processes' peaks, sampled at loop ends.
    pub rss_bytes_peak: u64,
    pub rss_bytes_per_session: u64,
    /// What the agent decided on its machine (null: it never reported).
    pub local: Option<AgentFacts>,
}

/// An agent's own facts: its local plan and its footprint.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
pub struct AgentFacts {
    pub workers: u32,
    pub nofile_hard: u64,
    pub source_addrs: Vec<String>,
    /// Sum over the agent's processes of each one's peak RSS sampled during the run.
    pub rss_bytes_peak: u64,
    pub status: String,
    pub error: Option<String>,
}
