//! Actions of OpenFlow 1.0 (§5.2.4) and 1.3 (§7.2.5) as one enum.
//!
//! The two versions number their actions differently, so `parse` and `emit` take the
//! version. Variants that exist in one version only are written with that version's code
//! and layout whatever `version` says; putting them in a message of the other version is the
//! caller's mistake and decodes there as `Unknown`. Unknown codes round-trip unchanged.

use crate::bytes::{pad8, Reader, Writer};
use crate::error::{Error, Result};
use crate::oxm::Oxm;
use crate::version::Version;

/// One action.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Action {
    /// Both versions; the port is 16 bits on the 1.0 wire.
    Output {
        port: u32,
        max_len: u16,
    },
    /// 1.0 only.
    Enqueue {
        port: u16,
        queue_id: u32,
    },
    SetVlanVid(u16),
    SetVlanPcp(u8),
    StripVlan,
    SetDlSrc([u8; 6]),
    SetDlDst([u8; 6]),
    SetNwSrc(u32),
    SetNwDst(u32),
    SetNwTos(u8),
    SetTpSrc(u16),
    SetTpDst(u16),
    /// 1.3 only.
    CopyTtlOut,
    CopyTtlIn,
    SetMplsTtl(u8),
    DecMplsTtl,
    PushVlan(u16),
    PopVlan,
    PushMpls(u16),
    PopMpls(u16),
    SetQueue(u32),
    Group(u32),
    SetNwTtl(u8),
    DecNwTtl,
    SetField(Oxm),
    PushPbb(u16),
    PopPbb,
    /// Vendor (1.0) / experimenter (1.3) action: the id, then the remaining bytes.
    Experimenter {
        experimenter: u32,
        data: Vec<u8>,
    },
    /// A code this crate does not know: everything after the 4-byte TLV header.
    Unknown {
        typ: u16,
        data: Vec<u8>,
    },
}

mod code10 {
    pub const OUTPUT: u16 = 0;
    pub const SET_VLAN_VID: u16 = 1;
    pub const SET_VLAN_PCP: u16 = 2;
    pub const STRIP_VLAN: u16 = 3;
    pub const SET_DL_SRC: u16 = 4;
    pub const SET_DL_DST: u16 = 5;
    pub const SET_NW_SRC: u16 = 6;
    pub const SET_NW_DST: u16 = 7;
    pub const SET_NW_TOS: u16 = 8;
    pub const SET_TP_SRC: u16 = 9;
    pub const SET_TP_DST: u16 = 10;
    pub const ENQUEUE: u16 = 11;
}

mod code13 {
    pub const OUTPUT: u16 = 0;
    pub const COPY_TTL_OUT: u16 = 11;
    pub const COPY_TTL_IN: u16 = 12;
    pub const SET_MPLS_TTL: u16 = 15;
    pub const DEC_MPLS_TTL: u16 = 16;
    pub const PUSH_VLAN: u16 = 17;
    pub const POP_VLAN: u16 = 18;
    pub const PUSH_MPLS: u16 = 19;
    pub const POP_MPLS: u16 = 20;
    pub const SET_QUEUE: u16 = 21;
    pub const GROUP: u16 = 22;
    pub const SET_NW_TTL: u16 = 23;
    pub const DEC_NW_TTL: u16 = 24;
    pub const SET_FIELD: u16 = 25;
    pub const PUSH_PBB: u16 = 26;
    pub const POP_PBB: u16 = 27;
}

const EXPERIMENTER: u16 = 0xffff;

/// OFPCML_NO_BUFFER: an output-to-controller `max_len` asking for the whole frame, unbuffered.
pub const MAX_LEN_NO_BUFFER: u16 = 0xffff;

impl Action {
    /// The wire type code and total TLV length in `version`.
    fn code_len(&self, v: Version) -> (u16, usize) {
        use Action::*;
        match self {
            Output { .. } if v == Version::V10 => (code10::OUTPUT, 8),
            Output { .. } => (code13::OUTPUT, 16),
            Enqueue { .. } => (code10::ENQUEUE, 16),
            SetVlanVid(_) => (code10::SET_VLAN_VID, 8),
            SetVlanPcp(_) => (code10::SET_VLAN_PCP, 8),
            StripVlan => (code10::STRIP_VLAN, 8),
            SetDlSrc(_) => (code10::SET_DL_SRC, 16),
            SetDlDst(_) => (code10::SET_DL_DST, 16),
            SetNwSrc(_) => (code10::SET_NW_SRC, 8),
            SetNwDst(_) => (code10::SET_NW_DST, 8),
            SetNwTos(_) => (code10::SET_NW_TOS, 8),
            SetTpSrc(_) => (code10::SET_TP_SRC, 8),
            SetTpDst(_) => (code10::SET_TP_DST, 8),
            CopyTtlOut => (code13::COPY_TTL_OUT, 8),
            CopyTtlIn => (code13::COPY_TTL_IN, 8),
            SetMplsTtl(_) => (code13::SET_MPLS_TTL, 8),
            DecMplsTtl => (code13::DEC_MPLS_TTL, 8),
            PushVlan(_) => (code13::PUSH_VLAN, 8),
            PopVlan => (code13::POP_VLAN, 8),
            PushMpls(_) => (code13::PUSH_MPLS, 8),
            PopMpls(_) => (code13::POP_MPLS, 8),
            SetQueue(_) => (code13::SET_QUEUE, 8),
            Group(_) => (code13::GROUP, 8),
            SetNwTtl(_) => (code13::SET_NW_TTL, 8),
            DecNwTtl => (code13::DEC_NW_TTL, 8),
            SetField(oxm) => (code13::SET_FIELD, pad8(4 + oxm.buffer_len())),
            PushPbb(_) => (code13::PUSH_PBB, 8),
            PopPbb => (code13::POP_PBB, 8),
            Experimenter { data, .. } => (EXPERIMENTER, 8 + data.len()),
            Unknown { typ, data } => (*typ, 4 + data.len()),
        }
    }

    pub fn buffer_len(&self, v: Version) -> usize {
        self.code_len(v).1
    }

    /// Parses one action; returns the bytes after it.
    pub fn parse(v: Version, buf: &[u8]) -> Result<(&[u8], Action)> {
        let mut r = Reader::new(buf);
        let typ = r.u16()?;
        let len = r.u16()? as usize;
        if len < 4 || !len.is_multiple_of(8) {
            return Err(Error::BadLength { what: "action length", len });
        }
        let body = r.take(len - 4)?;
        let action = parse_body(v, typ, body)?;
        if action.buffer_len(v) != len {
            return Err(Error::BadLength { what: "action length", len });
        }
        Ok((r.rest(), action))
    }

    /// Writes the action; returns the rest of `buf`.
    pub fn emit<'a>(&self, v: Version, buf: &'a mut [u8]) -> &'a mut [u8] {
        let (typ, len) = self.code_len(v);
        let mut w = Writer::new(&mut buf[..len]);
        w.u16(typ);
        w.u16(len as u16);
        emit_body(self, v, &mut w);
        let left = len - w.pos();
        w.zeros(left);
        &mut buf[len..]
    }
}

fn parse_body(v: Version, typ: u16, body: &[u8]) -> Result<Action> {
    let mut r = Reader::new(body);
    if typ == EXPERIMENTER {
        let experimenter = r.u32()?;
        return Ok(Action::Experimenter { experimenter, data: r.rest().to_vec() });
    }
    let a = match v {
        Version::V10 => parse10(typ, &mut r)?,
        Version::V13 => parse13(typ, &mut r)?,
    };
    Ok(a.unwrap_or_else(|| Action::Unknown { typ, data: body.to_vec() }))
}

fn parse10(typ: u16, r: &mut Reader) -> Result<Option<Action>> {
    use code10::*;
    Ok(Some(match typ {
        OUTPUT => Action::Output { port: r.u16()? as u32, max_len: r.u16()? },
        SET_VLAN_VID => Action::SetVlanVid(r.u16()?),
        SET_VLAN_PCP => Action::SetVlanPcp(r.u8()?),
        STRIP_VLAN => Action::StripVlan,
        SET_DL_SRC => Action::SetDlSrc(r.array()?),
        SET_DL_DST => Action::SetDlDst(r.array()?),
        SET_NW_SRC => Action::SetNwSrc(r.u32()?),
        SET_NW_DST => Action::SetNwDst(r.u32()?),
        SET_NW_TOS => Action::SetNwTos(r.u8()?),
        SET_TP_SRC => Action::SetTpSrc(r.u16()?),
        SET_TP_DST => Action::SetTpDst(r.u16()?),
        ENQUEUE => {
            let port = r.u16()?;
            r.skip(6)?;
            Action::Enqueue { port, queue_id: r.u32()? }
        }
        _ => return Ok(None),
    }))
}

fn parse13(typ: u16, r: &mut Reader) -> Result<Option<Action>> {
    use code13::*;
    Ok(Some(match typ {
        OUTPUT => Action::Output { port: r.u32()?, max_len: r.u16()? },
        COPY_TTL_OUT => Action::CopyTtlOut,
        COPY_TTL_IN => Action::CopyTtlIn,
        SET_MPLS_TTL => Action::SetMplsTtl(r.u8()?),
        DEC_MPLS_TTL => Action::DecMplsTtl,
        PUSH_VLAN => Action::PushVlan(r.u16()?),
        POP_VLAN => Action::PopVlan,
        PUSH_MPLS => Action::PushMpls(r.u16()?),
        POP_MPLS => Action::PopMpls(r.u16()?),
        SET_QUEUE => Action::SetQueue(r.u32()?),
        GROUP => Action::Group(r.u32()?),
        SET_NW_TTL => Action::SetNwTtl(r.u8()?),
        DEC_NW_TTL => Action::DecNwTtl,
        SET_FIELD => Action::SetField(Oxm::parse(r.rest())?.1),
        PUSH_PBB => Action::PushPbb(r.u16()?),
        POP_PBB => Action::PopPbb,
        _ => return Ok(None),
    }))
}

fn emit_body(a: &Action, v: Version, w: &mut Writer) {
    use Action::*;
    match a {
        Output { port, max_len } if v == Version::V10 => {
            w.u16(*port as u16);
            w.u16(*max_len);
        }
        Output { port, max_len } => {
            w.u32(*port);
            w.u16(*max_len);
        }
        Enqueue { port, queue_id } => {
            w.u16(*port);
            w.zeros(6);
            w.u32(*queue_id);
        }
        SetVlanVid(x) | SetTpSrc(x) | SetTpDst(x) | PushVlan(x) | PushMpls(x) | PopMpls(x) | PushPbb(x) => w.u16(*x),
        SetVlanPcp(x) | SetNwTos(x) | SetMplsTtl(x) | SetNwTtl(x) => w.u8(*x),
        SetDlSrc(m) | SetDlDst(m) => w.bytes(m),
        SetNwSrc(x) | SetNwDst(x) | SetQueue(x) | Group(x) => w.u32(*x),
        SetField(oxm) => {
            oxm.emit(w.rest());
            w.advance(oxm.buffer_len());
        }
        Experimenter { experimenter, data } => {
            w.u32(*experimenter);
            w.bytes(data);
        }
        Unknown { data, .. } => w.bytes(data),
        StripVlan | CopyTtlOut | CopyTtlIn | DecMplsTtl | PopVlan | DecNwTtl | PopPbb => {}
    }
}

/// Parses a whole action list that fills `buf`.
pub fn parse_actions(v: Version, mut buf: &[u8]) -> Result<Vec<Action>> {
    let mut out = Vec::new();
    while !buf.is_empty() {
        let (rest, a) = Action::parse(v, buf)?;
        out.push(a);
        buf = rest;
    }
    Ok(out)
}

pub fn actions_len(v: Version, actions: &[Action]) -> usize {
    actions.iter().map(|a| a.buffer_len(v)).sum()
}

/// Writes an action list; returns the rest of `buf`.
pub fn emit_actions<'a>(v: Version, actions: &[Action], mut buf: &'a mut [u8]) -> &'a mut [u8] {
    for a in actions {
        buf = a.emit(v, buf);
    }
    buf
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oxm::OxmField;

    #[test]
    fn output_in_both_versions() {
        let a = Action::Output { port: 0xfffffffd, max_len: 0xffe5 };
        let mut buf = [0xa5u8; 16];
        a.emit(Version::V13, &mut buf);
        assert_eq!(buf, [0, 0, 0, 16, 0xff, 0xff, 0xff, 0xfd, 0xff, 0xe5, 0, 0, 0, 0, 0, 0]);
        let o10 = Action::Output { port: 0xfffd, max_len: 128 };
        let mut b10 = [0xa5u8; 8];
        o10.emit(Version::V10, &mut b10);
        assert_eq!(b10, [0, 0, 0, 8, 0xff, 0xfd, 0, 128]);
        assert_eq!(Action::parse(Version::V10, &b10).unwrap().1, o10);
    }

    #[test]
    fn list_round_trips() {
        for (v, list) in [
            (Version::V10, vec![Action::SetDlSrc([1, 2, 3, 4, 5, 6]), Action::Enqueue { port: 2, queue_id: 7 }, Action::StripVlan]),
            (
                Version::V13,
                vec![
                    Action::PushVlan(0x8100),
                    Action::SetField(Oxm::basic(OxmField::VlanVid, &[0x10, 0x05])),
                    Action::Group(9),
                    Action::Unknown { typ: 99, data: vec![1, 2, 3, 4] },
                ],
            ),
        ] {
            let n = actions_len(v, &list);
            let mut buf = vec![0xa5u8; n];
            assert!(emit_actions(v, &list, &mut buf).is_empty());
            assert_eq!(parse_actions(v, &buf).unwrap(), list);
        }
    }

    #[test]
    fn strict_lengths() {
        // An output action claiming 12 bytes.
        assert!(matches!(Action::parse(Version::V13, &[0, 0, 0, 12, 0, 0, 0, 1, 0, 0, 0, 0]), Err(Error::BadLength { .. })));
        // An output action claiming 8 bytes in 1.3 (needs 16).
        assert_eq!(Action::parse(Version::V13, &[0, 0, 0, 8, 0, 0, 0, 1]).unwrap_err(), Error::Truncated { need: 6, have: 4 });
        // A length of zero must not loop.
        assert!(parse_actions(Version::V10, &[0, 0, 0, 0]).is_err());
        assert!(matches!(Action::parse(Version::V10, &[0, 0, 0, 16, 0, 1]), Err(Error::Truncated { .. })));
    }
}
