//! A switch's connection to its controller: plain TCP, or TCP + a rustls client connection.
//!
//! The session drives the socket itself (edge-triggered readiness, `try_io`), so TLS runs over
//! the same non-blocking socket: `read_tls` / `process_new_packets` / the plaintext reader on
//! the way in, the plaintext writer / `write_tls` on the way out. The plain path is the one it
//! was (one branch on `tls`, no copy, no extra syscall: `read_drained` and `try_write`).
//!
//! Readiness with TLS: bytes from the socket are only read once rustls holds no plaintext
//! (`read`), and the socket's readiness is cleared only by a read that would block, so data
//! can never sit decrypted in rustls while the session sleeps on the socket. Bytes rustls
//! holds encrypted but not yet written are `wants_write`: the session then also wakes on
//! writability, and every `flush` pushes them first.

use super::client::Client;
use std::cell::RefCell;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::time::Duration;
use tokio::io::Interest;
use tokio::net::TcpStream;

/// A TLS failure (certificate, protocol, alert), carried inside an `io::Error` so the session
/// ends with kind `tls` and a reason naming TLS.
#[derive(Debug)]
pub struct TlsFailure(pub String);

impl std::fmt::Display for TlsFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "tls: {}", self.0)
    }
}
impl std::error::Error for TlsFailure {}

fn failure(msg: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, TlsFailure(msg.into()))
}

/// A rustls error as a failure; a record that is no TLS at all most likely came from a
/// controller speaking plain OpenFlow on this port.
fn tls_error(e: rustls::Error) -> io::Error {
    let hint = match &e {
        rustls::Error::InvalidMessage(_) => " (does the controller speak TLS on this port?)",
        _ => "",
    };
    failure(format!("{e}{hint}"))
}

/// How long the connection took to open (ns): TCP connect, then the TLS handshake (0 on TCP).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    pub tcp_connect_ns: u64,
    pub tls_handshake_ns: u64,
}

/// The negotiated TLS version and cipher suite, as rustls names them ("TLSv1_3",
/// "TLS13_AES_128_GCM_SHA256").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Negotiated {
    pub version: String,
    pub cipher_suite: String,
}

pub struct Conn {
    tcp: TcpStream,
    tls: Option<Box<RefCell<rustls::ClientConnection>>>,
    pub opening: Opening,
}

/// The socket as `io::Read`/`io::Write` for rustls (the readiness is `try_io`'s).
struct Fd(RawFd);

impl Read for Fd {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = unsafe { libc::recv(self.0, buf.as_mut_ptr() as *mut libc::c_void, buf.len(), 0) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(n as usize)
    }
}

impl Write for Fd {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = unsafe { libc::send(self.0, buf.as_ptr() as *const libc::c_void, buf.len(), libc::MSG_NOSIGNAL) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(n as usize)
    }
    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        let n = unsafe { libc::writev(self.0, bufs.as_ptr() as *const libc::iovec, bufs.len().min(1024) as libc::c_int) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(n as usize)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Conn {
    /// A plain TCP connection.
    pub fn plain(tcp: TcpStream, tcp_connect_ns: u64) -> Conn {
        Conn { tcp, tls: None, opening: Opening { tcp_connect_ns, tls_handshake_ns: 0 } }
    }

    /// TLS over `tcp`: the handshake, done here within `limit` (its time is `opening`'s).
    pub async fn tls(tcp: TcpStream, tcp_connect_ns: u64, client: &Client, limit: Duration) -> io::Result<Conn> {
        let t0 = std::time::Instant::now();
        let c = rustls::ClientConnection::new(client.config.clone(), client.name.clone()).map_err(tls_error)?;
        let mut conn = Conn { tcp, tls: Some(Box::new(RefCell::new(c))), opening: Opening { tcp_connect_ns, tls_handshake_ns: 0 } };
        match tokio::time::timeout(limit, conn.handshake()).await {
            Ok(r) => r?,
            Err(_) => return Err(failure(format!("no TLS handshake from the controller within {} ms", limit.as_millis()))),
        }
        conn.opening.tls_handshake_ns = t0.elapsed().as_nanos() as u64;
        Ok(conn)
    }

    async fn handshake(&self) -> io::Result<()> {
        let tls = self.tls.as_ref().expect("a TLS connection");
        loop {
            while tls.borrow().wants_write() {
                match self.write_tls(tls) {
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                        self.tcp.writable().await?;
                    }
                    r => r?,
                }
            }
            if !tls.borrow().is_handshaking() {
                return Ok(());
            }
            self.tcp.readable().await?;
            match self.tcp.try_io(Interest::READABLE, || tls.borrow_mut().read_tls(&mut Fd(self.tcp.as_raw_fd()))) {
                Ok(0) => return Err(failure("the controller closed the connection during the TLS handshake")),
                Ok(_) => self.process(tls)?,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Decrypt what came; on a TLS error, the alert rustls queued is sent (best effort).
    fn process(&self, tls: &RefCell<rustls::ClientConnection>) -> io::Result<()> {
        let r = tls.borrow_mut().process_new_packets().map(|_| ());
        if let Err(e) = r {
            let _ = self.write_tls(tls);
            return Err(tls_error(e));
        }
        Ok(())
    }

    /// Write what rustls holds encrypted until the socket would block (WouldBlock then).
    fn write_tls(&self, tls: &RefCell<rustls::ClientConnection>) -> io::Result<()> {
        let fd = self.tcp.as_raw_fd();
        while tls.borrow().wants_write() {
            self.tcp.try_io(Interest::WRITABLE, || tls.borrow_mut().write_tls(&mut Fd(fd)))?;
        }
        Ok(())
    }

    pub fn tcp(&self) -> &TcpStream {
        &self.tcp
    }

    pub fn is_tls(&self) -> bool {
        self.tls.is_some()
    }

    /// TLS: the version and cipher suite agreed (None on TCP).
    pub fn negotiated(&self) -> Option<Negotiated> {
        let c = self.tls.as_ref()?.borrow();
        Some(Negotiated {
            version: format!("{:?}", c.protocol_version()?),
            cipher_suite: format!("{:?}", c.negotiated_cipher_suite()?.suite()),
        })
    }

    /// Bytes rustls holds encrypted, not yet on the socket (never on TCP).
    #[inline]
    pub fn wants_write(&self) -> bool {
        match &self.tls {
            None => false,
            Some(t) => t.borrow().wants_write(),
        }
    }

    /// Push what rustls holds encrypted (a no-op on TCP); WouldBlock is not an error here.
    #[inline]
    pub fn flush_tls(&self) -> io::Result<()> {
        match &self.tls {
            None => Ok(()),
            Some(t) => match self.write_tls(t) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(()),
                r => r,
            },
        }
    }

    /// Write from `buf`: what the socket (TCP) or rustls (TLS, then pushed as far as the socket
    /// takes) accepted; WouldBlock when nothing was.
    #[inline]
    pub fn write(&self, buf: &[u8]) -> io::Result<usize> {
        let Some(t) = &self.tls else { return self.tcp.try_write(buf) };
        let n = t.borrow_mut().writer().write(buf)?;
        self.flush_tls()?;
        if n == 0 && !buf.is_empty() {
            return Err(io::ErrorKind::WouldBlock.into());
        }
        Ok(n)
    }

    /// One read of plaintext into `buf`: (bytes, drained). TCP: `read_drained` (a short read
    /// clears the readiness at once). TLS: what rustls holds decrypted, else one read of the
    /// socket and its records decrypted; drained is never claimed (the socket's readiness is
    /// cleared by the read that would block). Ok((0, _)): the controller closed.
    #[inline]
    pub fn read(&self, buf: &mut [u8]) -> io::Result<(usize, bool)> {
        match &self.tls {
            None => read_drained(&self.tcp, buf),
            Some(t) => self.read_tls(t, buf).map(|n| (n, false)),
        }
    }

    fn read_tls(&self, tls: &RefCell<rustls::ClientConnection>, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match tls.borrow_mut().reader().read(buf) {
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(0),
                Err(e) => return Err(e),
            }
            let fd = self.tcp.as_raw_fd();
            // Ok(0): end of stream; rustls's reader then says how (close_notify or not)
            self.tcp.try_io(Interest::READABLE, || tls.borrow_mut().read_tls(&mut Fd(fd)))?;
            self.process(tls)?;
            if tls.borrow().wants_write() {
                self.flush_tls()?; // a key update's answer, an alert
            }
        }
    }
}

/// A TLS connection ends with its close_notify (best effort: what the socket takes now), as
/// a TLS peer expects; a dropped TCP connection just closes.
impl Drop for Conn {
    fn drop(&mut self) {
        if let Some(t) = &self.tls {
            t.borrow_mut().send_close_notify();
            let _ = self.flush_tls();
        }
    }
}

/// One read; returns (bytes, drained). A read that did not fill the buffer drained the socket,
/// so its readiness is cleared right away (by reporting WouldBlock to `try_io`) instead of by a
/// second read that would only return EAGAIN: one syscall less per wake. Safe with edge-triggered
/// readiness: data arriving after this read is a new event, which clearing does not erase.
fn read_drained(s: &TcpStream, buf: &mut [u8]) -> io::Result<(usize, bool)> {
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
