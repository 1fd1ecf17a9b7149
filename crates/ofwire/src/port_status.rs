//! OFPT_PORT_STATUS: a port was added, deleted or changed (1.0 §5.4.3, 1.3 §7.4.3).

use crate::bytes::{Reader, Writer};
use crate::error::Result;
use crate::port::Port;
use crate::version::Version;

/// Port-status reasons (OFPPR_*).
pub mod reason {
    pub const ADD: u8 = 0;
    pub const DELETE: u8 = 1;
    pub const MODIFY: u8 = 2;
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PortStatus {
    pub reason: u8,
    pub port: Port,
}

impl PortStatus {
    pub fn parse(v: Version, body: &[u8]) -> Result<PortStatus> {
        let mut r = Reader::new(body);
        let reason = r.u8()?;
        r.skip(7)?;
        let (rest, port) = Port::parse(v, r.rest())?;
        Reader::new(rest).finish("port status")?;
        Ok(PortStatus { reason, port })
    }

    pub fn buffer_len(&self, v: Version) -> usize {
        8 + Port::wire_len(v)
    }

    pub fn emit(&self, v: Version, buf: &mut [u8]) {
        let mut w = Writer::new(buf);
        w.u8(self.reason);
        w.zeros(7);
        self.port.emit(v, w.rest());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for v in [Version::V10, Version::V13] {
            let p = PortStatus { reason: reason::MODIFY, port: Port { port_no: 4, name: "eth4".into(), state: 1, ..Default::default() } };
            let mut b = vec![0xa5u8; p.buffer_len(v)];
            p.emit(v, &mut b);
            assert_eq!(&b[1..8], &[0; 7]);
            assert_eq!(PortStatus::parse(v, &b).unwrap(), p);
            assert!(PortStatus::parse(v, &b[..b.len() - 4]).is_err());
        }
    }
}
