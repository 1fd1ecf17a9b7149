//! OFPT_FLOW_MOD: add, modify or delete flow entries.
//!
//! 1.0 (§5.3.3): `ofp_match(40), cookie, command:16, idle, hard, priority, buffer_id,
//! out_port:16, flags`, then actions. 1.3 (§7.3.4.1): `cookie, cookie_mask, table_id,
//! command:8, idle, hard, priority, buffer_id, out_port:32, out_group, flags, pad[2]`, then
//! an OXM match and instructions.
//!
//! `Packet<T>` is the zero-copy view (after `new_checked` no accessor panics; on a mutable
//! buffer `set_xid` and `set_buffer_id` patch a written flow-mod, e.g. a template, in place);
//! `FlowMod` is the value. Fields a version lacks are ignored when writing that version and zero/empty
//! when reading it.

use crate::action::{actions_len, emit_actions, parse_actions, Action};
use crate::bytes::{Reader, Writer};
use crate::error::{Error, Result};
use crate::header::Header;
use crate::instruction::{emit_instructions, instructions_len, parse_instructions, Instruction};
use crate::match10::{Match10, MATCH10_LEN};
use crate::msg_type::MsgType;
use crate::oxm::OxmMatch;
use crate::version::Version;
use core::fmt;

/// Flow-mod commands (OFPFC_*).
pub mod command {
    pub const ADD: u16 = 0;
    pub const MODIFY: u16 = 1;
    pub const MODIFY_STRICT: u16 = 2;
    pub const DELETE: u16 = 3;
    pub const DELETE_STRICT: u16 = 4;
}

/// Flow-mod flags (OFPFF_*, OF1.0 §5.3.3, OF1.3 §7.3.4.1).
pub mod flags {
    pub const SEND_FLOW_REM: u16 = 1;
    pub const CHECK_OVERLAP: u16 = 2;
    /// 1.3 only (in 1.0 this bit is EMERG).
    pub const RESET_COUNTS: u16 = 4;
}

/// OFPTT_ALL: a flow-mod delete or a stats request over every table (1.3).
pub const TABLE_ALL: u8 = 0xff;
/// OFPG_ANY: `out_group` that filters nothing (1.3).
pub const GROUP_ANY: u32 = 0xffff_ffff;

mod field10 {
    pub const COMMAND: usize = 56;
    pub const PRIORITY: usize = 62;
    pub const BUFFER_ID: usize = 64;
    pub const END: usize = 72;
}
mod field13 {
    pub const COMMAND: usize = 25;
    pub const PRIORITY: usize = 30;
    pub const BUFFER_ID: usize = 32;
    pub const END: usize = 56;
}

/// The buffer id of `msg`, a whole message whose header the caller has already read as a
/// flow-mod of `version` (a receiver's hot path: no second header check); `None` when the
/// message is shorter than a flow-mod's fixed part. Equal to `Packet::new_checked(msg)?.buffer_id()`
/// for every message that passes those header checks.
#[inline]
pub fn buffer_id_of(msg: &[u8], version: Version) -> Option<u32> {
    let (at, end) = buffer_id_at(version);
    if msg.len() < end {
        return None;
    }
    Some(u32::from_be_bytes([msg[at], msg[at + 1], msg[at + 2], msg[at + 3]]))
}

/// The command of `msg` (`command::*`), a whole message whose header the caller has already
/// read as a flow-mod of `version` (1.0: 16 bits, 1.3: 8 bits); `None` when the message ends
/// before the field. Like `buffer_id_of`, for a receiver's hot path.
#[inline]
pub fn command_of(msg: &[u8], version: Version) -> Option<u16> {
    match version {
        Version::V10 => msg.get(field10::COMMAND..field10::COMMAND + 2).map(|b| u16::from_be_bytes([b[0], b[1]])),
        Version::V13 => msg.get(field13::COMMAND).map(|&c| u16::from(c)),
    }
}

/// Where a flow-mod of `version` holds its buffer id (4 bytes from the offset), and the length
/// of its fixed part (a shorter message has none): for a receiver that reads many flow-mods of
/// one version, looked up once (`buffer_id_of` is this plus the length check, per message).
#[inline]
pub const fn buffer_id_at(version: Version) -> (usize, usize) {
    match version {
        Version::V10 => (field10::BUFFER_ID, field10::END),
        Version::V13 => (field13::BUFFER_ID, field13::END),
    }
}

/// Zero-copy view of a whole flow-mod message (header included).
#[derive(Debug, Clone)]
pub struct Packet<T: AsRef<[u8]>> {
    buffer: T,
    version: Version,
}

impl<T: AsRef<[u8]>> Packet<T> {
    /// Wraps a flow-mod without checking it, for one this program wrote itself. The version
    /// is 1.0 if the header says so and 1.3 otherwise; accessors may panic on a buffer
    /// `new_checked` would refuse.
    #[inline]
    pub fn new_unchecked(buffer: T) -> Packet<T> {
        let version = if buffer.as_ref()[0] == Version::V10.wire() { Version::V10 } else { Version::V13 };
        Packet { buffer, version }
    }

    pub fn into_inner(self) -> T {
        self.buffer
    }

    /// Checks version, type, the header length against the buffer, and the fixed part.
    pub fn new_checked(buffer: T) -> Result<Packet<T>> {
        let h = Header::new_checked(buffer.as_ref())?;
        h.check_len()?;
        let version = Version::from_wire(h.version()).ok_or(Error::BadVersion(h.version()))?;
        if h.msg_type() != MsgType::FlowMod.code(version) {
            return Err(Error::BadLength { what: "flow-mod type", len: h.msg_type() as usize });
        }
        let need = match version {
            Version::V10 => field10::END,
            Version::V13 => field13::END,
        };
        let have = buffer.as_ref().len();
        if have < need {
            return Err(Error::Truncated { need, have });
        }
        Ok(Packet { buffer, version })
    }

    #[inline]
    fn u16_at(&self, at: usize) -> u16 {
        let b = self.buffer.as_ref();
        u16::from_be_bytes([b[at], b[at + 1]])
    }
    #[inline]
    fn u32_at(&self, at: usize) -> u32 {
        let b = self.buffer.as_ref();
        u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
    }
    #[inline]
    pub fn version(&self) -> Version {
        self.version
    }
    #[inline]
    pub fn xid(&self) -> u32 {
        self.u32_at(4)
    }
    #[inline]
    pub fn buffer_id(&self) -> u32 {
        match self.version {
            Version::V10 => self.u32_at(field10::BUFFER_ID),
            Version::V13 => self.u32_at(field13::BUFFER_ID),
        }
    }
    #[inline]
    pub fn command(&self) -> u16 {
        match self.version {
            Version::V10 => self.u16_at(field10::COMMAND),
            Version::V13 => self.buffer.as_ref()[field13::COMMAND] as u16,
        }
    }
    #[inline]
    pub fn priority(&self) -> u16 {
        match self.version {
            Version::V10 => self.u16_at(field10::PRIORITY),
            Version::V13 => self.u16_at(field13::PRIORITY),
        }
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> Packet<T> {
    #[inline]
    fn set_u32_at(&mut self, at: usize, v: u32) {
        self.buffer.as_mut()[at..at + 4].copy_from_slice(&v.to_be_bytes())
    }
    #[inline]
    pub fn set_xid(&mut self, xid: u32) {
        self.set_u32_at(4, xid)
    }
    #[inline]
    pub fn set_buffer_id(&mut self, id: u32) {
        match self.version {
            Version::V10 => self.set_u32_at(field10::BUFFER_ID, id),
            Version::V13 => self.set_u32_at(field13::BUFFER_ID, id),
        }
    }
}

/// A flow-mod value. `match10`/`actions` are 1.0's; `cookie_mask`, `table_id`, `out_group`,
/// `match_` and `instructions` are 1.3's. `out_port` is 16 bits on the 1.0 wire and
/// `command` 8 bits on the 1.3 wire.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FlowMod {
    pub cookie: u64,
    pub cookie_mask: u64,
    pub table_id: u8,
    pub command: u16,
    pub idle_timeout: u16,
    pub hard_timeout: u16,
    pub priority: u16,
    pub buffer_id: u32,
    pub out_port: u32,
    pub out_group: u32,
    pub flags: u16,
    pub match10: Match10,
    pub match_: OxmMatch,
    pub actions: Vec<Action>,
    pub instructions: Vec<Instruction>,
}

impl FlowMod {
    pub fn parse(v: Version, body: &[u8]) -> Result<FlowMod> {
        let mut fm = FlowMod::default();
        match v {
            Version::V10 => {
                let (rest, m) = Match10::parse(body)?;
                fm.match10 = m;
                let mut r = Reader::new(rest);
                fm.cookie = r.u64()?;
                fm.command = r.u16()?;
                fm.idle_timeout = r.u16()?;
                fm.hard_timeout = r.u16()?;
                fm.priority = r.u16()?;
                fm.buffer_id = r.u32()?;
                fm.out_port = r.u16()? as u32;
                fm.flags = r.u16()?;
                fm.actions = parse_actions(v, r.rest())?;
            }
            Version::V13 => {
                let mut r = Reader::new(body);
                fm.cookie = r.u64()?;
                fm.cookie_mask = r.u64()?;
                fm.table_id = r.u8()?;
                fm.command = r.u8()? as u16;
                fm.idle_timeout = r.u16()?;
                fm.hard_timeout = r.u16()?;
                fm.priority = r.u16()?;
                fm.buffer_id = r.u32()?;
                fm.out_port = r.u32()?;
                fm.out_group = r.u32()?;
                fm.flags = r.u16()?;
                r.skip(2)?;
                let (rest, m) = OxmMatch::parse(r.rest())?;
                fm.match_ = m;
                fm.instructions = parse_instructions(rest)?;
            }
        }
        Ok(fm)
    }

    pub fn buffer_len(&self, v: Version) -> usize {
        match v {
            Version::V10 => MATCH10_LEN + 24 + actions_len(v, &self.actions),
            Version::V13 => 40 + self.match_.buffer_len() + instructions_len(&self.instructions),
        }
    }

    pub fn emit(&self, v: Version, buf: &mut [u8]) {
        match v {
            Version::V10 => {
                let rest = self.match10.emit(buf);
                let mut w = Writer::new(rest);
                w.u64(self.cookie);
                w.u16(self.command);
                w.u16(self.idle_timeout);
                w.u16(self.hard_timeout);
                w.u16(self.priority);
                w.u32(self.buffer_id);
                w.u16(self.out_port as u16);
                w.u16(self.flags);
                emit_actions(v, &self.actions, w.rest());
            }
            Version::V13 => {
                let mut w = Writer::new(buf);
                w.u64(self.cookie);
                w.u64(self.cookie_mask);
                w.u8(self.table_id);
                w.u8(self.command as u8);
                w.u16(self.idle_timeout);
                w.u16(self.hard_timeout);
                w.u16(self.priority);
                w.u32(self.buffer_id);
                w.u32(self.out_port);
                w.u32(self.out_group);
                w.u16(self.flags);
                w.zeros(2);
                let rest = self.match_.emit(w.rest());
                emit_instructions(&self.instructions, rest);
            }
        }
    }
}

impl fmt::Display for FlowMod {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "flow_mod command={} table={} priority={} buffer_id=0x{:x} cookie=0x{:x}",
            self.command, self.table_id, self.priority, self.buffer_id, self.cookie
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{Body, Message};
    use crate::oxm::Oxm;

    fn sample() -> FlowMod {
        FlowMod {
            cookie: 0x1122334455667788,
            command: command::ADD,
            idle_timeout: 10,
            hard_timeout: 30,
            priority: 0x8000,
            buffer_id: 0x2a,
            out_port: 0xffff,
            ..Default::default()
        }
    }

    #[test]
    fn command_of_reads_the_command_of_either_version() {
        for v in [Version::V10, Version::V13] {
            for c in [command::ADD, command::MODIFY_STRICT, command::DELETE_STRICT] {
                let bytes = Message::new(v, 1, Body::FlowMod(FlowMod { command: c, ..sample() })).to_vec();
                assert_eq!(command_of(&bytes, v), Some(c));
                let (at, _) = buffer_id_at(v);
                assert_eq!(command_of(&bytes[..at - 8], v), None, "short");
            }
        }
    }

    #[test]
    fn view_reads_buffer_id_in_both_versions() {
        let mut f10 = sample();
        f10.match10 = Match10 { in_port: 1, ..Match10::all() };
        f10.actions = vec![Action::Output { port: 2, max_len: 0 }];
        let mut f13 = sample();
        f13.out_port = 0xffffffff;
        f13.out_group = 0xffffffff;
        f13.table_id = 1;
        f13.match_ = OxmMatch::new(vec![Oxm::in_port(1)]);
        f13.instructions = vec![Instruction::ApplyActions(vec![Action::Output { port: 2, max_len: 0 }])];
        for (v, fm) in [(Version::V10, f10), (Version::V13, f13)] {
            let msg = Message { version: v.wire(), xid: 77, body: Body::FlowMod(fm) };
            let bytes = msg.to_vec();
            let p = Packet::new_checked(&bytes[..]).unwrap();
            assert_eq!((p.xid(), p.buffer_id(), p.priority(), p.command()), (77, 0x2a, 0x8000, 0));
            assert_eq!(buffer_id_of(&bytes, v), Some(0x2a), "{v:?}");
            let end = if v == Version::V10 { field10::END } else { field13::END };
            assert_eq!(buffer_id_of(&bytes[..end - 1], v), None, "{v:?}: shorter than the fixed part");
            assert_eq!(Message::parse(&bytes).unwrap(), msg);
        }
    }

    #[test]
    fn setters_patch_a_template_into_the_message_written_directly() {
        for v in [Version::V10, Version::V13] {
            let mut tpl = Message::new(v, 1, Body::FlowMod(sample())).to_vec();
            tpl.push(0xa5);
            let n = tpl.len() - 1;
            let mut p = Packet::new_checked(&mut tpl[..n]).unwrap();
            p.set_xid(0xdead_beef);
            p.set_buffer_id(0x0102_0304);
            let mut want = Message::new(v, 0xdead_beef, Body::FlowMod(FlowMod { buffer_id: 0x0102_0304, ..sample() })).to_vec();
            want.push(0xa5);
            assert_eq!(tpl, want, "{v:?}");
            assert_eq!(Packet::new_unchecked(&tpl[..n]).version(), v);
        }
    }

    #[test]
    fn short_fixed_part() {
        let bytes = [4u8, 14, 0, 16, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0];
        assert_eq!(Packet::new_checked(&bytes[..]).unwrap_err(), Error::Truncated { need: 56, have: 16 });
    }
}
