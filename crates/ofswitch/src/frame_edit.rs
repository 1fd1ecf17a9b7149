//! Header rewrites of the actions the pipeline applies to a frame (set MAC/IP/port, VLAN
//! push/pop/set, TTL, TOS, DSCP/ECN, IPv6 addresses and flow label, ICMP type/code, ARP
//! fields, IPv6 neighbour discovery target and link-layer addresses, MPLS label and TC). Pure functions on a `Vec<u8>`; a rewrite the frame cannot take (an IP field of a
//! non-IP frame, a short frame) leaves it unchanged and returns false.
//!
//! After a rewrite of an IP or L4 field the IPv4 header checksum and the TCP/UDP/ICMP/ICMPv6
//! checksum are fixed (`checksum::fix`), as Open vSwitch does: a frame that was valid stays
//! valid, byte for byte what a receiver expects. Fields are found past every VLAN tag; IPv6
//! extension headers are not walked (the L4 header is the one the fixed header names).

use crate::checksum::{self, ETHERTYPE_IPV6};
use crate::key::{ND_ADVERT, ND_SOLICIT, VID_PRESENT};
use crate::mpls;
use ofwire::frame::{ETHERTYPE_ARP, ETHERTYPE_IPV4, ETHERTYPE_VLAN};
use ofwire::{Action, Oxm, OxmField};

/// The IP header of an IPv4 (`v4`) or IPv6 frame: (offset, v4).
fn ip(frame: &[u8]) -> Option<(usize, bool)> {
    let (at, ty) = checksum::l3(frame)?;
    match ty {
        ETHERTYPE_IPV4 if frame.len() >= at + 20 => Some((at, true)),
        ETHERTYPE_IPV6 if frame.len() >= at + 40 => Some((at, false)),
        _ => None,
    }
}

/// Rewrite `v` at `off` bytes into the IPv4 (or, with `v6_off`, IPv6) header; fix checksums.
fn set_ip(frame: &mut [u8], v4_off: Option<usize>, v6_off: Option<usize>, v: &[u8]) -> bool {
    let Some((at, v4)) = ip(frame) else { return false };
    let Some(off) = (if v4 { v4_off } else { v6_off }) else { return false };
    frame[at + off..at + off + v.len()].copy_from_slice(v);
    checksum::fix(frame)
}

/// Change bits of one header byte: `byte = byte & !mask | v & mask`.
fn set_bits(frame: &mut [u8], v4_off: usize, v6_off: usize, shift_v6: bool, mask: u8, v: u8) -> bool {
    let Some((at, v4)) = ip(frame) else { return false };
    if v4 {
        let b = &mut frame[at + v4_off];
        *b = (*b & !mask) | (v & mask);
    } else if shift_v6 {
        // the traffic class straddles bytes 0 and 1: version(4) tc(8) flow label(20)
        let tc = ((frame[at] & 0x0f) << 4 | frame[at + 1] >> 4) & !mask | (v & mask);
        frame[at] = (frame[at] & 0xf0) | tc >> 4;
        frame[at + 1] = (frame[at + 1] & 0x0f) | tc << 4;
    } else {
        let b = &mut frame[at + v6_off];
        *b = (*b & !mask) | (v & mask);
    }
    checksum::fix(frame)
}

/// A DSCP-remark meter band's action (OpenFlow 1.3 §7.3.4.5, "increase the drop precedence"),
/// as CPqD's ofsoftswitch13 runs it (`udatapath/meter_entry.c`): on an IPv4 or IPv6 frame whose
/// DSCP has drop precedence low (AFx1, low bits 010) by up to 2 levels, or medium (AFx2, 100) by
/// 1, the DSCP grows by 2 per level (AF21 = 18 at `prec_level` 1 → AF22 = 20); any other frame is
/// left as it is. Checksums fixed. Whether the frame changed.
pub fn remark_dscp(frame: &mut [u8], prec_level: u8) -> bool {
    let Some((at, v4)) = ip(frame) else { return false };
    let tc = if v4 { frame[at + 1] } else { (frame[at] & 0x0f) << 4 | frame[at + 1] >> 4 };
    let dscp = tc >> 2;
    let ok = match dscp & 0x07 {
        0b010 => prec_level <= 2,
        0b100 => prec_level <= 1,
        _ => false,
    };
    if !ok || prec_level == 0 {
        return false;
    }
    set_bits(frame, 1, 0, true, 0xfc, (dscp + 2 * prec_level) << 2)
}

/// The L4 header of an IP frame: (offset, protocol).
fn l4(frame: &[u8]) -> Option<(usize, u8)> {
    let (at, v4) = ip(frame)?;
    if v4 {
        let ihl = (frame[at] & 0x0f) as usize * 4;
        Some((at + ihl.max(20), frame[at + 9]))
    } else {
        Some((at + 40, frame[at + 6]))
    }
}

/// Rewrite `v` at `off` into the L4 header when its protocol is one of `protos`.
fn set_l4(frame: &mut [u8], protos: &[u8], off: usize, v: &[u8]) -> bool {
    let Some((at, p)) = l4(frame) else { return false };
    if !protos.contains(&p) || frame.len() < at + off + v.len() {
        return false;
    }
    frame[at + off..at + off + v.len()].copy_from_slice(v);
    checksum::fix(frame)
}

fn set_arp(frame: &mut [u8], off: usize, v: &[u8]) -> bool {
    match checksum::l3(frame) {
        Some((at, ETHERTYPE_ARP)) if frame.len() >= at + 28 => {
            frame[at + off..at + off + v.len()].copy_from_slice(v);
            true
        }
        _ => false,
    }
}

fn set_vid(frame: &mut Vec<u8>, vid: u16) -> bool {
    if frame.len() < 14 {
        return false;
    }
    if frame[12..14] != [0x81, 0x00] {
        push_vlan(frame, ETHERTYPE_VLAN);
    }
    let tci = (u16::from_be_bytes([frame[14], frame[15]]) & 0xf000) | (vid & 0x0fff);
    frame[14..16].copy_from_slice(&tci.to_be_bytes());
    true
}

/// A new outermost tag; it copies the VID and PCP of the tag it goes over, if any (OF1.3
/// §7.2.5), else 0.
fn push_vlan(frame: &mut Vec<u8>, tpid: u16) -> bool {
    if frame.len() < 14 {
        return false;
    }
    let tci = match frame[12..14] {
        [0x81, 0x00] | [0x88, 0xa8] if frame.len() >= 18 => [frame[14], frame[15]],
        _ => [0, 0],
    };
    let mut tag = tpid.to_be_bytes().to_vec();
    tag.extend_from_slice(&tci);
    frame.splice(12..12, tag);
    true
}

fn pop_vlan(frame: &mut Vec<u8>) -> bool {
    if frame.len() < 18 || !matches!(frame[12..14], [0x81, 0x00] | [0x88, 0xa8]) {
        return false;
    }
    frame.drain(12..16);
    true
}

fn set_pcp(frame: &mut [u8], p: u8) -> bool {
    if frame.len() < 18 || !matches!(frame[12..14], [0x81, 0x00] | [0x88, 0xa8]) {
        return false;
    }
    frame[14] = (frame[14] & 0x1f) | (p << 5);
    true
}

fn set_field(frame: &mut Vec<u8>, o: &Oxm) -> bool {
    let Oxm::Basic { field, value, .. } = o else { return false };
    let u16v = || u16::from_be_bytes([value[0], *value.get(1).unwrap_or(&0)]);
    let v = value.as_slice();
    match field {
        OxmField::EthDst if frame.len() >= 14 => {
            frame[0..6].copy_from_slice(v);
            true
        }
        OxmField::EthSrc if frame.len() >= 14 => {
            frame[6..12].copy_from_slice(v);
            true
        }
        OxmField::VlanVid => set_vid(frame, u16v() & !VID_PRESENT),
        OxmField::VlanPcp => set_pcp(frame, v[0]),
        OxmField::IpDscp => set_bits(frame, 1, 0, true, 0xfc, v[0] << 2),
        OxmField::IpEcn => set_bits(frame, 1, 0, true, 0x03, v[0]),
        OxmField::IpProto => set_ip(frame, Some(9), Some(6), v),
        OxmField::Ipv4Src => set_ip(frame, Some(12), None, v),
        OxmField::Ipv4Dst => set_ip(frame, Some(16), None, v),
        OxmField::Ipv6Src => set_ip(frame, None, Some(8), v),
        OxmField::Ipv6Dst => set_ip(frame, None, Some(24), v),
        OxmField::Ipv6Flabel => set_flabel(frame, u32::from_be_bytes([v[0], v[1], v[2], v[3]])),
        OxmField::TcpSrc => set_l4(frame, &[6], 0, v),
        OxmField::TcpDst => set_l4(frame, &[6], 2, v),
        OxmField::UdpSrc => set_l4(frame, &[17], 0, v),
        OxmField::UdpDst => set_l4(frame, &[17], 2, v),
        OxmField::Icmpv4Type => set_l4_v4(frame, true, 1, 0, v),
        OxmField::Icmpv4Code => set_l4_v4(frame, true, 1, 1, v),
        OxmField::Icmpv6Type => set_l4_v4(frame, false, 58, 0, v),
        OxmField::Icmpv6Code => set_l4_v4(frame, false, 58, 1, v),
        OxmField::ArpOp => set_arp(frame, 6, v),
        OxmField::ArpSha => set_arp(frame, 8, v),
        OxmField::ArpSpa => set_arp(frame, 14, v),
        OxmField::ArpTha => set_arp(frame, 18, v),
        OxmField::ArpTpa => set_arp(frame, 24, v),
        OxmField::Ipv6NdTarget => set_nd(frame, None, v),
        OxmField::Ipv6NdSll => set_nd(frame, Some((ND_SOLICIT, 1)), v),
        OxmField::Ipv6NdTll => set_nd(frame, Some((ND_ADVERT, 2)), v),
        OxmField::MplsLabel => mpls::set_lse(frame, Some(u32::from_be_bytes([v[0], v[1], v[2], v[3]])), None),
        OxmField::MplsTc => mpls::set_lse(frame, None, Some(v[0])),
        OxmField::MplsBos => mpls::set_bos(frame, v[0]),
        OxmField::PbbIsid => mpls::set_isid(frame, [v[0], v[1], v[2]]),
        OxmField::EthType => set_eth_type(frame, u16v()),
        _ => false,
    }
}

/// A neighbour solicitation's or advertisement's target address (`opt` None), or the
/// link-layer address in its option `opt.1` when the message is of type `opt.0`; the ICMPv6
/// checksum fixed.
/// The ethertype after the Ethernet header and its VLAN tags (the one `eth_type` matches).
fn set_eth_type(frame: &mut [u8], ty: u16) -> bool {
    let Some((at, _)) = checksum::l3(frame) else { return false };
    frame[at - 2..at].copy_from_slice(&ty.to_be_bytes());
    true
}

fn set_nd(frame: &mut [u8], opt: Option<(u8, u8)>, v: &[u8]) -> bool {
    let Some((at, 58)) = l4(frame) else { return false };
    let typ = frame.get(at).copied();
    if !matches!(typ, Some(ND_SOLICIT | ND_ADVERT)) || frame.len() < at + 24 {
        return false;
    }
    let off = match opt {
        None => at + 8,
        Some((want, _)) if typ != Some(want) => return false,
        Some((_, kind)) => {
            let mut o = at + 24;
            loop {
                let len = *frame.get(o + 1).unwrap_or(&0) as usize * 8;
                if len == 0 || frame.len() < o + len {
                    return false;
                }
                if frame[o] == kind && len == 8 {
                    break o + 2;
                }
                o += len;
            }
        }
    };
    frame[off..off + v.len()].copy_from_slice(v);
    checksum::fix(frame)
}

/// An ICMP (`v4`) or ICMPv6 field.
fn set_l4_v4(frame: &mut [u8], v4: bool, proto: u8, off: usize, v: &[u8]) -> bool {
    match ip(frame) {
        Some((_, is4)) if is4 == v4 => set_l4(frame, &[proto], off, v),
        _ => false,
    }
}

fn set_flabel(frame: &mut [u8], label: u32) -> bool {
    let Some((at, false)) = ip(frame) else { return false };
    let w = u32::from_be_bytes([frame[at], frame[at + 1], frame[at + 2], frame[at + 3]]);
    let w = (w & 0xfff0_0000) | (label & 0x000f_ffff);
    frame[at..at + 4].copy_from_slice(&w.to_be_bytes());
    checksum::fix(frame)
}

/// The TTL (IPv4) or hop limit (IPv6): set, or decremented (never below 0).
fn ttl(frame: &mut [u8], set: Option<u8>) -> bool {
    let Some((at, v4)) = ip(frame) else { return false };
    let b = &mut frame[at + if v4 { 8 } else { 7 }];
    *b = set.unwrap_or(b.saturating_sub(1));
    checksum::fix(frame)
}

/// Whether `apply` does anything for this action (the pipeline copies a frame only then).
pub fn rewrites(a: &Action) -> bool {
    matches!(
        a,
        Action::SetDlSrc(_)
            | Action::SetDlDst(_)
            | Action::SetVlanVid(_)
            | Action::SetVlanPcp(_)
            | Action::StripVlan
            | Action::PopVlan
            | Action::PushVlan(_)
            | Action::SetNwSrc(_)
            | Action::SetNwDst(_)
            | Action::SetNwTos(_)
            | Action::SetNwTtl(_)
            | Action::DecNwTtl
            | Action::SetTpSrc(_)
            | Action::SetTpDst(_)
            | Action::SetField(_)
            | Action::PushMpls(_)
            | Action::PopMpls(_)
            | Action::SetMplsTtl(_)
            | Action::DecMplsTtl
            | Action::CopyTtlOut
            | Action::CopyTtlIn
            | Action::PopPbb
            | Action::PushPbb(_)
    )
}

/// Apply one non-output action to `frame`. Returns whether the frame changed.
pub fn apply(frame: &mut Vec<u8>, a: &Action) -> bool {
    match a {
        Action::SetDlSrc(m) if frame.len() >= 14 => {
            frame[6..12].copy_from_slice(m);
            true
        }
        Action::SetDlDst(m) if frame.len() >= 14 => {
            frame[0..6].copy_from_slice(m);
            true
        }
        Action::SetVlanVid(v) => set_vid(frame, *v),
        Action::SetVlanPcp(p) => set_pcp(frame, *p),
        Action::StripVlan | Action::PopVlan => pop_vlan(frame),
        Action::PushVlan(tpid) => push_vlan(frame, *tpid),
        Action::SetNwSrc(ip) => set_ip(frame, Some(12), None, &ip.to_be_bytes()),
        Action::SetNwDst(ip) => set_ip(frame, Some(16), None, &ip.to_be_bytes()),
        // the 6 DSCP bits of the IPv4 TOS or the IPv6 traffic class (1.0 nw_tos)
        Action::SetNwTos(t) => set_bits(frame, 1, 0, true, 0xfc, *t),
        Action::SetNwTtl(t) => ttl(frame, Some(*t)),
        Action::DecNwTtl => ttl(frame, None),
        Action::SetTpSrc(p) => set_l4(frame, &[6, 17], 0, &p.to_be_bytes()),
        Action::SetTpDst(p) => set_l4(frame, &[6, 17], 2, &p.to_be_bytes()),
        Action::SetField(o) => set_field(frame, o),
        Action::PushMpls(t) => mpls::push_mpls(frame, *t),
        Action::PopMpls(t) => mpls::pop_mpls(frame, *t),
        Action::SetMplsTtl(t) => mpls::mpls_ttl(frame, Some(*t)),
        Action::DecMplsTtl => mpls::mpls_ttl(frame, None),
        Action::CopyTtlOut => mpls::copy_ttl(frame, true),
        Action::CopyTtlIn => mpls::copy_ttl(frame, false),
        Action::PopPbb => mpls::pop_pbb(frame),
        Action::PushPbb(t) => mpls::push_pbb(frame, *t),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frames;
    use crate::key::{at, Key};
    use ofwire::frame::internet_checksum;

    #[test]
    fn rewrites_keep_the_frame_valid() {
        let f0 = frames::udp_frame(1, 10, 2, 3, 0, 64);
        let mut f = f0.clone();
        assert!(apply(&mut f, &Action::SetNwDst(0x0a00_0063)));
        assert!(apply(&mut f, &Action::SetTpDst(53)));
        assert!(apply(&mut f, &Action::SetDlDst([2, 0, 0, 0, 0, 9])));
        let k = Key::of_frame(1, &f);
        assert_eq!(k.u32_at(at::IP_DST), 0x0a00_0063);
        assert_eq!(k.u16_at(at::TP_DST), 53);
        assert_eq!(k.get::<6>(at::ETH_DST), [2, 0, 0, 0, 0, 9]);
        assert_eq!(internet_checksum(&f[14..34]), 0, "checksum still valid");
        assert!(apply(&mut f, &Action::SetVlanVid(42)));
        assert_eq!(Key::of_frame(1, &f).u16_at(at::VLAN_VID), 42 | VID_PRESENT);
        assert_eq!(Key::of_frame(1, &f).u32_at(at::IP_DST), 0x0a00_0063, "fields past the tag");
        assert!(apply(&mut f, &Action::StripVlan));
        assert_eq!(f.len(), f0.len());
        let mut arp = frames::gratuitous_arp(1, 10, 1);
        assert!(!apply(&mut arp, &Action::SetNwDst(1)), "not IPv4: unchanged");
        let mut short = vec![1, 2, 3];
        assert!(!apply(&mut short, &Action::SetDlDst([0; 6])));
        assert!(!apply(&mut short, &Action::PopVlan));
    }

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    /// Frames and rewritten frames of os-ken's switch test patterns (of13/action), as os-ken
    /// builds them (checksums included): each rewrite gives the expected frame byte for byte.
    #[test]
    fn osken_action_patterns_byte_for_byte() {
        let mut a0 = [0u8; 16];
        a0[1] = 0xa0;
        a0[15] = 0xa0;
        let cases: Vec<(Action, &str, &str)> = vec![
        // ethernet/ipv4(src='192.168.10.10')/tcp-->'ipv4_src=192.168.10.10,actions=set_field:10.10.10.10->ipv4_src,output:2'
            (Action::SetField(Oxm::basic(OxmField::Ipv4Src, &[10, 10, 10, 10])), "22222222222212111111111108004520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "22222222222212111111111108004520004b00000000400691bd0a0a0a0ac0a814142b6708ae00000000000000006000000081eb0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/vlan/ipv4(src='192.168.10.10')/tcp-->'ipv4_src=192.168.10.10,actions=set_field:10.10.10.10->ipv4_src,output:2'
            (Action::SetField(Oxm::basic(OxmField::Ipv4Src, &[10, 10, 10, 10])), "2222222222221211111111118100606408004520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "2222222222221211111111118100606408004520004b00000000400691bd0a0a0a0ac0a814142b6708ae00000000000000006000000081eb0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/ipv4/udp(src_port=11111)-->'udp_src=11111,actions=set_field:12345->udp_src,output:2'
            (Action::SetField(Oxm::basic(OxmField::UdpSrc, &12345u16.to_be_bytes())), "22222222222212111111111108004520003b000000004011db23c0a80a0ac0a814142b6708ae00272b2b0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "22222222222212111111111108004520003b000000004011db23c0a80a0ac0a81414303908ae002726590102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/ipv6(src='10::10')/tcp-->'ipv6_src=10::10,actions=set_field:a0::a0->ipv6_src,output:2'
            (Action::SetField(Oxm::basic(OxmField::Ipv6Src, &a0)), "22222222222212111111111186dd620000640037064000100000000000000000000000000010002000000000000000000000000000202b6708ae0000000000000000600000006a5c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "22222222222212111111111186dd620000640037064000a000000000000000000000000000a0002000000000000000000000000000202b6708ae000000000000000060000000693c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/ipv6/tcp(src_port=11111)-->'tcp_src=11111,actions=set_field:12345->tcp_src,output:2'
            (Action::SetField(Oxm::basic(OxmField::TcpSrc, &12345u16.to_be_bytes())), "22222222222212111111111186dd620000640037064000100000000000000000000000000010002000000000000000000000000000202b6708ae0000000000000000600000006a5c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "22222222222212111111111186dd62000064003706400010000000000000000000000000001000200000000000000000000000000020303908ae000000000000000060000000658a0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/ipv6(hop_limit=64)/tcp-->'eth_type=0x86dd,actions=dec_nw_ttl,output:2'
            (Action::DecNwTtl, "22222222222212111111111186dd620000640037064000100000000000000000000000000010002000000000000000000000000000202b6708ae0000000000000000600000006a5c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "22222222222212111111111186dd620000640037063f00100000000000000000000000000010002000000000000000000000000000202b6708ae0000000000000000600000006a5c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/ipv6(traffic_class=32)/tcp-->'ip_dscp=8,actions=set_field:16->ip_dscp,output:2'
            (Action::SetField(Oxm::basic(OxmField::IpDscp, &[16])), "22222222222212111111111186dd620000640037064000100000000000000000000000000010002000000000000000000000000000202b6708ae0000000000000000600000006a5c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "22222222222212111111111186dd640000640037064000100000000000000000000000000010002000000000000000000000000000202b6708ae0000000000000000600000006a5c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/ipv4(tos=32)/tcp-->'ip_ecn=0,actions=set_field:1->ip_ecn,output:2'
            (Action::SetField(Oxm::basic(OxmField::IpEcn, &[1])), "22222222222212111111111108004520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "22222222222212111111111108004521004b000000004006db1dc0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/ipv4/icmp(type=8)-->'icmpv4_type=8,actions=set_field:0->icmpv4_type,output:2'
            (Action::SetField(Oxm::basic(OxmField::Icmpv4Type, &[0])), "222222222222121111111111080045200024000000004001db4ac0a80a0ac0a81414080059da000000000123456789abcdef00000000000000000000", "222222222222121111111111080045200024000000004001db4ac0a80a0ac0a81414000061da000000000123456789abcdef00000000000000000000"),
        // ethernet/ipv6/icmpv6(type=128)-->'icmpv6_type=128,actions=set_field:135->icmpv6_type,output:2'
            (Action::SetField(Oxm::basic(OxmField::Icmpv6Type, &[135])), "22222222222212111111111186dd62000064003c3a4000100000000000000000000000000010002000000000000000000000000000208000f28200000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f30313233", "22222222222212111111111186dd62000064003c3a4000100000000000000000000000000010002000000000000000000000000000208700eb8200000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f30313233"),
        // ethernet/arp(src_ip='192.168.10.10')-->'arp_spa=192.168.10.10,actions=set_field:10.10.10.10->arp_spa,output:2'
            (Action::SetField(Oxm::basic(OxmField::ArpSpa, &[10, 10, 10, 10])), "22222222222212111111111108060001080006040001121111111111c0a80a0a222222222222c0a81414000000000000000000000000000000000000", "222222222222121111111111080600010800060400011211111111110a0a0a0a222222222222c0a81414000000000000000000000000000000000000"),
        // ethernet/ipv6(flow_label=100)/tcp-->'ipv6_flabel=100,actions=set_field:203->ipv6_flabel,output:2'
            (Action::SetField(Oxm::basic(OxmField::Ipv6Flabel, &203u32.to_be_bytes())), "22222222222212111111111186dd620000640037064000100000000000000000000000000010002000000000000000000000000000202b6708ae0000000000000000600000006a5c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "22222222222212111111111186dd620000cb0037064000100000000000000000000000000010002000000000000000000000000000202b6708ae0000000000000000600000006a5c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/vlan/ipv4/tcp-->'eth_type=0x0800,actions=push_vlan:0x88a8,output:2'
            (Action::PushVlan(0x88a8), "2222222222221211111111118100606408004520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "22222222222212111111111188a860648100606408004520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/vlan(pcp=3)/ipv4/tcp-->'vlan_pcp=3,actions=set_field:5->vlan_pcp,output:2'
            (Action::SetField(Oxm::basic(OxmField::VlanPcp, &[5])), "2222222222221211111111118100606408004520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "2222222222221211111111118100a06408004520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/ipv6/udp(dst_port=2222)-->'udp_dst=2222,actions=set_field:6789->udp_dst,output:2'
            (Action::SetField(Oxm::basic(OxmField::UdpDst, &6789u16.to_be_bytes())), "22222222222212111111111186dd620000640027114000100000000000000000000000000010002000000000000000000000000000202b6708ae0027ca3a0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "22222222222212111111111186dd620000640027114000100000000000000000000000000010002000000000000000000000000000202b671a850027b8630102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        ];
        for (i, (a, input, want)) in cases.into_iter().enumerate() {
            let mut f = unhex(input);
            assert!(apply(&mut f, &a), "case {i}: {a:?} applies");
            assert_eq!(f, unhex(want), "case {i}: {a:?}");
        }
    }
}
