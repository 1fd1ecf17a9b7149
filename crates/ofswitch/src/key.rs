//! The flow key: the header fields of a frame a flow entry can match, in one fixed byte array.
//!
//! A [`Key`] is both what a frame carries (extracted by [`Key::of_frame`]) and, with a second
//! `Key` used as a bit mask, what a flow entry matches: entry `(value, mask)` matches frame key
//! `k` iff `k & mask == value` (value is stored already masked). One layout serves OF1.0 matches
//! and OF1.3 OXM fields, so both versions share the same table.
//!
//! Field sharing, as OF1.0 does it: for ARP, `ip_src`/`ip_dst` hold the sender/target protocol
//! addresses and `ip_proto` the low byte of the opcode (OF1.0 `nw_proto`); `arp_op` holds the
//! whole opcode (OF1.3 `ARP_OP`). For ICMP, `tp_src`/`tp_dst` hold type and code. `vlan_vid`
//! carries OF1.3's OFPVID_PRESENT bit (0x1000) when the frame is tagged; 0 means untagged.

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
    pub const ARP_SHA: usize = 38; // 6
    pub const ARP_THA: usize = 44; // 6
}

pub const KEY_LEN: usize = 52;
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
        if ty == ETHERTYPE_VLAN && frame.len() >= 18 {
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

#[cfg(test)]
mod tests {
    use super::*;

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
