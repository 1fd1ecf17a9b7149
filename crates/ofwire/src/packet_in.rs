//! OFPT_PACKET_IN: the switch hands a frame to the controller.
//!
//! 1.0 (§5.4.1): `buffer_id, total_len, in_port:16, reason, pad` then the frame at byte 18.
//! 1.3 (§7.4.1): `buffer_id, total_len, reason, table_id, cookie, ofp_match, pad[2]`, frame.
//!
//! Two levels: `PacketIn` is the owned value; `PacketInRef` borrows the frame and writes a
//! whole message (header included) into a caller's buffer with no allocation, for the load
//! engine's hot path. Its 1.3 match is just `in_port`, as Open vSwitch sends for table misses.
//! `Packet<T>` reads a packet-in without copying (after `new_checked` no accessor panics) and,
//! on a mutable buffer, patches one in place: `set_xid`, `set_buffer_id`, `set_in_port`,
//! `data_mut`. The setters never change a length, so a message that passed `new_checked`
//! still does after any of them.
//!
//! In 1.3 the in_port has no fixed place of its own: `in_port()` and `set_in_port` use the
//! match's first OXM when it is an unmasked `in_port` (bytes 28..36: class 0x8000, field 0,
//! length 4, then the value), which is what `PacketInRef` writes and what switches send for
//! a table miss. Any other match reads as `None` and makes `set_in_port` an error.

use crate::bytes::{pad8, Reader, Writer};
use crate::error::{Error, Result};
use crate::header::{write_header, Header, HEADER_LEN};
use crate::msg_type::MsgType;
use crate::oxm::{Oxm, OxmMatch};
use crate::version::Version;
use core::fmt;

/// Packet-in reasons (OFPR_*); 1.0 has only the first two.
pub mod reason {
    pub const NO_MATCH: u8 = 0;
    pub const ACTION: u8 = 1;
    pub const INVALID_TTL: u8 = 2;
}

/// `buffer_id` meaning "the frame is not buffered, it is all in `data`".
pub const NO_BUFFER: u32 = 0xffff_ffff;

/// A packet-in. `in_port` is used by 1.0 only; in 1.3 the port is the match's `in_port`
/// (and `table_id`, `cookie`, `match_` are 1.3 only).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PacketIn {
    pub buffer_id: u32,
    pub total_len: u16,
    pub reason: u8,
    pub in_port: u16,
    pub table_id: u8,
    pub cookie: u64,
    pub match_: OxmMatch,
    pub data: Vec<u8>,
}

impl PacketIn {
    /// The ingress port whatever the version.
    pub fn port(&self, v: Version) -> Option<u32> {
        match v {
            Version::V10 => Some(self.in_port as u32),
            Version::V13 => self.match_.in_port(),
        }
    }

    /// Parses the body (the bytes after the header).
    pub fn parse(v: Version, body: &[u8]) -> Result<PacketIn> {
        let mut r = Reader::new(body);
        let buffer_id = r.u32()?;
        let total_len = r.u16()?;
        match v {
            Version::V10 => {
                let in_port = r.u16()?;
                let reason = r.u8()?;
                r.skip(1)?;
                let data = r.rest().to_vec();
                Ok(PacketIn { buffer_id, total_len, reason, in_port, data, ..Default::default() })
            }
            Version::V13 => {
                let reason = r.u8()?;
                let table_id = r.u8()?;
                let cookie = r.u64()?;
                let (rest, match_) = OxmMatch::parse(r.rest())?;
                let mut r = Reader::new(rest);
                r.skip(2)?;
                let data = r.rest().to_vec();
                Ok(PacketIn { buffer_id, total_len, reason, in_port: 0, table_id, cookie, match_, data })
            }
        }
    }

    pub fn buffer_len(&self, v: Version) -> usize {
        match v {
            Version::V10 => 10 + self.data.len(),
            Version::V13 => 16 + self.match_.buffer_len() + 2 + self.data.len(),
        }
    }

    pub fn emit(&self, v: Version, buf: &mut [u8]) {
        let mut w = Writer::new(buf);
        w.u32(self.buffer_id);
        w.u16(self.total_len);
        match v {
            Version::V10 => {
                w.u16(self.in_port);
                w.u8(self.reason);
                w.zeros(1);
            }
            Version::V13 => {
                w.u8(self.reason);
                w.u8(self.table_id);
                w.u64(self.cookie);
                self.match_.emit(w.rest());
                w.advance(self.match_.buffer_len());
                w.zeros(2);
            }
        }
        w.bytes(&self.data);
    }
}

impl fmt::Display for PacketIn {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "packet_in buffer_id=0x{:x} total_len={} reason={} in_port={} {} data_len={}",
            self.buffer_id,
            self.total_len,
            self.reason,
            self.in_port,
            self.match_,
            self.data.len()
        )
    }
}

/// A packet-in that borrows its frame, written straight into a buffer (the hot path).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PacketInRef<'a> {
    pub buffer_id: u32,
    pub total_len: u16,
    pub reason: u8,
    /// 16 bits on the 1.0 wire; the match's in_port in 1.3.
    pub in_port: u32,
    pub table_id: u8,
    pub cookie: u64,
    pub data: &'a [u8],
}

// 1.3: ofp_match with one in_port OXM is 4 + 8 = 12 bytes, padded to 16.
const IN_PORT_MATCH_LEN: usize = 16;

mod field {
    pub type Field = core::ops::Range<usize>;
    pub const XID: Field = 4..8;
    pub const BUFFER_ID: Field = 8..12;
    pub const TOTAL_LEN: Field = 12..14;
    pub const IN_PORT_10: Field = 14..16;
    pub const REASON_10: usize = 16;
    pub const DATA_10: usize = 18;
    pub const REASON_13: usize = 14;
    pub const MATCH_LEN_13: Field = 26..28;
    /// The first OXM's header when it is an unmasked in_port (class 0x8000, field 0, len 4).
    pub const FIRST_OXM_13: Field = 28..32;
    pub const IN_PORT_OXM: [u8; 4] = [0x80, 0x00, 0x00, 0x04];
    pub const IN_PORT_13: Field = 32..36;
}

impl<'a> PacketInRef<'a> {
    /// A table-miss packet-in of an unbuffered frame.
    pub fn miss(in_port: u32, data: &'a [u8]) -> Self {
        PacketInRef { buffer_id: NO_BUFFER, total_len: data.len() as u16, reason: reason::NO_MATCH, in_port, table_id: 0, cookie: 0, data }
    }

    /// Size of the whole message, header included.
    #[inline]
    pub fn message_len(&self, v: Version) -> usize {
        match v {
            Version::V10 => HEADER_LEN + 10 + self.data.len(),
            Version::V13 => HEADER_LEN + 16 + IN_PORT_MATCH_LEN + 2 + self.data.len(),
        }
    }

    /// Writes the whole message into `buf[..message_len(v)]` and returns that length.
    /// Panics if `buf` is shorter.
    #[inline]
    pub fn emit(&self, v: Version, xid: u32, buf: &mut [u8]) -> usize {
        let len = self.message_len(v);
        let buf = &mut buf[..len];
        write_header(buf, v.wire(), MsgType::PacketIn.code(v), len, xid);
        buf[8..12].copy_from_slice(&self.buffer_id.to_be_bytes());
        buf[12..14].copy_from_slice(&self.total_len.to_be_bytes());
        let data_at = match v {
            Version::V10 => {
                buf[14..16].copy_from_slice(&(self.in_port as u16).to_be_bytes());
                buf[16] = self.reason;
                buf[17] = 0;
                18
            }
            Version::V13 => {
                buf[14] = self.reason;
                buf[15] = self.table_id;
                buf[16..24].copy_from_slice(&self.cookie.to_be_bytes());
                buf[24..28].copy_from_slice(&[0, 1, 0, 12]);
                buf[28..32].copy_from_slice(&[0x80, 0x00, 0x00, 0x04]);
                buf[32..36].copy_from_slice(&self.in_port.to_be_bytes());
                buf[36..42].fill(0);
                42
            }
        };
        buf[data_at..].copy_from_slice(self.data);
        len
    }

    /// Appends the whole message to `out` (e.g. a reused write buffer).
    #[inline]
    pub fn emit_append(&self, v: Version, xid: u32, out: &mut Vec<u8>) {
        let start = out.len();
        out.resize(start + self.message_len(v), 0);
        self.emit(v, xid, &mut out[start..]);
    }

    /// The owned value this writes (the same bytes through `PacketIn::emit`).
    pub fn to_owned(&self, v: Version) -> PacketIn {
        let match_ = match v {
            Version::V10 => OxmMatch::default(),
            Version::V13 => OxmMatch::new(vec![Oxm::in_port(self.in_port)]),
        };
        PacketIn {
            buffer_id: self.buffer_id,
            total_len: self.total_len,
            reason: self.reason,
            in_port: if v == Version::V10 { self.in_port as u16 } else { 0 },
            table_id: if v == Version::V13 { self.table_id } else { 0 },
            cookie: if v == Version::V13 { self.cookie } else { 0 },
            match_,
            data: self.data.to_vec(),
        }
    }
}

/// Zero-copy view of a whole packet-in message (header included).
#[derive(Debug, Clone)]
pub struct Packet<T: AsRef<[u8]>> {
    buffer: T,
    version: Version,
    data_at: usize,
}

/// Where the frame starts: fixed in 1.0, after the padded match in 1.3.
#[inline]
fn data_offset(version: Version, b: &[u8]) -> usize {
    match version {
        Version::V10 => field::DATA_10,
        Version::V13 => {
            let mlen = u16::from_be_bytes([b[field::MATCH_LEN_13.start], b[field::MATCH_LEN_13.start + 1]]) as usize;
            24 + pad8(mlen) + 2
        }
    }
}

impl<T: AsRef<[u8]>> Packet<T> {
    /// Wraps a packet-in without checking it, for a message this program wrote itself (e.g. a
    /// template copied from `PacketInRef`). The version is 1.0 if the header says so and 1.3
    /// otherwise. Accessors may panic on a buffer `new_checked` would refuse.
    #[inline]
    pub fn new_unchecked(buffer: T) -> Packet<T> {
        let b = buffer.as_ref();
        let version = if b[0] == Version::V10.wire() { Version::V10 } else { Version::V13 };
        let data_at = data_offset(version, b);
        Packet { buffer, version, data_at }
    }

    pub fn into_inner(self) -> T {
        self.buffer
    }

    /// Checks version, type, length and (1.3) that the match and its padding fit.
    pub fn new_checked(buffer: T) -> Result<Packet<T>> {
        let h = Header::new_checked(buffer.as_ref())?;
        h.check_len()?;
        let version = Version::from_wire(h.version()).ok_or(Error::BadVersion(h.version()))?;
        if h.msg_type() != MsgType::PacketIn.code(version) {
            return Err(Error::BadLength { what: "packet-in type", len: h.msg_type() as usize });
        }
        let b = buffer.as_ref();
        if version == Version::V13 {
            if b.len() < 28 {
                return Err(Error::Truncated { need: 28, have: b.len() });
            }
            let mlen = u16::from_be_bytes([b[26], b[27]]) as usize;
            if mlen < 4 {
                return Err(Error::BadLength { what: "ofp_match.length", len: mlen });
            }
        }
        let data_at = data_offset(version, b);
        if b.len() < data_at {
            return Err(Error::Truncated { need: data_at, have: b.len() });
        }
        Ok(Packet { buffer, version, data_at })
    }

    #[inline]
    fn b(&self) -> &[u8] {
        self.buffer.as_ref()
    }
    #[inline]
    pub fn version(&self) -> Version {
        self.version
    }
    #[inline]
    pub fn xid(&self) -> u32 {
        u32::from_be_bytes([self.b()[4], self.b()[5], self.b()[6], self.b()[7]])
    }
    #[inline]
    pub fn buffer_id(&self) -> u32 {
        u32::from_be_bytes([self.b()[8], self.b()[9], self.b()[10], self.b()[11]])
    }
    #[inline]
    pub fn total_len(&self) -> u16 {
        u16::from_be_bytes([self.b()[12], self.b()[13]])
    }
    #[inline]
    pub fn reason(&self) -> u8 {
        match self.version {
            Version::V10 => self.b()[16],
            Version::V13 => self.b()[14],
        }
    }
    /// Whether a 1.3 match starts with an unmasked in_port OXM (see the module doc).
    #[inline]
    fn has_in_port_13(&self) -> bool {
        let b = self.b();
        u16::from_be_bytes([b[field::MATCH_LEN_13.start], b[field::MATCH_LEN_13.start + 1]]) >= 12
            && b[field::FIRST_OXM_13] == field::IN_PORT_OXM
    }
    /// The ingress port: the 1.0 field, or in 1.3 the match's in_port OXM when it is the
    /// first field (as switches send it); `None` otherwise (use `PacketIn` for the rest).
    #[inline]
    pub fn in_port(&self) -> Option<u32> {
        let b = self.b();
        match self.version {
            Version::V10 => Some(u16::from_be_bytes([b[14], b[15]]) as u32),
            Version::V13 if self.has_in_port_13() => Some(u32::from_be_bytes([b[32], b[33], b[34], b[35]])),
            Version::V13 => None,
        }
    }
    /// The frame.
    #[inline]
    pub fn data(&self) -> &[u8] {
        &self.b()[self.data_at..]
    }
}

/// Where a packet-in's per-request fields lie, for a program that writes one message and then
/// patches many copies of it (a load generator's template). Found once by [`Packet::patch_points`];
/// [`PatchPoints::apply`] then writes xid, buffer id and ingress port with no version dispatch
/// and no match parsing per copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatchPoints {
    /// The ingress port's offset: the 1.0 field (16 bits) or the leading 1.3 in_port OXM's value.
    pub in_port_at: usize,
    /// Whether the port is 32 bits (1.3) rather than 16 (1.0).
    pub in_port_wide: bool,
    /// The frame's offset.
    pub data_at: usize,
}

impl PatchPoints {
    /// Write xid, buffer id and in_port into `msg`, a copy of the message these points were
    /// found in. A 1.0 port must fit 16 bits (its high bits are dropped).
    #[inline(always)]
    pub fn apply(&self, msg: &mut [u8], xid: u32, buffer_id: Option<u32>, in_port: u32) {
        msg[field::XID].copy_from_slice(&xid.to_be_bytes());
        if let Some(id) = buffer_id {
            msg[field::BUFFER_ID].copy_from_slice(&id.to_be_bytes());
        }
        let at = self.in_port_at;
        if self.in_port_wide {
            msg[at..at + 4].copy_from_slice(&in_port.to_be_bytes());
        } else {
            debug_assert!(in_port <= u16::MAX as u32, "a 1.0 in_port is 16 bits");
            msg[at..at + 2].copy_from_slice(&(in_port as u16).to_be_bytes());
        }
    }
}

impl<T: AsRef<[u8]>> Packet<T> {
    /// This message's [`PatchPoints`]; `None` for a 1.3 match that does not start with an
    /// unmasked in_port OXM (its port cannot be patched in place).
    pub fn patch_points(&self) -> Option<PatchPoints> {
        let (in_port_at, in_port_wide) = match self.version {
            Version::V10 => (field::IN_PORT_10.start, false),
            Version::V13 if self.has_in_port_13() => (field::IN_PORT_13.start, true),
            Version::V13 => return None,
        };
        Some(PatchPoints { in_port_at, in_port_wide, data_at: self.data_at })
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> Packet<T> {
    #[inline]
    pub fn set_xid(&mut self, xid: u32) {
        self.buffer.as_mut()[field::XID].copy_from_slice(&xid.to_be_bytes())
    }
    #[inline]
    pub fn set_buffer_id(&mut self, id: u32) {
        self.buffer.as_mut()[field::BUFFER_ID].copy_from_slice(&id.to_be_bytes())
    }
    #[inline]
    pub fn set_total_len(&mut self, len: u16) {
        self.buffer.as_mut()[field::TOTAL_LEN].copy_from_slice(&len.to_be_bytes())
    }
    #[inline]
    pub fn set_reason(&mut self, r: u8) {
        let at = match self.version {
            Version::V10 => field::REASON_10,
            Version::V13 => field::REASON_13,
        };
        self.buffer.as_mut()[at] = r
    }
    /// Writes the ingress port: the 16-bit 1.0 field, or in 1.3 the value of the match's
    /// leading in_port OXM (see the module doc). Errors, leaving the buffer as it was, when a
    /// 1.0 port does not fit 16 bits or a 1.3 match does not start with in_port.
    #[inline]
    pub fn set_in_port(&mut self, port: u32) -> Result<()> {
        match self.version {
            Version::V10 => {
                let p = u16::try_from(port).map_err(|_| Error::BadLength { what: "1.0 in_port", len: port as usize })?;
                self.buffer.as_mut()[field::IN_PORT_10].copy_from_slice(&p.to_be_bytes());
            }
            Version::V13 => {
                if !self.has_in_port_13() {
                    return Err(Error::NoField("in_port OXM"));
                }
                self.buffer.as_mut()[field::IN_PORT_13].copy_from_slice(&port.to_be_bytes());
            }
        }
        Ok(())
    }
    /// The frame, to patch in place (its length is fixed by the message's).
    #[inline]
    pub fn data_mut(&mut self) -> &mut [u8] {
        let at = self.data_at;
        &mut self.buffer.as_mut()[at..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{Body, Message};

    #[test]
    fn patch_points_write_what_the_setters_write() {
        let frame: Vec<u8> = (0..64).collect();
        let pi = PacketInRef { buffer_id: 0, total_len: 64, reason: reason::NO_MATCH, in_port: 1, table_id: 0, cookie: 0, data: &frame };
        for v in [Version::V10, Version::V13] {
            let mut tpl = Vec::new();
            pi.emit_append(v, 0, &mut tpl);
            let pp = Packet::new_unchecked(&tpl[..]).patch_points().expect("ofwire writes in_port first");
            let (mut by_setters, mut by_points) = (tpl.clone(), tpl.clone());
            let mut p = Packet::new_unchecked(&mut by_setters[..]);
            p.set_xid(0x0102_0304);
            p.set_buffer_id(0x0a0b_0c0d);
            p.set_in_port(0x1234).unwrap();
            pp.apply(&mut by_points, 0x0102_0304, Some(0x0a0b_0c0d), 0x1234);
            assert_eq!(by_points, by_setters, "{v:?}");
            assert_eq!(pp.data_at, tpl.len() - frame.len(), "{v:?}");
            pp.apply(&mut by_points, 1, None, 2);
            assert_eq!(Packet::new_unchecked(&by_points[..]).buffer_id(), 0x0a0b_0c0d, "None leaves the buffer id");
        }
    }

    #[test]
    fn fast_emit_matches_repr_in_both_versions() {
        let frame: Vec<u8> = (0..64).collect();
        let pi = PacketInRef {
            buffer_id: 0x100,
            total_len: 64,
            reason: reason::ACTION,
            in_port: 7,
            table_id: 3,
            cookie: 0xc0ffee,
            data: &frame,
        };
        for v in [Version::V10, Version::V13] {
            let mut fast = vec![0xa5u8; pi.message_len(v) + 4];
            let n = pi.emit(v, 42, &mut fast);
            assert_eq!(n, pi.message_len(v));
            let msg = Message { version: v.wire(), xid: 42, body: Body::PacketIn(pi.to_owned(v)) };
            assert_eq!(&fast[..n], &msg.to_vec()[..]);
            assert_eq!(Message::parse(&fast[..n]).unwrap(), msg);
            assert_eq!(&fast[n..], &[0xa5; 4]);
        }
    }

    #[test]
    fn view_reads_what_the_fast_path_wrote() {
        let frame = [7u8; 60];
        for v in [Version::V10, Version::V13] {
            let pi = PacketInRef { buffer_id: 9, total_len: 60, reason: reason::ACTION, in_port: 5, table_id: 0, cookie: 0, data: &frame };
            let mut buf = Vec::new();
            pi.emit_append(v, 77, &mut buf);
            let p = Packet::new_checked(&buf[..]).unwrap();
            assert_eq!((p.xid(), p.buffer_id(), p.total_len(), p.reason(), p.in_port(), p.data()), (77, 9, 60, 1, Some(5), &frame[..]));
            assert!(Packet::new_checked(&buf[..buf.len() - 1]).is_err());
        }
        // A 1.3 match whose length runs past the message.
        let mut buf = Vec::new();
        PacketInRef::miss(1, &[]).emit_append(Version::V13, 1, &mut buf);
        buf[27] = 200;
        assert!(matches!(Packet::new_checked(&buf[..]), Err(Error::Truncated { .. })));
    }

    /// Every setter writes exactly its field: a template written with one set of values and
    /// patched to another equals what the writer produces for the other directly.
    #[test]
    fn setters_turn_one_message_into_another() {
        let (f1, f2) = ([1u8; 40], [2u8; 40]);
        let a = PacketInRef { buffer_id: 1, total_len: 100, reason: reason::NO_MATCH, in_port: 3, table_id: 0, cookie: 0, data: &f1 };
        let b = PacketInRef { buffer_id: 0xfedc_ba98, total_len: 200, reason: reason::ACTION, in_port: 0xbeef, data: &f2, ..a };
        for v in [Version::V10, Version::V13] {
            let mut buf = vec![0xa5u8; a.message_len(v) + 3];
            let n = a.emit(v, 5, &mut buf);
            let mut p = Packet::new_checked(&mut buf[..n]).unwrap();
            p.set_xid(0x0102_0304);
            p.set_buffer_id(b.buffer_id);
            p.set_total_len(b.total_len);
            p.set_reason(b.reason);
            p.set_in_port(b.in_port).unwrap();
            p.data_mut().copy_from_slice(&f2);
            let mut want = vec![0xa5u8; b.message_len(v) + 3];
            b.emit(v, 0x0102_0304, &mut want);
            assert_eq!(buf, want, "{v:?}");
            let p = Packet::new_unchecked(&buf[..n]);
            assert_eq!((p.version(), p.in_port(), p.buffer_id()), (v, Some(0xbeef), 0xfedc_ba98));
        }
    }

    #[test]
    fn set_in_port_refuses_what_it_cannot_place() {
        let mut buf = vec![0xa5u8; 64];
        let n = PacketInRef::miss(3, &[9; 8]).emit(Version::V10, 1, &mut buf);
        let mut p = Packet::new_checked(&mut buf[..n]).unwrap();
        assert_eq!(p.set_in_port(0x1_0000), Err(Error::BadLength { what: "1.0 in_port", len: 0x1_0000 }));
        assert_eq!(p.in_port(), Some(3));
        // 1.3 with an eth_type first instead of in_port: same length, no in_port to patch.
        let n = PacketInRef::miss(3, &[9; 8]).emit(Version::V13, 1, &mut buf);
        buf[28..36].copy_from_slice(&[0x80, 0x00, 0x0a, 0x02, 0x08, 0x00, 0, 0]);
        let before = buf.clone();
        let mut p = Packet::new_checked(&mut buf[..n]).unwrap();
        assert_eq!(p.in_port(), None);
        assert_eq!(p.set_in_port(7), Err(Error::NoField("in_port OXM")));
        assert_eq!(buf, before);
    }

    #[test]
    fn layout_1_0() {
        let pi = PacketInRef::miss(3, &[0xaa, 0xbb]);
        let mut buf = [0xa5u8; 20];
        pi.emit(Version::V10, 1, &mut buf);
        assert_eq!(buf, [1, 10, 0, 20, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0, 2, 0, 3, 0, 0, 0xaa, 0xbb]);
    }

    #[test]
    fn truncated_1_3_match() {
        let body = [0xff, 0xff, 0xff, 0xff, 0, 64, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 12, 0x80, 0];
        assert!(PacketIn::parse(Version::V13, &body).is_err());
    }
}
