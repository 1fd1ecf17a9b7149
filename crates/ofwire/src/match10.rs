//! The OpenFlow 1.0 `ofp_match`: a fixed 40-byte structure with a wildcard bitmap (§5.2.3).

use crate::bytes::{Reader, Writer};
use crate::error::Result;
use core::fmt;

/// Size of `ofp_match` in 1.0.
pub const MATCH10_LEN: usize = 40;

/// Wildcard bits (OFPFW_*). `nw_src`/`nw_dst` wildcards are 6-bit prefix counts.
pub mod wildcards {
    pub const IN_PORT: u32 = 1 << 0;
    pub const DL_VLAN: u32 = 1 << 1;
    pub const DL_SRC: u32 = 1 << 2;
    pub const DL_DST: u32 = 1 << 3;
    pub const DL_TYPE: u32 = 1 << 4;
    pub const NW_PROTO: u32 = 1 << 5;
    pub const TP_SRC: u32 = 1 << 6;
    pub const TP_DST: u32 = 1 << 7;
    pub const NW_SRC_SHIFT: u32 = 8;
    pub const NW_SRC_MASK: u32 = 0x3f << NW_SRC_SHIFT;
    pub const NW_DST_SHIFT: u32 = 14;
    pub const NW_DST_MASK: u32 = 0x3f << NW_DST_SHIFT;
    pub const DL_VLAN_PCP: u32 = 1 << 20;
    pub const NW_TOS: u32 = 1 << 21;
    pub const ALL: u32 = (1 << 22) - 1;
}

/// A 1.0 match. Pad bytes are written as zero and ignored on read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Match10 {
    pub wildcards: u32,
    pub in_port: u16,
    pub dl_src: [u8; 6],
    pub dl_dst: [u8; 6],
    pub dl_vlan: u16,
    pub dl_vlan_pcp: u8,
    pub dl_type: u16,
    pub nw_tos: u8,
    pub nw_proto: u8,
    pub nw_src: u32,
    pub nw_dst: u32,
    pub tp_src: u16,
    pub tp_dst: u16,
}

impl Match10 {
    /// A match that matches everything.
    pub fn all() -> Match10 {
        Match10 { wildcards: wildcards::ALL, ..Default::default() }
    }

    pub fn parse(buf: &[u8]) -> Result<(&[u8], Match10)> {
        let mut r = Reader::new(buf);
        let m = Match10 {
            wildcards: r.u32()?,
            in_port: r.u16()?,
            dl_src: r.array()?,
            dl_dst: r.array()?,
            dl_vlan: r.u16()?,
            dl_vlan_pcp: r.u8()?,
            dl_type: {
                r.skip(1)?;
                r.u16()?
            },
            nw_tos: r.u8()?,
            nw_proto: r.u8()?,
            nw_src: {
                r.skip(2)?;
                r.u32()?
            },
            nw_dst: r.u32()?,
            tp_src: r.u16()?,
            tp_dst: r.u16()?,
        };
        Ok((r.rest(), m))
    }

    pub fn buffer_len(&self) -> usize {
        MATCH10_LEN
    }

    pub fn emit<'a>(&self, buf: &'a mut [u8]) -> &'a mut [u8] {
        let mut w = Writer::new(buf);
        w.u32(self.wildcards);
        w.u16(self.in_port);
        w.bytes(&self.dl_src);
        w.bytes(&self.dl_dst);
        w.u16(self.dl_vlan);
        w.u8(self.dl_vlan_pcp);
        w.zeros(1);
        w.u16(self.dl_type);
        w.u8(self.nw_tos);
        w.u8(self.nw_proto);
        w.zeros(2);
        w.u32(self.nw_src);
        w.u32(self.nw_dst);
        w.u16(self.tp_src);
        w.u16(self.tp_dst);
        &mut buf[MATCH10_LEN..]
    }
}

impl fmt::Display for Match10 {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "match10(wildcards=0x{:x}, in_port={}, dl_type=0x{:04x})", self.wildcards, self.in_port, self.dl_type)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_layout() {
        let m = Match10 {
            wildcards: 0x3820f0,
            in_port: 3,
            dl_src: [0, 0, 0, 0, 0, 1],
            dl_dst: [0, 0, 0, 0, 0, 2],
            dl_vlan: 0xffff,
            dl_vlan_pcp: 0,
            dl_type: 0x0800,
            nw_tos: 0,
            nw_proto: 17,
            nw_src: 0x0a000001,
            nw_dst: 0x0a000002,
            tp_src: 0,
            tp_dst: 0,
        };
        let mut buf = [0xa5u8; 40];
        m.emit(&mut buf);
        assert_eq!(&buf[..6], &[0, 0x38, 0x20, 0xf0, 0, 3]);
        assert_eq!(buf[21], 0, "pad after dl_vlan_pcp");
        assert_eq!(&buf[22..24], &[0x08, 0x00]);
        assert_eq!(&buf[26..28], &[0, 0], "pad after nw_proto");
        let (rest, back) = Match10::parse(&buf).unwrap();
        assert!(rest.is_empty());
        assert_eq!(back, m);
        assert!(Match10::parse(&buf[..39]).is_err());
    }
}
