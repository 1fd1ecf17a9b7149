//! The `robustness` part of a config: which case the attacker plays, and when (`robust/`).

use serde::{Deserialize, Serialize};

/// Which case the attacker plays, and when.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RobustSpec {
    /// A case name of `sdnbench-engine robust-cases`.
    pub case: String,
    /// Start this long after the measured phase begins (warm-up included).
    pub at_ms: u64,
    /// Watch (and, for a flood, send) this long.
    pub observe_ms: u64,
    /// The attacker's datapath id (0: one past the background switches).
    pub dpid: u64,
    pub seed: u64,
    /// `syn-flood` only (and required there): the namespace the SYNs come from (`robust/syn.rs`).
    pub syn: Option<SynSpec>,
}

impl Default for RobustSpec {
    fn default() -> RobustSpec {
        RobustSpec { case: String::new(), at_ms: 2000, observe_ms: 2000, dpid: 0, seed: 1, syn: None }
    }
}

/// Where the SYNs come from (set by sdnbench, which creates and removes the namespace).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SynSpec {
    /// The namespace to send from: a path such as `/run/netns/NAME`.
    pub netns: String,
    /// Its end of the veth (the SYNs are written there).
    pub ifname: String,
    /// The MAC address of the root namespace's end of the veth.
    pub dst_mac: String,
    /// Spoofed sources: hosts .4 to .254 of this /24 (`a.b.c.0/24`), routed into the namespace.
    pub src_net: String,
    /// SYNs per second.
    pub rate: u32,
}
