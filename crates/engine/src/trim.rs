//! Freed memory given back to the system when a phase of a run ends (issue 50). glibc's malloc
//! keeps what a process frees for its next allocations, so a worker whose million-byte sessions
//! ended still held them in its RSS while it sent its records, and the coordinator held the
//! records it had encoded: the end of a run was its peak. `malloc_trim(0)` returns the free
//! pages of every arena (whole pages inside the heap too, since glibc 2.8) and is a no-op for
//! memory still in use.

/// Give what this process has freed back to the system; the bytes of RSS it let go (0 where
/// it cannot say).
pub fn give_back() -> u64 {
    let before = rss_bytes();
    // SAFETY: malloc_trim only releases free memory of the allocator; it takes no pointers
    unsafe {
        libc::malloc_trim(0);
    }
    before.saturating_sub(rss_bytes())
}

/// This process's resident set, from /proc/self/statm (0 where it cannot be read).
fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm.split_whitespace().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0);
    pages * 4096
}

#[cfg(test)]
mod tests {
    /// Many small blocks freed: malloc keeps them (RSS stays), the trim gives them back.
    #[test]
    fn freed_blocks_go_back_to_the_system() {
        let blocks: Vec<Vec<u8>> = (0..200_000).map(|i| vec![i as u8; 1000]).collect();
        let keep: Vec<Vec<u8>> = blocks.iter().step_by(1000).cloned().collect();
        drop(blocks);
        let given = super::give_back();
        assert!(given > 100 << 20, "{given} bytes given back of about 200 MB freed");
        drop(keep);
    }
}
