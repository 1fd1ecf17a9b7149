//! The decoder's typed errors: each one says what is wrong with the bytes.

use core::fmt;

/// Why a message (or a part of one) was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The structure being read needs `need` bytes but only `have` are there. Both count
    /// from the start of the innermost structure (the message, its body, a TLV, ...).
    Truncated { need: usize, have: usize },
    /// A length field (`what`) says `len`, which is impossible here.
    BadLength { what: &'static str, len: usize },
    /// The header's version is not one this codec decodes (only hello accepts any version).
    BadVersion(u8),
    /// An OXM TLV whose payload length does not fit its field (`field` is the 7-bit field code).
    BadOxm { field: u8, len: usize },
    /// A match of a type other than OFPMT_OXM in a 1.3 message.
    BadMatchType(u16),
    /// Bytes left over after a structure that should fill its container exactly.
    TrailingBytes { what: &'static str, len: usize },
    /// Version negotiation found no version both sides speak.
    NoCommonVersion,
    /// A frame inside a packet-in/out that is not what it claims (etherparse's reason or ours).
    BadFrame(&'static str),
    /// A setter found no `what` at the fixed place it writes (e.g. a 1.3 packet-in whose
    /// match does not start with in_port); the buffer is left unchanged.
    NoField(&'static str),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            Error::Truncated { need, have } => write!(f, "truncated: need {need} bytes, have {have}"),
            Error::BadLength { what, len } => write!(f, "bad length {len} in {what}"),
            Error::BadVersion(v) => write!(f, "unsupported OpenFlow version 0x{v:02x}"),
            Error::BadOxm { field, len } => write!(f, "bad OXM field {field} with payload length {len}"),
            Error::BadMatchType(t) => write!(f, "unsupported match type {t}"),
            Error::TrailingBytes { what, len } => write!(f, "{len} unexpected bytes after {what}"),
            Error::NoCommonVersion => write!(f, "no OpenFlow version in common"),
            Error::BadFrame(why) => write!(f, "bad frame: {why}"),
            Error::NoField(what) => write!(f, "no {what} at its fixed place"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = core::result::Result<T, Error>;
