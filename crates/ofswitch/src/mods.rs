//! Group-mod, meter-mod and table-mod: applied to the switch's tables or refused with the
//! error Open vSwitch sends (`group`, `meter`). A group-mod or meter-mod ofwire cannot read is
//! refused too (a bucket → GROUP_MOD_FAILED / BAD_BUCKET; a band → METER_MOD_FAILED /
//! BAD_BAND), and the session goes on, as on Open vSwitch.
//!
//! A group or meter deleted takes the flows that name it (as Open vSwitch; FLOW_REMOVED with
//! reason GROUP_DELETE, or DELETE for a meter: 1.3 has no METER_DELETE reason).
//!
//! Table-mod (1.3): its config bits are deprecated in 1.3 and Open vSwitch takes them without
//! effect; so does this switch, for a table it has (or OFPTT_ALL). Another table →
//! TABLE_MOD_FAILED / BAD_TABLE.

use crate::emit;
use crate::flow_table::Entry;
use crate::switch::{Event, Switch};
use ofwire::error_names::{error_type, group_mod_failed, meter_mod_failed, table_mod_failed};
use ofwire::flow_mod::flags;
use ofwire::flow_removed::reason as removed;
use ofwire::HEADER_LEN;
use ofwire::{Action, GroupMod, Instruction, MeterMod, MsgType};

impl Switch {
    /// Group-mod, meter-mod or table-mod from channel `ch` (1.3 only: 1.0 has none of them).
    pub(crate) fn on_mod(&mut self, now: u64, ch: usize, kind: MsgType, xid: u32, msg: &[u8], outs: &mut [Vec<u8>]) -> Event {
        let body = &msg[HEADER_LEN..];
        let (groups_before, meters_before) = (self.groups.map.len(), self.meters.map.len());
        let refused = match kind {
            MsgType::GroupMod => match GroupMod::parse(body) {
                Ok(gm) => self.groups.apply(&gm, now).err().map(|c| (error_type::v13::GROUP_MOD_FAILED, c)),
                Err(_) => Some((error_type::v13::GROUP_MOD_FAILED, group_mod_failed::BAD_BUCKET)),
            },
            MsgType::MeterMod => match MeterMod::parse(body) {
                Ok(mm) => self.meters.apply(&mm, now).err().map(|c| (error_type::v13::METER_MOD_FAILED, c)),
                Err(_) => Some((error_type::v13::METER_MOD_FAILED, meter_mod_failed::BAD_BAND)),
            },
            _ => match body.first() {
                Some(&t) if t == 0xff || t < self.cfg.n_tables => None,
                _ => Some((error_type::v13::TABLE_MOD_FAILED, table_mod_failed::BAD_TABLE)),
            },
        };
        if self.groups.map.len() < groups_before || self.meters.map.len() < meters_before {
            self.drop_dangling(now, outs);
        }
        match refused {
            Some((ty, code)) => {
                emit::error(&mut outs[ch], msg[0], xid, ty, code, msg);
                Event::Refused { kind, ty, code }
            }
            None => Event::Control(kind),
        }
    }

    /// Remove the flows naming a group or meter that is gone.
    fn drop_dangling(&mut self, now: u64, outs: &mut [Vec<u8>]) {
        let (groups, meters) = (&self.groups, &self.meters);
        let removed = self.flows.remove_where(|e| {
            names_missing_group(e, groups) || e.instructions.iter().any(|i| matches!(i, Instruction::Meter(m) if !meters.exists(*m)))
        });
        let reasons: Vec<u8> =
            removed.iter().map(|e| if names_missing_group(e, groups) { removed::GROUP_DELETE } else { removed::DELETE }).collect();
        for (e, reason) in removed.into_iter().zip(reasons) {
            if e.flags & flags::SEND_FLOW_REM != 0 {
                self.flow_removed(now, &e, reason, outs);
            }
        }
    }
}

/// Whether an entry's actions (1.0) or instructions (1.3) name a group that does not exist.
fn names_missing_group(e: &Entry, groups: &crate::group::Groups) -> bool {
    let lists = e.instructions.iter().filter_map(|i| match i {
        Instruction::ApplyActions(a) | Instruction::WriteActions(a) => Some(a.as_slice()),
        _ => None,
    });
    std::iter::once(e.actions.as_slice()).chain(lists).flatten().any(|x| matches!(x, Action::Group(g) if !groups.exists(*g)))
}
