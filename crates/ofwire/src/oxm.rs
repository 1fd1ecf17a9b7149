//! OpenFlow 1.3 OXM TLVs (§7.2.3) and the `ofp_match` that carries them.
//!
//! An OXM is `class:16 | field:7 | hasmask:1 | length:8` followed by `length` bytes: the
//! value, then the mask of the same size when `hasmask` is set. Every basic-class field
//! (OFPXMC_OPENFLOW_BASIC, fields 0..=39) has a fixed value size, checked on decode:
//! a mismatch is `Error::BadOxm`. Other classes and unknown basic fields are kept as bytes.

use crate::bytes::{pad8, Reader, Writer};
use crate::error::{Error, Result};
use core::fmt;

/// The class of standard match fields.
pub const OFPXMC_OPENFLOW_BASIC: u16 = 0x8000;
const OFPMT_OXM: u16 = 1;

macro_rules! oxm_fields {
    ($($name:ident = $code:expr, $len:expr;)*) => {
        /// A basic-class OXM field; `Unknown` keeps codes this crate doesn't name.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum OxmField { $($name,)* Unknown(u8) }

        impl OxmField {
            pub fn from_code(code: u8) -> OxmField {
                match code { $($code => OxmField::$name,)* c => OxmField::Unknown(c) }
            }
            pub fn code(self) -> u8 {
                match self { $(OxmField::$name => $code,)* OxmField::Unknown(c) => c }
            }
            /// Size in bytes of the field's value, `None` for unknown fields.
            pub fn value_len(self) -> Option<usize> {
                match self { $(OxmField::$name => Some($len),)* OxmField::Unknown(_) => None }
            }
        }
    };
}

oxm_fields! {
    InPort = 0, 4; InPhyPort = 1, 4; Metadata = 2, 8; EthDst = 3, 6; EthSrc = 4, 6;
    EthType = 5, 2; VlanVid = 6, 2; VlanPcp = 7, 1; IpDscp = 8, 1; IpEcn = 9, 1;
    IpProto = 10, 1; Ipv4Src = 11, 4; Ipv4Dst = 12, 4; TcpSrc = 13, 2; TcpDst = 14, 2;
    UdpSrc = 15, 2; UdpDst = 16, 2; SctpSrc = 17, 2; SctpDst = 18, 2; Icmpv4Type = 19, 1;
    Icmpv4Code = 20, 1; ArpOp = 21, 2; ArpSpa = 22, 4; ArpTpa = 23, 4; ArpSha = 24, 6;
    ArpTha = 25, 6; Ipv6Src = 26, 16; Ipv6Dst = 27, 16; Ipv6Flabel = 28, 4;
    Icmpv6Type = 29, 1; Icmpv6Code = 30, 1; Ipv6NdTarget = 31, 16; Ipv6NdSll = 32, 6;
    Ipv6NdTll = 33, 6; MplsLabel = 34, 4; MplsTc = 35, 1; MplsBos = 36, 1; PbbIsid = 37, 3;
    TunnelId = 38, 8; Ipv6Exthdr = 39, 2;
}

/// One OXM TLV.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Oxm {
    /// A basic-class field: `value` (and `mask`) have the field's size, unless it is unknown.
    Basic { field: OxmField, value: Vec<u8>, mask: Option<Vec<u8>> },
    /// Any other class (NXM, experimenter, ...), kept verbatim.
    Other { class: u16, field: u8, hasmask: bool, payload: Vec<u8> },
}

impl Oxm {
    pub fn basic(field: OxmField, value: &[u8]) -> Oxm {
        Oxm::Basic { field, value: value.to_vec(), mask: None }
    }
    pub fn masked(field: OxmField, value: &[u8], mask: &[u8]) -> Oxm {
        Oxm::Basic { field, value: value.to_vec(), mask: Some(mask.to_vec()) }
    }
    pub fn in_port(port: u32) -> Oxm {
        Oxm::basic(OxmField::InPort, &port.to_be_bytes())
    }
    pub fn eth_dst(mac: [u8; 6]) -> Oxm {
        Oxm::basic(OxmField::EthDst, &mac)
    }
    pub fn eth_src(mac: [u8; 6]) -> Oxm {
        Oxm::basic(OxmField::EthSrc, &mac)
    }
    pub fn eth_type(t: u16) -> Oxm {
        Oxm::basic(OxmField::EthType, &t.to_be_bytes())
    }

    /// The basic field, if this is one.
    pub fn field(&self) -> Option<OxmField> {
        match self {
            Oxm::Basic { field, .. } => Some(*field),
            Oxm::Other { .. } => None,
        }
    }

    /// The value as a big-endian unsigned number (basic fields up to 8 bytes).
    pub fn value_uint(&self) -> Option<u64> {
        match self {
            Oxm::Basic { value, .. } if value.len() <= 8 => Some(value.iter().fold(0u64, |acc, &b| (acc << 8) | b as u64)),
            _ => None,
        }
    }

    /// Parses one OXM TLV; returns the bytes after it.
    pub fn parse(buf: &[u8]) -> Result<(&[u8], Oxm)> {
        let mut r = Reader::new(buf);
        let class = r.u16()?;
        let fh = r.u8()?;
        let len = r.u8()? as usize;
        let (code, hasmask) = (fh >> 1, fh & 1 == 1);
        let payload = r.take(len)?;
        let oxm = if class == OFPXMC_OPENFLOW_BASIC {
            let field = OxmField::from_code(code);
            let vlen = match field.value_len() {
                Some(n) => n,
                None if hasmask && len.is_multiple_of(2) => len / 2,
                None if !hasmask => len,
                None => return Err(Error::BadOxm { field: code, len }),
            };
            if len != if hasmask { 2 * vlen } else { vlen } {
                return Err(Error::BadOxm { field: code, len });
            }
            let (value, mask) = payload.split_at(vlen);
            Oxm::Basic { field, value: value.to_vec(), mask: hasmask.then(|| mask.to_vec()) }
        } else {
            Oxm::Other { class, field: code, hasmask, payload: payload.to_vec() }
        };
        Ok((r.rest(), oxm))
    }

    fn payload_len(&self) -> usize {
        match self {
            Oxm::Basic { value, mask, .. } => value.len() + mask.as_ref().map_or(0, Vec::len),
            Oxm::Other { payload, .. } => payload.len(),
        }
    }

    pub fn buffer_len(&self) -> usize {
        4 + self.payload_len()
    }

    /// Writes the TLV; returns the rest of `buf`.
    pub fn emit<'a>(&self, buf: &'a mut [u8]) -> &'a mut [u8] {
        let n = self.buffer_len();
        let mut w = Writer::new(buf);
        match self {
            Oxm::Basic { field, value, mask } => {
                w.u16(OFPXMC_OPENFLOW_BASIC);
                w.u8(field.code() << 1 | mask.is_some() as u8);
                w.u8(self.payload_len() as u8);
                w.bytes(value);
                if let Some(m) = mask {
                    w.bytes(m);
                }
            }
            Oxm::Other { class, field, hasmask, payload } => {
                w.u16(*class);
                w.u8(field << 1 | *hasmask as u8);
                w.u8(payload.len() as u8);
                w.bytes(payload);
            }
        }
        &mut buf[n..]
    }
}

impl fmt::Display for Oxm {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Oxm::Basic { field, value, mask: None } => write!(f, "{field:?}={}", hex(value)),
            Oxm::Basic { field, value, mask: Some(m) } => {
                write!(f, "{field:?}={}/{}", hex(value), hex(m))
            }
            Oxm::Other { class, field, payload, .. } => {
                write!(f, "oxm(0x{class:04x},{field})={}", hex(payload))
            }
        }
    }
}

pub(crate) fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The 1.3 `ofp_match` of type OFPMT_OXM: a list of OXM TLVs, padded to 8 bytes on the wire.
#[derive(Debug, Clone, PartialEq, Eq, Default, Hash)]
pub struct OxmMatch {
    pub fields: Vec<Oxm>,
}

impl OxmMatch {
    pub fn new(fields: Vec<Oxm>) -> OxmMatch {
        OxmMatch { fields }
    }

    /// The first field with this basic code.
    pub fn get(&self, field: OxmField) -> Option<&Oxm> {
        self.fields.iter().find(|o| o.field() == Some(field))
    }

    /// The in_port field's value, if present.
    pub fn in_port(&self) -> Option<u32> {
        self.get(OxmField::InPort).and_then(Oxm::value_uint).map(|v| v as u32)
    }

    /// Parses a match and its padding; returns the bytes after them.
    pub fn parse(buf: &[u8]) -> Result<(&[u8], OxmMatch)> {
        let mut r = Reader::new(buf);
        let typ = r.u16()?;
        let len = r.u16()? as usize;
        if typ != OFPMT_OXM {
            return Err(Error::BadMatchType(typ));
        }
        if len < 4 {
            return Err(Error::BadLength { what: "ofp_match.length", len });
        }
        let mut tlvs = r.take(len - 4)?;
        r.skip(pad8(len) - len)?;
        let mut fields = Vec::new();
        while !tlvs.is_empty() {
            let (rest, oxm) = Oxm::parse(tlvs)?;
            fields.push(oxm);
            tlvs = rest;
        }
        Ok((r.rest(), OxmMatch { fields }))
    }

    fn match_len(&self) -> usize {
        4 + self.fields.iter().map(Oxm::buffer_len).sum::<usize>()
    }

    pub fn buffer_len(&self) -> usize {
        pad8(self.match_len())
    }

    /// Writes the match and its padding; returns the rest of `buf`.
    pub fn emit<'a>(&self, buf: &'a mut [u8]) -> &'a mut [u8] {
        let (len, total) = (self.match_len(), self.buffer_len());
        buf[0..2].copy_from_slice(&OFPMT_OXM.to_be_bytes());
        buf[2..4].copy_from_slice(&(len as u16).to_be_bytes());
        let mut rest = &mut buf[4..];
        for f in &self.fields {
            rest = f.emit(rest);
        }
        buf[len..total].fill(0);
        &mut buf[total..]
    }
}

impl fmt::Display for OxmMatch {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let parts: Vec<String> = self.fields.iter().map(|o| o.to_string()).collect();
        write!(f, "match({})", parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // type=OXM len=22: in_port=1, eth_dst=00:00:00:00:00:02/ff:ff:ff:00:00:00, then 2 pad bytes.
    static MATCH: [u8; 24] =
        [0x00, 0x01, 0x00, 0x16, 0x80, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x80, 0x00, 0x07, 0x0c, 0, 0, 0, 0, 0, 2, 0xff, 0xff];

    #[test]
    fn parse_match_reports_truncation() {
        // The masked eth_dst claims 12 bytes, only 8 follow its header.
        assert!(matches!(OxmMatch::parse(&MATCH), Err(Error::Truncated { .. })));
    }

    #[test]
    fn round_trip() {
        let m = OxmMatch::new(vec![
            Oxm::in_port(1),
            Oxm::masked(OxmField::EthDst, &[0, 0, 0, 0, 0, 2], &[0xff, 0xff, 0xff, 0, 0, 0]),
            Oxm::Other { class: 0x0001, field: 3, hasmask: false, payload: vec![9, 9] },
        ]);
        let mut buf = vec![0xa5u8; m.buffer_len() + 3];
        let rest = m.emit(&mut buf);
        assert_eq!(rest.len(), 3);
        assert_eq!(m.buffer_len(), 40);
        assert_eq!(&buf[4..12], &MATCH[4..12]);
        assert_eq!(&buf[..4], &[0, 1, 0, 34]);
        assert_eq!(&buf[34..40], &[0; 6]);
        let (rest, back) = OxmMatch::parse(&buf).unwrap();
        assert_eq!((rest.len(), &back), (3, &m));
        assert_eq!(back.in_port(), Some(1));
    }

    #[test]
    fn wrong_field_size_is_bad_oxm() {
        let bad = [0x80, 0x00, 0x00, 0x03, 0, 0, 1];
        assert_eq!(Oxm::parse(&bad).unwrap_err(), Error::BadOxm { field: 0, len: 3 });
        let odd_masked_unknown = [0x80, 0x00, 101, 0x03, 0, 0, 1];
        assert_eq!(Oxm::parse(&odd_masked_unknown).unwrap_err(), Error::BadOxm { field: 50, len: 3 });
    }

    #[test]
    fn unknown_basic_field_round_trips() {
        let raw = [0x80, 0x00, 100 << 1, 0x02, 0xab, 0xcd];
        let (_, oxm) = Oxm::parse(&raw).unwrap();
        assert_eq!(oxm.field(), Some(OxmField::Unknown(100)));
        let mut out = [0xa5u8; 6];
        oxm.emit(&mut out);
        assert_eq!(out, raw);
    }
}
