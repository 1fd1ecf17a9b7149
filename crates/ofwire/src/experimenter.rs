//! OFPT_VENDOR (1.0) / OFPT_EXPERIMENTER (1.3): an id, in 1.3 a subtype, then opaque bytes.

use crate::bytes::{Reader, Writer};
use crate::error::Result;
use crate::version::Version;

/// `exp_type` exists in 1.3 only.
#[derive(Debug, Clone, PartialEq, Eq, Default, Hash)]
pub struct Experimenter {
    pub experimenter: u32,
    pub exp_type: u32,
    pub data: Vec<u8>,
}

impl Experimenter {
    pub fn parse(v: Version, body: &[u8]) -> Result<Experimenter> {
        let mut r = Reader::new(body);
        let experimenter = r.u32()?;
        let exp_type = if v == Version::V13 { r.u32()? } else { 0 };
        Ok(Experimenter { experimenter, exp_type, data: r.rest().to_vec() })
    }

    pub fn buffer_len(&self, v: Version) -> usize {
        (if v == Version::V13 { 8 } else { 4 }) + self.data.len()
    }

    pub fn emit(&self, v: Version, buf: &mut [u8]) {
        let mut w = Writer::new(buf);
        w.u32(self.experimenter);
        if v == Version::V13 {
            w.u32(self.exp_type);
        }
        w.bytes(&self.data);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subtype_only_in_1_3() {
        let e = Experimenter { experimenter: 0x2320, exp_type: 0, data: vec![0, 0, 0, 12] };
        let mut b = vec![0xa5u8; e.buffer_len(Version::V10)];
        e.emit(Version::V10, &mut b);
        assert_eq!(b, [0, 0, 0x23, 0x20, 0, 0, 0, 12]);
        assert_eq!(Experimenter::parse(Version::V10, &b).unwrap(), e);
        let e13 = Experimenter { exp_type: 5, ..e };
        let mut b = vec![0xa5u8; e13.buffer_len(Version::V13)];
        e13.emit(Version::V13, &mut b);
        assert_eq!(Experimenter::parse(Version::V13, &b).unwrap(), e13);
        assert!(Experimenter::parse(Version::V13, &b[..7]).is_err());
    }
}
