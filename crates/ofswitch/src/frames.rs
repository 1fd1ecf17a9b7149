//! The Ethernet frames an emulated switch carries in its packet-ins.
//!
//! Hosts, with network-wide unique addresses: switch `s` (0-based index) has `macs` hosts
//! (cbench's `-M`); host `k` (1-based) has MAC `00:SS:SS:SS:KK:KK` (24 bits of switch, 16 of
//! host) and IPv4 address `10.0.0.0 + (s * macs + k)`, and sits behind port
//! `1 + (k-1) % ports`. Limits: MACs are unique for up to 2^24 switches with up to 65,535 hosts
//! each; IPs are unique while `(switches + 1) * macs < 2^24` (16.7 M hosts in 10.0.0.0/8; beyond
//! that the 24-bit host number wraps and addresses repeat; the engine must refuse such a
//! configuration). Switch 0 keeps the addresses of the single-switch layout (10.0.0.k).
//! Request `j` goes from host `j % macs + 1` to host `(j+1) % macs + 1`, so a learning controller
//! that has seen every host (the gratuitous-ARP phase) can install a flow for each packet-in,
//! and the MAC pair cycles like cbench's.
//!
//! Frames are UDP/IPv4 with a marker in the payload: `b"SDNB"`, the switch index and the request
//! sequence number (big endian u32s). A controller that answers with a packet-out carrying the
//! frame instead of a buffer id is matched through this marker.

use ofwire::frame::UdpFrameSpec;
use ofwire::frame::ETHERTYPE_VLAN;

pub const MARKER: &[u8; 4] = b"SDNB";
pub const MARKER_OFFSET: usize = 42; // 14 Ethernet + 20 IPv4 + 8 UDP
pub use ofwire::frame::build::MIN_FRAME;

pub fn host_mac(switch: u32, host: u32) -> [u8; 6] {
    let s = switch.to_be_bytes();
    let h = (host as u16).to_be_bytes();
    [0x00, s[1], s[2], s[3], h[0], h[1]]
}

/// The IPv4 address of host `host` of switch `switch`, when every switch has `macs` hosts.
pub fn host_ip(switch: u32, host: u32, macs: u32) -> [u8; 4] {
    host_ip_at(ip_base(switch, macs), host)
}

/// The 24-bit host number of switch `switch`'s host 0: hosts are `base + k`.
#[inline]
pub fn ip_base(switch: u32, macs: u32) -> u32 {
    switch.wrapping_mul(macs.max(1))
}

/// The address of host `host` above `base` (see [`ip_base`]).
#[inline]
pub fn host_ip_at(base: u32, host: u32) -> [u8; 4] {
    (0x0a00_0000u32 | (base.wrapping_add(host) & 0x00ff_ffff)).to_be_bytes()
}

/// Whether `switches` switches of `macs` hosts each get unique IPv4 addresses.
pub fn addresses_fit(switches: u32, macs: u32) -> bool {
    (switches as u64 + 1) * (macs.max(1) as u64) < (1 << 24)
}

pub fn host_port(host: u32, ports: u32) -> u32 {
    1 + (host.max(1) - 1) % ports.max(1)
}

/// (source host, destination host) of request `seq`.
pub fn hosts_of(seq: u32, macs: u32) -> (u32, u32) {
    let m = macs.max(1);
    (seq % m + 1, (seq.wrapping_add(1)) % m + 1)
}

/// A UDP/IPv4 frame of `size` bytes (at least [`MIN_FRAME`]) from `src` to `dst` host, built by
/// ofwire's frame builder, with our marker as payload. The UDP checksum is zero ("none", RFC
/// 768): the load hot path rewrites addresses and marker per request and patches only the IPv4
/// header checksum.
pub fn udp_frame(switch: u32, macs: u32, src: u32, dst: u32, seq: u32, size: usize) -> Vec<u8> {
    let spec = UdpFrameSpec {
        src_mac: host_mac(switch, src),
        dst_mac: host_mac(switch, dst),
        src_ip: host_ip(switch, src, macs),
        dst_ip: host_ip(switch, dst, macs),
        src_port: 12345,
        dst_port: 12346,
        frame_len: size.max(MIN_FRAME),
    };
    let mut f = ofwire::frame::udp_frame(&spec);
    f[40..42].fill(0);
    f[MARKER_OFFSET..MARKER_OFFSET + 4].copy_from_slice(MARKER);
    f[MARKER_OFFSET + 4..MARKER_OFFSET + 8].copy_from_slice(&switch.to_be_bytes());
    set_seq(&mut f, seq);
    f
}

/// Patch the sequence number of a frame made by [`udp_frame`].
#[inline]
pub fn set_seq(frame: &mut [u8], seq: u32) {
    frame[MARKER_OFFSET + 8..MARKER_OFFSET + 12].copy_from_slice(&seq.to_be_bytes());
}

/// The (switch, seq) marker of a frame, if it is one of ours.
pub fn marker(frame: &[u8]) -> Option<(u32, u32)> {
    let m = frame.get(MARKER_OFFSET..MARKER_OFFSET + 12)?;
    if &m[..4] != MARKER {
        return None;
    }
    Some((u32::from_be_bytes([m[4], m[5], m[6], m[7]]), u32::from_be_bytes([m[8], m[9], m[10], m[11]])))
}

/// A gratuitous ARP request announcing `host` (who-has its own address), padded to 60 bytes.
pub fn gratuitous_arp(switch: u32, macs: u32, host: u32) -> Vec<u8> {
    ofwire::frame::gratuitous_arp(host_mac(switch, host), host_ip(switch, host, macs))
}

pub fn ethertype(frame: &[u8]) -> Option<u16> {
    frame.get(12..14).map(|b| u16::from_be_bytes([b[0], b[1]]))
}

/// `frame` with an 802.1Q tag (priority 0, `vid`) after its MAC addresses.
pub fn tag(frame: &[u8], vid: u16) -> Vec<u8> {
    let mut f = Vec::with_capacity(frame.len() + 4);
    f.extend_from_slice(&frame[..12]);
    f.extend_from_slice(&ETHERTYPE_VLAN.to_be_bytes());
    f.extend_from_slice(&(vid & 0x0fff).to_be_bytes());
    f.extend_from_slice(&frame[12..]);
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip_checksum(h: &[u8]) -> u16 {
        let mut sum: u32 = h.chunks(2).map(|c| u16::from_be_bytes([c[0], c[1]]) as u32).sum();
        while sum > 0xffff {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        !(sum as u16)
    }

    /// The exact bytes of a small frame (pinned: the engine's requests must not drift).
    #[test]
    fn udp_frame_bytes() {
        let f = udp_frame(0, 10, 3, 4, 99, 60);
        let want: [u8; 60] = [
            0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 3, 8, 0, // Ethernet: dst host 4, src host 3, IPv4
            0x45, 0, 0, 46, 0, 0, 0x40, 0, 64, 17, 0x26, 0xb9, 10, 0, 0, 3, 10, 0, 0, 4, // IPv4, DF
            0x30, 0x39, 0x30, 0x3a, 0, 26, 0, 0, // UDP 12345 -> 12346, no checksum
            b'S', b'D', b'N', b'B', 0, 0, 0, 0, 0, 0, 0, 99, 0, 0, 0, 0, 0, 0,
        ];
        assert_eq!(f, want);
    }

    #[test]
    fn udp_frame_is_well_formed() {
        let f = udp_frame(7, 10, 1, 2, 99, 128);
        assert_eq!(f.len(), 128);
        assert_eq!(ethertype(&f), Some(0x0800));
        assert_eq!(ip_checksum(&f[14..34]), 0, "checksum over a header with its checksum is 0");
        assert_eq!(&f[40..42], &[0, 0], "no UDP checksum: the payload changes per request");
        assert_eq!(u16::from_be_bytes([f[16], f[17]]), 114);
        assert_eq!(marker(&f), Some((7, 99)));
        let mut f = f;
        set_seq(&mut f, 5);
        assert_eq!(marker(&f), Some((7, 5)));
    }

    #[test]
    fn small_frames_grow_to_minimum() {
        assert_eq!(udp_frame(1, 1, 1, 1, 0, 10).len(), MIN_FRAME);
    }

    #[test]
    fn hosts_cycle_and_ports_spread() {
        assert_eq!(hosts_of(0, 3), (1, 2));
        assert_eq!(hosts_of(2, 3), (3, 1));
        assert_eq!(host_port(1, 4), 1);
        assert_eq!(host_port(5, 4), 1);
        assert_eq!(host_port(6, 4), 2);
    }

    #[test]
    fn arp_announces_host() {
        let f = gratuitous_arp(3, 10, 9);
        assert_eq!(ethertype(&f), Some(0x0806));
        assert_eq!(&f[6..12], &host_mac(3, 9));
        assert_eq!(&f[28..32], &host_ip(3, 9, 10));
        assert_eq!(&f[28..32], &[10, 0, 0, 39]);
        assert_eq!(&f[38..42], &host_ip(3, 9, 10));
        assert_eq!(marker(&f), None);
    }

    /// Addresses are unique across switches (every host of 300 switches of 50 hosts) and the
    /// limit is where the 24-bit host number would wrap.
    #[test]
    fn addresses_unique_network_wide() {
        let mut ips = std::collections::HashSet::new();
        let mut macs = std::collections::HashSet::new();
        for s in 0..300 {
            for h in 1..=50 {
                assert!(ips.insert(host_ip(s, h, 50)), "ip of switch {s} host {h}");
                assert!(macs.insert(host_mac(s, h)));
            }
        }
        assert_eq!(host_ip(0, 5, 50), [10, 0, 0, 5], "switch 0 as before");
        assert!(addresses_fit(1000, 16_000));
        assert!(!addresses_fit(1 << 16, 256));
        assert!(addresses_fit((1 << 16) - 2, 256));
    }
}
