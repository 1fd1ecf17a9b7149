//! The result's `capacity`: what a capacity run found. Each worker reports its own
//! (`switch/driver/capacity.rs`, in `switch::protocol::WorkerReport`); the result holds them
//! summed ([`Capacity::sum`]).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What a capacity run found (`src/switch/driver/capacity.rs`), all workers summed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Capacity {
    pub attempted: u32,
    /// Sessions that completed handshake and echo.
    pub established: u32,
    /// Of those, still up after the hold.
    pub held: u32,
    pub hold_ms: u64,
    /// Why the next session could not be opened (null: the requested number was reached).
    pub first_failure: Option<String>,
    pub establish_s: f64,
    /// Sessions established per second of `establish_s` (0 when that is 0).
    pub rate_per_s: f64,
    /// Time to establish each session, in order (ms).
    pub session_ms: Vec<f64>,
}

impl Capacity {
    /// The same findings with `rate_per_s` computed from them.
    pub fn with_rate(self) -> Capacity {
        let rate_per_s = if self.establish_s > 0.0 { self.established as f64 / self.establish_s } else { 0.0 };
        Capacity { rate_per_s, ..self }
    }

    /// Several workers' (or agents') findings as one: counts added, session times joined, the
    /// longest establishing time, the first failure; None without any (not a capacity run).
    pub fn sum<'a>(parts: impl IntoIterator<Item = &'a Capacity>) -> Option<Capacity> {
        let parts: Vec<&Capacity> = parts.into_iter().collect();
        let first = parts.first()?;
        let sum = Capacity {
            attempted: parts.iter().map(|c| c.attempted).sum(),
            established: parts.iter().map(|c| c.established).sum(),
            held: parts.iter().map(|c| c.held).sum(),
            hold_ms: first.hold_ms,
            first_failure: parts.iter().find_map(|c| c.first_failure.clone()),
            establish_s: parts.iter().map(|c| c.establish_s).fold(0.0, f64::max),
            rate_per_s: 0.0,
            session_ms: parts.iter().flat_map(|c| c.session_ms.iter().copied()).collect(),
        };
        Some(sum.with_rate())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacity_of_several_workers_is_summed_with_one_rate() {
        let a = Capacity {
            attempted: 3,
            established: 2,
            held: 2,
            hold_ms: 100,
            establish_s: 0.5,
            session_ms: vec![1.0, 2.0],
            ..Default::default()
        };
        let b = Capacity { attempted: 2, first_failure: Some("refused".into()), establish_s: 2.0, ..a.clone() };
        let sum = Capacity::sum([&a, &b]).unwrap();
        let want = Capacity {
            attempted: 5,
            established: 4,
            held: 4,
            hold_ms: 100,
            first_failure: Some("refused".into()),
            establish_s: 2.0,
            rate_per_s: 2.0,
            session_ms: vec![1.0, 2.0, 1.0, 2.0],
        };
        assert_eq!(sum, want);
        assert_eq!(a.clone().with_rate().rate_per_s, 4.0);
        assert_eq!(Capacity { establish_s: 0.0, ..a }.with_rate().rate_per_s, 0.0, "nothing timed: no rate");
        assert_eq!(Capacity::sum([]), None, "not a capacity run");
    }
}
