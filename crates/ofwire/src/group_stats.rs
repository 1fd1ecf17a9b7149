//! OpenFlow 1.3 group multipart bodies (§7.3.5.9–11): group stats (OFPMP_GROUP), group
//! description (OFPMP_GROUP_DESC) and group features (OFPMP_GROUP_FEATURES). Each reply body
//! is a list of records (features: one record); `parse_list` / `emit_list` read and write a
//! whole body. The requests: group stats names a group (`OFPG_ALL` for all), the others are
//! empty.

use crate::bytes::{Reader, Writer};
use crate::error::{Error, Result};
use crate::group_mod::Bucket;

/// Multipart types.
pub const MP_GROUP: u16 = 6;
pub const MP_GROUP_DESC: u16 = 7;
pub const MP_GROUP_FEATURES: u16 = 8;

/// Group types (OFPGT_*), commands (OFPGC_*) and reserved ids (OFPG_*).
pub const GT_ALL: u8 = 0;
pub const GT_SELECT: u8 = 1;
pub const GT_INDIRECT: u8 = 2;
pub const GT_FF: u8 = 3;
pub const GC_ADD: u16 = 0;
pub const GC_MODIFY: u16 = 1;
pub const GC_DELETE: u16 = 2;
pub const G_MAX: u32 = 0xffff_ff00;
pub const G_ALL: u32 = 0xffff_fffc;
pub const G_ANY: u32 = 0xffff_ffff;

/// Group capabilities (OFPGFC_*).
pub const GFC_SELECT_WEIGHT: u32 = 1 << 0;
pub const GFC_SELECT_LIVENESS: u32 = 1 << 1;
pub const GFC_CHAINING: u32 = 1 << 2;
pub const GFC_CHAINING_CHECKS: u32 = 1 << 3;

/// The group id a group stats request asks about.
pub fn parse_group_request(body: &[u8]) -> Result<u32> {
    Reader::new(body).u32()
}

/// One `ofp_group_stats`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GroupStats {
    pub group_id: u32,
    pub ref_count: u32,
    pub packet_count: u64,
    pub byte_count: u64,
    pub duration_sec: u32,
    pub duration_nsec: u32,
    /// (packet_count, byte_count) per bucket.
    pub buckets: Vec<(u64, u64)>,
}

impl GroupStats {
    pub fn buffer_len(&self) -> usize {
        40 + 16 * self.buckets.len()
    }

    pub fn parse(buf: &[u8]) -> Result<(&[u8], GroupStats)> {
        let mut r = Reader::new(buf);
        let len = r.u16()? as usize;
        if len < 40 || !(len - 40).is_multiple_of(16) {
            return Err(Error::BadLength { what: "ofp_group_stats.length", len });
        }
        r.skip(2)?;
        let group_id = r.u32()?;
        let ref_count = r.u32()?;
        r.skip(4)?;
        let (packet_count, byte_count) = (r.u64()?, r.u64()?);
        let (duration_sec, duration_nsec) = (r.u32()?, r.u32()?);
        let mut buckets = Vec::new();
        for _ in 0..(len - 40) / 16 {
            buckets.push((r.u64()?, r.u64()?));
        }
        let g = GroupStats { group_id, ref_count, packet_count, byte_count, duration_sec, duration_nsec, buckets };
        Ok((r.rest(), g))
    }

    pub fn emit<'a>(&self, buf: &'a mut [u8]) -> &'a mut [u8] {
        let n = self.buffer_len();
        let mut w = Writer::new(buf);
        w.u16(n as u16);
        w.zeros(2);
        w.u32(self.group_id);
        w.u32(self.ref_count);
        w.zeros(4);
        w.u64(self.packet_count);
        w.u64(self.byte_count);
        w.u32(self.duration_sec);
        w.u32(self.duration_nsec);
        for (p, b) in &self.buckets {
            w.u64(*p);
            w.u64(*b);
        }
        &mut buf[n..]
    }
}

/// One `ofp_group_desc`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GroupDesc {
    pub group_type: u8,
    pub group_id: u32,
    pub buckets: Vec<Bucket>,
}

impl GroupDesc {
    pub fn buffer_len(&self) -> usize {
        8 + self.buckets.iter().map(Bucket::buffer_len).sum::<usize>()
    }

    pub fn parse(buf: &[u8]) -> Result<(&[u8], GroupDesc)> {
        let mut r = Reader::new(buf);
        let len = r.u16()? as usize;
        if len < 8 {
            return Err(Error::BadLength { what: "ofp_group_desc.length", len });
        }
        let group_type = r.u8()?;
        r.skip(1)?;
        let group_id = r.u32()?;
        let mut rest = r.take(len - 8)?;
        let mut buckets = Vec::new();
        while !rest.is_empty() {
            let (next, b) = Bucket::parse(rest)?;
            buckets.push(b);
            rest = next;
        }
        Ok((r.rest(), GroupDesc { group_type, group_id, buckets }))
    }

    pub fn emit<'a>(&self, buf: &'a mut [u8]) -> &'a mut [u8] {
        let n = self.buffer_len();
        let mut w = Writer::new(buf);
        w.u16(n as u16);
        w.u8(self.group_type);
        w.zeros(1);
        w.u32(self.group_id);
        let mut rest = w.rest();
        for b in &self.buckets {
            rest = b.emit(rest);
        }
        &mut buf[n..]
    }
}

/// `ofp_group_features`: per group type (ALL, SELECT, INDIRECT, FF), the most groups and the
/// action types (bitmap of OFPAT_* numbers) allowed in its buckets.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GroupFeatures {
    pub types: u32,
    pub capabilities: u32,
    pub max_groups: [u32; 4],
    pub actions: [u32; 4],
}

impl GroupFeatures {
    pub const LEN: usize = 40;

    pub fn parse(buf: &[u8]) -> Result<GroupFeatures> {
        let mut r = Reader::new(buf);
        let mut f = GroupFeatures { types: r.u32()?, capabilities: r.u32()?, ..Default::default() };
        for m in f.max_groups.iter_mut() {
            *m = r.u32()?;
        }
        for a in f.actions.iter_mut() {
            *a = r.u32()?;
        }
        Ok(f)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = vec![0u8; Self::LEN];
        let mut w = Writer::new(&mut b);
        w.u32(self.types);
        w.u32(self.capabilities);
        for m in self.max_groups {
            w.u32(m);
        }
        for a in self.actions {
            w.u32(a);
        }
        b
    }
}

/// A whole reply body of group stats records.
pub fn stats_to_bytes(list: &[GroupStats]) -> Vec<u8> {
    let mut b = vec![0u8; list.iter().map(GroupStats::buffer_len).sum()];
    let mut rest = &mut b[..];
    for g in list {
        rest = g.emit(rest);
    }
    b
}

/// A whole reply body of group descriptions.
pub fn desc_to_bytes(list: &[GroupDesc]) -> Vec<u8> {
    let mut b = vec![0u8; list.iter().map(GroupDesc::buffer_len).sum()];
    let mut rest = &mut b[..];
    for g in list {
        rest = g.emit(rest);
    }
    b
}

/// Reads a body made of records of one kind.
pub fn parse_list<T>(mut buf: &[u8], one: impl Fn(&[u8]) -> Result<(&[u8], T)>) -> Result<Vec<T>> {
    let mut out = Vec::new();
    while !buf.is_empty() {
        let (rest, x) = one(buf)?;
        out.push(x);
        buf = rest;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Action;

    /// os-ken 2.x `OFPGroupDescStats` as its `OFPGroupDescStatsReply` parser reads it: a
    /// select group 1 with one bucket (weight 1, output:2), built by hand from §7.3.5.10.
    #[test]
    fn desc_layout_and_round_trip() {
        let d = GroupDesc {
            group_type: GT_SELECT,
            group_id: 1,
            buckets: vec![Bucket {
                weight: 1,
                watch_port: G_ANY,
                watch_group: G_ANY,
                actions: vec![Action::Output { port: 2, max_len: 0xffe5 }],
            }],
        };
        let b = desc_to_bytes(std::slice::from_ref(&d));
        assert_eq!(&b[..8], &[0, 40, 1, 0, 0, 0, 0, 1]);
        assert_eq!(&b[8..24], &[0, 32, 0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
        assert_eq!(parse_list(&b, GroupDesc::parse).unwrap(), vec![d]);
    }

    #[test]
    fn stats_and_features_round_trip() {
        let s = GroupStats {
            group_id: 7,
            ref_count: 2,
            packet_count: 3,
            byte_count: 4,
            duration_sec: 5,
            duration_nsec: 6,
            buckets: vec![(1, 2), (3, 4)],
        };
        let b = stats_to_bytes(std::slice::from_ref(&s));
        assert_eq!(b.len(), 72);
        assert_eq!(&b[..2], &[0, 72]);
        assert_eq!(parse_list(&b, GroupStats::parse).unwrap(), vec![s]);
        let f = GroupFeatures { types: 0xf, capabilities: 7, max_groups: [1, 2, 3, 4], actions: [5, 6, 7, 8] };
        assert_eq!(GroupFeatures::parse(&f.to_bytes()).unwrap(), f);
        let mut bad = stats_to_bytes(&[GroupStats::default()]);
        bad[1] = 41;
        assert!(parse_list(&bad, GroupStats::parse).is_err());
    }
}
