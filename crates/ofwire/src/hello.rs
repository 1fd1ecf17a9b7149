//! OFPT_HELLO and its elements; 1.3 adds the version-bitmap element (OFPHET_VERSIONBITMAP).
//! And the version both ends speak once their hellos are exchanged (OpenFlow 1.3.5 §6.3.1).
//!
//! Elements are TLVs (`type`, `length` counting the 4-byte TLV header) padded to 8 bytes. The
//! padding of the last element may be missing on the wire; `emit` always writes it.

use crate::bytes::{pad8, Reader, Writer};
use crate::error::{Error, Result};
use crate::version::{bitmap_has, bitmap_of};
use core::fmt;

const OFPHET_VERSIONBITMAP: u16 = 1;

/// One hello element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HelloElem {
    /// The versions the sender speaks, as 32-bit bitmap words (bit n of word 0 = version n).
    VersionBitmap(Vec<u32>),
    Unknown {
        typ: u16,
        data: Vec<u8>,
    },
}

impl HelloElem {
    /// Parses one element; returns the bytes after it (and after its padding).
    pub fn parse(buf: &[u8]) -> Result<(&[u8], HelloElem)> {
        let mut r = Reader::new(buf);
        let typ = r.u16()?;
        let len = r.u16()? as usize;
        if len < 4 {
            return Err(Error::BadLength { what: "ofp_hello_elem.length", len });
        }
        let mut body = Reader::new(r.take(len - 4)?);
        let padded = pad8(len).min(buf.len());
        let elem = if typ == OFPHET_VERSIONBITMAP {
            if !(len - 4).is_multiple_of(4) {
                return Err(Error::BadLength { what: "ofp_hello_elem_versionbitmap.length", len });
            }
            let mut words = Vec::with_capacity((len - 4) / 4);
            while body.remaining() > 0 {
                words.push(body.u32()?);
            }
            HelloElem::VersionBitmap(words)
        } else {
            HelloElem::Unknown { typ, data: body.rest().to_vec() }
        };
        Ok((&buf[padded..], elem))
    }

    fn tlv_len(&self) -> usize {
        4 + match self {
            HelloElem::VersionBitmap(w) => 4 * w.len(),
            HelloElem::Unknown { data, .. } => data.len(),
        }
    }

    pub fn buffer_len(&self) -> usize {
        pad8(self.tlv_len())
    }

    /// Writes the element with its padding; returns the rest of `buf`.
    pub fn emit<'a>(&self, buf: &'a mut [u8]) -> &'a mut [u8] {
        let total = self.buffer_len();
        let mut w = Writer::new(buf);
        match self {
            HelloElem::VersionBitmap(words) => {
                w.u16(OFPHET_VERSIONBITMAP);
                w.u16(self.tlv_len() as u16);
                words.iter().for_each(|&x| w.u32(x));
            }
            HelloElem::Unknown { typ, data } => {
                w.u16(*typ);
                w.u16(self.tlv_len() as u16);
                w.bytes(data);
            }
        }
        w.zeros(total - w.pos());
        &mut buf[total..]
    }
}

/// The body of a hello message: a list of elements (empty in 1.0).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Hello {
    pub elements: Vec<HelloElem>,
}

impl Hello {
    /// A hello advertising exactly `versions` in a bitmap element.
    pub fn with_versions(versions: &[u8]) -> Hello {
        Hello { elements: vec![HelloElem::VersionBitmap(bitmap_of(versions))] }
    }

    /// The first version bitmap, if the hello carries one.
    pub fn version_bitmap(&self) -> Option<&[u32]> {
        self.elements.iter().find_map(|e| match e {
            HelloElem::VersionBitmap(w) => Some(w.as_slice()),
            _ => None,
        })
    }

    /// Whether the bitmap advertises `version` (false when there is no bitmap).
    pub fn supports(&self, version: u8) -> bool {
        self.version_bitmap().is_some_and(|b| bitmap_has(b, version))
    }

    pub fn parse(mut buf: &[u8]) -> Result<Hello> {
        let mut elements = Vec::new();
        while !buf.is_empty() {
            let (rest, e) = HelloElem::parse(buf)?;
            elements.push(e);
            buf = rest;
        }
        Ok(Hello { elements })
    }

    pub fn buffer_len(&self) -> usize {
        self.elements.iter().map(HelloElem::buffer_len).sum()
    }

    pub fn emit(&self, mut buf: &mut [u8]) {
        for e in &self.elements {
            buf = e.emit(buf);
        }
    }
}

impl fmt::Display for Hello {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.version_bitmap() {
            Some(b) => write!(f, "hello versions={b:x?}"),
            None => write!(f, "hello"),
        }
    }
}

/// Picks the version to speak after both hellos were exchanged.
///
/// `ours` lists the wire versions we support. If both hellos carry a version bitmap the
/// highest version set in both wins; otherwise the lower of the two header versions is used,
/// and it must be one we support (the spec's rule for peers without bitmaps).
pub fn negotiate(ours: &[u8], our_hello_version: u8, their_version: u8, theirs: &Hello) -> Result<u8> {
    if let Some(bitmap) = theirs.version_bitmap() {
        let best = ours.iter().copied().filter(|&v| bitmap_has(bitmap, v)).max().ok_or(Error::NoCommonVersion)?;
        return Ok(best);
    }
    let v = our_hello_version.min(their_version);
    if ours.contains(&v) {
        Ok(v)
    } else {
        Err(Error::NoCommonVersion)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::version::{OFP10, OFP13};

    // An OpenFlow 1.3 hello body advertising 1.0 and 1.3.
    static BITMAP: [u8; 8] = [0x00, 0x01, 0x00, 0x08, 0x00, 0x00, 0x00, 0x12];

    #[test]
    fn parse_bitmap() {
        let h = Hello::parse(&BITMAP).unwrap();
        assert_eq!(h, Hello::with_versions(&[1, 4]));
        assert!(h.supports(4) && !h.supports(2));
    }

    #[test]
    fn emit_pads() {
        let h = Hello { elements: vec![HelloElem::VersionBitmap(vec![0x12, 0x1])] };
        let mut buf = [0xa5u8; 16];
        h.emit(&mut buf);
        assert_eq!(buf, [0, 1, 0, 12, 0, 0, 0, 0x12, 0, 0, 0, 1, 0, 0, 0, 0]);
        assert_eq!(Hello::parse(&buf).unwrap(), h);
    }

    #[test]
    fn rejects_bad_element() {
        assert!(matches!(Hello::parse(&[0, 1, 0, 2]), Err(Error::BadLength { .. })));
        assert!(matches!(Hello::parse(&[0, 1, 0, 9, 0]), Err(Error::Truncated { .. })));
        assert!(matches!(Hello::parse(&[0, 1, 0, 6, 0, 0, 0, 0]), Err(Error::BadLength { .. })));
    }

    #[test]
    fn bitmap_both_sides() {
        let theirs = Hello::with_versions(&[OFP10, OFP13, 5]);
        assert_eq!(negotiate(&[OFP10, OFP13], OFP13, 5, &theirs), Ok(OFP13));
        let theirs = Hello::with_versions(&[OFP10]);
        assert_eq!(negotiate(&[OFP10, OFP13], OFP13, OFP10, &theirs), Ok(OFP10));
        let theirs = Hello::with_versions(&[2, 3]);
        assert_eq!(negotiate(&[OFP10, OFP13], OFP13, 3, &theirs), Err(Error::NoCommonVersion));
    }

    #[test]
    fn without_bitmap_lowest_header_wins() {
        let plain = Hello::default();
        assert_eq!(negotiate(&[OFP10, OFP13], OFP13, OFP10, &plain), Ok(OFP10));
        assert_eq!(negotiate(&[OFP10, OFP13], OFP13, 6, &plain), Ok(OFP13));
        assert_eq!(negotiate(&[OFP13], OFP13, 2, &plain), Err(Error::NoCommonVersion));
    }
}
