//! The emulated network: switches joined by links (also across worker processes), hosts on edge
//! ports, scheduled port and link changes, and the counters that prove frames were carried.
//!
//! # Parts
//! - The network JSON (field `network` of the config; written by `sdnbench/net/topology.py`) is
//!   `config/network/`, parsed with the config; `check` adds what needs the rest of the config.
//! - `clock`: CLOCK_MONOTONIC, the clock frames are stamped with.
//! - `size`: does it fit (open files per worker, memory), checked before anything starts.
//! - `model`: switches by index, per port its peer (switch port over link `l`, host, nothing),
//!   the owning worker of each switch (the same slices as unconnected switches).
//! - `router`: a worker's frames from `Switch::tx` → link delay → a `Route` (switch port or host);
//!   counters with invariants (`NetCounters::check`), LLDP per link per direction, the
//!   transport's own delay (a histogram).
//! - `wire`: binary records for frames between workers; `transport`: the Unix-socket mesh.
//! - `events`: the schedule of down/up changes and the record of when each was applied.
//! - `hosts`: frames injected at and delivered to hosts, per flow, first-delivery times.
//! - `provision`: new flows' first frames; `stream`: sequence-numbered frames per host pair;
//!   their sections of the JSON are `config/network/{provision,stream}.rs`, and `traffic` drives both
//!   in time from a worker's `node`.
//!
//! # How a frame travels, and what it costs
//! ```text
//!  controller ──packet-out──► Switch (ofswitch) ──tx (port, frame)──► Router.transmit
//!        ▲                                                               │ link delay (FIFO)
//!        │ packet-in                                                     ▼
//!  Switch.receive_frame ◄── Router.arrive ◄── same worker: the peer's inbox (a Vec, no copy)
//!                                         ◄── other worker: wire records over a Unix socket
//! ```
//! Same worker: a frame is moved (not copied) into the peer session's inbox and the session is
//! woken: one `Vec` push and one wake-up. Another worker: one 28-byte header plus the frame,
//! appended to that peer's outgoing buffer; each worker writes each buffer once per turn of its
//! loop, so a burst of LLDP (10,000 switches probing every few seconds) costs one `write` per
//! peer worker per turn, not one per frame. Workers form a full mesh of Unix stream sockets
//! (`w` workers: `w − 1` outgoing and `w − 1` incoming per worker), which stays within a
//! machine; the JSON-lines coordinator protocol carries control only. Frame timestamps use
//! CLOCK_MONOTONIC, shared by the processes of one machine; the transport's own delay is
//! measured per frame at arrival and reported separately for same-worker and cross-worker links.

pub(crate) mod attach;
pub(crate) mod channels;
pub(crate) mod clock;
pub(crate) mod events;
pub(crate) mod hosts;
pub(crate) mod model;
pub(crate) mod node;
pub(crate) mod provision;
pub(crate) mod router;
pub(crate) mod size;
pub(crate) mod stream;
pub(crate) mod traffic;
pub(crate) mod transport;
pub(crate) mod wire;

use crate::config::network;

/// `validate`'s part for the network: its own checks (`config/network/`), and the rest of the
/// config agreeing with it.
pub fn check(c: &crate::config::Config) -> Vec<String> {
    let Some(n) = &c.network else { return vec![] };
    if let Err(e) = network::validate(n) {
        return vec![e];
    }
    if n.switches.len() as u64 != c.switches as u64 {
        return vec![format!("switches: {} but the network has {} switches", c.switches, n.switches.len())];
    }
    if (n.provisioning.is_some() || n.stream.is_some()) && c.workers.unwrap_or(1) > 1 {
        return vec!["workers: the provisioning traffic and the streams run in one worker (give --workers 1)".into()];
    }
    if !c.links.is_empty() {
        return vec!["links: give either links or a network, not both".into()];
    }
    vec![]
}

/// `--network FILE`: read the network JSON into `c` (and set `switches` from it).
pub fn load_into(c: &mut crate::config::Config, path: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("--network: cannot read {path}: {e}"))?;
    let n: network::NetworkSpec = serde_json::from_str(&text).map_err(|e| format!("--network {path}: {e}"))?;
    c.switches = n.switches.len() as u32;
    c.network = Some(n);
    Ok(())
}
