//! What each switch sends and how its replies are judged. The `Pacer` decides *when* a switch
//! may send; a `Workload` decides *what* it sends and what counts as an answer. A run's `mode`
//! is a combination of the two:
//!
//! | mode         | workload   | pacer                          |
//! |--------------|------------|--------------------------------|
//! | `throughput` | `Requests` | window of `window` in flight   |
//! | `latency`    | `Requests` | window of 1                    |
//! | `fixed-rate` | `Requests` | open loop at `rate`            |
//! | `capacity`   | `Capacity` | none: sessions are the load    |
//!
//! `Requests` (driven by `driver/requests.rs`): every switch sends packet-ins of the configured traffic profile;
//! a flow-mod or packet-out naming one answers it (see `accounting.rs`). Sessions are up once
//! the handshake is done; a learning phase may come first.
//! `Capacity` (`driver/capacity.rs`): switches connect one by one; a session counts as up only after an
//! echo went round; nothing else is sent. Room is left for discovery and provisioning
//! workloads: each is one more variant and one more file.
//! Robustness (`robust/`, RFC 8456 §5.3) is not a variant but an overlay on `Requests`: the
//! configured switches keep their load unchanged while one more switch, on its own thread,
//! plays a named case (`config.robustness`); `invalid_every` mixes invalid packet-ins into the
//! load itself (§5.3.1).
//!
//! This file is the bottom of `switch/`: it reads the config and nothing else of the engine's
//! switch side. The `Session` (`session/`) asks it what to send; the drivers (`driver/`) start
//! the sessions a workload needs.

use crate::config::{Config, Mode};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    Requests,
    Capacity,
    /// The emulated network carries frames; no requests (`network/`).
    Network,
}

/// In throughput mode latency is a side figure: one answered request in this many (fixed by
/// sequence number, not by timing) is recorded.
const THROUGHPUT_LATENCY_SAMPLE: u32 = 16;

impl Workload {
    pub fn of(cfg: &Config) -> Workload {
        match cfg.mode {
            Mode::Capacity => Workload::Capacity,
            Mode::Network => Workload::Network,
            Mode::Throughput | Mode::Latency | Mode::FixedRate => Workload::Requests,
        }
    }

    /// Whether switches send measured requests (and so have a pacer, loops and latency).
    pub fn sends_requests(self) -> bool {
        self == Workload::Requests
    }

    /// A session counts as up only after an echo round trip (not at the end of the handshake).
    pub fn up_after_echo(self) -> bool {
        self == Workload::Capacity
    }

    /// Whether switches have a learning phase before the measured one (what they send in it is
    /// the traffic profile's: `Profile::learning`).
    pub fn learns(self, cfg: &Config) -> bool {
        self.sends_requests() && cfg.learn && cfg.profile().learning().is_some() && !cfg.cbench_compat
    }

    /// Record the latency of one answered request in this many.
    /// Always a power of two (the answer path samples with a mask).
    pub fn latency_sample_every(self, cfg: &Config) -> u32 {
        const { assert!(THROUGHPUT_LATENCY_SAMPLE.is_power_of_two()) };
        if cfg.mode == Mode::Throughput {
            THROUGHPUT_LATENCY_SAMPLE
        } else {
            1
        }
    }
}

/// Learning requests one switch sends (`Profile::learning_requests`): one gratuitous ARP per host
/// (at most 65,535), or cbench's one `-L` packet-in.
pub fn learning_requests(cfg: &Config) -> u32 {
    cfg.profile().learning_requests(cfg.macs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_map_to_workloads() {
        for (m, w) in [
            (Mode::Throughput, Workload::Requests),
            (Mode::Latency, Workload::Requests),
            (Mode::FixedRate, Workload::Requests),
            (Mode::Capacity, Workload::Capacity),
        ] {
            assert_eq!(Workload::of(&Config { mode: m, ..Config::default() }), w);
        }
    }

    #[test]
    fn cbench_traffic_learns_its_destination_once_like_cbench() {
        let c = Config { traffic: "cbench".into(), macs: 100, ..Config::default() };
        assert!(Workload::Requests.learns(&c), "cbench's -L is on by default");
        assert_eq!(learning_requests(&c), 1);
        assert!(!Workload::Requests.learns(&Config { learn: false, ..c }));
        assert!(Workload::Requests.learns(&Config::default()));
        assert_eq!(learning_requests(&Config { macs: 100, ..Config::default() }), 100);
        assert!(!Workload::Capacity.learns(&Config::default()));
    }
}
