//! Bounds-checked big-endian reading and writing used by every `Repr`.
//!
//! `Reader` never reads past its slice: each take checks first and returns
//! `Error::Truncated`. `Writer` indexes its slice directly; every `emit` is handed a buffer
//! of at least `buffer_len()` bytes, so it never runs past the end.

use crate::error::{Error, Result};

pub(crate) struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(buf: &'a [u8]) -> Self {
        Reader { buf, pos: 0 }
    }
    #[inline]
    pub(crate) fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }
    #[inline]
    pub(crate) fn rest(&self) -> &'a [u8] {
        &self.buf[self.pos..]
    }
    #[inline]
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if self.remaining() < n {
            return Err(Error::Truncated { need: self.pos + n, have: self.buf.len() });
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    #[inline]
    pub(crate) fn skip(&mut self, n: usize) -> Result<()> {
        self.take(n).map(|_| ())
    }
    #[inline]
    pub(crate) fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }
    #[inline]
    pub(crate) fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }
    #[inline]
    pub(crate) fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_be_bytes(self.array()?))
    }
    #[inline]
    pub(crate) fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_be_bytes(self.array()?))
    }
    #[inline]
    pub(crate) fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_be_bytes(self.array()?))
    }
    /// A fixed-size, NUL-padded string field up to the first NUL, read as Latin-1 so that
    /// every byte value maps to one char and `Writer::string` gives the same bytes back.
    pub(crate) fn string(&mut self, n: usize) -> Result<String> {
        let raw = self.take(n)?;
        let end = raw.iter().position(|&b| b == 0).unwrap_or(n);
        Ok(raw[..end].iter().map(|&b| b as char).collect())
    }
    /// Fails unless the whole slice was consumed.
    pub(crate) fn finish(&self, what: &'static str) -> Result<()> {
        match self.remaining() {
            0 => Ok(()),
            len => Err(Error::TrailingBytes { what, len }),
        }
    }
}

pub(crate) struct Writer<'a> {
    buf: &'a mut [u8],
    pos: usize,
}

impl<'a> Writer<'a> {
    pub(crate) fn new(buf: &'a mut [u8]) -> Self {
        Writer { buf, pos: 0 }
    }
    #[inline]
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }
    #[inline]
    pub(crate) fn bytes(&mut self, b: &[u8]) {
        self.buf[self.pos..self.pos + b.len()].copy_from_slice(b);
        self.pos += b.len();
    }
    #[inline]
    pub(crate) fn zeros(&mut self, n: usize) {
        self.buf[self.pos..self.pos + n].fill(0);
        self.pos += n;
    }
    #[inline]
    pub(crate) fn u8(&mut self, v: u8) {
        self.bytes(&[v])
    }
    #[inline]
    pub(crate) fn u16(&mut self, v: u16) {
        self.bytes(&v.to_be_bytes())
    }
    #[inline]
    pub(crate) fn u32(&mut self, v: u32) {
        self.bytes(&v.to_be_bytes())
    }
    #[inline]
    pub(crate) fn u64(&mut self, v: u64) {
        self.bytes(&v.to_be_bytes())
    }
    /// A fixed-size string field as Latin-1 (chars above U+00FF become '?'), cut to `n`
    /// bytes, NUL-padded. A name of exactly `n` bytes has no NUL, as the parser accepts.
    pub(crate) fn string(&mut self, s: &str, n: usize) {
        let mut k = 0;
        for c in s.chars().take(n) {
            self.u8(u8::try_from(u32::from(c)).unwrap_or(b'?'));
            k += 1;
        }
        self.zeros(n - k);
    }
    /// The part of the buffer not written yet, for nested `emit` calls; `advance` moves past it.
    #[inline]
    pub(crate) fn rest(&mut self) -> &mut [u8] {
        &mut self.buf[self.pos..]
    }
    #[inline]
    pub(crate) fn advance(&mut self, n: usize) {
        self.pos += n;
    }
}

/// Rounds `n` up to a multiple of 8, the alignment of OpenFlow TLVs.
#[inline]
pub(crate) const fn pad8(n: usize) -> usize {
    (n + 7) & !7
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_round_trip_every_byte() {
        // Found by the fuzzer: non-UTF-8 names must come back as the same bytes.
        let raw: Vec<u8> = (1..=255u8).rev().take(31).chain([0]).collect();
        let s = Reader::new(&raw).string(32).unwrap();
        let mut out = [0xa5u8; 32];
        Writer::new(&mut out).string(&s, 32);
        assert_eq!(&out[..], &raw[..]);
        let mut out = [0xa5u8; 4];
        Writer::new(&mut out).string("é€xyz", 4);
        assert_eq!(out, [0xe9, b'?', b'x', b'y']);
        Writer::new(&mut out).string("a", 4);
        assert_eq!(out, [b'a', 0, 0, 0]);
    }

    #[test]
    fn reader_reports_what_is_missing() {
        let mut r = Reader::new(&[1, 2, 3]);
        assert_eq!(r.u16().unwrap(), 0x0102);
        assert_eq!(r.u32().unwrap_err(), Error::Truncated { need: 6, have: 3 });
        assert_eq!(r.finish("x").unwrap_err(), Error::TrailingBytes { what: "x", len: 1 });
    }
}
