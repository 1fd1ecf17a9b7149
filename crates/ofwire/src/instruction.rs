//! OpenFlow 1.3 instructions (§7.2.4): goto-table, write-metadata, write/apply/clear
//! actions, meter, experimenter; unknown codes round-trip.

use crate::action::{actions_len, emit_actions, parse_actions, Action};
use crate::bytes::{Reader, Writer};
use crate::error::{Error, Result};
use crate::version::Version;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Instruction {
    GotoTable(u8),
    WriteMetadata { metadata: u64, mask: u64 },
    WriteActions(Vec<Action>),
    ApplyActions(Vec<Action>),
    ClearActions,
    Meter(u32),
    Experimenter { experimenter: u32, data: Vec<u8> },
    Unknown { typ: u16, data: Vec<u8> },
}

const GOTO_TABLE: u16 = 1;
const WRITE_METADATA: u16 = 2;
const WRITE_ACTIONS: u16 = 3;
const APPLY_ACTIONS: u16 = 4;
const CLEAR_ACTIONS: u16 = 5;
const METER: u16 = 6;
const EXPERIMENTER: u16 = 0xffff;

impl Instruction {
    fn code_len(&self) -> (u16, usize) {
        match self {
            Instruction::GotoTable(_) => (GOTO_TABLE, 8),
            Instruction::WriteMetadata { .. } => (WRITE_METADATA, 24),
            Instruction::WriteActions(a) => (WRITE_ACTIONS, 8 + actions_len(Version::V13, a)),
            Instruction::ApplyActions(a) => (APPLY_ACTIONS, 8 + actions_len(Version::V13, a)),
            Instruction::ClearActions => (CLEAR_ACTIONS, 8),
            Instruction::Meter(_) => (METER, 8),
            Instruction::Experimenter { data, .. } => (EXPERIMENTER, 8 + data.len()),
            Instruction::Unknown { typ, data } => (*typ, 4 + data.len()),
        }
    }

    pub fn buffer_len(&self) -> usize {
        self.code_len().1
    }

    /// Parses one instruction; returns the bytes after it.
    pub fn parse(buf: &[u8]) -> Result<(&[u8], Instruction)> {
        let mut r = Reader::new(buf);
        let typ = r.u16()?;
        let len = r.u16()? as usize;
        if len < 8 || !len.is_multiple_of(8) {
            return Err(Error::BadLength { what: "instruction length", len });
        }
        let body = r.take(len - 4)?;
        let mut b = Reader::new(body);
        let ins = match typ {
            GOTO_TABLE => Instruction::GotoTable(b.u8()?),
            WRITE_METADATA => {
                b.skip(4)?;
                Instruction::WriteMetadata { metadata: b.u64()?, mask: b.u64()? }
            }
            WRITE_ACTIONS => Instruction::WriteActions(parse_actions(Version::V13, &body[4..])?),
            APPLY_ACTIONS => Instruction::ApplyActions(parse_actions(Version::V13, &body[4..])?),
            CLEAR_ACTIONS => Instruction::ClearActions,
            METER => Instruction::Meter(b.u32()?),
            EXPERIMENTER => Instruction::Experimenter { experimenter: b.u32()?, data: b.rest().to_vec() },
            _ => Instruction::Unknown { typ, data: body.to_vec() },
        };
        if ins.buffer_len() != len {
            return Err(Error::BadLength { what: "instruction length", len });
        }
        Ok((r.rest(), ins))
    }

    /// Writes the instruction; returns the rest of `buf`.
    pub fn emit<'a>(&self, buf: &'a mut [u8]) -> &'a mut [u8] {
        let (typ, len) = self.code_len();
        let mut w = Writer::new(&mut buf[..len]);
        w.u16(typ);
        w.u16(len as u16);
        match self {
            Instruction::GotoTable(t) => {
                w.u8(*t);
                w.zeros(3);
            }
            Instruction::WriteMetadata { metadata, mask } => {
                w.zeros(4);
                w.u64(*metadata);
                w.u64(*mask);
            }
            Instruction::WriteActions(a) | Instruction::ApplyActions(a) => {
                w.zeros(4);
                emit_actions(Version::V13, a, w.rest());
            }
            Instruction::ClearActions => w.zeros(4),
            Instruction::Meter(m) => w.u32(*m),
            Instruction::Experimenter { experimenter, data } => {
                w.u32(*experimenter);
                w.bytes(data);
            }
            Instruction::Unknown { data, .. } => w.bytes(data),
        }
        &mut buf[len..]
    }
}

/// Parses an instruction list that fills `buf`.
pub fn parse_instructions(mut buf: &[u8]) -> Result<Vec<Instruction>> {
    let mut out = Vec::new();
    while !buf.is_empty() {
        let (rest, i) = Instruction::parse(buf)?;
        out.push(i);
        buf = rest;
    }
    Ok(out)
}

pub fn instructions_len(list: &[Instruction]) -> usize {
    list.iter().map(Instruction::buffer_len).sum()
}

pub fn emit_instructions<'a>(list: &[Instruction], mut buf: &'a mut [u8]) -> &'a mut [u8] {
    for i in list {
        buf = i.emit(buf);
    }
    buf
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apply_actions_layout() {
        let i = Instruction::ApplyActions(vec![Action::Output { port: 0xfffffffd, max_len: 0xffff }]);
        let mut buf = [0xa5u8; 24];
        i.emit(&mut buf);
        assert_eq!(&buf[..8], &[0, 4, 0, 24, 0, 0, 0, 0]);
        assert_eq!(&buf[8..12], &[0, 0, 0, 16]);
        assert_eq!(Instruction::parse(&buf).unwrap().1, i);
    }

    #[test]
    fn list_round_trip() {
        let list = vec![
            Instruction::Meter(3),
            Instruction::WriteMetadata { metadata: 0x1122, mask: 0xffff },
            Instruction::ClearActions,
            Instruction::WriteActions(vec![Action::Group(1)]),
            Instruction::GotoTable(2),
            Instruction::Experimenter { experimenter: 0x2320, data: vec![0; 8] },
            Instruction::Unknown { typ: 77, data: vec![1, 2, 3, 4] },
        ];
        let mut buf = vec![0xa5u8; instructions_len(&list)];
        assert!(emit_instructions(&list, &mut buf).is_empty());
        assert_eq!(parse_instructions(&buf).unwrap(), list);
    }

    #[test]
    fn bad_lengths() {
        assert!(parse_instructions(&[0, 1, 0, 0]).is_err());
        assert!(parse_instructions(&[0, 1, 0, 16, 1, 0, 0, 0]).is_err());
        assert!(matches!(parse_instructions(&[0, 6, 0, 16, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]), Err(Error::BadLength { .. })));
    }
}
