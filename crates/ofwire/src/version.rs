//! Wire versions, and the version bitmap of 1.3's hello (the negotiation is `hello::negotiate`).
//! The set of versions a switch offers is [`Versions`]: the bitmap's first word, the one place
//! that knows bit n stands for wire version n.

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

/// A set of OpenFlow wire versions, as the first word of a HELLO's version bitmap (OpenFlow
/// 1.3.5 §7.5.1: bit n = wire version n), so its number is the bitmap itself: 1.0 and 1.3 are
/// `0x12` (`Versions::BOTH.bits()`). Configs store that number.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Versions(u32);

impl Versions {
    /// OpenFlow 1.0 alone (a plain 1.0 HELLO, no bitmap).
    pub const OF10: Versions = Versions(1 << OFP10);
    /// OpenFlow 1.3 alone.
    pub const OF13: Versions = Versions(1 << OFP13);
    /// The two versions this crate decodes.
    pub const BOTH: Versions = Versions(1 << OFP10 | 1 << OFP13);

    /// The set a bitmap word names (any bits: [`Versions::is_known`] says whether this crate
    /// decodes them all).
    pub const fn from_bits(bits: u32) -> Versions {
        Versions(bits)
    }

    /// The bitmap word.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The set of `wire` versions (each below 32).
    pub fn of(wire: &[u8]) -> Versions {
        Versions(wire.iter().fold(0, |b, &v| b | 1 << (v % 32)))
    }

    /// Whether wire version `v` is in the set.
    pub const fn has(self, v: u8) -> bool {
        v < 32 && self.0 & (1 << v) != 0
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every version in the set is one this crate decodes (1.0, 1.3).
    pub const fn is_known(self) -> bool {
        self.0 & !Versions::BOTH.0 == 0
    }

    /// The wire versions in the set, lowest first.
    pub fn wire(self) -> impl Iterator<Item = u8> {
        (0..32u8).filter(move |&v| self.has(v))
    }

    /// The names of the known versions in the set, lowest first ("1.0", "1.3").
    pub fn names(self) -> Vec<&'static str> {
        [(OFP10, "1.0"), (OFP13, "1.3")].into_iter().filter(|&(v, _)| self.has(v)).map(|(_, n)| n).collect()
    }

    /// The version of a switch's HELLO header when it offers this set: 1.3 when offered (its
    /// HELLO then carries the bitmap), else 1.0.
    pub const fn hello_version(self) -> u8 {
        if self.has(OFP13) {
            OFP13
        } else {
            OFP10
        }
    }
}

impl std::ops::BitOr for Versions {
    type Output = Versions;
    fn bitor(self, o: Versions) -> Versions {
        Versions(self.0 | o.0)
    }
}

impl std::fmt::Debug for Versions {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Versions({:#x})", self.0)
    }
}

/// `{:#x}`: the bitmap word.
impl std::fmt::LowerHex for Versions {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        std::fmt::LowerHex::fmt(&self.0, f)
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
    fn versions_are_the_bitmap_word() {
        assert_eq!(Versions::BOTH.bits(), 0x12);
        assert_eq!(Versions::OF10.bits(), 2);
        assert_eq!(Versions::OF13.bits(), 16);
        assert_eq!(Versions::of(&[OFP10, OFP13]), Versions::BOTH);
        assert_eq!(Versions::OF10 | Versions::OF13, Versions::BOTH);
        assert_eq!(vec![Versions::BOTH.bits()], bitmap_of(&Versions::BOTH.wire().collect::<Vec<_>>()));
        assert_eq!(Versions::BOTH.wire().collect::<Vec<_>>(), [OFP10, OFP13]);
        assert!(Versions::OF13.has(OFP13) && !Versions::OF13.has(OFP10) && !Versions::BOTH.has(40));
        assert_eq!((Versions::BOTH.hello_version(), Versions::OF10.hello_version()), (OFP13, OFP10));
        assert!(Versions::BOTH.is_known() && !Versions::from_bits(1 << 5).is_known());
        assert!(Versions::default().is_empty() && !Versions::OF10.is_empty());
        assert_eq!(format!("{:#x}", Versions::BOTH), "0x12");
        assert_eq!((Versions::BOTH.names(), Versions::OF13.names()), (vec!["1.0", "1.3"], vec!["1.3"]));
    }

    #[test]
    fn layout_is_1_0_only_for_0x01() {
        assert_eq!(Version::layout(OFP10), Version::V10);
        assert_eq!([OFP13, 5, 6, 0].map(Version::layout), [Version::V13; 4]);
    }
}
