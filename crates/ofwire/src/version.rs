//! Wire versions, and the version bitmap of 1.3's hello (the negotiation is `hello::negotiate`).

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
    /// The layout a wire version byte is read with: 1.0 for 0x01, 1.3 for any other (as for a
    /// later version's hello, or a session that negotiated 1.3).
    #[inline]
    pub const fn layout(wire: u8) -> Version {
        if wire == OFP10 {
            Version::V10
        } else {
            Version::V13
        }
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
    fn bitmap_words() {
        assert_eq!(bitmap_of(&[1, 4]), vec![0x12]);
        assert_eq!(bitmap_of(&[33]), vec![0, 2]);
        assert!(bitmap_has(&[0x12], 4) && !bitmap_has(&[0x12], 3) && !bitmap_has(&[0x12], 40));
    }

    #[test]
    fn layout_is_1_0_only_for_0x01() {
        assert_eq!(Version::layout(OFP10), Version::V10);
        assert_eq!([OFP13, 5, 6, 0].map(Version::layout), [Version::V13; 4]);
    }
}
