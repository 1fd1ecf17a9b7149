//! Group-mod, meter-mod and table-mod: applied to the switch's tables or refused with the
//! error Open vSwitch sends (`group`, `meter`). A group-mod or meter-mod ofwire cannot read is
//! refused too (a bucket → GROUP_MOD_FAILED / BAD_BUCKET; a band → METER_MOD_FAILED /
//! BAD_BAND), and the session goes on, as on Open vSwitch.
//!
//! Table-mod (1.3): its config bits are deprecated in 1.3 and Open vSwitch takes them without
//! effect; so does this switch, for a table it has (or OFPTT_ALL). Another table →
//! TABLE_MOD_FAILED / BAD_TABLE.

use crate::consts::*;
use crate::emit;
use crate::group::{ET_GROUP_MOD_FAILED, GMF_BAD_BUCKET};
use crate::meter::{ET_METER_MOD_FAILED, MMF_BAD_BAND};
use crate::switch::{Event, Switch};
use ofwire::{GroupMod, MeterMod, MsgType};

pub const ET_TABLE_MOD_FAILED: u16 = 8;
pub const TMF_BAD_TABLE: u16 = 0;

impl Switch {
    /// Group-mod, meter-mod or table-mod from channel `ch` (1.3 only: 1.0 has none of them).
    pub(crate) fn on_mod(&mut self, now: u64, kind: MsgType, xid: u32, msg: &[u8], out: &mut Vec<u8>) -> Event {
        let body = &msg[HEADER_LEN..];
        let refused = match kind {
            MsgType::GroupMod => match GroupMod::parse(body) {
                Ok(gm) => self.groups.apply(&gm, now).err().map(|c| (ET_GROUP_MOD_FAILED, c)),
                Err(_) => Some((ET_GROUP_MOD_FAILED, GMF_BAD_BUCKET)),
            },
            MsgType::MeterMod => match MeterMod::parse(body) {
                Ok(mm) => self.meters.apply(&mm, now).err().map(|c| (ET_METER_MOD_FAILED, c)),
                Err(_) => Some((ET_METER_MOD_FAILED, MMF_BAD_BAND)),
            },
            _ => match body.first() {
                Some(&t) if t == 0xff || t < self.cfg.n_tables => None,
                _ => Some((ET_TABLE_MOD_FAILED, TMF_BAD_TABLE)),
            },
        };
        match refused {
            Some((ty, code)) => {
                emit::error(out, msg[0], xid, ty, code, msg);
                Event::Refused { kind, ty, code }
            }
            None => Event::Control(kind),
        }
    }
}
