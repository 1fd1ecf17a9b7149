//! OFPT_PORT_MOD: change a port's config bits (1.0 §5.3.3, 1.3 §7.3.4.3).

use crate::bytes::{Reader, Writer};
use crate::error::Result;
use crate::version::Version;

/// `port_no` is 16 bits on the 1.0 wire.
#[derive(Debug, Clone, PartialEq, Eq, Default, Hash)]
pub struct PortMod {
    pub port_no: u32,
    pub hw_addr: [u8; 6],
    pub config: u32,
    pub mask: u32,
    pub advertise: u32,
}

impl PortMod {
    pub fn parse(v: Version, body: &[u8]) -> Result<PortMod> {
        let mut r = Reader::new(body);
        let port_no = match v {
            Version::V10 => r.u16()? as u32,
            Version::V13 => {
                let p = r.u32()?;
                r.skip(4)?;
                p
            }
        };
        let hw_addr = r.array()?;
        if v == Version::V13 {
            r.skip(2)?;
        }
        let pm = PortMod { port_no, hw_addr, config: r.u32()?, mask: r.u32()?, advertise: r.u32()? };
        r.skip(4)?;
        r.finish("port mod")?;
        Ok(pm)
    }

    pub fn buffer_len(&self, v: Version) -> usize {
        match v {
            Version::V10 => 24,
            Version::V13 => 32,
        }
    }

    pub fn emit(&self, v: Version, buf: &mut [u8]) {
        let mut w = Writer::new(buf);
        match v {
            Version::V10 => w.u16(self.port_no as u16),
            Version::V13 => {
                w.u32(self.port_no);
                w.zeros(4);
            }
        }
        w.bytes(&self.hw_addr);
        if v == Version::V13 {
            w.zeros(2);
        }
        w.u32(self.config);
        w.u32(self.mask);
        w.u32(self.advertise);
        w.zeros(4);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let p = PortMod { port_no: 2, hw_addr: [2, 0, 0, 0, 0, 2], config: 1, mask: 1, advertise: 0x20 };
        for v in [Version::V10, Version::V13] {
            let mut b = vec![0xa5u8; p.buffer_len(v)];
            p.emit(v, &mut b);
            assert_eq!(PortMod::parse(v, &b).unwrap(), p);
            assert!(PortMod::parse(v, &b[..b.len() - 1]).is_err());
        }
    }
}
