//! The socket: connect, read (whatever is there, into the worker's scratch buffer), write (what
//! the socket takes, the rest kept by an offset).

use super::{End, Session};
use std::io;
use std::net::SocketAddr;
use tokio::io::Interest;
use tokio::net::{TcpSocket, TcpStream};

pub async fn connect(addr: SocketAddr, source: Option<SocketAddr>) -> io::Result<TcpStream> {
    let sock = if addr.is_ipv4() { TcpSocket::new_v4()? } else { TcpSocket::new_v6()? };
    if let Some(src) = source {
        // Let connect() pick the port per destination, not bind(): otherwise every bound socket
        // holds a port of its own and the ports run out long before the 4-tuples do.
        #[cfg(target_os = "linux")]
        unsafe {
            use std::os::fd::AsRawFd;
            let one: libc::c_int = 1;
            libc::setsockopt(sock.as_raw_fd(), libc::IPPROTO_IP, libc::IP_BIND_ADDRESS_NO_PORT, &one as *const _ as *const _, 4);
        }
        sock.bind(src)?;
    }
    let s = sock.connect(addr).await?;
    s.set_nodelay(true)?;
    Ok(s)
}

/// One read; returns (bytes, drained). A read that did not fill the buffer drained the socket,
/// so its readiness is cleared right away (by reporting WouldBlock to `try_io`) instead of by a
/// second read that would only return EAGAIN: one syscall less per wake. Safe with edge-triggered
/// readiness: data arriving after this read is a new event, which clearing does not erase.
fn read_drained(s: &TcpStream, buf: &mut [u8]) -> io::Result<(usize, bool)> {
    use std::os::fd::AsRawFd;
    let fd = s.as_raw_fd();
    let mut got = None;
    let r = s.try_io(Interest::READABLE, || {
        let n = unsafe { libc::recv(fd, buf.as_mut_ptr() as *mut libc::c_void, buf.len(), 0) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        let n = n as usize;
        if n > 0 && n < buf.len() {
            got = Some(n);
            return Err(io::ErrorKind::WouldBlock.into());
        }
        Ok(n)
    });
    match (r, got) {
        (_, Some(n)) => Ok((n, true)),
        (Ok(n), None) => Ok((n, false)),
        (Err(e), None) => Err(e),
    }
}

impl Session {
    /// Write what the socket takes. Written bytes are skipped by an offset (`wpos`), not moved:
    /// the buffer is cleared once all of it is out, or compacted once before appending more.
    pub(super) fn flush(&mut self, s: &TcpStream) -> Result<(), End> {
        while self.wpos < self.wbuf.len() {
            match s.try_write(&self.wbuf[self.wpos..]) {
                Ok(n) => self.wpos += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
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
    pub(super) fn read_all(&mut self, s: &TcpStream) -> Result<(), End> {
        let scratch_rc = self.sh.scratch.clone();
        let mut scratch = scratch_rc.borrow_mut();
        for _ in 0..16 {
            let keep = self.partial.len();
            scratch[..keep].copy_from_slice(&self.partial);
            let n = match read_drained(s, &mut scratch[keep..]) {
                Ok((0, _)) => return Err(End::new("closed", "the controller closed the connection")),
                Ok(x) => x,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(e) => return Err(End::io(e)),
            };
            self.peer_version.get_or_insert(scratch[0]);
            let used = self.process(&scratch[..keep + n.0])?;
            self.partial.clear();
            self.partial.extend_from_slice(&scratch[used..keep + n.0]);
            if n.1 {
                return Ok(());
            }
        }
        Ok(())
    }
}
