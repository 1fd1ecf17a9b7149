//! The `stream` section of the network JSON (`spec.rs`): which host pairs send sequence-numbered
//! frames, how often, from when to when; and its validation, one line naming the field.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreamSpec {
    /// (source host, destination host) by index into `hosts`; pair id = position here.
    pub pairs: Vec<(u32, u32)>,
    /// One frame per pair every this many microseconds.
    #[serde(default = "default_interval")]
    pub interval_us: u64,
    /// The first frames leave this long after go.
    #[serde(default)]
    pub start_ms: u64,
    /// The last frames leave before this (ms after go; 0: until the run ends).
    #[serde(default)]
    pub stop_ms: u64,
    /// A silence longer than this between two arrivals is a gap even with no frame missing
    /// (0: 10 intervals).
    #[serde(default)]
    pub gap_us: u64,
    /// Per pair (by position), a later first frame than `start_ms` (ms after go); missing or
    /// shorter: `start_ms`. Pairs that must not race (a learning controller's answer depends on
    /// which host spoke first) send one after the other.
    #[serde(default)]
    pub pair_start_ms: Vec<u64>,
    /// Per pair, an earlier end than `stop_ms` (ms after go; 0 or missing: `stop_ms`).
    #[serde(default)]
    pub pair_stop_ms: Vec<u64>,
}

fn default_interval() -> u64 {
    1000
}

pub fn validate(s: &StreamSpec, hosts: usize) -> Result<(), String> {
    if s.pairs.is_empty() {
        return Err("network.stream.pairs: empty (give at least one [source, destination] host pair)".into());
    }
    for (i, &(a, b)) in s.pairs.iter().enumerate() {
        if a as usize >= hosts || b as usize >= hosts {
            return Err(format!("network.stream.pairs[{i}]: [{a}, {b}] names a host the network does not have (it has {hosts})"));
        }
        if a == b {
            return Err(format!("network.stream.pairs[{i}]: source and destination are both host {a}"));
        }
    }
    if !(50..=10_000_000).contains(&s.interval_us) {
        return Err(format!("network.stream.interval_us: {} (must be 50..=10000000)", s.interval_us));
    }
    if s.stop_ms != 0 && s.stop_ms <= s.start_ms {
        return Err(format!("network.stream.stop_ms: {} is not after start_ms {}", s.stop_ms, s.start_ms));
    }
    for (name, v) in [("pair_start_ms", &s.pair_start_ms), ("pair_stop_ms", &s.pair_stop_ms)] {
        if v.len() > s.pairs.len() {
            return Err(format!("network.stream.{name}: {} values for {} pairs", v.len(), s.pairs.len()));
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Two pairs between hosts 0 and 2, 1 ms apart, for the whole run (the stream tests' too).
    pub(crate) fn spec() -> StreamSpec {
        StreamSpec {
            pairs: vec![(0, 2), (2, 0)],
            interval_us: 1000,
            start_ms: 0,
            stop_ms: 0,
            gap_us: 0,
            pair_start_ms: vec![],
            pair_stop_ms: vec![],
        }
    }

    #[test]
    fn bad_specs_are_one_line_naming_the_field() {
        let mut s = spec();
        validate(&s, 3).unwrap();
        s.pairs = vec![(0, 3)];
        assert!(validate(&s, 3).unwrap_err().starts_with("network.stream.pairs[0]: [0, 3] names a host"));
        let s = StreamSpec { interval_us: 0, ..spec() };
        assert!(validate(&s, 3).unwrap_err().starts_with("network.stream.interval_us"));
        let s = StreamSpec { start_ms: 5, stop_ms: 5, ..spec() };
        assert!(validate(&s, 3).unwrap_err().starts_with("network.stream.stop_ms"));
        let s = StreamSpec { pair_start_ms: vec![0, 5, 9], ..spec() };
        assert_eq!(validate(&s, 3).unwrap_err(), "network.stream.pair_start_ms: 3 values for 2 pairs");
    }
}
