//! OFPT_METER_MOD (1.3 §7.3.4.4): add, modify or delete a meter and its bands.

use crate::bytes::{Reader, Writer};
use crate::error::{Error, Result};

const DROP: u16 = 1;
const DSCP_REMARK: u16 = 2;
const EXPERIMENTER: u16 = 0xffff;

/// One band; all kinds share `rate` and `burst_size`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum MeterBand {
    Drop { rate: u32, burst_size: u32 },
    DscpRemark { rate: u32, burst_size: u32, prec_level: u8 },
    Experimenter { rate: u32, burst_size: u32, experimenter: u32, data: Vec<u8> },
    Unknown { typ: u16, rate: u32, burst_size: u32, data: Vec<u8> },
}

impl MeterBand {
    pub fn buffer_len(&self) -> usize {
        match self {
            MeterBand::Drop { .. } | MeterBand::DscpRemark { .. } => 16,
            MeterBand::Experimenter { data, .. } => 16 + data.len(),
            MeterBand::Unknown { data, .. } => 12 + data.len(),
        }
    }

    /// Parses one band; returns the bytes after it.
    pub fn parse(buf: &[u8]) -> Result<(&[u8], MeterBand)> {
        let mut r = Reader::new(buf);
        let typ = r.u16()?;
        let len = r.u16()? as usize;
        if len < 12 {
            return Err(Error::BadLength { what: "ofp_meter_band.len", len });
        }
        let (rate, burst_size) = (r.u32()?, r.u32()?);
        let mut b = Reader::new(r.take(len - 12)?);
        let band = match typ {
            DROP => MeterBand::Drop { rate, burst_size },
            DSCP_REMARK => MeterBand::DscpRemark { rate, burst_size, prec_level: b.u8()? },
            EXPERIMENTER => MeterBand::Experimenter { rate, burst_size, experimenter: b.u32()?, data: b.rest().to_vec() },
            _ => MeterBand::Unknown { typ, rate, burst_size, data: b.rest().to_vec() },
        };
        if band.buffer_len() != len {
            return Err(Error::BadLength { what: "ofp_meter_band.len", len });
        }
        Ok((r.rest(), band))
    }

    pub fn emit<'a>(&self, buf: &'a mut [u8]) -> &'a mut [u8] {
        let n = self.buffer_len();
        let mut w = Writer::new(buf);
        let (typ, rate, burst) = match self {
            MeterBand::Drop { rate, burst_size } => (DROP, rate, burst_size),
            MeterBand::DscpRemark { rate, burst_size, .. } => (DSCP_REMARK, rate, burst_size),
            MeterBand::Experimenter { rate, burst_size, .. } => (EXPERIMENTER, rate, burst_size),
            MeterBand::Unknown { typ, rate, burst_size, .. } => (*typ, rate, burst_size),
        };
        w.u16(typ);
        w.u16(n as u16);
        w.u32(*rate);
        w.u32(*burst);
        match self {
            MeterBand::Drop { .. } => w.zeros(4),
            MeterBand::DscpRemark { prec_level, .. } => {
                w.u8(*prec_level);
                w.zeros(3);
            }
            MeterBand::Experimenter { experimenter, data, .. } => {
                w.u32(*experimenter);
                w.bytes(data);
            }
            MeterBand::Unknown { data, .. } => w.bytes(data),
        }
        &mut buf[n..]
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Hash)]
pub struct MeterMod {
    pub command: u16,
    pub flags: u16,
    pub meter_id: u32,
    pub bands: Vec<MeterBand>,
}

impl MeterMod {
    pub fn parse(body: &[u8]) -> Result<MeterMod> {
        let mut r = Reader::new(body);
        let (command, flags, meter_id) = (r.u16()?, r.u16()?, r.u32()?);
        let mut rest = r.rest();
        let mut bands = Vec::new();
        while !rest.is_empty() {
            let (next, b) = MeterBand::parse(rest)?;
            bands.push(b);
            rest = next;
        }
        Ok(MeterMod { command, flags, meter_id, bands })
    }

    pub fn buffer_len(&self) -> usize {
        8 + self.bands.iter().map(MeterBand::buffer_len).sum::<usize>()
    }

    pub fn emit(&self, buf: &mut [u8]) {
        let mut w = Writer::new(buf);
        w.u16(self.command);
        w.u16(self.flags);
        w.u32(self.meter_id);
        let mut rest = w.rest();
        for b in &self.bands {
            rest = b.emit(rest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_bad_band() {
        let m = MeterMod {
            command: 0,
            flags: 0b101,
            meter_id: 1,
            bands: vec![
                MeterBand::Drop { rate: 1000, burst_size: 10 },
                MeterBand::DscpRemark { rate: 500, burst_size: 5, prec_level: 1 },
                MeterBand::Experimenter { rate: 1, burst_size: 2, experimenter: 0x2320, data: vec![] },
            ],
        };
        let mut b = vec![0xa5u8; m.buffer_len()];
        m.emit(&mut b);
        assert_eq!(MeterMod::parse(&b).unwrap(), m);
        b[11] = 8;
        assert!(matches!(MeterMod::parse(&b), Err(Error::BadLength { .. })));
    }
}
