//! The layers of a frame a rewrite touches, and the checksums it must fix afterwards, as a
//! switch that rewrites headers does (Open vSwitch updates them incrementally; recomputing
//! gives the same bytes for a valid frame).
//!
//! - `l3(frame)`: past the Ethernet header and any VLAN tags (802.1Q 0x8100, 802.1ad 0x88a8):
//!   the offset of the L3 header and its ethertype.
//! - `fix(frame)`: the IPv4 header checksum, and the TCP, UDP, ICMP or ICMPv6 checksum (with
//!   the IPv4 or IPv6 pseudo-header) over the L4 bytes the IP length names. A UDP checksum of 0
//!   over IPv4 means none and stays 0. IPv6 extension headers are not walked: the L4 header
//!   is the one the fixed header's next-header names. SCTP's CRC32c is not computed (the
//!   switch does not rewrite SCTP ports).

use ofwire::frame::{ETHERTYPE_IPV4, ETHERTYPE_VLAN};

pub const ETHERTYPE_IPV6: u16 = 0x86dd;
pub const ETHERTYPE_QINQ: u16 = 0x88a8;
pub const ETHERTYPE_MPLS: u16 = 0x8847;
pub const ETHERTYPE_MPLS_MC: u16 = 0x8848;
pub const ETHERTYPE_PBB: u16 = 0x88e7;

fn be16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes([*b.get(at)?, *b.get(at + 1)?]))
}

/// Offset of the L3 header and its ethertype, past every VLAN tag.
pub fn l3(frame: &[u8]) -> Option<(usize, u16)> {
    let mut at = 12;
    loop {
        let ty = be16(frame, at)?;
        if ty != ETHERTYPE_VLAN && ty != ETHERTYPE_QINQ {
            return Some((at + 2, ty));
        }
        at += 4;
    }
}

/// The one's-complement sum of `data` added to `acc` (not folded, not inverted).
fn sum(mut acc: u32, data: &[u8]) -> u32 {
    let mut c = data.chunks_exact(2);
    for p in &mut c {
        acc += u32::from(u16::from_be_bytes([p[0], p[1]]));
    }
    if let [last] = c.remainder() {
        acc += u32::from(*last) << 8;
    }
    acc
}

fn fold(mut acc: u32) -> u16 {
    while acc > 0xffff {
        acc = (acc & 0xffff) + (acc >> 16);
    }
    !(acc as u16)
}

/// Recompute the IPv4 header checksum and the L4 checksum of `frame`; false when it is not IP.
pub fn fix(frame: &mut [u8]) -> bool {
    let Some((at, ty)) = l3(frame) else { return false };
    let (proto, l4, end, pseudo) = match ty {
        ETHERTYPE_IPV4 if frame.len() >= at + 20 => {
            let ip = &mut frame[at..];
            let ihl = ((ip[0] & 0x0f) as usize * 4).clamp(20, ip.len());
            ip[10..12].copy_from_slice(&[0, 0]);
            let c = fold(sum(0, &ip[..ihl]));
            ip[10..12].copy_from_slice(&c.to_be_bytes());
            let total = (be16(ip, 2).unwrap_or(0) as usize).clamp(ihl, ip.len());
            let len = (total - ihl) as u32;
            let p = sum(sum(0, &ip[12..20]), &[0, ip[9]]) + len;
            (ip[9], at + ihl, at + total, p)
        }
        ETHERTYPE_IPV6 if frame.len() >= at + 40 => {
            let ip = &frame[at..];
            let len = be16(ip, 4).unwrap_or(0) as usize;
            let end = (at + 40 + len).min(frame.len());
            let p = sum(0, &ip[8..40]) + (end - at - 40) as u32 + u32::from(ip[6]);
            (ip[6], at + 40, end, p)
        }
        _ => return false,
    };
    let v4 = ty == ETHERTYPE_IPV4;
    let field = match proto {
        6 => 16,
        17 => 6,
        1 if v4 => 2,
        58 if !v4 => 2,
        _ => return true,
    };
    if end < l4 + field + 2 {
        return true;
    }
    if proto == 17 && v4 && frame[l4 + 6..l4 + 8] == [0, 0] {
        return true;
    }
    frame[l4 + field..l4 + field + 2].copy_from_slice(&[0, 0]);
    let acc = if proto == 1 { sum(0, &frame[l4..end]) } else { sum(pseudo, &frame[l4..end]) };
    let mut c = fold(acc);
    if proto == 17 && c == 0 {
        c = 0xffff;
    }
    frame[l4 + field..l4 + field + 2].copy_from_slice(&c.to_be_bytes());
    true
}
