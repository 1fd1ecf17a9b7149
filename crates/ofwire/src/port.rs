//! The port description: 1.0 `ofp_phy_port` (48 bytes, 16-bit port number) and 1.3
//! `ofp_port` (64 bytes, 32-bit port number, current and maximum speed in kbps).

use crate::bytes::{Reader, Writer};
use crate::error::Result;
use crate::version::Version;
use core::fmt;

/// Reserved port numbers (OFPP_*) in each version's width.
pub mod ports {
    pub const MAX10: u16 = 0xff00;
    pub const IN_PORT10: u16 = 0xfff8;
    pub const FLOOD10: u16 = 0xfffb;
    pub const ALL10: u16 = 0xfffc;
    pub const CONTROLLER10: u16 = 0xfffd;
    pub const LOCAL10: u16 = 0xfffe;
    pub const NONE10: u16 = 0xffff;
    pub const MAX13: u32 = 0xffff_ff00;
    pub const IN_PORT13: u32 = 0xffff_fff8;
    pub const FLOOD13: u32 = 0xffff_fffb;
    pub const ALL13: u32 = 0xffff_fffc;
    pub const CONTROLLER13: u32 = 0xffff_fffd;
    pub const LOCAL13: u32 = 0xffff_fffe;
    pub const ANY13: u32 = 0xffff_ffff;
    /// OFPP_NORMAL (1.3).
    pub const NORMAL13: u32 = 0xffff_fffa;
}

/// One port. `curr_speed`/`max_speed` are 1.3 only; `port_no` is 16 bits on the 1.0 wire.
#[derive(Debug, Clone, PartialEq, Eq, Default, Hash)]
pub struct Port {
    pub port_no: u32,
    pub hw_addr: [u8; 6],
    pub name: String,
    pub config: u32,
    pub state: u32,
    pub curr: u32,
    pub advertised: u32,
    pub supported: u32,
    pub peer: u32,
    pub curr_speed: u32,
    pub max_speed: u32,
}

/// Port config bits (OFPPC_*).
pub mod port_config {
    /// Bit 0 in both versions.
    pub const PORT_DOWN: u32 = 1;
    /// 1.0 only.
    pub const NO_FLOOD10: u32 = 1 << 4;
}

/// Port state bits (OFPPS_*).
pub mod port_state {
    /// Bit 0 in both versions.
    pub const LINK_DOWN: u32 = 1;
    /// 1.3 only (1.0 reports 0).
    pub const LIVE: u32 = 4;
}

pub const PORT10_LEN: usize = 48;
pub const PORT13_LEN: usize = 64;

impl Port {
    pub fn wire_len(v: Version) -> usize {
        match v {
            Version::V10 => PORT10_LEN,
            Version::V13 => PORT13_LEN,
        }
    }

    pub fn parse(v: Version, buf: &[u8]) -> Result<(&[u8], Port)> {
        let mut r = Reader::new(buf);
        let mut p = Port::default();
        match v {
            Version::V10 => {
                p.port_no = r.u16()? as u32;
                p.hw_addr = r.array()?;
            }
            Version::V13 => {
                p.port_no = r.u32()?;
                r.skip(4)?;
                p.hw_addr = r.array()?;
                r.skip(2)?;
            }
        }
        p.name = r.string(16)?;
        p.config = r.u32()?;
        p.state = r.u32()?;
        p.curr = r.u32()?;
        p.advertised = r.u32()?;
        p.supported = r.u32()?;
        p.peer = r.u32()?;
        if v == Version::V13 {
            p.curr_speed = r.u32()?;
            p.max_speed = r.u32()?;
        }
        Ok((r.rest(), p))
    }

    pub fn emit<'a>(&self, v: Version, buf: &'a mut [u8]) -> &'a mut [u8] {
        let n = Port::wire_len(v);
        let mut w = Writer::new(buf);
        match v {
            Version::V10 => {
                w.u16(self.port_no as u16);
                w.bytes(&self.hw_addr);
            }
            Version::V13 => {
                w.u32(self.port_no);
                w.zeros(4);
                w.bytes(&self.hw_addr);
                w.zeros(2);
            }
        }
        w.string(&self.name, 16);
        for x in [self.config, self.state, self.curr, self.advertised, self.supported, self.peer] {
            w.u32(x);
        }
        if v == Version::V13 {
            w.u32(self.curr_speed);
            w.u32(self.max_speed);
        }
        &mut buf[n..]
    }
}

/// Parses a list of ports filling `buf`.
pub fn parse_ports(v: Version, mut buf: &[u8]) -> Result<Vec<Port>> {
    let mut out = Vec::with_capacity(buf.len() / Port::wire_len(v));
    while !buf.is_empty() {
        let (rest, p) = Port::parse(v, buf)?;
        out.push(p);
        buf = rest;
    }
    Ok(out)
}

pub fn emit_ports<'a>(v: Version, ports: &[Port], mut buf: &'a mut [u8]) -> &'a mut [u8] {
    for p in ports {
        buf = p.emit(v, buf);
    }
    buf
}

impl fmt::Display for Port {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let m = self.hw_addr;
        write!(f, "port {} {:?} {:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}", self.port_no, self.name, m[0], m[1], m[2], m[3], m[4], m[5])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_layouts_round_trip() {
        let p = Port {
            port_no: 3,
            hw_addr: [2, 0, 0, 0, 0, 3],
            name: "s1-eth3".into(),
            config: 1,
            state: 4,
            curr: 0x840,
            advertised: 0,
            supported: 0,
            peer: 0,
            curr_speed: 10_000_000,
            max_speed: 0,
        };
        for v in [Version::V10, Version::V13] {
            let mut buf = vec![0xa5u8; Port::wire_len(v)];
            assert!(p.emit(v, &mut buf).is_empty());
            let mut want = p.clone();
            if v == Version::V10 {
                want.curr_speed = 0;
            }
            assert_eq!(Port::parse(v, &buf).unwrap().1, want);
        }
    }

    #[test]
    fn long_name_is_cut_to_the_field() {
        let p = Port { name: "a-very-long-port-name".into(), ..Default::default() };
        let mut buf = vec![0u8; 48];
        p.emit(Version::V10, &mut buf);
        assert_eq!(&buf[8..24], b"a-very-long-port");
        assert_eq!(Port::parse(Version::V10, &buf).unwrap().1.name, "a-very-long-port");
        assert!(parse_ports(Version::V10, &buf[..47]).is_err());
    }
}
