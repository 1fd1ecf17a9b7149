//! OFPT_PACKET_OUT: the controller sends a frame (or a buffered one) out through actions.
//!
//! 1.0 (§5.3.6): `buffer_id, in_port:16, actions_len:16`, actions, frame.
//! 1.3 (§7.3.7): `buffer_id, in_port:32, actions_len:16, pad[6]`, actions, frame.
//!
//! `Packet<T>` is the zero-copy view for the hot path: after `new_checked` succeeds no
//! accessor panics, and `actions()`/`data()` split the body where `actions_len` says (which
//! `new_checked` has verified lies inside the message).

use crate::action::{actions_len, emit_actions, parse_actions, Action};
use crate::bytes::{Reader, Writer};
use crate::error::{Error, Result};
use crate::header::Header;
use crate::msg_type::MsgType;
use crate::version::Version;
use core::fmt;

mod field {
    pub const BUFFER_ID: core::ops::Range<usize> = 8..12;
    pub const ACTIONS_LEN10: usize = 14;
    pub const ACTIONS10: usize = 16;
    pub const ACTIONS_LEN13: usize = 16;
    pub const ACTIONS13: usize = 24;
}

/// The buffer id of `msg`, a whole message whose header the caller has already read as a
/// packet-out (it follows the header in both versions); `None` when the message is shorter.
/// For a receiver's hot path, as `flow_mod::buffer_id_of`.
#[inline]
pub fn buffer_id_of(msg: &[u8]) -> Option<u32> {
    msg.get(field::BUFFER_ID).map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

/// Where the frame of `msg` starts (after the actions, as `actions_len` says), a whole message
/// whose header the caller has already read as a packet-out of `version`; `None` when the
/// message ends before `actions_len`. The offset is not checked against the message's end.
#[inline]
pub fn data_at(msg: &[u8], version: Version) -> Option<usize> {
    let (len_at, actions_at) = match version {
        Version::V10 => (field::ACTIONS_LEN10, field::ACTIONS10),
        Version::V13 => (field::ACTIONS_LEN13, field::ACTIONS13),
    };
    msg.get(len_at..len_at + 2).map(|b| actions_at + u16::from_be_bytes([b[0], b[1]]) as usize)
}

/// Zero-copy view of a whole packet-out message (header included).
#[derive(Debug, Clone)]
pub struct Packet<T: AsRef<[u8]>> {
    buffer: T,
    version: Version,
}

impl<T: AsRef<[u8]>> Packet<T> {
    /// Checks version, type, the header length against the buffer and `actions_len`.
    pub fn new_checked(buffer: T) -> Result<Packet<T>> {
        let h = Header::new_checked(buffer.as_ref())?;
        h.check_len()?;
        let version = Version::from_wire(h.version()).ok_or(Error::BadVersion(h.version()))?;
        if h.msg_type() != MsgType::PacketOut.code(version) {
            return Err(Error::BadLength { what: "packet-out type", len: h.msg_type() as usize });
        }
        let p = Packet { buffer, version };
        let have = p.buffer.as_ref().len();
        let fixed = p.actions_at();
        if have < fixed {
            return Err(Error::Truncated { need: fixed, have });
        }
        if fixed + p.actions_len() as usize > have {
            return Err(Error::BadLength { what: "packet-out actions_len", len: p.actions_len() as usize });
        }
        Ok(p)
    }

    #[inline]
    fn b(&self) -> &[u8] {
        self.buffer.as_ref()
    }
    #[inline]
    fn actions_at(&self) -> usize {
        match self.version {
            Version::V10 => field::ACTIONS10,
            Version::V13 => field::ACTIONS13,
        }
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
        let b = &self.b()[field::BUFFER_ID];
        u32::from_be_bytes([b[0], b[1], b[2], b[3]])
    }
    #[inline]
    pub fn in_port(&self) -> u32 {
        let b = self.b();
        match self.version {
            Version::V10 => u16::from_be_bytes([b[12], b[13]]) as u32,
            Version::V13 => u32::from_be_bytes([b[12], b[13], b[14], b[15]]),
        }
    }
    #[inline]
    pub fn actions_len(&self) -> u16 {
        let b = self.b();
        let at = match self.version {
            Version::V10 => field::ACTIONS_LEN10,
            Version::V13 => field::ACTIONS_LEN13,
        };
        u16::from_be_bytes([b[at], b[at + 1]])
    }
    /// The raw action list.
    #[inline]
    pub fn actions(&self) -> &[u8] {
        let at = self.actions_at();
        &self.b()[at..at + self.actions_len() as usize]
    }
    /// The frame to send (empty when the frame is buffered).
    #[inline]
    pub fn data(&self) -> &[u8] {
        &self.b()[self.actions_at() + self.actions_len() as usize..]
    }
}

/// A packet-out value; `in_port` is 16 bits on the 1.0 wire.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PacketOut {
    pub buffer_id: u32,
    pub in_port: u32,
    pub actions: Vec<Action>,
    pub data: Vec<u8>,
}

impl PacketOut {
    pub fn parse(v: Version, body: &[u8]) -> Result<PacketOut> {
        let mut r = Reader::new(body);
        let buffer_id = r.u32()?;
        let in_port = match v {
            Version::V10 => r.u16()? as u32,
            Version::V13 => r.u32()?,
        };
        let alen = r.u16()? as usize;
        if v == Version::V13 {
            r.skip(6)?;
        }
        let actions = parse_actions(v, r.take(alen)?)?;
        Ok(PacketOut { buffer_id, in_port, actions, data: r.rest().to_vec() })
    }

    fn fixed_len(v: Version) -> usize {
        match v {
            Version::V10 => 8,
            Version::V13 => 16,
        }
    }

    pub fn buffer_len(&self, v: Version) -> usize {
        Self::fixed_len(v) + actions_len(v, &self.actions) + self.data.len()
    }

    pub fn emit(&self, v: Version, buf: &mut [u8]) {
        let alen = actions_len(v, &self.actions);
        let mut w = Writer::new(buf);
        w.u32(self.buffer_id);
        match v {
            Version::V10 => {
                w.u16(self.in_port as u16);
                w.u16(alen as u16);
            }
            Version::V13 => {
                w.u32(self.in_port);
                w.u16(alen as u16);
                w.zeros(6);
            }
        }
        emit_actions(v, &self.actions, w.rest());
        w.advance(alen);
        w.bytes(&self.data);
    }
}

impl fmt::Display for PacketOut {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "packet_out buffer_id=0x{:x} in_port={} actions={:?} data_len={}",
            self.buffer_id,
            self.in_port,
            self.actions,
            self.data.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{Body, Message};

    #[test]
    fn view_agrees_with_repr() {
        for v in [Version::V10, Version::V13] {
            let po =
                PacketOut { buffer_id: 0x1234, in_port: 2, actions: vec![Action::Output { port: 1, max_len: 0 }], data: vec![1, 2, 3] };
            let bytes = Message { version: v.wire(), xid: 9, body: Body::PacketOut(po.clone()) }.to_vec();
            let p = Packet::new_checked(&bytes[..]).unwrap();
            assert_eq!((p.xid(), p.buffer_id(), p.in_port(), p.data()), (9, 0x1234, 2, &[1u8, 2, 3][..]));
            assert_eq!(parse_actions(v, p.actions()).unwrap(), po.actions);
            assert_eq!(buffer_id_of(&bytes), Some(p.buffer_id()));
            assert_eq!(data_at(&bytes, v).map(|at| &bytes[at..]), Some(p.data()));
            assert_eq!((buffer_id_of(&bytes[..11]), data_at(&bytes[..p.actions_at() - 7], v)), (None, None), "short");
        }
    }

    #[test]
    fn actions_len_beyond_message() {
        let mut bytes = Message { version: 4, xid: 1, body: Body::PacketOut(PacketOut::default()) }.to_vec();
        bytes[17] = 8;
        assert!(matches!(Packet::new_checked(&bytes[..]), Err(Error::BadLength { .. })));
        assert!(Message::parse(&bytes).is_err());
    }
}
