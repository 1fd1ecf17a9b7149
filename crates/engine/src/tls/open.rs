//! Opening a connection to a controller: TCP (from a source address when given), then, over
//! TLS, the handshake. Each step is timed alone (`Conn::opening`).

use super::conn::Conn;
use std::io;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::net::{TcpSocket, TcpStream};

/// Open a connection to the controller: TCP, then (with `tls`) the TLS handshake within
/// `limit`. Each step's time is the connection's `opening`.
pub async fn connect(addr: SocketAddr, source: Option<SocketAddr>, tls: Option<&Tls>, limit: Duration) -> io::Result<Conn> {
    let t0 = Instant::now();
    let s = connect_tcp(addr, source).await?;
    let tcp_ns = t0.elapsed().as_nanos() as u64;
    match tls {
        None => Ok(Conn::plain(s, tcp_ns)),
        Some(Err(e)) => Err(io::Error::new(io::ErrorKind::InvalidInput, super::conn::TlsFailure(e.clone()))),
        Some(Ok(client)) => Conn::tls(s, tcp_ns, client, limit).await,
    }
}

/// The TLS client of a worker, or why it could not be built (every session then ends with it).
pub type Tls = Result<super::client::Client, String>;

async fn connect_tcp(addr: SocketAddr, source: Option<SocketAddr>) -> io::Result<TcpStream> {
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
