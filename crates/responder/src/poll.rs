//! The epoll loop: edge-triggered, one shared read buffer, per-connection leftovers only.

use crate::conn::{Conn, Templates};
use crate::gate::{now_ns, Due, Gate, Knobs};
use crate::tls::{self, Got};
use rustls::{ServerConfig, ServerConnection};
use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

fn check(r: i32) -> io::Result<i32> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

/// A non-blocking listening socket with SO_REUSEPORT (IPv4).
pub fn listen(addr: SocketAddr) -> io::Result<i32> {
    let SocketAddr::V4(a) = addr else {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "IPv4 only"));
    };
    unsafe {
        let fd = check(libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_NONBLOCK | libc::SOCK_CLOEXEC, 0))?;
        let one: libc::c_int = 1;
        let sz = std::mem::size_of::<libc::c_int>() as u32;
        check(libc::setsockopt(fd, libc::SOL_SOCKET, libc::SO_REUSEADDR, &one as *const _ as *const _, sz))?;
        check(libc::setsockopt(fd, libc::SOL_SOCKET, libc::SO_REUSEPORT, &one as *const _ as *const _, sz))?;
        let sin = libc::sockaddr_in {
            sin_family: libc::AF_INET as u16,
            sin_port: a.port().to_be(),
            sin_addr: libc::in_addr { s_addr: u32::from(*a.ip()).to_be() },
            sin_zero: [0; 8],
        };
        check(libc::bind(fd, &sin as *const _ as *const _, std::mem::size_of::<libc::sockaddr_in>() as u32))?;
        check(libc::listen(fd, 4096))?;
        Ok(fd)
    }
}

fn add(ep: i32, fd: i32, events: u32) -> io::Result<()> {
    let mut ev = libc::epoll_event { events, u64: fd as u64 };
    unsafe { check(libc::epoll_ctl(ep, libc::EPOLL_CTL_ADD, fd, &mut ev)) }.map(|_| ())
}

fn close(ep: i32, conns: &mut HashMap<i32, Conn>, fd: i32) {
    unsafe {
        libc::epoll_ctl(ep, libc::EPOLL_CTL_DEL, fd, std::ptr::null_mut());
        libc::close(fd);
    }
    conns.remove(&fd);
}

/// Write what can be written (over TLS: encrypted, `tls::send`); false when the connection is dead.
fn flush(c: &mut Conn) -> bool {
    if let Some(t) = c.tls.as_mut() {
        return tls::send(t, c.fd, &mut c.wbuf);
    }
    while !c.wbuf.is_empty() {
        let n = unsafe { libc::write(c.fd, c.wbuf.as_ptr() as *const _, c.wbuf.len()) };
        if n < 0 {
            return io::Error::last_os_error().kind() == io::ErrorKind::WouldBlock;
        }
        c.wbuf.drain(..n as usize);
    }
    true
}

/// A non-blocking CLOCK_MONOTONIC timerfd in `ep`: it wakes the loop when a deferred answer is due.
fn timer(ep: i32) -> io::Result<i32> {
    let fd = unsafe { check(libc::timerfd_create(libc::CLOCK_MONOTONIC, libc::TFD_NONBLOCK | libc::TFD_CLOEXEC))? };
    add(ep, fd, libc::EPOLLIN as u32)?;
    Ok(fd)
}

fn arm(tfd: i32, at_ns: u64) {
    let ts = |ns: u64| libc::timespec { tv_sec: (ns / 1_000_000_000) as _, tv_nsec: (ns % 1_000_000_000) as _ };
    let spec = libc::itimerspec { it_interval: ts(0), it_value: ts(at_ns.max(1)) };
    unsafe { libc::timerfd_settime(tfd, libc::TFD_TIMER_ABSTIME, &spec, std::ptr::null_mut()) };
}

/// Write the answers that are due; arm the timer for the next one.
fn release(gate: &mut Gate, conns: &mut HashMap<i32, Conn>, t: &Templates, tfd: i32, due: &mut Vec<Due>) {
    due.clear();
    gate.take_due(now_ns(), due);
    for d in due.iter() {
        if let Some(c) = conns.get_mut(&d.fd) {
            c.answer(d.xid, d.buffer_id, t);
            flush(c); // a dead connection is found and closed by its next event
        }
    }
    if let Some(front) = gate.queue.front() {
        arm(tfd, front.at_ns);
    }
}

/// Read and answer until the socket is empty (edge-triggered), or the gate's queue is full: then
/// the rest stays in the kernel (TCP pushes back on the sender, as a slow controller's would).
/// Returns (dead, stopped because the queue was full).
fn drain(c: &mut Conn, buf: &mut [u8], t: &Templates, gate: &mut Gate) -> (bool, bool) {
    loop {
        if gate.full() {
            return (false, true);
        }
        let keep = c.rbuf.len();
        buf[..keep].copy_from_slice(&c.rbuf);
        let r = match read(c, &mut buf[keep..]) {
            Got::Data(n) => n,
            Got::WouldBlock => return (false, false),
            Got::Eof | Got::Dead => return (true, false),
        };
        let total = keep + r;
        match c.process(&buf[..total], t, gate) {
            Ok(used) => {
                c.rbuf.clear();
                c.rbuf.extend_from_slice(&buf[used..total]);
            }
            Err(()) => return (true, false),
        }
        if !flush(c) {
            return (true, false);
        }
    }
}

/// Bytes of the OpenFlow stream: from the socket, or decrypted (`tls::read`).
fn read(c: &mut Conn, buf: &mut [u8]) -> Got {
    if let Some(t) = c.tls.as_mut() {
        return tls::read(t, c.fd, buf);
    }
    let r = unsafe { libc::read(c.fd, buf.as_mut_ptr() as *mut _, buf.len()) };
    match r {
        0 => Got::Eof,
        r if r > 0 => Got::Data(r as usize),
        _ if io::Error::last_os_error().kind() == io::ErrorKind::WouldBlock => Got::WouldBlock,
        _ => Got::Dead,
    }
}

/// A new connection's state: over TLS, a server session of `tls`.
fn accepted(fd: i32, version: u8, tls: &Option<Arc<ServerConfig>>) -> Option<Conn> {
    let mut conn = Conn::new(fd, version);
    if let Some(cfg) = tls {
        conn.tls = Some(ServerConnection::new(cfg.clone()).ok()?);
    }
    Some(conn)
}

pub fn serve(lfd: i32, version: u8, knobs: Knobs, tls: Option<Arc<ServerConfig>>) -> io::Result<()> {
    let ep = unsafe { check(libc::epoll_create1(libc::EPOLL_CLOEXEC))? };
    add(ep, lfd, libc::EPOLLIN as u32)?;
    let mut gate = Gate::new(knobs);
    let tfd = if gate.is_open() { -1 } else { timer(ep)? };
    let mut due = Vec::new();
    let mut stalled: Vec<i32> = Vec::new();
    let mut conns: HashMap<i32, Conn> = HashMap::new();
    let mut events = vec![libc::epoll_event { events: 0, u64: 0 }; 1024];
    let mut buf = vec![0u8; 256 * 1024];
    let t = Templates::new();
    let et = (libc::EPOLLIN | libc::EPOLLOUT | libc::EPOLLRDHUP | libc::EPOLLET) as u32;
    loop {
        let n = unsafe { libc::epoll_wait(ep, events.as_mut_ptr(), events.len() as i32, -1) };
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        for ev in &events[..n as usize] {
            let fd = ev.u64 as i32;
            if fd == tfd {
                let mut n = 0u64;
                unsafe { libc::read(tfd, &mut n as *mut u64 as *mut _, 8) };
                continue;
            }
            if fd == lfd {
                loop {
                    let c =
                        unsafe { libc::accept4(lfd, std::ptr::null_mut(), std::ptr::null_mut(), libc::SOCK_NONBLOCK | libc::SOCK_CLOEXEC) };
                    if c < 0 {
                        break;
                    }
                    let one: libc::c_int = 1;
                    unsafe {
                        libc::setsockopt(c, libc::IPPROTO_TCP, libc::TCP_NODELAY, &one as *const _ as *const _, 4);
                    }
                    let Some(mut conn) = accepted(c, version, &tls) else {
                        unsafe { libc::close(c) };
                        continue;
                    };
                    // The switch's HELLO is usually in already (it sends it once connected, and
                    // accept comes later): answer it now, HELLO and FEATURES_REQUEST in one
                    // write, one segment and one wake-up fewer than waiting for epoll (issue 32).
                    // Read before adding: an edge that comes after the read is still reported.
                    let (dead, full) = drain(&mut conn, &mut buf, &t, &mut gate);
                    if dead || add(ep, c, et).is_err() || !flush(&mut conn) {
                        unsafe { libc::close(c) };
                        continue;
                    }
                    if full {
                        stalled.push(c);
                    }
                    conns.insert(c, conn);
                }
                continue;
            }
            let Some(c) = conns.get_mut(&fd) else { continue };
            let mut dead = false;
            if ev.events & (libc::EPOLLIN as u32) != 0 {
                let (d, full) = drain(c, &mut buf, &t, &mut gate);
                dead = d;
                if full && !stalled.contains(&fd) {
                    stalled.push(fd);
                }
            }
            if !dead && !flush(c) {
                dead = true;
            }
            if dead || ev.events & ((libc::EPOLLHUP | libc::EPOLLERR) as u32) != 0 {
                close(ep, &mut conns, fd);
            }
        }
        if !gate.is_open() {
            release(&mut gate, &mut conns, &t, tfd, &mut due);
            // connections left unread while the queue was full: read on as it empties
            while !stalled.is_empty() && !gate.full() {
                let fd = stalled.remove(0);
                let Some(c) = conns.get_mut(&fd) else { continue };
                let (dead, full) = drain(c, &mut buf, &t, &mut gate);
                if dead || !flush(c) {
                    close(ep, &mut conns, fd);
                } else if full {
                    stalled.push(fd);
                }
            }
        }
    }
}
