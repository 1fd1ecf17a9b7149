//! Clock agreement between the coordinator and its agents (pure, but for the clock reads
//! `realtime_ns` and `unix_now`).
//!
//! NTP's estimate from one exchange: the coordinator reads its clock at `t0` (ping sent) and `t1`
//! (pong read); the agent's reading `remote` was taken in between, so its offset is
//! `remote − (t0 + t1) / 2`, wrong by at most half the round trip `t1 − t0`.

/// CLOCK_REALTIME in ns since the Unix epoch (the clock agents agree on a start time with).
pub fn realtime_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Seconds since the Unix epoch (a run's start and finish in the result).
pub(crate) fn unix_now() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0)
}

/// The agent's clock minus the coordinator's (ns), from one ping exchange.
pub fn offset_ns(t0: u64, t1: u64, remote: u64) -> i64 {
    let mid = t0 / 2 + t1 / 2 + (t0 % 2 + t1 % 2) / 2;
    remote as i64 - mid as i64
}

/// Refuse an agent whose clock is further off than `max_skew_ms`: one line naming it.
pub fn check(agent: &str, offset_ns: i64, rtt_ns: u64, max_skew_ms: f64) -> Result<(), String> {
    let off_ms = offset_ns as f64 / 1e6;
    if off_ms.abs() <= max_skew_ms {
        return Ok(());
    }
    Err(format!(
        "agent {agent}: clock offset {off_ms:+.3} ms from the coordinator (round trip {:.3} ms) exceeds max_skew_ms {max_skew_ms}: \
         synchronise the clocks (NTP/PTP) or raise max_skew_ms",
        rtt_ns as f64 / 1e6
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offset_is_taken_at_the_middle_of_the_round_trip() {
        // sent at 1,000 ms, read at 1,010 ms; the agent read 1,305 ms: 300 ms ahead
        assert_eq!(offset_ns(1_000_000_000, 1_010_000_000, 1_305_000_000), 300_000_000);
        assert_eq!(offset_ns(10, 20, 5), -10);
    }

    #[test]
    fn beyond_the_skew_is_one_line_naming_the_agent() {
        assert!(check("netns:a", 49_000_000, 1_000_000, 50.0).is_ok());
        assert!(check("netns:a", -49_000_000, 1_000_000, 50.0).is_ok());
        let e = check("netns:b", -300_250_000, 400_000, 50.0).unwrap_err();
        assert!(e.starts_with("agent netns:b: clock offset -300.250 ms"), "{e}");
        assert!(!e.contains('\n'));
    }
}
