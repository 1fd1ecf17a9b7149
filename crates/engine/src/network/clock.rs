//! The clock of the emulated network: frames are stamped with CLOCK_MONOTONIC, the same in
//! every worker process of one machine.

/// CLOCK_MONOTONIC in ns: the clock frames are stamped with (the same in every local worker).
pub fn mono_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}
