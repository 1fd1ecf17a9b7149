//! One malloc arena for the whole process. glibc gives each thread that allocates its own arena,
//! and a thread's arena grows its heap by exactly what an allocation lacks, with one `mprotect`
//! each time (`grow_heap`: the main arena's `brk` takes `M_TOP_PAD`, 128 KiB, at a time). A
//! run of up to 19,936 switches has one worker, in a thread of the coordinator's process
//! (`coordinator/handle.rs`), so every session it made took about one `mprotect` (18,150 for
//! 19,000 sessions) and the kernel's work on the heap's mapping: 0.92 of the CPU and 1.13 × the
//! handshake rate with one arena (`docs/million.md`, "One arena"). Worker processes run on their
//! main thread, in the main arena already. The few other threads (readers of the workers'
//! streams, signals) allocate little: one arena's lock costs them nothing measurable.

/// Make every thread of this process allocate from the main arena. Call first in `main`, before
/// any thread starts (a thread keeps the arena it took at its first allocation).
pub fn one_arena() {
    // SAFETY: mallopt only sets a parameter of the allocator; no memory is touched
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}
