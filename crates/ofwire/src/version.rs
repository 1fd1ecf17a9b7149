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
}
