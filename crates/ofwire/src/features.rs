//! OFPT_FEATURES_REPLY: the switch's datapath id, buffers, tables and capabilities; in 1.0
//! also the supported actions bitmap and the port list (1.3 moved ports to port-desc).

use crate::bytes::{Reader, Writer};
use crate::error::Result;
use crate::port::{emit_ports, parse_ports, Port};
use crate::version::Version;
use core::fmt;

/// Features reply. `actions` and `ports` are 1.0 only; `auxiliary_id` and `reserved` 1.3 only.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FeaturesReply {
    pub datapath_id: u64,
    pub n_buffers: u32,
    pub n_tables: u8,
    pub auxiliary_id: u8,
    pub capabilities: u32,
    pub actions: u32,
    pub reserved: u32,
    pub ports: Vec<Port>,
}

impl FeaturesReply {
    pub fn parse(v: Version, body: &[u8]) -> Result<FeaturesReply> {
        let mut r = Reader::new(body);
        let mut f = FeaturesReply { datapath_id: r.u64()?, n_buffers: r.u32()?, n_tables: r.u8()?, ..Default::default() };
        match v {
            Version::V10 => {
                r.skip(3)?;
                f.capabilities = r.u32()?;
                f.actions = r.u32()?;
                f.ports = parse_ports(v, r.rest())?;
            }
            Version::V13 => {
                f.auxiliary_id = r.u8()?;
                r.skip(2)?;
                f.capabilities = r.u32()?;
                f.reserved = r.u32()?;
                r.finish("features reply")?;
            }
        }
        Ok(f)
    }

    pub fn buffer_len(&self, v: Version) -> usize {
        match v {
            Version::V10 => 24 + self.ports.len() * Port::wire_len(v),
            Version::V13 => 24,
        }
    }

    pub fn emit(&self, v: Version, buf: &mut [u8]) {
        let mut w = Writer::new(buf);
        w.u64(self.datapath_id);
        w.u32(self.n_buffers);
        w.u8(self.n_tables);
        match v {
            Version::V10 => {
                w.zeros(3);
                w.u32(self.capabilities);
                w.u32(self.actions);
                emit_ports(v, &self.ports, w.rest());
            }
            Version::V13 => {
                w.u8(self.auxiliary_id);
                w.zeros(2);
                w.u32(self.capabilities);
                w.u32(self.reserved);
            }
        }
    }
}

impl fmt::Display for FeaturesReply {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "features_reply dpid=0x{:016x} n_buffers={} n_tables={} ports={}",
            self.datapath_id,
            self.n_buffers,
            self.n_tables,
            self.ports.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v10_carries_ports() {
        let f = FeaturesReply {
            datapath_id: 1,
            n_buffers: 256,
            n_tables: 254,
            capabilities: 0xc7,
            actions: 0xfff,
            ports: vec![Port { port_no: 1, name: "s1-eth1".into(), ..Default::default() }],
            ..Default::default()
        };
        let mut buf = vec![0xa5u8; f.buffer_len(Version::V10)];
        f.emit(Version::V10, &mut buf);
        assert_eq!(buf.len(), 72);
        assert_eq!(&buf[13..16], &[0, 0, 0]);
        assert_eq!(FeaturesReply::parse(Version::V10, &buf).unwrap(), f);
    }

    #[test]
    fn v13_has_no_trailing_bytes() {
        let mut buf = vec![0u8; 25];
        assert!(FeaturesReply::parse(Version::V13, &buf).is_err());
        buf.pop();
        assert!(FeaturesReply::parse(Version::V13, &buf).is_ok());
    }
}
