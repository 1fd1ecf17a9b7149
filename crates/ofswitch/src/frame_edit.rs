//! Header rewrites of the actions the pipeline applies to a frame (set MAC/IP/port, VLAN
//! push/pop/set, TTL, TOS). Pure functions on a `Vec<u8>`; a rewrite the frame cannot take (an
//! IP field of a non-IP frame, a short frame) leaves it unchanged and returns false.
//!
//! The IPv4 header checksum is recomputed after an IPv4 rewrite. TCP/UDP checksums are not
//! updated (the engine's frames carry no UDP checksum; a TCP frame rewritten here would carry a
//! stale one).

use crate::key::VID_PRESENT;
use ofwire::frame::{internet_checksum, ETHERTYPE_IPV4, ETHERTYPE_VLAN};
use ofwire::{Action, Oxm, OxmField};

/// Offset of the L3 header and the ethertype, past one VLAN tag.
fn l3(frame: &[u8]) -> Option<(usize, u16)> {
    let ty = u16::from_be_bytes([*frame.get(12)?, *frame.get(13)?]);
    if ty == ETHERTYPE_VLAN {
        let inner = u16::from_be_bytes([*frame.get(16)?, *frame.get(17)?]);
        return Some((18, inner));
    }
    Some((14, ty))
}

fn ipv4(frame: &mut [u8]) -> Option<&mut [u8]> {
    let (at, ty) = l3(frame)?;
    if ty != ETHERTYPE_IPV4 || frame.len() < at + 20 {
        return None;
    }
    Some(&mut frame[at..])
}

fn fix_ip_checksum(ip: &mut [u8]) {
    let ihl = ((ip[0] & 0x0f) as usize * 4).clamp(20, ip.len());
    ip[10] = 0;
    ip[11] = 0;
    let sum = internet_checksum(&ip[..ihl]);
    ip[10..12].copy_from_slice(&sum.to_be_bytes());
}

fn set_ip(frame: &mut [u8], off: usize, v: &[u8]) -> bool {
    match ipv4(frame) {
        Some(ip) => {
            ip[off..off + v.len()].copy_from_slice(v);
            fix_ip_checksum(ip);
            true
        }
        None => false,
    }
}

fn set_tp(frame: &mut [u8], off: usize, port: u16) -> bool {
    let Some(ip) = ipv4(frame) else { return false };
    let ihl = (ip[0] & 0x0f) as usize * 4;
    if !matches!(ip[9], 6 | 17 | 132) || ip.len() < ihl + 4 {
        return false;
    }
    ip[ihl + off..ihl + off + 2].copy_from_slice(&port.to_be_bytes());
    true
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

fn push_vlan(frame: &mut Vec<u8>, tpid: u16) -> bool {
    if frame.len() < 14 {
        return false;
    }
    let mut tag = tpid.to_be_bytes().to_vec();
    tag.extend_from_slice(&[0, 0]);
    frame.splice(12..12, tag);
    true
}

fn pop_vlan(frame: &mut Vec<u8>) -> bool {
    if frame.len() < 18 || frame[12..14] != [0x81, 0x00] {
        return false;
    }
    frame.drain(12..16);
    true
}

fn set_field(frame: &mut Vec<u8>, o: &Oxm) -> bool {
    let Oxm::Basic { field, value, .. } = o else { return false };
    let u16v = || u16::from_be_bytes([value[0], *value.get(1).unwrap_or(&0)]);
    match field {
        OxmField::EthDst if frame.len() >= 14 => {
            frame[0..6].copy_from_slice(value);
            true
        }
        OxmField::EthSrc if frame.len() >= 14 => {
            frame[6..12].copy_from_slice(value);
            true
        }
        OxmField::VlanVid => set_vid(frame, u16v() & !VID_PRESENT),
        OxmField::Ipv4Src => set_ip(frame, 12, value),
        OxmField::Ipv4Dst => set_ip(frame, 16, value),
        OxmField::TcpSrc | OxmField::UdpSrc => set_tp(frame, 0, u16v()),
        OxmField::TcpDst | OxmField::UdpDst => set_tp(frame, 2, u16v()),
        _ => false,
    }
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
        Action::SetVlanPcp(p) if frame.len() >= 18 && frame[12..14] == [0x81, 0x00] => {
            frame[14] = (frame[14] & 0x1f) | (p << 5);
            true
        }
        Action::StripVlan | Action::PopVlan => pop_vlan(frame),
        Action::PushVlan(tpid) => push_vlan(frame, *tpid),
        Action::SetNwSrc(ip) => set_ip(frame, 12, &ip.to_be_bytes()),
        Action::SetNwDst(ip) => set_ip(frame, 16, &ip.to_be_bytes()),
        Action::SetNwTos(t) => match ipv4(frame) {
            Some(ip) => {
                ip[1] = (ip[1] & 0x03) | (t & 0xfc);
                fix_ip_checksum(ip);
                true
            }
            None => false,
        },
        Action::SetNwTtl(t) => set_ip(frame, 8, &[*t]),
        Action::DecNwTtl => match ipv4(frame) {
            Some(ip) => {
                ip[8] = ip[8].saturating_sub(1);
                fix_ip_checksum(ip);
                true
            }
            None => false,
        },
        Action::SetTpSrc(p) => set_tp(frame, 0, *p),
        Action::SetTpDst(p) => set_tp(frame, 2, *p),
        Action::SetField(o) => set_field(frame, o),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frames;
    use crate::key::{at, Key};

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
}
