//! AF_PACKET sockets on a data port, optionally inside a network namespace, with kernel
//! receive timestamps (SO_TIMESTAMPNS, CLOCK_REALTIME).
//!
//! A port is named `IFNAME` (this namespace) or `NETNS:IFNAME` (a namespace made with
//! `ip netns add`, i.e. `/var/run/netns/NETNS`). The socket is created by a short-lived thread
//! that enters the namespace; a socket stays bound to the namespace it was created in.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// A data port as given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IfSpec {
    pub netns: Option<String>,
    pub name: String,
}

impl IfSpec {
    pub fn parse(s: &str) -> Result<IfSpec, String> {
        let (netns, name) = match s.split_once(':') {
            Some((ns, n)) => (Some(ns.to_string()), n.to_string()),
            None => (None, s.to_string()),
        };
        if name.is_empty() || name.len() > 15 || netns.as_deref() == Some("") {
            return Err(format!("bad interface {s:?} (want IFNAME or NETNS:IFNAME)"));
        }
        Ok(IfSpec { netns, name })
    }
}

impl std::fmt::Display for IfSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match &self.netns {
            Some(ns) => write!(f, "{ns}:{}", self.name),
            None => f.write_str(&self.name),
        }
    }
}

/// A raw socket bound to one interface; sends whole frames, receives frames the interface
/// received (not its own transmissions) with their kernel timestamps. A second, send-only
/// socket (protocol 0: it receives nothing) asks the kernel for software transmit timestamps
/// (SO_TIMESTAMPING), for the one-at-a-time latency probes.
#[derive(Debug)]
pub struct PacketSocket {
    fd: OwnedFd,
    stamped: OwnedFd,
    pub spec: IfSpec,
}

const ETH_P_ALL: u16 = 0x0003;

/// Sends whose transmit time had to be taken in userspace (no kernel stamp came): reported in
/// the document so a reader knows which clock a latency started on.
pub static TX_STAMP_FALLBACKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
/// SOF_TIMESTAMPING_TX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE | SOF_TIMESTAMPING_OPT_TSONLY
/// (linux/net_tstamp.h).
const TX_STAMPS: u32 = (1 << 1) | (1 << 4) | (1 << 11);

fn check(r: libc::c_int, what: &str) -> io::Result<libc::c_int> {
    if r < 0 {
        let e = io::Error::last_os_error();
        return Err(io::Error::new(e.kind(), format!("{what}: {e}")));
    }
    Ok(r)
}

fn setsockopt<T>(fd: i32, level: i32, name: i32, v: T, what: &str) -> io::Result<()> {
    // SAFETY: v lives across the call; the kernel copies size_of::<T>() bytes.
    let r = unsafe { libc::setsockopt(fd, level, name, &v as *const T as *const libc::c_void, std::mem::size_of::<T>() as u32) };
    check(r, what).map(|_| ())
}

fn open_here(name: &str) -> io::Result<(OwnedFd, OwnedFd)> {
    let fd = open_one(name, ETH_P_ALL)?;
    let stamped = open_one(name, 0)?;
    setsockopt(stamped.as_raw_fd(), libc::SOL_SOCKET, libc::SO_TIMESTAMPING, TX_STAMPS, "SO_TIMESTAMPING")?;
    Ok((fd, stamped))
}

fn open_one(name: &str, protocol: u16) -> io::Result<OwnedFd> {
    let cname = CString::new(name).map_err(|_| io::Error::other("interface name has a NUL"))?;
    // SAFETY: plain libc calls on values we own; the fd is wrapped at once.
    let ifindex = unsafe { libc::if_nametoindex(cname.as_ptr()) };
    if ifindex == 0 {
        return Err(io::Error::new(io::ErrorKind::NotFound, format!("no interface {name}")));
    }
    let raw = check(unsafe { libc::socket(libc::AF_PACKET, libc::SOCK_RAW, protocol.to_be() as i32) }, "socket(AF_PACKET)")?;
    let fd = unsafe { OwnedFd::from_raw_fd(raw) };
    let mut sll: libc::sockaddr_ll = unsafe { std::mem::zeroed() };
    sll.sll_family = libc::AF_PACKET as u16;
    sll.sll_protocol = protocol.to_be();
    sll.sll_ifindex = ifindex as i32;
    let r = unsafe { libc::bind(raw, &sll as *const _ as *const libc::sockaddr, std::mem::size_of::<libc::sockaddr_ll>() as u32) };
    check(r, "bind(AF_PACKET)")?;
    setsockopt(raw, libc::SOL_SOCKET, libc::SO_TIMESTAMPNS, 1i32, "SO_TIMESTAMPNS")?;
    // Large buffers so a burst of probes is not dropped by us before it is counted.
    let _ = setsockopt(raw, libc::SOL_SOCKET, libc::SO_RCVBUFFORCE, 16i32 << 20, "SO_RCVBUFFORCE");
    let _ = setsockopt(raw, libc::SOL_SOCKET, libc::SO_SNDBUFFORCE, 4i32 << 20, "SO_SNDBUFFORCE");
    let tv = libc::timeval { tv_sec: 0, tv_usec: 20_000 };
    setsockopt(raw, libc::SOL_SOCKET, libc::SO_RCVTIMEO, tv, "SO_RCVTIMEO")?;
    Ok(fd)
}

fn open_in(netns: &str, name: &str) -> io::Result<(OwnedFd, OwnedFd)> {
    let path = format!("/var/run/netns/{netns}");
    let ns = std::fs::File::open(&path).map_err(|e| io::Error::new(e.kind(), format!("network namespace {netns} ({path}): {e}")))?;
    let name = name.to_string();
    std::thread::spawn(move || {
        // SAFETY: setns on this thread only; the thread ends right after creating the socket.
        check(unsafe { libc::setns(ns.as_raw_fd(), libc::CLONE_NEWNET) }, "setns")?;
        open_here(&name)
    })
    .join()
    .map_err(|_| io::Error::other("namespace thread panicked"))?
}

impl PacketSocket {
    pub fn open(spec: &IfSpec) -> Result<PacketSocket, String> {
        let fd = match &spec.netns {
            Some(ns) => open_in(ns, &spec.name),
            None => open_here(&spec.name),
        };
        let (fd, stamped) = fd.map_err(|e| format!("interface {spec}: {e}"))?;
        Ok(PacketSocket { fd, stamped, spec: spec.clone() })
    }

    /// Sends one frame and returns when the kernel handed it to the device (its software
    /// transmit timestamp, ns), or the time just before `send` if no timestamp came in 5 ms.
    pub fn send_stamped(&self, frame: &[u8]) -> io::Result<u64> {
        let fd = self.stamped.as_raw_fd();
        while tx_timestamp(fd).is_some() {} // stale stamps of earlier sends
        let before = crate::clock::now_ns();
        // SAFETY: the frame slice outlives the call.
        let r = unsafe { libc::send(fd, frame.as_ptr() as *const libc::c_void, frame.len(), 0) };
        if r < 0 {
            return Err(io::Error::last_os_error());
        }
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(5);
        while std::time::Instant::now() < deadline {
            if let Some(Some(ts)) = tx_timestamp(fd) {
                return Ok(ts);
            }
            std::thread::yield_now();
        }
        TX_STAMP_FALLBACKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(before)
    }

    pub fn send(&self, frame: &[u8]) -> io::Result<()> {
        // SAFETY: the frame slice outlives the call.
        let r = unsafe { libc::send(self.fd.as_raw_fd(), frame.as_ptr() as *const libc::c_void, frame.len(), 0) };
        if r < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// One received frame and its kernel timestamp (ns), or None after the 20 ms timeout.
    /// Frames this interface transmitted are skipped.
    pub fn recv(&self, buf: &mut [u8]) -> io::Result<Option<(usize, u64)>> {
        loop {
            let mut sll: libc::sockaddr_ll = unsafe { std::mem::zeroed() };
            let mut iov = libc::iovec { iov_base: buf.as_mut_ptr() as *mut libc::c_void, iov_len: buf.len() };
            let mut control = [0u64; 16];
            let mut hdr: libc::msghdr = unsafe { std::mem::zeroed() };
            hdr.msg_name = &mut sll as *mut _ as *mut libc::c_void;
            hdr.msg_namelen = std::mem::size_of::<libc::sockaddr_ll>() as u32;
            hdr.msg_iov = &mut iov;
            hdr.msg_iovlen = 1;
            hdr.msg_control = control.as_mut_ptr() as *mut libc::c_void;
            hdr.msg_controllen = std::mem::size_of_val(&control);
            // SAFETY: every pointer in hdr points at locals that live across the call.
            let n = unsafe { libc::recvmsg(self.fd.as_raw_fd(), &mut hdr, 0) };
            if n < 0 {
                let e = io::Error::last_os_error();
                return match e.kind() {
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted => Ok(None),
                    _ => Err(e),
                };
            }
            if sll.sll_pkttype == libc::PACKET_OUTGOING {
                continue;
            }
            return Ok(Some((n as usize, timestamp(&hdr).unwrap_or_else(crate::clock::now_ns))));
        }
    }
}

/// Reads one message from the socket's error queue: None when the queue is empty, else the
/// transmit timestamp it carried (if any).
fn tx_timestamp(fd: i32) -> Option<Option<u64>> {
    let mut control = [0u64; 32];
    let mut data = [0u8; 64];
    let mut iov = libc::iovec { iov_base: data.as_mut_ptr() as *mut libc::c_void, iov_len: data.len() };
    let mut hdr: libc::msghdr = unsafe { std::mem::zeroed() };
    hdr.msg_iov = &mut iov;
    hdr.msg_iovlen = 1;
    hdr.msg_control = control.as_mut_ptr() as *mut libc::c_void;
    hdr.msg_controllen = std::mem::size_of_val(&control);
    // SAFETY: hdr points at locals that live across the call.
    let n = unsafe { libc::recvmsg(fd, &mut hdr, libc::MSG_ERRQUEUE | libc::MSG_DONTWAIT) };
    if n < 0 {
        return None;
    }
    // SAFETY: CMSG_* walk the control buffer recvmsg filled, within msg_controllen.
    unsafe {
        let mut c = libc::CMSG_FIRSTHDR(&hdr);
        while !c.is_null() {
            if (*c).cmsg_level == libc::SOL_SOCKET && (*c).cmsg_type == libc::SCM_TIMESTAMPING {
                // struct scm_timestamping { struct timespec ts[3]; }: ts[0] is the software stamp.
                let ts = std::ptr::read_unaligned(libc::CMSG_DATA(c) as *const libc::timespec);
                return Some(Some(ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64));
            }
            c = libc::CMSG_NXTHDR(&hdr, c);
        }
    }
    Some(None)
}

fn timestamp(hdr: &libc::msghdr) -> Option<u64> {
    // SAFETY: CMSG_* walk the control buffer recvmsg filled, within msg_controllen.
    unsafe {
        let mut c = libc::CMSG_FIRSTHDR(hdr);
        while !c.is_null() {
            if (*c).cmsg_level == libc::SOL_SOCKET && (*c).cmsg_type == libc::SCM_TIMESTAMPNS {
                let ts = std::ptr::read_unaligned(libc::CMSG_DATA(c) as *const libc::timespec);
                return Some(ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64);
            }
            c = libc::CMSG_NXTHDR(hdr, c);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interface_specs_parse() {
        assert_eq!(IfSpec::parse("veth0").unwrap(), IfSpec { netns: None, name: "veth0".into() });
        let s = IfSpec::parse("ns1:p1").unwrap();
        assert_eq!((s.netns.as_deref(), s.name.as_str()), (Some("ns1"), "p1"));
        assert_eq!(s.to_string(), "ns1:p1");
        assert!(IfSpec::parse(":p1").is_err());
        assert!(IfSpec::parse("ns:").is_err());
        assert!(IfSpec::parse("a-name-much-too-long-for-linux").is_err());
    }

    #[test]
    fn a_missing_interface_is_named_in_the_error() {
        let e = PacketSocket::open(&IfSpec::parse("sdnb-none0").unwrap()).err().unwrap();
        assert!(e.contains("sdnb-none0"), "{e}");
    }
}
