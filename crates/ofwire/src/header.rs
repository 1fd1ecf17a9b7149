//! The 8-byte OpenFlow header, common to every version, as a zero-copy view.
//!
//! After `Header::new_checked` succeeds no accessor panics. It checks only that the 8 header
//! bytes are there; `check_len` additionally needs the whole message the `length` field names.

use crate::error::{Error, Result};

mod field {
    pub type Field = core::ops::Range<usize>;
    pub const VERSION: usize = 0;
    pub const TYPE: usize = 1;
    pub const LENGTH: Field = 2..4;
    pub const XID: Field = 4..8;
}

/// Size of the header in bytes.
pub const HEADER_LEN: usize = 8;

/// A read/write view of an OpenFlow header at the start of `T`.
#[derive(Debug, Clone)]
pub struct Header<T: AsRef<[u8]>> {
    buffer: T,
}

impl<T: AsRef<[u8]>> Header<T> {
    /// Wraps a buffer without any check; accessors may panic if it is shorter than 8 bytes.
    pub const fn new_unchecked(buffer: T) -> Header<T> {
        Header { buffer }
    }

    /// Wraps a buffer after checking that the 8 header bytes are present.
    pub fn new_checked(buffer: T) -> Result<Header<T>> {
        let have = buffer.as_ref().len();
        if have < HEADER_LEN {
            return Err(Error::Truncated { need: HEADER_LEN, have });
        }
        Ok(Header { buffer })
    }

    /// Checks that the buffer holds exactly one message of the length the header names.
    pub fn check_len(&self) -> Result<()> {
        let have = self.buffer.as_ref().len();
        let len = self.length() as usize;
        if len < HEADER_LEN {
            return Err(Error::BadLength { what: "ofp_header.length", len });
        }
        if have < len {
            return Err(Error::Truncated { need: len, have });
        }
        if have > len {
            return Err(Error::TrailingBytes { what: "message", len: have - len });
        }
        Ok(())
    }

    pub fn into_inner(self) -> T {
        self.buffer
    }

    #[inline]
    pub fn version(&self) -> u8 {
        self.buffer.as_ref()[field::VERSION]
    }
    #[inline]
    pub fn msg_type(&self) -> u8 {
        self.buffer.as_ref()[field::TYPE]
    }
    #[inline]
    pub fn length(&self) -> u16 {
        let b = self.buffer.as_ref();
        u16::from_be_bytes([b[field::LENGTH.start], b[field::LENGTH.start + 1]])
    }
    #[inline]
    pub fn xid(&self) -> u32 {
        let b = &self.buffer.as_ref()[field::XID];
        u32::from_be_bytes([b[0], b[1], b[2], b[3]])
    }
    /// The bytes after the header, up to the end of the buffer.
    #[inline]
    pub fn payload(&self) -> &[u8] {
        &self.buffer.as_ref()[HEADER_LEN..]
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> Header<T> {
    #[inline]
    pub fn set_version(&mut self, v: u8) {
        self.buffer.as_mut()[field::VERSION] = v
    }
    #[inline]
    pub fn set_msg_type(&mut self, t: u8) {
        self.buffer.as_mut()[field::TYPE] = t
    }
    #[inline]
    pub fn set_length(&mut self, len: u16) {
        self.buffer.as_mut()[field::LENGTH].copy_from_slice(&len.to_be_bytes())
    }
    #[inline]
    pub fn set_xid(&mut self, xid: u32) {
        self.buffer.as_mut()[field::XID].copy_from_slice(&xid.to_be_bytes())
    }
}

/// How many bytes the first message in `buf` takes, once its header is there.
///
/// For splitting a TCP stream: `None` until 8 bytes have arrived, then the header's length
/// (which may exceed what has arrived so far). A length below 8 is an error: the stream is
/// unframeable from there on.
pub fn frame_len(buf: &[u8]) -> Result<Option<usize>> {
    if buf.len() < HEADER_LEN {
        return Ok(None);
    }
    let len = u16::from_be_bytes([buf[2], buf[3]]) as usize;
    if len < HEADER_LEN {
        return Err(Error::BadLength { what: "ofp_header.length", len });
    }
    Ok(Some(len))
}

/// Writes an 8-byte header at the start of `buf` (which must hold at least 8 bytes).
#[inline]
pub(crate) fn write_header(buf: &mut [u8], version: u8, msg_type: u8, length: usize, xid: u32) {
    let mut h = Header::new_unchecked(buf);
    h.set_version(version);
    h.set_msg_type(msg_type);
    h.set_length(length as u16);
    h.set_xid(xid);
}

#[cfg(test)]
mod tests {
    use super::*;

    static BYTES: [u8; 12] = [0x04, 0x0a, 0x00, 0x0c, 0x12, 0x34, 0x56, 0x78, 1, 2, 3, 4];

    #[test]
    fn read_fields() {
        let h = Header::new_checked(&BYTES[..]).unwrap();
        assert_eq!((h.version(), h.msg_type(), h.length(), h.xid()), (4, 10, 12, 0x12345678));
        assert_eq!(h.payload(), &[1, 2, 3, 4]);
        h.check_len().unwrap();
    }

    #[test]
    fn write_fields() {
        let mut buf = [0xa5u8; 8];
        write_header(&mut buf, 1, 14, 72, 0xdeadbeef);
        assert_eq!(buf, [1, 14, 0, 72, 0xde, 0xad, 0xbe, 0xef]);
    }

    #[test]
    fn short_and_lying_lengths() {
        assert_eq!(Header::new_checked(&BYTES[..7]).unwrap_err(), Error::Truncated { need: 8, have: 7 });
        let h = Header::new_checked(&BYTES[..10]).unwrap();
        assert_eq!(h.check_len().unwrap_err(), Error::Truncated { need: 12, have: 10 });
        let mut b = BYTES;
        b[3] = 4;
        assert!(matches!(Header::new_checked(&b[..]).unwrap().check_len(), Err(Error::BadLength { .. })));
        assert!(frame_len(&b).is_err());
        assert_eq!(frame_len(&BYTES[..5]).unwrap(), None);
        assert_eq!(frame_len(&BYTES).unwrap(), Some(12));
    }
}
