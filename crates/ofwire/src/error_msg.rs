//! OFPT_ERROR: a type, a code and (usually) the start of the offending message.
//!
//! Kept as numbers so every type and code, known or not, round-trips; `error_names` gives
//! the spec's names. In 1.3 type 0xffff (OFPET_EXPERIMENTER) puts `exp_type` in the code's
//! place and the experimenter id at the start of `data`.

use crate::bytes::{Reader, Writer};
use crate::error::Result;
use crate::error_names::error_name;
use crate::version::Version;
use core::fmt;

#[derive(Debug, Clone, PartialEq, Eq, Default, Hash)]
pub struct ErrorMsg {
    pub typ: u16,
    pub code: u16,
    pub data: Vec<u8>,
}

impl ErrorMsg {
    pub fn parse(body: &[u8]) -> Result<ErrorMsg> {
        let mut r = Reader::new(body);
        Ok(ErrorMsg { typ: r.u16()?, code: r.u16()?, data: r.rest().to_vec() })
    }

    pub fn buffer_len(&self) -> usize {
        4 + self.data.len()
    }

    pub fn emit(&self, buf: &mut [u8]) {
        let mut w = Writer::new(buf);
        w.u16(self.typ);
        w.u16(self.code);
        w.bytes(&self.data);
    }

    /// The spec's names for the type and code, e.g. `("OFPET_BAD_REQUEST", "OFPBRC_BAD_TYPE")`.
    pub fn names(&self, v: Version) -> (&'static str, &'static str) {
        error_name(v, self.typ, self.code)
    }
}

impl fmt::Display for ErrorMsg {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "error type={} code={} data_len={}", self.typ, self.code, self.data.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_names() {
        let e = ErrorMsg { typ: 1, code: 1, data: vec![4, 99, 0, 8, 0, 0, 0, 1] };
        let mut b = vec![0xa5u8; e.buffer_len()];
        e.emit(&mut b);
        assert_eq!(&b[..4], &[0, 1, 0, 1]);
        assert_eq!(ErrorMsg::parse(&b).unwrap(), e);
        assert_eq!(e.names(Version::V13), ("OFPET_BAD_REQUEST", "OFPBRC_BAD_TYPE"));
        assert!(ErrorMsg::parse(&[0, 1, 0]).is_err());
    }
}
