//! The `syn-flood` case (RFC 8456 §5.3.2): TCP SYNs from random addresses and ports of a
//! private subnet, sent at a set rate from inside a network namespace that sdnbench created
//! (`sdnbench/robustness/netns.py`), through a veth into the root namespace, to the
//! controller's own listening address (127.0.0.1 reaches it because sdnbench sets
//! `route_localnet` on the root end of the veth).
//!
//! Why the SYNs cannot leave: they are written onto the namespace's end of the veth (a packet
//! socket, no routing); the controller's SYN-ACKs carry source 127.0.0.1, which the kernel
//! sends out of no interface without `route_localnet` (only that veth has it); they are routed
//! back into the namespace, whose addresses they do not name, and it does not forward.
//!
//! Pure part: the bytes of one SYN ([`syn_packet`]) and the spoofed source ([`Spoof`]), tested
//! with known vectors. I/O part: [`open_in_netns`] and [`flood`].

use crate::config::robust::SynSpec;
use std::net::Ipv4Addr;
use std::time::{Duration, Instant};

/// One IPv4 TCP SYN (44 bytes: IP header, TCP header with an MSS 1460 option): `ofwire`'s.
pub fn syn_packet(src: Ipv4Addr, dst: Ipv4Addr, sport: u16, dport: u16, seq: u32, ip_id: u16) -> Vec<u8> {
    ofwire::frame::tcp_syn(src.octets(), dst.octets(), sport, dport, seq, ip_id)
}

/// Seeded random spoofed sources: host .4 to .254 of a /24, ports 1024..=65535, random ISN.
pub struct Spoof {
    net: [u8; 3],
    state: u64,
}

impl Spoof {
    /// `src_net` is `a.b.c.0/24`.
    pub fn new(src_net: &str, seed: u64) -> Result<Spoof, String> {
        let (a, len) = src_net.split_once('/').ok_or_else(|| format!("src_net {src_net:?}: not a.b.c.0/24"))?;
        let ip: Ipv4Addr = a.parse().map_err(|_| format!("src_net {src_net:?}: not a.b.c.0/24"))?;
        if len != "24" || ip.octets()[3] != 0 {
            return Err(format!("src_net {src_net:?}: not a.b.c.0/24"));
        }
        let o = ip.octets();
        Ok(Spoof { net: [o[0], o[1], o[2]], state: seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1 })
    }
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// (source address, source port, initial sequence number)
    pub fn draw(&mut self) -> (Ipv4Addr, u16, u32) {
        let r = self.next();
        let host = 4 + (r % 251) as u8;
        let port = 1024 + ((r >> 8) % (65536 - 1024)) as u16;
        let [a, b, c] = self.net;
        (Ipv4Addr::new(a, b, c, host), port, (r >> 32) as u32)
    }
}

/// A packet socket on `ifname` inside the namespace at `netns` (opened on a short-lived thread
/// that enters the namespace, so the engine's own threads never change namespace).
pub fn open_in_netns(netns: &str, ifname: &str) -> Result<(i32, i32), String> {
    let (netns, ifname) = (netns.to_string(), ifname.to_string());
    std::thread::spawn(move || -> Result<(i32, i32), String> {
        let f = std::fs::File::open(&netns).map_err(|e| format!("open namespace {netns}: {e}"))?;
        use std::os::fd::AsRawFd;
        if unsafe { libc::setns(f.as_raw_fd(), libc::CLONE_NEWNET) } != 0 {
            return Err(format!("enter namespace {netns}: {} (needs root)", std::io::Error::last_os_error()));
        }
        let proto = (libc::ETH_P_IP as u16).to_be() as i32;
        let fd = unsafe { libc::socket(libc::AF_PACKET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, proto) };
        if fd < 0 {
            return Err(format!("packet socket in {netns}: {}", std::io::Error::last_os_error()));
        }
        let name = std::ffi::CString::new(ifname.clone()).map_err(|_| "bad interface name".to_string())?;
        let idx = unsafe { libc::if_nametoindex(name.as_ptr()) };
        if idx == 0 {
            unsafe { libc::close(fd) };
            return Err(format!("no interface {ifname} in {netns}"));
        }
        Ok((fd, idx as i32))
    })
    .join()
    .map_err(|_| "the namespace thread panicked".to_string())?
}

fn parse_mac(s: &str) -> Result<[u8; 6], String> {
    let v: Vec<u8> = s.split(':').filter_map(|x| u8::from_str_radix(x, 16).ok()).collect();
    v.try_into().map_err(|_| format!("dst_mac {s:?}: not a MAC address"))
}

/// What a flood did: SYNs written, writes the kernel refused (e.g. ENOBUFS), the first error.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sent {
    pub sent: u64,
    pub refused: u64,
    pub error: Option<String>,
}

/// Send SYNs to `dst` at `spec.rate` per second until `deadline`.
pub fn flood(spec: &SynSpec, dst: std::net::SocketAddrV4, seed: u64, deadline: Instant) -> Sent {
    let mut out = Sent::default();
    let (mac, mut spoof) = match (parse_mac(&spec.dst_mac), Spoof::new(&spec.src_net, seed)) {
        (Ok(m), Ok(s)) => (m, s),
        (Err(e), _) | (_, Err(e)) => return Sent { error: Some(e), ..out },
    };
    let (fd, ifindex) = match open_in_netns(&spec.netns, &spec.ifname) {
        Ok(x) => x,
        Err(e) => return Sent { error: Some(e), ..out },
    };
    let mut sa: libc::sockaddr_ll = unsafe { std::mem::zeroed() };
    sa.sll_family = libc::AF_PACKET as u16;
    sa.sll_protocol = (libc::ETH_P_IP as u16).to_be();
    sa.sll_ifindex = ifindex;
    sa.sll_halen = 6;
    sa.sll_addr[..6].copy_from_slice(&mac);
    let t0 = Instant::now();
    while Instant::now() < deadline {
        let due = (t0.elapsed().as_secs_f64() * f64::from(spec.rate)) as u64;
        for _ in out.sent + out.refused..due.min(out.sent + out.refused + 1000) {
            let (src, sport, isn) = spoof.draw();
            let p = syn_packet(src, *dst.ip(), sport, dst.port(), isn, sport ^ 0x5a5a);
            let n = unsafe {
                libc::sendto(
                    fd,
                    p.as_ptr().cast(),
                    p.len(),
                    0,
                    (&sa as *const libc::sockaddr_ll).cast(),
                    std::mem::size_of::<libc::sockaddr_ll>() as u32,
                )
            };
            if n == p.len() as isize {
                out.sent += 1;
            } else {
                out.refused += 1;
                out.error.get_or_insert_with(|| format!("sendto: {}", std::io::Error::last_os_error()));
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    unsafe { libc::close(fd) };
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_syn_is_well_formed_and_its_checksums_verify() {
        use ofwire::frame::internet_checksum;
        let (src, dst) = (Ipv4Addr::new(10, 233, 7, 9), Ipv4Addr::new(127, 0, 0, 1));
        let p = syn_packet(src, dst, 40000, 6653, 0x01020304, 7);
        assert_eq!(p.len(), 44);
        assert_eq!((p[0], p[9], u16::from_be_bytes([p[2], p[3]])), (0x45, 6, 44));
        assert_eq!(internet_checksum(&p[..20]), 0, "IP header checksum verifies to 0");
        let pseudo = [&src.octets()[..], &dst.octets()[..], &[0, 6, 0, 24]].concat();
        assert_eq!(internet_checksum(&[&pseudo[..], &p[20..]].concat()), 0, "TCP checksum verifies to 0");
        let t = &p[20..];
        assert_eq!((u16::from_be_bytes([t[0], t[1]]), u16::from_be_bytes([t[2], t[3]])), (40000, 6653));
        assert_eq!((t[12] >> 4, t[13]), (6, 0x02), "24-byte header, SYN only");
        assert_eq!(&t[4..8], &[1, 2, 3, 4]);
        assert_eq!(&t[20..24], &[2, 4, 5, 0xb4], "MSS 1460");
    }

    #[test]
    fn spoofed_sources_stay_in_the_subnet_and_vary() {
        let mut s = Spoof::new("10.233.7.0/24", 1).unwrap();
        let draws: Vec<_> = (0..2000).map(|_| s.draw()).collect();
        assert!(draws.iter().all(|(a, p, _)| a.octets()[..3] == [10, 233, 7] && (4..=254).contains(&a.octets()[3]) && *p >= 1024));
        let hosts: std::collections::BTreeSet<_> = draws.iter().map(|d| d.0).collect();
        let ports: std::collections::BTreeSet<_> = draws.iter().map(|d| d.1).collect();
        assert!(hosts.len() > 200 && ports.len() > 1900, "{} hosts, {} ports", hosts.len(), ports.len());
        assert!(Spoof::new("10.233.7.0/16", 1).is_err() && Spoof::new("10.233.7.5/24", 1).is_err());
        let mut again = Spoof::new("10.233.7.0/24", 1).unwrap();
        assert_eq!(again.draw(), draws[0], "seeded");
    }
}
