//! The flow key: the header fields of a frame a flow entry can match, in one fixed byte array.
//!
//! A [`Key`] is both what a frame carries (extracted by [`Key::of_frame`]) and, with a second
//! `Key` used as a bit mask, what a flow entry matches: entry `(value, mask)` matches frame key
//! `k` iff `k & mask == value` (value is stored already masked). One layout serves OF1.0 matches
//! and OF1.3 OXM fields, so both versions share the same table.
//!
//! Field sharing, as OF1.0 does it: for ARP, `ip_src`/`ip_dst` hold the sender/target protocol
//! addresses and `ip_proto` the low byte of the opcode (OF1.0 `nw_proto`); `arp_op` holds the
//! whole opcode (OF1.3 `ARP_OP`). For ICMP and ICMPv6, `tp_src`/`tp_dst` hold type and code.
//! For IPv6 neighbour discovery, `arp_sha`/`arp_tha` hold the source/target link-layer address
//! options (OF1.3 `IPV6_ND_SLL`/`TLL`), as Open vSwitch shares them. `vlan_vid` carries OF1.3's
//! OFPVID_PRESENT bit (0x1000) when the frame is tagged; 0 means untagged.
//!
//! IPv6 is read as Open vSwitch reads it for these fields: the fixed header (traffic class as
//! DSCP and ECN, flow label, next header, addresses) and, when the next header is TCP, UDP,
//! SCTP or ICMPv6, the ports or type/code right after it (a frame with extension headers
//! matches on its IPv6 fields only). MPLS: the outermost label stack entry (label, TC, BoS).
//! `metadata` and `tunnel_id` are not in the frame: the pipeline writes them (write-metadata,
//! set-field of the tunnel id) for the tables that follow.

use crate::checksum::{ETHERTYPE_IPV6, ETHERTYPE_MPLS, ETHERTYPE_MPLS_MC, ETHERTYPE_PBB, ETHERTYPE_QINQ};
use ofwire::frame::{ETHERTYPE_ARP, ETHERTYPE_IPV4, ETHERTYPE_VLAN};

/// Byte offsets of the fields inside a [`Key`].
pub mod at {
    pub const IN_PORT: usize = 0; // 4
    pub const ETH_DST: usize = 4; // 6
    pub const ETH_SRC: usize = 10; // 6
    pub const ETH_TYPE: usize = 16; // 2
    pub const VLAN_VID: usize = 18; // 2
    pub const VLAN_PCP: usize = 20; // 1
    pub const IP_DSCP: usize = 21; // 1 (the 6 DSCP bits, OF1.0 nw_tos >> 2)
    pub const IP_PROTO: usize = 22; // 1
    pub const IP_SRC: usize = 24; // 4
    pub const IP_DST: usize = 28; // 4
    pub const TP_SRC: usize = 32; // 2
    pub const TP_DST: usize = 34; // 2
    pub const ARP_OP: usize = 36; // 2
    pub const ARP_SHA: usize = 38; // 6 (also IPv6 ND source link-layer address)
    pub const ARP_THA: usize = 44; // 6 (also IPv6 ND target link-layer address)
    pub const IP_ECN: usize = 50; // 1 (the 2 ECN bits)
    pub const MPLS_TC: usize = 51; // 1
    pub const IPV6_FLABEL: usize = 52; // 4 (20 bits)
    pub const IPV6_SRC: usize = 56; // 16
    pub const IPV6_DST: usize = 72; // 16
    pub const ND_TARGET: usize = 88; // 16
    pub const METADATA: usize = 104; // 8
    pub const MPLS_LABEL: usize = 112; // 4 (20 bits)
    pub const MPLS_BOS: usize = 116; // 1
    pub const TUNNEL_ID: usize = 117; // 8
    pub const PBB_ISID: usize = 125; // 3 (the I-TAG's 24-bit I-SID)
    pub const IPV6_EXTHDR: usize = 128; // 2 (`ipv6_exthdr` flags)
}

pub const KEY_LEN: usize = 130;
pub const VID_PRESENT: u16 = 0x1000;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key(pub [u8; KEY_LEN]);

impl Default for Key {
    fn default() -> Key {
        Key([0; KEY_LEN])
    }
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Key(")?;
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

impl Key {
    /// Every bit set: as a mask, "match every field exactly".
    pub const FULL: Key = Key([0xff; KEY_LEN]);

    #[inline]
    pub fn set(&mut self, at: usize, bytes: &[u8]) {
        self.0[at..at + bytes.len()].copy_from_slice(bytes);
    }
    #[inline]
    pub fn get<const N: usize>(&self, at: usize) -> [u8; N] {
        self.0[at..at + N].try_into().expect("N bytes")
    }
    pub fn u16_at(&self, at: usize) -> u16 {
        u16::from_be_bytes(self.get(at))
    }
    pub fn u32_at(&self, at: usize) -> u32 {
        u32::from_be_bytes(self.get(at))
    }
    pub fn in_port(&self) -> u32 {
        self.u32_at(at::IN_PORT)
    }
    /// The pipeline's metadata register as the next table sees it.
    pub fn set_metadata(&mut self, metadata: u64) {
        self.set(at::METADATA, &metadata.to_be_bytes());
    }
    /// The packet's tunnel id (0 for a frame that came in on a port) as the next table sees it.
    pub fn set_tunnel_id(&mut self, id: u64) {
        self.set(at::TUNNEL_ID, &id.to_be_bytes());
    }

    /// `self & mask`, field by field.
    #[inline]
    pub fn and(&self, mask: &Key) -> Key {
        let mut k = [0u8; KEY_LEN];
        for (o, (a, b)) in k.iter_mut().zip(self.0.iter().zip(mask.0.iter())) {
            *o = a & b;
        }
        Key(k)
    }

    /// Whether every bit set in `self` (a mask) is set in `other`: `other` is at least as
    /// specific.
    pub fn subset_of(&self, other: &Key) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a & b == *a)
    }

    /// The key of `frame` arriving on `in_port`. Short or odd frames give the fields that are
    /// there and zero for the rest (never a panic).
    pub fn of_frame(in_port: u32, frame: &[u8]) -> Key {
        let mut k = Key::default();
        k.set(at::IN_PORT, &in_port.to_be_bytes());
        if frame.len() < 14 {
            return k;
        }
        k.set(at::ETH_DST, &frame[0..6]);
        k.set(at::ETH_SRC, &frame[6..12]);
        let mut ty = u16::from_be_bytes([frame[12], frame[13]]);
        let mut l3 = 14;
        if (ty == ETHERTYPE_VLAN || ty == ETHERTYPE_QINQ) && frame.len() >= 18 {
            let tci = u16::from_be_bytes([frame[14], frame[15]]);
            k.set(at::VLAN_VID, &((tci & 0x0fff) | VID_PRESENT).to_be_bytes());
            k.0[at::VLAN_PCP] = (tci >> 13) as u8;
            ty = u16::from_be_bytes([frame[16], frame[17]]);
            l3 = 18;
        }
        k.set(at::ETH_TYPE, &ty.to_be_bytes());
        let l3b = &frame[l3..];
        match ty {
            ETHERTYPE_IPV4 if l3b.len() >= 20 => ipv4(&mut k, l3b),
            ETHERTYPE_IPV6 if l3b.len() >= 40 => ipv6(&mut k, l3b),
            ETHERTYPE_MPLS | ETHERTYPE_MPLS_MC if l3b.len() >= 4 => {
                let lse = u32::from_be_bytes([l3b[0], l3b[1], l3b[2], l3b[3]]);
                k.set(at::MPLS_LABEL, &(lse >> 12).to_be_bytes());
                k.0[at::MPLS_TC] = ((lse >> 9) & 7) as u8;
                k.0[at::MPLS_BOS] = ((lse >> 8) & 1) as u8;
            }
            ETHERTYPE_PBB if l3b.len() >= 4 => k.set(at::PBB_ISID, &l3b[1..4]),
            ETHERTYPE_ARP if l3b.len() >= 28 => {
                let op = u16::from_be_bytes([l3b[6], l3b[7]]);
                k.set(at::ARP_OP, &op.to_be_bytes());
                k.0[at::IP_PROTO] = op as u8;
                k.set(at::ARP_SHA, &l3b[8..14]);
                k.set(at::IP_SRC, &l3b[14..18]);
                k.set(at::ARP_THA, &l3b[18..24]);
                k.set(at::IP_DST, &l3b[24..28]);
            }
            _ => {}
        }
        k
    }
}

fn ipv4(k: &mut Key, ip: &[u8]) {
    k.0[at::IP_DSCP] = ip[1] >> 2;
    k.0[at::IP_ECN] = ip[1] & 3;
    let proto = ip[9];
    k.0[at::IP_PROTO] = proto;
    k.set(at::IP_SRC, &ip[12..16]);
    k.set(at::IP_DST, &ip[16..20]);
    let ihl = ((ip[0] & 0x0f) as usize) * 4;
    let frag = u16::from_be_bytes([ip[6], ip[7]]) & 0x1fff;
    if ihl < 20 || frag != 0 || ip.len() < ihl + 4 {
        return;
    }
    let l4 = &ip[ihl..];
    match proto {
        6 | 17 | 132 => {
            k.set(at::TP_SRC, &l4[0..2]);
            k.set(at::TP_DST, &l4[2..4]);
        }
        1 => {
            k.set(at::TP_SRC, &[0, l4[0]]);
            k.set(at::TP_DST, &[0, l4[1]]);
        }
        _ => {}
    }
}

/// IPv6 without extension headers: the fixed header, then TCP/UDP/SCTP ports or ICMPv6
/// type/code, and for neighbour solicitation/advertisement the target and the link-layer
/// address option (the first of its kind, as Open vSwitch takes it).
fn ipv6(k: &mut Key, ip: &[u8]) {
    let vtf = u32::from_be_bytes([ip[0], ip[1], ip[2], ip[3]]);
    let tc = (vtf >> 20) as u8;
    k.0[at::IP_DSCP] = tc >> 2;
    k.0[at::IP_ECN] = tc & 3;
    k.set(at::IPV6_FLABEL, &(vtf & 0x000f_ffff).to_be_bytes());
    let next = ip[6];
    k.0[at::IP_PROTO] = next;
    k.set(at::IPV6_SRC, &ip[8..24]);
    k.set(at::IPV6_DST, &ip[24..40]);
    k.set(at::IPV6_EXTHDR, &crate::ipv6_exthdr::flags(next, &ip[40..]).to_be_bytes());
    let l4 = &ip[40..];
    match next {
        6 | 17 | 132 if l4.len() >= 4 => {
            k.set(at::TP_SRC, &l4[0..2]);
            k.set(at::TP_DST, &l4[2..4]);
        }
        58 if l4.len() >= 4 => {
            k.set(at::TP_SRC, &[0, l4[0]]);
            k.set(at::TP_DST, &[0, l4[1]]);
            if matches!(l4[0], ND_SOLICIT | ND_ADVERT) && l4[1] == 0 && l4.len() >= 24 {
                k.set(at::ND_TARGET, &l4[8..24]);
                nd_options(k, l4[0], &l4[24..]);
            }
        }
        _ => {}
    }
}

/// ICMPv6 neighbour solicitation and advertisement (RFC 4861).
pub const ND_SOLICIT: u8 = 135;
pub const ND_ADVERT: u8 = 136;

/// The source (1, in a solicitation) or target (2, in an advertisement) link-layer address
/// option of a neighbour discovery message.
fn nd_options(k: &mut Key, typ: u8, mut opts: &[u8]) {
    let (want, at) = if typ == ND_SOLICIT { (1, at::ARP_SHA) } else { (2, at::ARP_THA) };
    while opts.len() >= 8 {
        let len = opts[1] as usize * 8;
        if len == 0 || len > opts.len() {
            return;
        }
        if opts[0] == want && len == 8 {
            k.set(at, &opts[2..8]);
            return;
        }
        opts = &opts[len..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// os-ken's match/37_PBB_ISID frame (ethernet/svlan/itag(sid=100)/ethernet/arp) and
    /// match/39_IPV6_EXTHDR's (ipv6 with hop-by-hop and AH, TCP): eth_type past the S-tag,
    /// the I-SID, the exthdr flags os-ken's flows expect (68 = HOP | AUTH).
    #[test]
    fn pbb_isid_and_ipv6_exthdr() {
        let pbb = unhex("22222222222212111111111188a8000a88e70000006422222222222212111111111108060001080006040001ffffffffffff00000000ffffffffffff00000000000000000000000000000000000000000000");
        let k = Key::of_frame(1, &pbb);
        assert_eq!((k.u16_at(at::ETH_TYPE), k.u16_at(at::VLAN_VID)), (0x88e7, VID_PRESENT | 10));
        assert_eq!(k.get::<3>(at::PBB_ISID), [0, 0, 100]);
        let v6 = unhex("22222222222212111111111186dd600000640030004000100000000000000000000000000010002000000000000000000000000000203300010400000000060200000000000000000000000000002b6708ae0000000000000000600000006b72000000000000");
        assert_eq!(Key::of_frame(1, &v6).u16_at(at::IPV6_EXTHDR), 68);
        assert_eq!(Key::of_frame(1, &crate::frames::udp_frame(0, 10, 3, 4, 0, 64)).u16_at(at::IPV6_EXTHDR), 0);
    }

    #[test]
    fn udp_fields() {
        let f = crate::frames::udp_frame(7, 10, 3, 4, 99, 60);
        let k = Key::of_frame(2, &f);
        assert_eq!(k.in_port(), 2);
        assert_eq!(k.get::<6>(at::ETH_SRC), f[6..12]);
        assert_eq!(k.get::<6>(at::ETH_DST), f[0..6]);
        assert_eq!(k.u16_at(at::ETH_TYPE), 0x0800);
        assert_eq!(k.0[at::IP_PROTO], 17);
        assert_eq!(k.get::<4>(at::IP_SRC), f[26..30]);
        assert_eq!(k.get::<4>(at::IP_DST), f[30..34]);
        assert_eq!((k.u16_at(at::TP_SRC), k.u16_at(at::TP_DST)), (12345, 12346));
        assert_eq!(k.u16_at(at::VLAN_VID), 0, "untagged");
    }

    #[test]
    fn arp_and_vlan_and_short() {
        let f = crate::frames::gratuitous_arp(1, 10, 5);
        let k = Key::of_frame(1, &f);
        assert_eq!(k.u16_at(at::ETH_TYPE), 0x0806);
        assert_eq!(k.u16_at(at::ARP_OP), 1);
        assert_eq!(k.0[at::IP_PROTO], 1);
        assert_eq!(k.get::<4>(at::IP_SRC), crate::frames::host_ip(1, 5, 10));
        let mut t = f[..12].to_vec();
        t.extend_from_slice(&[0x81, 0, 0x20, 0x0a]);
        t.extend_from_slice(&f[12..]);
        let k = Key::of_frame(1, &t);
        assert_eq!(k.u16_at(at::VLAN_VID), 0x100a);
        assert_eq!(k.0[at::VLAN_PCP], 1);
        assert_eq!(k.u16_at(at::ETH_TYPE), 0x0806);
        for n in 0..f.len() {
            let _ = Key::of_frame(1, &f[..n]);
        }
        assert_eq!(Key::of_frame(9, &[1, 2, 3]).in_port(), 9);
    }

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    /// An IPv6/TCP frame as os-ken's switch test patterns build it (traffic class 0x20,
    /// flow label 100, 10::10 → 20::20, ports 11111 → 2222).
    #[test]
    fn ipv6_tcp_fields() {
        let f = unhex("22222222222212111111111186dd620000640037064000100000000000000000000000000010002000000000000000000000000000202b6708ae0000000000000000600000006a5c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
        let k = Key::of_frame(1, &f);
        assert_eq!(k.u16_at(at::ETH_TYPE), 0x86dd);
        assert_eq!((k.0[at::IP_DSCP], k.0[at::IP_ECN], k.0[at::IP_PROTO]), (8, 0, 6));
        assert_eq!(k.u32_at(at::IPV6_FLABEL), 100);
        let ten = [0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10];
        assert_eq!(k.get::<16>(at::IPV6_SRC), ten);
        assert_eq!(k.get::<16>(at::IPV6_DST)[15], 0x20);
        assert_eq!((k.u16_at(at::TP_SRC), k.u16_at(at::TP_DST)), (11111, 2222));
        assert_eq!(k.get::<4>(at::IP_SRC), [0; 4], "the IPv4 slots stay empty");
        for n in 0..f.len() {
            let _ = Key::of_frame(1, &f[..n]);
        }
    }

    /// A neighbour solicitation with a source link-layer address option, and an
    /// advertisement with a target one: the target address and the option's MAC.
    #[test]
    fn ipv6_neighbour_discovery() {
        let nd = |typ: u8, opt: u8| {
            let mut f = unhex("ffffffffffff00000000000186dd6000000000203aff");
            f.extend_from_slice(&[0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
            f.extend_from_slice(&[0xff, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0, 0, 2]);
            f.extend_from_slice(&[typ, 0, 0, 0, 0, 0, 0, 0]);
            f.extend_from_slice(&[0x20, 1, 0xd, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
            f.extend_from_slice(&[opt, 1, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff]);
            f
        };
        let k = Key::of_frame(3, &nd(ND_SOLICIT, 1));
        assert_eq!((k.0[at::IP_PROTO], k.u16_at(at::TP_SRC)), (58, 135));
        assert_eq!(k.get::<16>(at::ND_TARGET)[..4], [0x20, 1, 0xd, 0xb8]);
        assert_eq!(k.get::<6>(at::ARP_SHA), [0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff]);
        assert_eq!(k.get::<6>(at::ARP_THA), [0; 6]);
        let k = Key::of_frame(3, &nd(ND_ADVERT, 2));
        assert_eq!((k.get::<6>(at::ARP_SHA), k.get::<6>(at::ARP_THA)[0]), ([0; 6], 0xaa));
        let k = Key::of_frame(3, &nd(ND_ADVERT, 1));
        assert_eq!(k.get::<6>(at::ARP_THA), [0; 6], "a source option in an advertisement is not the target's");
    }

    #[test]
    fn mpls_outer_entry() {
        // label 0x12345, TC 5, bottom of stack, TTL 64
        let lse: u32 = (0x12345 << 12) | (5 << 9) | (1 << 8) | 64;
        let mut f = unhex("22222222222212111111111188470000");
        f.truncate(14);
        f.extend_from_slice(&lse.to_be_bytes());
        let k = Key::of_frame(1, &f);
        assert_eq!((k.u32_at(at::MPLS_LABEL), k.0[at::MPLS_TC], k.0[at::MPLS_BOS]), (0x12345, 5, 1));
    }

    #[test]
    fn masks() {
        let mut m = Key::default();
        m.set(at::IP_SRC, &[255, 255, 0, 0]);
        assert!(m.subset_of(&Key::FULL));
        assert!(!Key::FULL.subset_of(&m));
        let k = Key::of_frame(1, &crate::frames::udp_frame(1, 10, 3, 4, 0, 60));
        assert_eq!(k.and(&m).get::<4>(at::IP_SRC)[2..], [0, 0]);
    }
}
