//! Nicira (Open vSwitch) extension messages a controller sends an Open vSwitch at connect
//! time: an OFPT_VENDOR (1.0) / OFPT_EXPERIMENTER (1.3) message with vendor 0x2320 whose next
//! 4 bytes are the subtype (`nicira_header`, the same bytes in both versions), then the body.

use crate::bytes::{Reader, Writer};
use crate::error::Result;

pub const VENDOR: u32 = 0x2320;

/// Subtypes (NXT_*).
pub const ROLE_REQUEST: u32 = 10;
pub const ROLE_REPLY: u32 = 11;
pub const SET_FLOW_FORMAT: u32 = 12;
pub const FLOW_MOD_TABLE_ID: u32 = 15;
pub const SET_PACKET_IN_FORMAT: u32 = 16;

/// NX roles (`nx_role_request.role`).
pub const ROLE_OTHER: u32 = 0;
pub const ROLE_MASTER: u32 = 1;
pub const ROLE_SLAVE: u32 = 2;

/// Flow formats (NXFF_*) and packet-in formats (NXPIF_*).
pub const FLOW_FORMAT_OPENFLOW10: u32 = 0;
pub const FLOW_FORMAT_NXM: u32 = 2;
pub const PACKET_IN_FORMAT_STANDARD: u32 = 0;
pub const PACKET_IN_FORMAT_NXT: u32 = 1;

/// (vendor, subtype, rest) of a vendor/experimenter message body (after the 8-byte header).
pub fn parse(body: &[u8]) -> Result<(u32, u32, &[u8])> {
    let mut r = Reader::new(body);
    Ok((r.u32()?, r.u32()?, r.rest()))
}

/// The first u32 of a Nicira message body (role, flow format, packet-in format).
pub fn parse_u32(rest: &[u8]) -> Result<u32> {
    Reader::new(rest).u32()
}

/// The body (after the OpenFlow header) of an NXT_ROLE_REPLY.
pub fn role_reply(role: u32) -> [u8; 12] {
    let mut b = [0u8; 12];
    let mut w = Writer::new(&mut b);
    w.u32(VENDOR);
    w.u32(ROLE_REPLY);
    w.u32(role);
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    /// os-ken `NXTRoleRequest(role=NX_ROLE_MASTER)` at 1.0, serialized: header, then this body.
    #[test]
    fn role_request_and_reply() {
        let req = [0, 0, 0x23, 0x20, 0, 0, 0, 10, 0, 0, 0, 1];
        let (v, s, rest) = parse(&req).unwrap();
        assert_eq!((v, s, parse_u32(rest).unwrap()), (VENDOR, ROLE_REQUEST, ROLE_MASTER));
        assert_eq!(role_reply(ROLE_SLAVE), [0, 0, 0x23, 0x20, 0, 0, 0, 11, 0, 0, 0, 2]);
        assert!(parse(&req[..6]).is_err());
    }
}
