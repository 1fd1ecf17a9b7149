//! For tests only: `SDNBENCH_TEST_FAULT=POINT:panic` panics at the named point of a run, and
//! `POINT:hold` stops there until the run's `Stop` is requested (a signal) (then goes on as it would have),
//! so a test can end the coordinator at a moment it cannot see from outside and check that no
//! process it started is left (`children.rs`, `tests/orphans.rs`). The points, in run order:
//! `spawn` (the first worker started, the others not yet), `started` (every worker started,
//! none heard from), `loop` (a loop's totals complete), `end` (the workers ended, the result not
//! yet written). Unset, or naming another point, it does nothing.

use std::time::Duration;

const ENV: &str = "SDNBENCH_TEST_FAULT";

/// The fault injected at `point`, if the environment names it.
pub fn at(point: &str, stop: &crate::coordinator::signals::Stop) {
    let Ok(v) = std::env::var(ENV) else { return };
    match v.split_once(':') {
        Some((p, "panic")) if p == point => panic!("{ENV}: injected at {point}"),
        Some((p, "hold")) if p == point => {
            while !stop.requested() {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        _ => {}
    }
}
