//! LLDP (IEEE 802.1AB-2016 §8), written by hand: no maintained Rust crate parses it.
//!
//! An LLDPDU is a list of TLVs, each `type:7 | length:9` then `length` bytes, ended by an
//! End TLV (type 0, length 0). Chassis ID (1), Port ID (2) and TTL (3) must come first in
//! that order; other TLVs are kept verbatim in `extra`. Bytes after the End TLV (Ethernet
//! padding) are ignored. Topology discovery in os-ken and Ryu uses chassis subtype 7
//! ("dpid:%016x") and port subtype 2 (the port number, big-endian).

use crate::bytes::Reader;
use crate::error::{Error, Result};

/// 01:80:c2:00:00:0e, the nearest-bridge group address LLDP is sent to.
pub const NEAREST_BRIDGE: [u8; 6] = [0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e];

pub const CHASSIS_LOCALLY_ASSIGNED: u8 = 7;
pub const PORT_COMPONENT: u8 = 2;

const TLV_END: u8 = 0;
const TLV_CHASSIS_ID: u8 = 1;
const TLV_PORT_ID: u8 = 2;
const TLV_TTL: u8 = 3;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Lldp {
    pub chassis_subtype: u8,
    pub chassis_id: Vec<u8>,
    pub port_subtype: u8,
    pub port_id: Vec<u8>,
    pub ttl: u16,
    /// Optional TLVs after TTL, as (type, value).
    pub extra: Vec<(u8, Vec<u8>)>,
}

fn tlv(buf: &[u8]) -> Result<(&[u8], u8, &[u8])> {
    let mut r = Reader::new(buf);
    let th = r.u16()?;
    let (typ, len) = ((th >> 9) as u8, (th & 0x1ff) as usize);
    let value = r.take(len)?;
    Ok((r.rest(), typ, value))
}

fn expect(buf: &[u8], want: u8, min_len: usize) -> Result<(&[u8], &[u8])> {
    let (rest, typ, value) = tlv(buf)?;
    if typ != want {
        return Err(Error::BadFrame("LLDP TLVs out of order (chassis ID, port ID, TTL first)"));
    }
    if value.len() < min_len {
        return Err(Error::BadLength { what: "LLDP TLV length", len: value.len() });
    }
    Ok((rest, value))
}

impl Lldp {
    /// What os-ken's switches app sends for (dpid, port).
    pub fn for_port(dpid: u64, port_no: u32) -> Lldp {
        Lldp {
            chassis_subtype: CHASSIS_LOCALLY_ASSIGNED,
            chassis_id: format!("dpid:{dpid:016x}").into_bytes(),
            port_subtype: PORT_COMPONENT,
            port_id: port_no.to_be_bytes().to_vec(),
            ttl: 120,
            extra: Vec::new(),
        }
    }

    /// The dpid if the chassis ID has the "dpid:%016x" form.
    pub fn dpid(&self) -> Option<u64> {
        let s = core::str::from_utf8(&self.chassis_id).ok()?;
        u64::from_str_radix(s.strip_prefix("dpid:")?, 16).ok()
    }

    /// The port number if the port ID is a 2- or 4-byte big-endian number.
    pub fn port_no(&self) -> Option<u32> {
        match self.port_id.len() {
            2 => Some(u16::from_be_bytes([self.port_id[0], self.port_id[1]]) as u32),
            4 => Some(u32::from_be_bytes(self.port_id[..4].try_into().ok()?)),
            _ => None,
        }
    }

    /// Parses an LLDPDU (the Ethernet payload).
    pub fn parse(buf: &[u8]) -> Result<Lldp> {
        let (rest, c) = expect(buf, TLV_CHASSIS_ID, 2)?;
        let (rest, p) = expect(rest, TLV_PORT_ID, 2)?;
        let (mut rest, t) = expect(rest, TLV_TTL, 2)?;
        let mut extra = Vec::new();
        loop {
            let (next, typ, value) = tlv(rest)?;
            if typ == TLV_END {
                break;
            }
            extra.push((typ, value.to_vec()));
            rest = next;
        }
        Ok(Lldp {
            chassis_subtype: c[0],
            chassis_id: c[1..].to_vec(),
            port_subtype: p[0],
            port_id: p[1..].to_vec(),
            ttl: u16::from_be_bytes([t[0], t[1]]),
            extra,
        })
    }

    pub fn buffer_len(&self) -> usize {
        (2 + 1 + self.chassis_id.len()) + (2 + 1 + self.port_id.len()) + 4 + self.extra.iter().map(|(_, v)| 2 + v.len()).sum::<usize>() + 2
    }

    /// Writes the LLDPDU with its End TLV into `buf[..buffer_len()]`. Values longer than
    /// 511 bytes cannot be expressed and are a caller error (debug assertion).
    pub fn emit(&self, buf: &mut [u8]) {
        let mut at = 0;
        let mut put = |typ: u8, parts: &[&[u8]]| {
            let len: usize = parts.iter().map(|p| p.len()).sum();
            debug_assert!(len < 512);
            buf[at..at + 2].copy_from_slice(&((typ as u16) << 9 | len as u16).to_be_bytes());
            at += 2;
            for p in parts {
                buf[at..at + p.len()].copy_from_slice(p);
                at += p.len();
            }
        };
        put(TLV_CHASSIS_ID, &[&[self.chassis_subtype], &self.chassis_id]);
        put(TLV_PORT_ID, &[&[self.port_subtype], &self.port_id]);
        put(TLV_TTL, &[&self.ttl.to_be_bytes()]);
        for (t, v) in &self.extra {
            put(*t, &[v]);
        }
        put(TLV_END, &[]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn os_ken_style_pdu() {
        let l = Lldp::for_port(0x00000000000000ab, 2);
        let mut buf = vec![0xa5u8; l.buffer_len()];
        l.emit(&mut buf);
        // Chassis TLV: type 1, length 1 + 21 = 22.
        assert_eq!(&buf[..3], &[0x02, 22, 7]);
        assert_eq!(&buf[buf.len() - 2..], &[0, 0]);
        let back = Lldp::parse(&buf).unwrap();
        assert_eq!(back, l);
        assert_eq!((back.dpid(), back.port_no()), (Some(0xab), Some(2)));
    }

    #[test]
    fn extra_tlvs_and_errors() {
        let mut l = Lldp::for_port(1, 1);
        l.extra.push((5, b"s1".to_vec()));
        let mut buf = vec![0u8; l.buffer_len() + 10];
        l.emit(&mut buf);
        assert_eq!(Lldp::parse(&buf).unwrap(), l);
        // Port ID first is out of order.
        assert!(Lldp::parse(&buf[l.chassis_id.len() + 3..]).is_err());
        // Missing End TLV.
        assert!(Lldp::parse(&buf[..l.buffer_len() - 2]).is_err());
    }
}
