//! The binary framing of frames between workers (the JSON-lines protocol stays for control).
//!
//! A stream carries records back to back, each one frame:
//!
//! ```text
//! offset  size  field
//!      0     4  len      bytes after this field (20 + frame length), big-endian
//!      4     4  to       switch index (network-wide) that receives it
//!      8     4  port     its port
//!     12     4  link     link index
//!     16     1  dir      0: a → b, 1: b → a
//!     17     3  (zero)
//!     20     8  sent_ns  transmit instant (CLOCK_MONOTONIC ns: same clock for the workers of one machine)
//!     28     …  frame
//! ```
//! A worker appends records for a peer into one buffer and writes it once per turn of its loop,
//! so many frames cost one syscall. `Decoder` takes bytes as they come (any split) and yields
//! whole records; `encode` never panics, and `Decoder` never panics on any input: a record
//! with a length below 24 or above `MAX_RECORD` is an error.

use super::router::Frame;

pub const HEADER: usize = 28;
/// Jumbo frame plus header: anything longer is a broken stream.
pub const MAX_RECORD: usize = 16 * 1024;

pub fn encode(f: &Frame, out: &mut Vec<u8>) {
    let len = (HEADER - 4 + f.data.len()) as u32;
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(&f.to.to_be_bytes());
    out.extend_from_slice(&f.port.to_be_bytes());
    out.extend_from_slice(&f.link.to_be_bytes());
    out.extend_from_slice(&[f.dir, 0, 0, 0]);
    out.extend_from_slice(&f.sent_ns.to_be_bytes());
    out.extend_from_slice(&f.data);
}

#[derive(Debug, PartialEq, Eq)]
pub struct BadRecord {
    pub len: usize,
}

impl std::fmt::Display for BadRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "bad frame record between workers: length {} (must be {}..={})", self.len, HEADER - 4, MAX_RECORD)
    }
}

/// Reassembles records from a byte stream.
#[derive(Default)]
pub struct Decoder {
    buf: Vec<u8>,
    pos: usize,
}

fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

impl Decoder {
    pub fn feed(&mut self, bytes: &[u8]) {
        if self.pos > 0 && self.pos >= self.buf.len() / 2 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        self.buf.extend_from_slice(bytes);
    }

    /// The next whole record, if one is there.
    pub fn next_frame(&mut self) -> Result<Option<Frame>, BadRecord> {
        let b = &self.buf[self.pos..];
        if b.len() < 4 {
            return Ok(None);
        }
        let len = be32(b) as usize;
        if !(HEADER - 4..=MAX_RECORD).contains(&len) {
            return Err(BadRecord { len });
        }
        if b.len() < 4 + len {
            return Ok(None);
        }
        let f = Frame {
            to: be32(&b[4..]),
            port: be32(&b[8..]),
            link: be32(&b[12..]),
            dir: b[16] & 1,
            sent_ns: u64::from_be_bytes(b[20..28].try_into().unwrap()),
            data: b[HEADER..4 + len].to_vec(),
        };
        self.pos += 4 + len;
        Ok(Some(f))
    }

    /// Bytes held that are not a whole record yet.
    #[cfg(test)]
    pub fn pending(&self) -> usize {
        self.buf.len() - self.pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(i: u32, n: usize) -> Frame {
        Frame { to: i, port: i + 1, link: 7 * i, dir: (i & 1) as u8, sent_ns: 1 << 40 | i as u64, data: (0..n).map(|x| x as u8).collect() }
    }

    #[test]
    fn records_round_trip_through_any_split() {
        let frames: Vec<Frame> = (0..20).map(|i| frame(i, 14 + 37 * i as usize)).collect();
        let mut bytes = vec![];
        for f in &frames {
            encode(f, &mut bytes);
        }
        assert_eq!(&bytes[..4], &(24 + 14u32).to_be_bytes());
        for chunk in [1, 3, 28, 29, 500, bytes.len()] {
            let mut d = Decoder::default();
            let mut got = vec![];
            for c in bytes.chunks(chunk) {
                d.feed(c);
                while let Some(f) = d.next_frame().unwrap() {
                    got.push(f);
                }
            }
            assert_eq!(got, frames, "chunk {chunk}");
            assert_eq!(d.pending(), 0);
        }
    }

    #[test]
    fn a_broken_length_is_an_error_not_a_panic() {
        let mut d = Decoder::default();
        d.feed(&[0, 0, 0, 3, 1, 2, 3]);
        assert_eq!(d.next_frame(), Err(BadRecord { len: 3 }));
        let mut d = Decoder::default();
        d.feed(&[0xff; 64]);
        assert!(d.next_frame().unwrap_err().to_string().starts_with("bad frame record between workers"));
    }
}
