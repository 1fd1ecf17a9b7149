//! OpenFlow 1.3 meter multipart bodies (§7.3.5.12–14): meter stats (OFPMP_METER), meter
//! configuration (OFPMP_METER_CONFIG) and meter features (OFPMP_METER_FEATURES). The stats and
//! config requests name a meter (`OFPM_ALL` for all); the features request is empty.

use crate::bytes::{Reader, Writer};
use crate::error::{Error, Result};
use crate::meter_mod::MeterBand;

/// Multipart types.
pub const MP_METER: u16 = 9;
pub const MP_METER_CONFIG: u16 = 10;
pub const MP_METER_FEATURES: u16 = 11;

/// Meter commands (OFPMC_*), flags (OFPMF_*), band types (OFPMBT_*) and reserved ids.
pub const MC_ADD: u16 = 0;
pub const MC_MODIFY: u16 = 1;
pub const MC_DELETE: u16 = 2;
pub const MF_KBPS: u16 = 1 << 0;
pub const MF_PKTPS: u16 = 1 << 1;
pub const MF_BURST: u16 = 1 << 2;
pub const MF_STATS: u16 = 1 << 3;
pub const MBT_DROP: u16 = 1;
pub const MBT_DSCP_REMARK: u16 = 2;
pub const M_MAX: u32 = 0xffff_0000;
pub const M_SLOWPATH: u32 = 0xffff_fffd;
pub const M_CONTROLLER: u32 = 0xffff_fffe;
pub const M_ALL: u32 = 0xffff_ffff;

/// The meter id a meter stats or config request asks about.
pub fn parse_meter_request(body: &[u8]) -> Result<u32> {
    Reader::new(body).u32()
}

/// One `ofp_meter_stats`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MeterStats {
    pub meter_id: u32,
    pub flow_count: u32,
    pub packet_in_count: u64,
    pub byte_in_count: u64,
    pub duration_sec: u32,
    pub duration_nsec: u32,
    /// (packet_band_count, byte_band_count) per band.
    pub bands: Vec<(u64, u64)>,
}

impl MeterStats {
    pub fn buffer_len(&self) -> usize {
        40 + 16 * self.bands.len()
    }

    pub fn parse(buf: &[u8]) -> Result<(&[u8], MeterStats)> {
        let mut r = Reader::new(buf);
        let meter_id = r.u32()?;
        let len = r.u16()? as usize;
        if len < 40 || !(len - 40).is_multiple_of(16) {
            return Err(Error::BadLength { what: "ofp_meter_stats.len", len });
        }
        r.skip(6)?;
        let flow_count = r.u32()?;
        let (packet_in_count, byte_in_count) = (r.u64()?, r.u64()?);
        let (duration_sec, duration_nsec) = (r.u32()?, r.u32()?);
        let mut bands = Vec::new();
        for _ in 0..(len - 40) / 16 {
            bands.push((r.u64()?, r.u64()?));
        }
        Ok((r.rest(), MeterStats { meter_id, flow_count, packet_in_count, byte_in_count, duration_sec, duration_nsec, bands }))
    }

    pub fn emit<'a>(&self, buf: &'a mut [u8]) -> &'a mut [u8] {
        let n = self.buffer_len();
        let mut w = Writer::new(buf);
        w.u32(self.meter_id);
        w.u16(n as u16);
        w.zeros(6);
        w.u32(self.flow_count);
        w.u64(self.packet_in_count);
        w.u64(self.byte_in_count);
        w.u32(self.duration_sec);
        w.u32(self.duration_nsec);
        for (p, b) in &self.bands {
            w.u64(*p);
            w.u64(*b);
        }
        &mut buf[n..]
    }
}

/// One `ofp_meter_config`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MeterConfig {
    pub flags: u16,
    pub meter_id: u32,
    pub bands: Vec<MeterBand>,
}

impl MeterConfig {
    pub fn buffer_len(&self) -> usize {
        8 + self.bands.iter().map(MeterBand::buffer_len).sum::<usize>()
    }

    pub fn parse(buf: &[u8]) -> Result<(&[u8], MeterConfig)> {
        let mut r = Reader::new(buf);
        let len = r.u16()? as usize;
        if len < 8 {
            return Err(Error::BadLength { what: "ofp_meter_config.length", len });
        }
        let flags = r.u16()?;
        let meter_id = r.u32()?;
        let mut rest = r.take(len - 8)?;
        let mut bands = Vec::new();
        while !rest.is_empty() {
            let (next, b) = MeterBand::parse(rest)?;
            bands.push(b);
            rest = next;
        }
        Ok((r.rest(), MeterConfig { flags, meter_id, bands }))
    }

    pub fn emit<'a>(&self, buf: &'a mut [u8]) -> &'a mut [u8] {
        let n = self.buffer_len();
        let mut w = Writer::new(buf);
        w.u16(n as u16);
        w.u16(self.flags);
        w.u32(self.meter_id);
        let mut rest = w.rest();
        for b in &self.bands {
            rest = b.emit(rest);
        }
        &mut buf[n..]
    }
}

/// `ofp_meter_features`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MeterFeatures {
    pub max_meter: u32,
    /// Bitmap of OFPMBT_* band types (bit n = type n).
    pub band_types: u32,
    /// Bitmap of OFPMF_* flags.
    pub capabilities: u32,
    pub max_bands: u8,
    pub max_color: u8,
}

impl MeterFeatures {
    pub const LEN: usize = 16;

    pub fn parse(buf: &[u8]) -> Result<MeterFeatures> {
        let mut r = Reader::new(buf);
        Ok(MeterFeatures { max_meter: r.u32()?, band_types: r.u32()?, capabilities: r.u32()?, max_bands: r.u8()?, max_color: r.u8()? })
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = vec![0u8; Self::LEN];
        let mut w = Writer::new(&mut b);
        w.u32(self.max_meter);
        w.u32(self.band_types);
        w.u32(self.capabilities);
        w.u8(self.max_bands);
        w.u8(self.max_color);
        b
    }
}

pub fn stats_to_bytes(list: &[MeterStats]) -> Vec<u8> {
    let mut b = vec![0u8; list.iter().map(MeterStats::buffer_len).sum()];
    let mut rest = &mut b[..];
    for m in list {
        rest = m.emit(rest);
    }
    b
}

pub fn config_to_bytes(list: &[MeterConfig]) -> Vec<u8> {
    let mut b = vec![0u8; list.iter().map(MeterConfig::buffer_len).sum()];
    let mut rest = &mut b[..];
    for m in list {
        rest = m.emit(rest);
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group_stats::parse_list;

    #[test]
    fn config_layout_and_round_trip() {
        let c = MeterConfig { flags: MF_PKTPS, meter_id: 1, bands: vec![MeterBand::Drop { rate: 100, burst_size: 100 }] };
        let b = config_to_bytes(std::slice::from_ref(&c));
        assert_eq!(b, [0, 24, 0, 2, 0, 0, 0, 1, 0, 1, 0, 16, 0, 0, 0, 100, 0, 0, 0, 100, 0, 0, 0, 0]);
        assert_eq!(parse_list(&b, MeterConfig::parse).unwrap(), vec![c]);
    }

    #[test]
    fn stats_and_features_round_trip() {
        let s = MeterStats {
            meter_id: 1,
            flow_count: 2,
            packet_in_count: 3,
            byte_in_count: 4,
            duration_sec: 5,
            duration_nsec: 6,
            bands: vec![(7, 8)],
        };
        let b = stats_to_bytes(std::slice::from_ref(&s));
        assert_eq!(&b[4..6], &[0, 56]);
        assert_eq!(parse_list(&b, MeterStats::parse).unwrap(), vec![s]);
        let f = MeterFeatures { max_meter: 65536, band_types: 2, capabilities: 0xf, max_bands: 8, max_color: 0 };
        let fb = f.to_bytes();
        assert_eq!(fb, [0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0xf, 8, 0, 0, 0]);
        assert_eq!(MeterFeatures::parse(&fb).unwrap(), f);
    }
}
