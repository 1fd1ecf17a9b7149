//! Small fixed bodies: switch config (get-config reply, set-config), role request/reply and
//! the 1.3 async configuration (get-async reply, set-async).

use crate::bytes::{Reader, Writer};
use crate::error::Result;
use core::fmt;

/// `ofp_switch_config`: fragment-handling flags and how much of a frame a packet-in carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct SwitchConfig {
    pub flags: u16,
    pub miss_send_len: u16,
}

impl SwitchConfig {
    pub const LEN: usize = 4;

    pub fn parse(body: &[u8]) -> Result<SwitchConfig> {
        let mut r = Reader::new(body);
        let c = SwitchConfig { flags: r.u16()?, miss_send_len: r.u16()? };
        r.finish("switch config")?;
        Ok(c)
    }

    pub fn emit(&self, buf: &mut [u8]) {
        let mut w = Writer::new(buf);
        w.u16(self.flags);
        w.u16(self.miss_send_len);
    }
}

impl fmt::Display for SwitchConfig {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "config flags=0x{:x} miss_send_len={}", self.flags, self.miss_send_len)
    }
}

/// Controller roles (OFPCR_ROLE_*, OF1.3 §7.3.9).
pub mod role {
    pub const NOCHANGE: u32 = 0;
    pub const EQUAL: u32 = 1;
    pub const MASTER: u32 = 2;
    pub const SLAVE: u32 = 3;
}

/// `ofp_role_request` (1.3): the controller role ([`role`]) and generation id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Role {
    pub role: u32,
    pub generation_id: u64,
}

impl Role {
    pub const LEN: usize = 16;

    pub fn parse(body: &[u8]) -> Result<Role> {
        let mut r = Reader::new(body);
        let role = r.u32()?;
        r.skip(4)?;
        let x = Role { role, generation_id: r.u64()? };
        r.finish("role message")?;
        Ok(x)
    }

    pub fn emit(&self, buf: &mut [u8]) {
        let mut w = Writer::new(buf);
        w.u32(self.role);
        w.zeros(4);
        w.u64(self.generation_id);
    }
}

/// `ofp_async_config` (1.3): which reasons of each async message a controller receives;
/// index 0 is for the master/equal role, index 1 for the slave role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct AsyncConfig {
    pub packet_in_mask: [u32; 2],
    pub port_status_mask: [u32; 2],
    pub flow_removed_mask: [u32; 2],
}

impl AsyncConfig {
    pub const LEN: usize = 24;

    pub fn parse(body: &[u8]) -> Result<AsyncConfig> {
        let mut r = Reader::new(body);
        let c = AsyncConfig {
            packet_in_mask: [r.u32()?, r.u32()?],
            port_status_mask: [r.u32()?, r.u32()?],
            flow_removed_mask: [r.u32()?, r.u32()?],
        };
        r.finish("async config")?;
        Ok(c)
    }

    pub fn emit(&self, buf: &mut [u8]) {
        let mut w = Writer::new(buf);
        for m in [self.packet_in_mask, self.port_status_mask, self.flow_removed_mask] {
            w.u32(m[0]);
            w.u32(m[1]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_bodies_round_trip() {
        let c = SwitchConfig { flags: 1, miss_send_len: 128 };
        let mut b = [0xa5u8; 4];
        c.emit(&mut b);
        assert_eq!(b, [0, 1, 0, 128]);
        assert_eq!(SwitchConfig::parse(&b).unwrap(), c);
        let r = Role { role: 2, generation_id: 0x0102030405060708 };
        let mut b = [0xa5u8; 16];
        r.emit(&mut b);
        assert_eq!(&b[4..8], &[0, 0, 0, 0]);
        assert_eq!(Role::parse(&b).unwrap(), r);
        let a = AsyncConfig { packet_in_mask: [3, 1], port_status_mask: [7, 7], flow_removed_mask: [15, 0] };
        let mut b = [0xa5u8; 24];
        a.emit(&mut b);
        assert_eq!(AsyncConfig::parse(&b).unwrap(), a);
        assert!(AsyncConfig::parse(&b[..20]).is_err());
        assert!(SwitchConfig::parse(&[0, 0, 0, 0, 0]).is_err());
    }
}
