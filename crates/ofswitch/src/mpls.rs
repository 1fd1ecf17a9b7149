//! MPLS and PBB rewrites (OF1.3 actions push/pop MPLS, set/decrement MPLS TTL, copy TTL
//! out/in, pop PBB), as Open vSwitch applies them to the frames of os-ken's switch test
//! patterns:
//!
//! - push MPLS: a label stack entry (label 0, TC 0) goes right after the Ethernet header and
//!   its VLAN tags; bottom of stack when the frame was not MPLS; TTL copied from the IPv4 TTL
//!   or IPv6 hop limit (0 for anything else, or the entry it goes over for MPLS). The
//!   ethertype becomes the one the action names.
//! - pop MPLS: the outermost entry goes; the ethertype becomes the one the action names.
//! - TTLs act on the outermost entry; copy TTL out/in between it and the IP header under a
//!   bottom-of-stack entry.
//! - pop PBB: the backbone header (destination, source, ethertype 0x88e7, I-TAG) goes; the
//!   customer frame is what remains.

use crate::checksum::{self, ETHERTYPE_IPV6, ETHERTYPE_MPLS, ETHERTYPE_MPLS_MC, ETHERTYPE_PBB};
use ofwire::frame::ETHERTYPE_IPV4;

/// Offset of the outermost label stack entry and of the ethertype naming it.
fn mpls(frame: &[u8]) -> Option<usize> {
    let (at, ty) = checksum::l3(frame)?;
    (matches!(ty, ETHERTYPE_MPLS | ETHERTYPE_MPLS_MC) && frame.len() >= at + 4).then_some(at)
}

/// The TTL byte of the IP header at `at` (IPv4 TTL, IPv6 hop limit), if the frame holds one.
fn ip_ttl_at(frame: &[u8], at: usize) -> Option<usize> {
    match frame.get(at)? >> 4 {
        4 if frame.len() >= at + 20 => Some(at + 8),
        6 if frame.len() >= at + 40 => Some(at + 7),
        _ => None,
    }
}

pub fn push_mpls(frame: &mut Vec<u8>, ethertype: u16) -> bool {
    let Some((at, ty)) = checksum::l3(frame) else { return false };
    let lse = match ty {
        // on MPLS: a copy of the outermost entry (label, TC, TTL), not the bottom of stack
        ETHERTYPE_MPLS | ETHERTYPE_MPLS_MC if frame.len() >= at + 4 => [frame[at], frame[at + 1], frame[at + 2] & !1, frame[at + 3]],
        ETHERTYPE_IPV4 | ETHERTYPE_IPV6 => [0, 0, 1, ip_ttl_at(frame, at).map_or(0, |t| frame[t])],
        _ => [0, 0, 1, 0],
    };
    frame[at - 2..at].copy_from_slice(&ethertype.to_be_bytes());
    frame.splice(at..at, lse);
    true
}

pub fn pop_mpls(frame: &mut Vec<u8>, ethertype: u16) -> bool {
    let Some(at) = mpls(frame) else { return false };
    frame[at - 2..at].copy_from_slice(&ethertype.to_be_bytes());
    frame.drain(at..at + 4);
    true
}

/// Set the outermost entry's label (20 bits) or TC (3 bits).
pub fn set_lse(frame: &mut [u8], label: Option<u32>, tc: Option<u8>) -> bool {
    let Some(at) = mpls(frame) else { return false };
    let mut w = u32::from_be_bytes([frame[at], frame[at + 1], frame[at + 2], frame[at + 3]]);
    if let Some(l) = label {
        w = (w & 0x0000_0fff) | (l & 0x000f_ffff) << 12;
    }
    if let Some(t) = tc {
        w = (w & !(7 << 9)) | ((t as u32 & 7) << 9);
    }
    frame[at..at + 4].copy_from_slice(&w.to_be_bytes());
    true
}

/// Set (`Some`) or decrement the outermost MPLS TTL.
pub fn mpls_ttl(frame: &mut [u8], set: Option<u8>) -> bool {
    let Some(at) = mpls(frame) else { return false };
    let t = &mut frame[at + 3];
    *t = set.unwrap_or(t.saturating_sub(1));
    true
}

/// Copy the TTL outwards (IP → MPLS, `out`) or inwards (MPLS → IP) across a single
/// bottom-of-stack entry; the IP checksum is fixed after copying in.
pub fn copy_ttl(frame: &mut [u8], out: bool) -> bool {
    let Some(at) = mpls(frame) else { return false };
    if frame[at + 2] & 1 == 0 {
        return false;
    }
    let Some(ip) = ip_ttl_at(frame, at + 4) else { return false };
    if out {
        frame[at + 3] = frame[ip];
        return true;
    }
    frame[ip] = frame[at + 3];
    if frame[at + 4] >> 4 == 4 {
        // the IPv4 header checksum, as `checksum::fix` would for a plain IPv4 frame
        let h = at + 4;
        let ihl = ((frame[h] & 0x0f) as usize * 4).clamp(20, frame.len() - h);
        frame[h + 10..h + 12].copy_from_slice(&[0, 0]);
        let c = ofwire::frame::internet_checksum(&frame[h..h + ihl]);
        frame[h + 10..h + 12].copy_from_slice(&c.to_be_bytes());
    }
    true
}

/// Set the outermost entry's bottom-of-stack bit.
pub fn set_bos(frame: &mut [u8], bos: u8) -> bool {
    let Some(at) = mpls(frame) else { return false };
    frame[at + 2] = (frame[at + 2] & !1) | (bos & 1);
    true
}

/// The I-TAG after the Ethernet header and its VLAN tags, when the ethertype there is PBB's.
fn itag(frame: &[u8]) -> Option<usize> {
    let (at, ty) = checksum::l3(frame)?;
    (ty == ETHERTYPE_PBB && frame.len() >= at + 4).then_some(at)
}

/// Set the I-TAG's 24-bit I-SID.
pub fn set_isid(frame: &mut [u8], isid: [u8; 3]) -> bool {
    let Some(at) = itag(frame) else { return false };
    frame[at + 1..at + 4].copy_from_slice(&isid);
    true
}

/// Push a backbone header in front of the frame (OF1.3 §7.2.4 push PBB, as CPqD's
/// `dp_actions.c` does it): the new outer destination and source are the frame's own, the
/// ethertype the action's (0x88e7), then an I-TAG — a copy of the frame's own I-TAG when it
/// already is PBB, else all zero (PCP, DEI, UCA 0, I-SID 0) — then the whole customer frame.
pub fn push_pbb(frame: &mut Vec<u8>, ethertype: u16) -> bool {
    if frame.len() < 14 {
        return false;
    }
    let tag = itag(frame).map_or([0; 4], |at| [frame[at], frame[at + 1], frame[at + 2], frame[at + 3]]);
    let mut head = Vec::with_capacity(18);
    head.extend_from_slice(&frame[0..12]);
    head.extend_from_slice(&ethertype.to_be_bytes());
    head.extend_from_slice(&tag);
    frame.splice(0..0, head);
    true
}

pub fn pop_pbb(frame: &mut Vec<u8>) -> bool {
    if frame.len() < 18 + 14 || frame[12..14] != ETHERTYPE_PBB.to_be_bytes() {
        return false;
    }
    frame.drain(..18);
    true
}

#[cfg(test)]
mod tests {
    use crate::frame_edit::apply;
    use ofwire::{Action, Oxm, OxmField};

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    /// os-ken's switch test patterns (of13/action: POP_MPLS, DEC/SET_MPLS_TTL, COPY_TTL_OUT/IN,
    /// POP_PBB, PUSH_MPLS, PUSH_PBB and its (multiple), SET_FIELD of MPLS_BOS, ETH_TYPE,
    /// PBB_ISID), frames as os-ken builds them: byte for byte.
    #[test]
    fn osken_mpls_and_pbb_patterns_byte_for_byte() {
        let cases: Vec<(Action, &str, &str)> = vec![
        // ethernet/mpls/ipv4/tcp-->'eth_type=0x8847,actions=pop_mpls:0x0800,output:2'
            (Action::PopMpls(0x0800), "2222222222221211111111118847000647404520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "22222222222212111111111108004520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/mpls/ipv6/tcp-->'eth_type=0x8847,actions=pop_mpls:0x86dd,output:2'
            (Action::PopMpls(0x86dd), "222222222222121111111111884700064740620000640037064000100000000000000000000000000010002000000000000000000000000000202b6708ae0000000000000000600000006a5c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "22222222222212111111111186dd620000640037064000100000000000000000000000000010002000000000000000000000000000202b6708ae0000000000000000600000006a5c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/mpls/arp-->'eth_type=0x8847,actions=pop_mpls:0x0806,output:2'
            (Action::PopMpls(0x0806), "2222222222221211111111118847000647400001080006040001121111111111c0a80a0a222222222222c0a81414000000000000000000000000000000000000", "22222222222212111111111108060001080006040001121111111111c0a80a0a222222222222c0a81414000000000000000000000000000000000000"),
        // ethernet/mpls(ttl=64)/ipv4/tcp-->'eth_type=0x8847,actions=dec_mpls_ttl,output:2'
            (Action::DecMplsTtl, "2222222222221211111111118847000647404520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "22222222222212111111111188470006473f4520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/mpls(ttl=64)/arp-->'eth_type=0x8847,actions=set_mpls_ttl:127,output:2'
            (Action::SetMplsTtl(127), "2222222222221211111111118847000647400001080006040001121111111111c0a80a0a222222222222c0a81414000000000000000000000000000000000000000000000000000000000000", "22222222222212111111111188470006477f0001080006040001121111111111c0a80a0a222222222222c0a81414000000000000000000000000000000000000000000000000000000000000"),
        // ethernet/mpls(ttl=64)/ipv4(ttl=32)/tcp-->'eth_type=0x8847,actions=copy_ttl_out,output:2'
            (Action::CopyTtlOut, "2222222222221211111111118847000647404520004b000000002006fb1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "2222222222221211111111118847000647204520004b000000002006fb1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/mpls(ttl=64)/ipv6(hop_limit=32)/tcp-->'eth_type=0x8847,actions=copy_ttl_out,output:2'
            (Action::CopyTtlOut, "222222222222121111111111884700064740620000640037062000100000000000000000000000000010002000000000000000000000000000202b6708ae0000000000000000600000006a5c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "222222222222121111111111884700064720620000640037062000100000000000000000000000000010002000000000000000000000000000202b6708ae0000000000000000600000006a5c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/mpls(ttl=64)/ipv4(ttl=32)/tcp-->'eth_type=0x8847,actions=copy_ttl_in,output:2'
            (Action::CopyTtlIn, "2222222222221211111111118847000647404520004b000000002006fb1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "2222222222221211111111118847000647404520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/mpls(ttl=64)/ipv6(hop_limit=32)/tcp-->'eth_type=0x8847,actions=copy_ttl_in,output:2'
            (Action::CopyTtlIn, "222222222222121111111111884700064740620000640037062000100000000000000000000000000010002000000000000000000000000000202b6708ae0000000000000000600000006a5c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "222222222222121111111111884700064740620000640037064000100000000000000000000000000010002000000000000000000000000000202b6708ae0000000000000000600000006a5c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/itag/ethernet/svlan/vlan/ipv4/tcp-->'eth_type=0x88e7,actions=pop_pbb,output:2'
            (Action::PopPbb, "22222222222212111111111188e70000006422222222222212111111111188a8000a8100606408004520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "22222222222212111111111188a8000a8100606408004520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/ipv4/tcp-->'eth_type=0x0800,actions=push_mpls:0x8847,output:2'
            (Action::PushMpls(0x8847), "22222222222212111111111108004520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "2222222222221211111111118847000001404520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/arp-->'eth_type=0x0806,actions=push_mpls:0x8847,output:2'
            (Action::PushMpls(0x8847), "22222222222212111111111108060001080006040001121111111111c0a80a0a222222222222c0a81414000000000000000000000000000000000000", "2222222222221211111111118847000001000001080006040001121111111111c0a80a0a222222222222c0a81414000000000000000000000000000000000000"),
        // ethernet/ipv4/tcp-->'eth_type=0x0800,actions=push_pbb:0x88e7,output:2'
            (Action::PushPbb(0x88e7), "22222222222212111111111108004520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "22222222222212111111111188e70000000022222222222212111111111108004520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // (multiple) the second push_pbb:0x88e7 of 'push_pbb:0x88e7,push_pbb:0x88e7': on the PBB frame the first made
            (Action::PushPbb(0x88e7), "22222222222212111111111188e70000000022222222222212111111111108004520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "22222222222212111111111188e70000000022222222222212111111111188e70000000022222222222212111111111108004520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/mpls(bsb=1)/ipv4/tcp-->'mpls_bos=1,actions=set_field:0->mpls_bos,output:2'
            (Action::SetField(Oxm::basic(OxmField::MplsBos, &[0])), "2222222222221211111111118847000647404520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "2222222222221211111111118847000646404520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet(ethertype=0x0800)/ipv4/tcp-->'eth_type=0x0800,actions=set_field:0x8848->eth_type,output:2'
            (Action::SetField(Oxm::eth_type(0x8848)), "22222222222212111111111108004520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "22222222222212111111111188484520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        // ethernet/svlan/itag(sid=100)/ethernet/svlan/vlan/ipv4/tcp-->'pbb_itag=100,actions=set_field:203->pbb_itag,output:2'
            (Action::SetField(Oxm::basic(OxmField::PbbIsid, &[0, 0, 203])), "22222222222212111111111188a8000a88e70000006422222222222212111111111188a8000a8100606408004520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "22222222222212111111111188a8000a88e7000000cb22222222222212111111111188a8000a8100606408004520004b000000004006db1ec0a80a0ac0a814142b6708ae000000000000000060000000cb4c0000000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
        ];
        for (i, (a, input, want)) in cases.into_iter().enumerate() {
            let mut f = unhex(input);
            assert!(apply(&mut f, &a), "case {i}: {a:?} applies");
            assert_eq!(f, unhex(want), "case {i}: {a:?}");
        }
        let mut plain = unhex("2222222222221211111111110800");
        assert!(
            !apply(&mut plain, &Action::PopMpls(0x0800)) && !apply(&mut plain, &Action::DecMplsTtl) && !apply(&mut plain, &Action::PopPbb)
        );
    }

    /// os-ken's 19_PUSH_MPLS (multiple): on mpls(bsb=1, label=100, exp=3, ttl=64) the new
    /// entry is mpls(bsb=0, label=100, exp=3, ttl=64); then 34_MPLS_LABEL and 35_MPLS_TC
    /// rewrite the outer entry only.
    #[test]
    fn push_on_mpls_copies_the_outer_entry_and_set_field_rewrites_it() {
        let lse = |label: u32, tc: u32, bos: u32, ttl: u32| ((label << 12) | (tc << 9) | (bos << 8) | ttl).to_be_bytes();
        let mut f = unhex("2222222222221211111111118847");
        f.extend_from_slice(&lse(100, 3, 1, 64));
        f.extend_from_slice(&[0x45, 0x20]);
        assert!(apply(&mut f, &Action::PushMpls(0x8847)));
        assert_eq!(f[14..22], [lse(100, 3, 0, 64), lse(100, 3, 1, 64)].concat());
        assert!(super::set_lse(&mut f, Some(203), None));
        assert!(super::set_lse(&mut f, None, Some(5)));
        assert_eq!(f[14..22], [lse(203, 5, 0, 64), lse(100, 3, 1, 64)].concat());
        assert!(!super::set_lse(&mut unhex("2222222222221211111111110800"), Some(1), None), "not MPLS");
    }
}
