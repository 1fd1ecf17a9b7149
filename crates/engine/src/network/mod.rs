//! The emulated network: switches joined by links (also across worker processes), hosts on edge
//! ports, scheduled port and link changes, and the counters that prove frames were carried.
//!
//! # Parts
//! - `spec`: the network JSON (field `network` of the config; written by `sdnbench/net/topology.py`)
//!   and its validation, one line per mistake naming the field.
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
//!   their sections of the JSON are `provision_spec` and `stream_spec`, and `traffic` drives both
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
pub(crate) mod provision_spec;
pub(crate) mod router;
pub(crate) mod size;
pub(crate) mod spec;
pub(crate) mod stream;
pub(crate) mod stream_spec;
pub(crate) mod traffic;
pub(crate) mod transport;
pub(crate) mod wire;

pub use spec::NetworkSpec;

/// The config's network, parsed (None: no network). Errors are one line, naming the field.
pub fn spec_of(c: &crate::config::Config) -> Result<Option<NetworkSpec>, String> {
    let Some(v) = &c.network else { return Ok(None) };
    let n: NetworkSpec = serde_json::from_value(v.clone()).map_err(|e| format!("network: {e}"))?;
    spec::validate(&n)?;
    Ok(Some(n))
}

/// `validate`'s part for the network: its own checks, and `switches` agreeing with it.
pub fn check(c: &crate::config::Config) -> Vec<String> {
    match spec_of(c) {
        Err(e) => vec![e],
        Ok(Some(n)) if n.switches.len() as u64 != c.switches as u64 => {
            vec![format!("switches: {} but the network has {} switches", c.switches, n.switches.len())]
        }
        Ok(Some(n)) if (n.provisioning.is_some() || n.stream.is_some()) && c.workers.unwrap_or(1) > 1 => {
            vec!["workers: the provisioning traffic and the streams run in one worker (give --workers 1)".into()]
        }
        Ok(Some(_)) if !c.links.is_empty() => vec!["links: give either links or a network, not both".into()],
        _ => vec![],
    }
}

/// `--network FILE`: read the network JSON into `c` (and set `switches` from it).
pub fn load_into(c: &mut crate::config::Config, path: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("--network: cannot read {path}: {e}"))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("--network: {path}: {e}"))?;
    let n = v.get("switches").and_then(|s| s.as_array()).map_or(0, |a| a.len());
    c.switches = n as u32;
    c.network = Some(v);
    Ok(())
}
