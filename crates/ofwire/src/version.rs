//! Wire versions and the hello-based version negotiation (OpenFlow 1.3.5 §6.3.1).

use crate::error::{Error, Result};
use crate::hello::Hello;

/// Wire version byte of OpenFlow 1.0.
pub const OFP10: u8 = 0x01;
/// Wire version byte of OpenFlow 1.3.
pub const OFP13: u8 = 0x04;

/// The two versions whose bodies this crate decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Version {
    V10,
    V13,
}

impl Version {
    pub fn from_wire(v: u8) -> Option<Version> {
        match v {
            OFP10 => Some(Version::V10),
            OFP13 => Some(Version::V13),
            _ => None,
        }
    }
    pub fn wire(self) -> u8 {
        match self {
            Version::V10 => OFP10,
            Version::V13 => OFP13,
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

/// Whether the bitmap (as 32-bit words, bit n of word 0 = version n) contains `version`.
pub fn bitmap_has(bitmap: &[u32], version: u8) -> bool {
    let (word, bit) = (version as usize / 32, version as u32 % 32);
    bitmap.get(word).is_some_and(|w| w & (1 << bit) != 0)
}

/// The bitmap words naming exactly `versions`.
pub fn bitmap_of(versions: &[u8]) -> Vec<u32> {
    let words = versions.iter().map(|&v| v as usize / 32 + 1).max().unwrap_or(1);
    let mut bitmap = vec![0u32; words];
    for &v in versions {
        bitmap[v as usize / 32] |= 1 << (v % 32);
    }
    bitmap
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn bitmap_words() {
        assert_eq!(bitmap_of(&[1, 4]), vec![0x12]);
        assert_eq!(bitmap_of(&[33]), vec![0, 2]);
        assert!(bitmap_has(&[0x12], 4) && !bitmap_has(&[0x12], 3) && !bitmap_has(&[0x12], 40));
    }
}
