//! Will this network fit on this machine? Checked before anything starts, one line when not.
//!
//! - File descriptors: a worker holds one socket per switch per controller address, plus the
//!   frame transport (one listener and one connection each way per other worker) and a reserve;
//!   the hard open-files limit (20,000 here) cannot be raised, so more switches need more workers.
//! - Memory: an estimate per emulated switch (switch core, session buffers, ports, router state),
//!   against MemAvailable. The estimate is deliberately above what was measured (see `docs`),
//!   so a run refused here would not have fitted.

/// Files a worker keeps for itself (stdio, runtime, /proc reads, slack); as `limits.rs`.
pub const RESERVED_FDS: u64 = 64;
/// Estimated resident bytes per emulated switch with one controller channel.
pub const EST_BYTES_PER_SWITCH: u64 = 64 * 1024;
/// And per further controller channel (its buffers).
pub const EST_BYTES_PER_CHANNEL: u64 = 16 * 1024;

/// File descriptors one worker needs for `per_worker` switches.
pub fn fds_per_worker(per_worker: u64, controllers: u64, workers: u64) -> u64 {
    per_worker * controllers.max(1) + RESERVED_FDS + 2 * workers.saturating_sub(1) + 1
}

/// The fewest workers whose file descriptors fit under `nofile_hard`, if any number does.
pub fn workers_needed(switches: u64, controllers: u64, nofile_hard: u64) -> Option<u64> {
    let per_switch = controllers.max(1);
    let mut w = (switches * per_switch).div_ceil(nofile_hard.saturating_sub(RESERVED_FDS).max(1)).max(1);
    while w <= switches.max(1) {
        if fds_per_worker(switches.div_ceil(w), controllers, w) <= nofile_hard {
            return Some(w);
        }
        w += 1;
    }
    None
}

pub fn estimate_bytes(switches: u64, controllers: u64) -> u64 {
    switches * (EST_BYTES_PER_SWITCH + EST_BYTES_PER_CHANNEL * controllers.saturating_sub(1))
}

/// Check a run of `switches` over `workers` workers (0: as many as needed).
pub fn check(switches: u64, controllers: u64, workers: u64, nofile_hard: u64, mem_available: u64) -> Result<u64, String> {
    let need = workers_needed(switches, controllers, nofile_hard).ok_or_else(|| {
        format!("network: {switches} switches × {controllers} controller(s) cannot fit the open-files limit {nofile_hard} with any number of workers")
    })?;
    let w = if workers == 0 { need } else { workers };
    let fds = fds_per_worker(switches.div_ceil(w), controllers, w);
    if fds > nofile_hard {
        return Err(format!(
            "network: {switches} switches × {controllers} controller(s) over {w} worker(s) need {fds} open files per worker, \
             but the hard limit is {nofile_hard}: use --workers {need} or more"
        ));
    }
    let mem = estimate_bytes(switches, controllers);
    if mem > mem_available {
        return Err(format!(
            "network: {switches} switches need about {} MiB, but only {} MiB of memory is available",
            mem >> 20,
            mem_available >> 20
        ));
    }
    Ok(w)
}

/// MemAvailable from /proc/meminfo, in bytes (u64::MAX when it cannot be read).
pub fn mem_available() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("MemAvailable:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kb| kb * 1024)
        })
        .unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workers_follow_the_open_files_limit() {
        assert_eq!(workers_needed(100, 1, 20_000), Some(1));
        assert_eq!(workers_needed(10_000, 1, 20_000), Some(1));
        assert_eq!(workers_needed(10_000, 2, 20_000), Some(2));
        assert_eq!(workers_needed(50_000, 1, 20_000), Some(3));
        assert_eq!(workers_needed(10, 1, 60), None);
        for (n, c) in [(10_000, 1), (10_000, 2), (50_000, 3), (99_999, 1)] {
            let w = workers_needed(n, c, 20_000).unwrap();
            assert!(fds_per_worker(n.div_ceil(w), c, w) <= 20_000);
            assert!(w == 1 || fds_per_worker(n.div_ceil(w - 1), c, w - 1) > 20_000, "{n} {c}: {w} is not the fewest");
        }
    }

    #[test]
    fn too_big_is_one_line_before_anything_starts() {
        assert_eq!(check(10_000, 2, 0, 20_000, u64::MAX), Ok(2));
        let e = check(10_000, 2, 1, 20_000, u64::MAX).unwrap_err();
        assert_eq!(e, "network: 10000 switches × 2 controller(s) over 1 worker(s) need 20065 open files per worker, but the hard limit is 20000: use --workers 2 or more");
        let e = check(100_000, 1, 0, 20_000, 1 << 30).unwrap_err();
        assert!(e.starts_with("network: 100000 switches need about 6250 MiB, but only 1024 MiB"), "{e}");
        assert!(check(10, 1, 0, 60, u64::MAX).unwrap_err().contains("with any number of workers"));
        assert!(mem_available() > 0);
    }
}
