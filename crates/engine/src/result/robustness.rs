//! The result's `robustness`: what the robustness attacker observed (`src/robust/`, which
//! fills it); null without a case.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One error message the controller sent the attacker.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct SeenError {
    pub t_s: f64,
    pub typ: u16,
    pub code: u16,
    pub name: String,
}

/// The idle connections of a connection flood, at the end of the window.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
pub struct Idle {
    pub opened: u32,
    pub refused: u32,
    pub closed_by_controller: u32,
    /// How many it would open at most: the case's count, or fewer when the engine's open files
    /// allow fewer (`files_room`).
    pub limit: u32,
    /// Why it stopped growing: "refused" (the controller did not take one: `refusal`), "files"
    /// (the engine's open-files limit), "window" (the case's window ended), or "count" (it
    /// opened `limit`).
    pub stopped_by: String,
    /// The first connection the controller did not take, and how (the OS's error).
    pub refusal: Option<String>,
    /// Files the engine could still open when the flood began (soft RLIMIT_NOFILE less the
    /// files open and `RESERVED_FDS`).
    pub files_room: u64,
}

/// Everything the attacker observed. Times are seconds since the measured phase began (the
/// same clock as `loops.t_s`).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct Observation {
    pub case: String,
    pub family: String,
    pub of_version: u8,
    pub attacker_dpid: u64,
    pub started_s: f64,
    /// End of the case window (started_s + observe_ms).
    pub ended_s: f64,
    /// When the attacker was done (after a flood's drain and the probe).
    pub finished_s: f64,
    pub connected: bool,
    pub connect_error: Option<String>,
    /// The case's handshake completed (a features reply went out), after this long.
    pub handshake_ms: Option<f64>,
    pub bytes_sent: u64,
    /// Flood cases: packet-ins written.
    pub flood_sent: u64,
    /// Every message the controller sent the attacker, by type name.
    pub received: BTreeMap<String, u64>,
    pub errors: Vec<SeenError>,
    /// The controller closed the attacker's session ("eof") or reset it ("reset"), at t_s.
    pub closed_by_controller: Option<(String, f64)>,
    pub idle: Option<Idle>,
    /// After the window, an echo request on a session that is still open: answered or not,
    /// and in how long (a session the controller still serves).
    pub probe_answered: Option<bool>,
    pub probe_rtt_ms: Option<f64>,
    /// `syn-flood`: SYNs written into the namespace's veth, and writes the kernel refused.
    pub syn_sent: u64,
    pub syn_refused: u64,
    pub notes: Vec<String>,
}
