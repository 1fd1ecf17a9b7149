//! A per-switch flow table, filled by flow-mods when the engine asks for one (table-capacity
//! tests), and read back by flow/aggregate stats.
//!
//! Simplifications, written down because a reader would otherwise assume full OpenFlow
//! semantics: matches are compared as raw bytes (no wildcard overlap logic); ADD replaces an entry
//! with the same table, priority and match; MODIFY changes the actions of entries with equal match;
//! DELETE with an empty/all-wildcard match clears the table(s), otherwise removes equal matches;
//! the _STRICT variants also require equal priority.

use crate::consts::*;
use ofwire::action::{actions_len, emit_actions};
use ofwire::instruction::{emit_instructions, instructions_len};
use ofwire::version::Version;
use ofwire::match10::wildcards;
use ofwire::{FlowMod, Match10, OxmMatch};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub table: u8,
    pub priority: u16,
    pub cookie: u64,
    pub idle_timeout: u16,
    pub hard_timeout: u16,
    pub flags: u16,
    /// The match exactly as it came on the wire (OF1.0: 40 bytes; OF1.3: padded ofp_match).
    pub r#match: Vec<u8>,
    /// OF1.0 actions or OF1.3 instructions, raw.
    pub body: Vec<u8>,
    pub installed_ns: u64,
}

impl Entry {
    /// The entry a flow-mod (already decoded by ofwire) describes. The match and the
    /// actions/instructions are kept as ofwire re-encodes them, so equal matches compare equal
    /// byte for byte.
    pub fn from_flow_mod(v: Version, f: &FlowMod, now: u64) -> Entry {
        let (r#match, body) = match v {
            Version::V10 => {
                let mut m = vec![0; f.match10.buffer_len()];
                f.match10.emit(&mut m);
                let mut b = vec![0; actions_len(v, &f.actions)];
                emit_actions(v, &f.actions, &mut b);
                (m, b)
            }
            Version::V13 => {
                let mut m = vec![0; f.match_.buffer_len()];
                f.match_.emit(&mut m);
                let mut b = vec![0; instructions_len(&f.instructions)];
                emit_instructions(&f.instructions, &mut b);
                (m, b)
            }
        };
        Entry {
            table: if v == Version::V10 { 0 } else { f.table_id },
            priority: f.priority,
            cookie: f.cookie,
            idle_timeout: f.idle_timeout,
            hard_timeout: f.hard_timeout,
            flags: f.flags,
            r#match,
            body,
            installed_ns: now,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct FlowTable {
    pub entries: Vec<Entry>,
    pub lookups: u64,
    pub max_entries: usize,
}

/// What a flow-mod did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applied {
    Added,
    Replaced,
    Modified(usize),
    Deleted(usize),
    TableFull,
}

fn is_wildcard_all(version: u8, m: &[u8]) -> bool {
    if version == OFP10 {
        // every field wildcarded (OFPFW_ALL)
        Match10::parse(m).is_ok_and(|(_, m)| m.wildcards & wildcards::ALL == wildcards::ALL)
    } else {
        // an OXM match with no fields
        OxmMatch::parse(m).is_ok_and(|(_, m)| m.fields.is_empty())
    }
}

impl FlowTable {
    pub fn with_capacity(max_entries: usize) -> FlowTable {
        FlowTable { entries: Vec::new(), lookups: 0, max_entries }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn apply(&mut self, version: u8, command: u8, e: Entry) -> Applied {
        let strict = command == FC_MODIFY_STRICT || command == FC_DELETE_STRICT;
        let same = |x: &Entry| {
            (e.table == 0xff || x.table == e.table)
                && x.r#match == e.r#match
                && (!strict || x.priority == e.priority)
        };
        match command {
            FC_ADD => {
                if let Some(x) = self.entries.iter_mut().find(|x| {
                    x.table == e.table && x.priority == e.priority && x.r#match == e.r#match
                }) {
                    *x = e;
                    return Applied::Replaced;
                }
                if self.max_entries > 0 && self.entries.len() >= self.max_entries {
                    return Applied::TableFull;
                }
                self.entries.push(e);
                Applied::Added
            }
            FC_MODIFY | FC_MODIFY_STRICT => {
                let mut n = 0;
                for x in self.entries.iter_mut().filter(|x| same(x)) {
                    x.body = e.body.clone();
                    n += 1;
                }
                Applied::Modified(n)
            }
            _ => {
                let before = self.entries.len();
                if !strict && is_wildcard_all(version, &e.r#match) {
                    self.entries.retain(|x| !(e.table == 0xff || x.table == e.table));
                } else {
                    self.entries.retain(|x| !same(x));
                }
                Applied::Deleted(before - self.entries.len())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(prio: u16, m: u8) -> Entry {
        Entry {
            table: 0,
            priority: prio,
            cookie: 0,
            idle_timeout: 0,
            hard_timeout: 0,
            flags: 0,
            r#match: vec![0, 1, 0, 12, m, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            body: vec![],
            installed_ns: 0,
        }
    }

    #[test]
    fn add_replace_modify_delete() {
        let mut t = FlowTable::with_capacity(0);
        assert_eq!(t.apply(OFP13, FC_ADD, entry(1, 1)), Applied::Added);
        assert_eq!(t.apply(OFP13, FC_ADD, entry(2, 1)), Applied::Added);
        assert_eq!(t.apply(OFP13, FC_ADD, entry(1, 1)), Applied::Replaced);
        let mut m = entry(1, 1);
        m.body = vec![9];
        assert_eq!(t.apply(OFP13, FC_MODIFY, m.clone()), Applied::Modified(2));
        assert_eq!(t.apply(OFP13, FC_MODIFY_STRICT, m), Applied::Modified(1));
        assert_eq!(t.apply(OFP13, FC_DELETE_STRICT, entry(2, 1)), Applied::Deleted(1));
        assert_eq!(t.len(), 1);
        let mut all = entry(0, 0);
        all.r#match = vec![0, 1, 0, 4, 0, 0, 0, 0];
        assert_eq!(t.apply(OFP13, FC_DELETE, all), Applied::Deleted(1));
        assert!(t.is_empty());
    }

    #[test]
    fn capacity_limit() {
        let mut t = FlowTable::with_capacity(1);
        assert_eq!(t.apply(OFP13, FC_ADD, entry(1, 1)), Applied::Added);
        assert_eq!(t.apply(OFP13, FC_ADD, entry(1, 2)), Applied::TableFull);
    }
}
