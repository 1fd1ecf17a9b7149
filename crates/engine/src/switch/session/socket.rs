//! The connection (`crate::tls::Conn`: TCP or TLS): connect, read (whatever is there, into the worker's scratch buffer, on a
//! cache line: `shared::read_at`), write (what
//! the socket takes, the rest kept by an offset).

use super::{End, Session};
use crate::switch::shared::read_at;
use crate::tls::Conn;
use std::io;
use std::net::SocketAddr;
use std::time::Duration;

/// Connect switch `index` of this worker to `addr` (from its source address, over TLS when the
/// config says so), the TLS handshake within `limit_ns`.
pub async fn open(sh: &crate::switch::shared::Shared, addr: SocketAddr, index: u32, limit_ns: u64) -> io::Result<Conn> {
    let src = crate::switch::shared::source_for(&sh.cfg, index);
    crate::tls::connect(addr, src, sh.tls.as_ref(), Duration::from_nanos(limit_ns)).await
}

impl Session {
    /// Write what the socket takes. Written bytes are skipped by an offset (`wpos`), not moved:
    /// the buffer is cleared once all of it is out, or compacted once before appending more.
    pub(super) fn flush(&mut self, s: &Conn) -> Result<(), End> {
        s.flush_tls().map_err(End::io)?;
        while self.wpos < self.wbuf.len() {
            match s.write(&self.wbuf[self.wpos..]) {
                Ok(n) => self.wpos += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    self.sh.trace.write_blocked();
                    break;
                }
                Err(e) => return Err(End::io(e)),
            }
        }
        if self.wpos == self.wbuf.len() {
            self.wbuf.clear();
            self.wpos = 0;
            if self.wbuf.capacity() > 256 * 1024 {
                self.wbuf.shrink_to(64 * 1024);
            }
        }
        Ok(())
    }

    /// Drop what was written once it is most of the buffer (amortized: each byte moves at most
    /// once more), so a partly written buffer does not grow without bound.
    pub(super) fn compact(&mut self) {
        if self.wpos > 0 && self.wpos >= self.wbuf.len() / 2 {
            self.wbuf.drain(..self.wpos);
            self.wpos = 0;
        }
    }

    /// Forget the last connection's unread and unwritten bytes.
    pub(super) fn clear_buffers(&mut self) {
        self.partial.clear();
        self.wbuf.clear();
        self.wpos = 0;
    }

    /// Read until the socket would block (bounded, so one busy session cannot starve others).
    pub(super) fn read_all(&mut self, s: &Conn) -> Result<(), End> {
        let scratch_rc = self.sh.scratch.clone();
        let mut scratch = scratch_rc.borrow_mut();
        for _ in 0..16 {
            let (start, at) = read_at(&scratch, self.partial.len());
            scratch[start..at].copy_from_slice(&self.partial);
            let n = match s.read(&mut scratch[at..]) {
                Ok((0, _)) => return Err(End::new("closed", "the controller closed the connection")),
                Ok(x) => x,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(e) => return Err(End::io(e)),
            };
            let end = at + n.0;
            self.peer_version.get_or_insert(scratch[start]);
            let used = self.process(&scratch[start..end])?;
            self.partial.clear();
            self.partial.extend_from_slice(&scratch[start + used..end]);
            if n.1 {
                return Ok(());
            }
        }
        self.sh.trace.read_capped();
        Ok(())
    }
}
