//! The `provisioning` section of the network JSON (`spec.rs`): which host pairs start how many
//! new flows, how fast, and how long each may take; and its validation, one line naming the field.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProvisionSpec {
    /// (source host, destination host) by index into `hosts`; flows take them in turn.
    pub pairs: Vec<(u32, u32)>,
    pub flows: u32,
    #[serde(default = "one")]
    pub concurrency: u32,
    /// New flows per second at most (0: no limit but `concurrency`).
    #[serde(default)]
    pub rate: f64,
    #[serde(default = "default_timeout")]
    pub timeout_ms: u64,
    /// Time the controller gets after the announcements, before the first flow.
    #[serde(default = "default_announce")]
    pub announce_ms: u64,
    /// Send a waiting flow's frame again every this many ms until it is delivered (0: once).
    /// For proactive provisioning (§5.1.5), where a miss is dropped and the path appears when
    /// the northbound request is applied: the frame keeps knocking, so the first one across
    /// comes at most `repeat_ms` after the path is complete.
    #[serde(default)]
    pub repeat_ms: u64,
}

fn one() -> u32 {
    1
}
fn default_timeout() -> u64 {
    5000
}
fn default_announce() -> u64 {
    1000
}

pub fn validate(p: &ProvisionSpec, hosts: usize) -> Result<(), String> {
    if p.pairs.is_empty() {
        return Err("network.provisioning.pairs: empty (give at least one [source, destination] host pair)".into());
    }
    for (i, &(s, d)) in p.pairs.iter().enumerate() {
        if s as usize >= hosts || d as usize >= hosts {
            return Err(format!("network.provisioning.pairs[{i}]: [{s}, {d}] names a host the network does not have (it has {hosts})"));
        }
        if s == d {
            return Err(format!("network.provisioning.pairs[{i}]: source and destination are both host {s}"));
        }
    }
    if p.flows == 0 || p.flows > 1 << 20 {
        return Err(format!("network.provisioning.flows: {} (must be 1..={})", p.flows, 1 << 20));
    }
    if p.concurrency == 0 {
        return Err("network.provisioning.concurrency: 0 (at least 1 flow must be allowed in flight)".into());
    }
    if !(p.rate >= 0.0 && p.rate.is_finite()) {
        return Err(format!("network.provisioning.rate: {} (new flows per second, 0 for no limit)", p.rate));
    }
    if p.timeout_ms == 0 {
        return Err("network.provisioning.timeout_ms: 0 (a flow needs time to be provisioned)".into());
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// One pair (hosts 0 and 2), `flows` flows, `concurrency` at a time, at `rate` (the
    /// provisioning tests' too).
    pub(crate) fn spec(flows: u32, concurrency: u32, rate: f64) -> ProvisionSpec {
        ProvisionSpec { pairs: vec![(0, 2)], flows, concurrency, rate, timeout_ms: 10, announce_ms: 0, repeat_ms: 0 }
    }

    #[test]
    fn bad_specs_are_one_line_naming_the_field() {
        let mut s = spec(1, 1, 0.0);
        validate(&s, 3).unwrap();
        s.pairs = vec![(0, 3)];
        assert!(validate(&s, 3).unwrap_err().starts_with("network.provisioning.pairs[0]: [0, 3] names a host"));
        s.pairs = vec![(1, 1)];
        assert!(validate(&s, 3).unwrap_err().contains("both host 1"));
        let s = ProvisionSpec { concurrency: 0, ..spec(1, 1, 0.0) };
        assert!(validate(&s, 3).unwrap_err().starts_with("network.provisioning.concurrency"));
        let s = ProvisionSpec { rate: f64::NAN, ..spec(1, 1, 0.0) };
        assert!(validate(&s, 3).unwrap_err().starts_with("network.provisioning.rate"));
    }
}
