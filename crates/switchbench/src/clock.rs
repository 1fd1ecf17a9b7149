//! The one clock: CLOCK_REALTIME in nanoseconds, the clock the kernel stamps received frames
//! with (SO_TIMESTAMPNS), so control-plane send times and data-plane arrival times compare.

pub fn now_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec into the pointer we own.
    unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Nanoseconds between two instants as milliseconds (negative when `to` is earlier).
pub fn ms(from: u64, to: u64) -> f64 {
    (to as i128 - from as i128) as f64 / 1e6
}
