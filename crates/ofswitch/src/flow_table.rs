//! The switch's flow tables: indexed classification, flow-mod semantics, timeouts, counters.
//!
//! # Data structure (tuple-space search, as in OVS's classifier)
//! Each table groups its entries by mask into *subtables*. A subtable holds one hash map from
//! the masked value to its entries (usually one; several when only the priority differs), and
//! the highest priority it holds. Subtables are kept sorted by that priority, highest first.
//!
//! - An exact-match entry (every field, e.g. OF1.0 `wildcards = 0`) lives in the one subtable
//!   with the full mask; a learning switch's `in_port + eth_dst` entries share one subtable too.
//!   Adding one is a hash insert: O(1), never a scan of the table.
//! - Lookup probes subtables in priority order, one hash probe each (mask the frame key, look
//!   up), and stops as soon as the next subtable's highest priority cannot beat the best hit.
//!   Its cost grows with the number of distinct masks, not with the number of entries: flat in
//!   table size for exact matches (`cargo bench -p ofswitch --bench flow_table`).
//! - Strict operations (ADD's replace check, MODIFY_STRICT, DELETE_STRICT) are one probe;
//!   non-strict MODIFY/DELETE visit only subtables whose mask is at least as specific as the
//!   request's (a request with the same mask is one probe), CHECK_OVERLAP scans the table.
//!
//! # Invariants (tested)
//! - Every live entry is in exactly one bucket of the subtable of its mask, under its masked
//!   value; buckets are sorted by priority, highest first; no subtable is empty.
//! - A subtable's `max_priority` is at least the priority of every entry in it (deletions do
//!   not lower it: an upper bound keeps lookups correct, only less pruned).
//! - `len(table) <= max_entries` when a limit is set (ADD beyond it is `TableFull`).
//! - `lookups >= matched` per table; an entry's counters count the frames it matched.
//! - An entry with a timeout has a heap item; stale items (entry gone or replaced, told by a
//!   serial) are skipped when they come up.

use crate::flow_match::FlowMatch;
use crate::fxhash::FxHashMap;
use crate::key::Key;
use ofwire::flow_mod::flags;
use ofwire::flow_mod::{command, TABLE_ALL};
use ofwire::flow_removed::reason as removed;
use ofwire::{Action, Instruction};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Entry {
    pub table: u8,
    pub priority: u16,
    pub cookie: u64,
    pub idle_timeout: u16,
    pub hard_timeout: u16,
    pub flags: u16,
    pub m: FlowMatch,
    /// OF1.0 actions (empty on 1.3 entries).
    pub actions: Vec<Action>,
    /// OF1.3 instructions (empty on 1.0 entries).
    pub instructions: Vec<Instruction>,
    pub installed_ns: u64,
    pub last_used_ns: u64,
    pub packets: u64,
    pub bytes: u64,
    /// Set by the table on insertion (tells a stale timeout item from a live one).
    pub serial: u32,
}

impl Entry {
    /// Whether the entry sends frames to `port` (flow-mod / stats `out_port` filter).
    pub fn outputs_to(&self, port: u32) -> bool {
        let out = |a: &Action| matches!(a, Action::Output { port: p, .. } if *p == port);
        self.actions.iter().any(out)
            || self.instructions.iter().any(|i| match i {
                Instruction::ApplyActions(a) | Instruction::WriteActions(a) => a.iter().any(out),
                _ => false,
            })
    }

    /// When the entry expires (ns), `u64::MAX` without timeouts.
    pub fn deadline(&self) -> u64 {
        let s = 1_000_000_000u64;
        let idle = if self.idle_timeout > 0 { self.last_used_ns + self.idle_timeout as u64 * s } else { u64::MAX };
        let hard = if self.hard_timeout > 0 { self.installed_ns + self.hard_timeout as u64 * s } else { u64::MAX };
        idle.min(hard)
    }

    fn expiry_reason(&self, now: u64) -> u8 {
        let hard = self.hard_timeout > 0 && self.installed_ns + self.hard_timeout as u64 * 1_000_000_000 <= now;
        if hard {
            removed::HARD_TIMEOUT
        } else {
            removed::IDLE_TIMEOUT
        }
    }
}

/// A flow-mod, as the table needs it (version-independent).
#[derive(Clone, Debug, Default)]
pub struct FlowModReq {
    pub command: u16,
    /// 0xff (OFPTT_ALL) for every table (MODIFY/DELETE only).
    pub table: u8,
    pub cookie_mask: u64,
    /// Only entries that output to this port (DELETE; `None` = no filter).
    pub out_port: Option<u32>,
    /// 1.0 semantics: MODIFY of nothing adds; ADD of an identical entry resets counters.
    pub v10: bool,
    pub entry: Entry,
}

/// What a flow-mod did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applied {
    Added,
    Replaced,
    Modified(usize),
    Deleted(usize),
    TableFull,
    Overlap,
    BadTable,
    BadCommand,
}

enum Bucket {
    One(u16, u32),
    Many(Vec<(u16, u32)>),
}

impl Bucket {
    fn best(&self) -> (u16, u32) {
        match self {
            Bucket::One(p, s) => (*p, *s),
            Bucket::Many(v) => v[0],
        }
    }
}

struct Subtable {
    mask: Key,
    max_priority: u16,
    map: FxHashMap<Key, Bucket>,
}

#[derive(Default)]
struct Table {
    subs: Vec<Subtable>,
    by_mask: FxHashMap<Key, usize>,
    len: usize,
    lookups: u64,
    matched: u64,
}

impl Table {
    fn reindex(&mut self) {
        self.subs.sort_by_key(|s| std::cmp::Reverse(s.max_priority));
        self.by_mask.clear();
        for (i, s) in self.subs.iter().enumerate() {
            self.by_mask.insert(s.mask, i);
        }
    }
}

/// Per-table counters, for table stats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableCounters {
    pub active: usize,
    pub lookups: u64,
    pub matched: u64,
}

pub struct FlowTable {
    /// Tables 0..=highest touched: created when first used, so a switch can offer 254 tables
    /// (as OVS does) at no cost until a controller uses them (`table_mut`; readers take a
    /// table not made yet as empty).
    tables: Vec<Table>,
    n_tables: u8,
    slots: Vec<Option<Entry>>,
    free: Vec<u32>,
    timeouts: BinaryHeap<Reverse<(u64, u32, u32)>>,
    serial: u32,
    /// Entries per table at most (0 = no limit).
    pub max_entries: usize,
}

impl FlowTable {
    pub fn new(n_tables: u8, max_entries: usize) -> FlowTable {
        FlowTable {
            tables: Vec::new(), // table 0 too: a switch that keeps no flows never makes one
            n_tables: n_tables.max(1),
            slots: Vec::new(),
            free: Vec::new(),
            timeouts: BinaryHeap::new(),
            serial: 0,
            max_entries,
        }
    }

    /// Compatibility with the one-table constructor (`n_tables` = 1).
    pub fn with_capacity(max_entries: usize) -> FlowTable {
        FlowTable::new(1, max_entries)
    }

    pub fn n_tables(&self) -> u8 {
        self.n_tables
    }

    /// Table `t`, created (with the ones before it) on first use; `None` beyond `n_tables`.
    fn table_mut(&mut self, t: u8) -> Option<&mut Table> {
        if t >= self.n_tables {
            return None;
        }
        while self.tables.len() <= t as usize {
            self.tables.push(Table::default());
        }
        Some(&mut self.tables[t as usize])
    }

    pub fn len(&self) -> usize {
        self.tables.iter().map(|t| t.len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn counters(&self, table: u8) -> TableCounters {
        self.tables.get(table as usize).map_or_else(TableCounters::default, |t| TableCounters {
            active: t.len,
            lookups: t.lookups,
            matched: t.matched,
        })
    }

    /// Every entry, in no particular order.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.slots.iter().flatten()
    }

    pub fn get(&self, slot: u32) -> &Entry {
        self.slots[slot as usize].as_ref().expect("a live slot")
    }

    /// The highest-priority entry of `table` matching `key`; counts the lookup, and on a hit
    /// the entry's packets/bytes and last use. Returns its slot.
    pub fn lookup(&mut self, table: u8, key: &Key, now: u64, bytes: usize) -> Option<u32> {
        let t = self.table_mut(table)?;
        t.lookups += 1;
        let mut best: Option<(u16, u32)> = None;
        for s in &t.subs {
            if let Some((bp, _)) = best {
                if s.max_priority <= bp {
                    break;
                }
            }
            if let Some(b) = s.map.get(&key.and(&s.mask)) {
                let (p, slot) = b.best();
                if best.is_none_or(|(bp, _)| p > bp) {
                    best = Some((p, slot));
                }
            }
        }
        let (_, slot) = best?;
        t.matched += 1;
        let e = self.slots[slot as usize].as_mut().expect("indexed slot is live");
        e.packets += 1;
        e.bytes += bytes as u64;
        e.last_used_ns = now;
        Some(slot)
    }

    /// Apply a flow-mod. Entries it removes with OFPFF_SEND_FLOW_REM set are appended to
    /// `removed` (reason DELETE).
    pub fn apply(&mut self, req: FlowModReq, now: u64, removed: &mut Vec<(Entry, u8)>) -> Applied {
        let all = req.table == TABLE_ALL;
        if !all && self.table_mut(req.table).is_none() {
            return Applied::BadTable;
        }
        match req.command {
            command::ADD if all => Applied::BadTable,
            command::ADD => self.add(req, now),
            command::MODIFY | command::MODIFY_STRICT => {
                let strict = req.command == command::MODIFY_STRICT;
                // out_port is ignored by MODIFY (OF1.0 §5.3.3, OF1.3 §6.4)
                let slots = self.select(&FlowModReq { out_port: None, ..req.clone() }, strict);
                if slots.is_empty() && req.v10 {
                    return self.add(req, now);
                }
                let reset = !req.v10 && req.entry.flags & flags::RESET_COUNTS != 0;
                for &s in &slots {
                    let e = self.slots[s as usize].as_mut().expect("selected slot is live");
                    e.actions = req.entry.actions.clone();
                    e.instructions = req.entry.instructions.clone();
                    if reset {
                        e.packets = 0;
                        e.bytes = 0;
                    }
                }
                Applied::Modified(slots.len())
            }
            command::DELETE | command::DELETE_STRICT => {
                let slots = self.select(&req, req.command == command::DELETE_STRICT);
                for &s in &slots {
                    let e = self.remove(s);
                    if e.flags & flags::SEND_FLOW_REM != 0 {
                        removed.push((e, removed::DELETE));
                    }
                }
                Applied::Deleted(slots.len())
            }
            _ => Applied::BadCommand,
        }
    }

    fn add(&mut self, req: FlowModReq, now: u64) -> Applied {
        let mut e = req.entry;
        let ti = e.table as usize;
        e.installed_ns = now;
        e.last_used_ns = now;
        self.serial = self.serial.wrapping_add(1);
        e.serial = self.serial;
        let t = &self.tables[ti];
        let si = t.by_mask.get(&e.m.mask).copied();
        let existing = si.and_then(|i| t.subs[i].map.get(&e.m.value)).and_then(|b| match b {
            Bucket::One(p, s) => (*p == e.priority).then_some(*s),
            Bucket::Many(v) => v.iter().find(|(p, _)| *p == e.priority).map(|x| x.1),
        });
        if let Some(slot) = existing {
            let old = self.slots[slot as usize].as_mut().expect("indexed slot is live");
            if !req.v10 && e.flags & flags::RESET_COUNTS == 0 {
                (e.packets, e.bytes) = (old.packets, old.bytes);
            }
            *old = e;
            self.arm(slot);
            return Applied::Replaced;
        }
        if self.max_entries > 0 && t.len >= self.max_entries {
            return Applied::TableFull;
        }
        if e.flags & flags::CHECK_OVERLAP != 0
            && self.entries().any(|x| x.table == e.table && x.priority == e.priority && x.m.overlaps(&e.m))
        {
            return Applied::Overlap;
        }
        let slot = match self.free.pop() {
            Some(s) => s,
            None => {
                self.slots.push(None);
                (self.slots.len() - 1) as u32
            }
        };
        let (prio, m) = (e.priority, e.m);
        self.slots[slot as usize] = Some(e);
        self.index(ti, si, m, prio, slot);
        self.arm(slot);
        Applied::Added
    }

    /// Put `slot` into table `ti`'s index; `si` is its mask's subtable, if there is one.
    fn index(&mut self, ti: usize, si: Option<usize>, m: FlowMatch, prio: u16, slot: u32) {
        let t = &mut self.tables[ti];
        t.len += 1;
        let si = match si {
            Some(i) => i,
            None => {
                t.subs.push(Subtable { mask: m.mask, max_priority: prio, map: FxHashMap::default() });
                t.by_mask.insert(m.mask, t.subs.len() - 1);
                t.subs.len() - 1
            }
        };
        let s = &mut t.subs[si];
        match s.map.entry(m.value) {
            std::collections::hash_map::Entry::Vacant(x) => {
                x.insert(Bucket::One(prio, slot));
            }
            std::collections::hash_map::Entry::Occupied(mut x) => {
                let b = x.get_mut();
                let mut v = match b {
                    Bucket::One(p, x) => vec![(*p, *x)],
                    Bucket::Many(v) => std::mem::take(v),
                };
                let at = v.iter().position(|(p, _)| *p < prio).unwrap_or(v.len());
                v.insert(at, (prio, slot));
                *b = Bucket::Many(v);
            }
        }
        let raised = prio > s.max_priority;
        s.max_priority = s.max_priority.max(prio);
        let pos_ok = si == 0 || t.subs[si - 1].max_priority >= t.subs[si].max_priority;
        if raised || !pos_ok {
            t.reindex();
        }
    }

    /// Put the entry's expiry on the heap, if it has one.
    fn arm(&mut self, slot: u32) {
        let e = self.get(slot);
        let d = e.deadline();
        if d != u64::MAX {
            let serial = e.serial;
            self.timeouts.push(Reverse((d, slot, serial)));
        }
    }

    fn remove(&mut self, slot: u32) -> Entry {
        let e = self.slots[slot as usize].take().expect("a live slot");
        self.free.push(slot);
        let t = &mut self.tables[e.table as usize];
        t.len -= 1;
        let si = t.by_mask[&e.m.mask];
        let s = &mut t.subs[si];
        let gone = match s.map.get_mut(&e.m.value).expect("indexed") {
            Bucket::One(_, _) => true,
            Bucket::Many(v) => {
                v.retain(|x| x.1 != slot);
                if v.len() == 1 {
                    let (p, x) = v[0];
                    s.map.insert(e.m.value, Bucket::One(p, x));
                }
                false
            }
        };
        if gone {
            s.map.remove(&e.m.value);
        }
        if s.map.is_empty() {
            t.subs.remove(si);
            t.reindex();
        }
        e
    }

    /// Remove every entry `pred` selects (a group or meter deleted: Open vSwitch removes the
    /// flows naming it); returns them.
    pub fn remove_where(&mut self, pred: impl Fn(&Entry) -> bool) -> Vec<Entry> {
        let slots: Vec<u32> = self.slots.iter().enumerate().filter(|(_, e)| e.as_ref().is_some_and(&pred)).map(|(i, _)| i as u32).collect();
        slots.into_iter().map(|s| self.remove(s)).collect()
    }

    /// Slots a MODIFY/DELETE selects: strict = same match and priority; otherwise every entry
    /// the request's match covers; then the cookie and out_port filters.
    fn select(&self, req: &FlowModReq, strict: bool) -> Vec<u32> {
        let r = &req.entry;
        let mut out = Vec::new();
        let tables: Vec<usize> = if req.table == 0xff { (0..self.tables.len()).collect() } else { vec![req.table as usize] };
        for ti in tables {
            let t = &self.tables[ti];
            if strict {
                if let Some(b) = t.by_mask.get(&r.m.mask).and_then(|&i| t.subs[i].map.get(&r.m.value)) {
                    match b {
                        Bucket::One(p, s) if *p == r.priority => out.push(*s),
                        Bucket::Many(v) => out.extend(v.iter().filter(|x| x.0 == r.priority).map(|x| x.1)),
                        _ => {}
                    }
                }
                continue;
            }
            for s in t.subs.iter().filter(|s| r.m.mask.subset_of(&s.mask)) {
                if s.mask == r.m.mask {
                    if let Some(b) = s.map.get(&r.m.value) {
                        push_bucket(b, &mut out);
                    }
                    continue;
                }
                for (k, b) in &s.map {
                    if k.and(&r.m.mask) == r.m.value {
                        push_bucket(b, &mut out);
                    }
                }
            }
        }
        let mask = req.cookie_mask;
        out.retain(|&s| {
            let e = self.get(s);
            (e.cookie & mask) == (r.cookie & mask) && req.out_port.is_none_or(|p| e.outputs_to(p))
        });
        out
    }

    /// Remove the entries whose idle or hard timeout passed; those with OFPFF_SEND_FLOW_REM are
    /// appended to `removed` with their reason. Returns when to call again (`u64::MAX`: never).
    pub fn expire(&mut self, now: u64, removed: &mut Vec<(Entry, u8)>) -> u64 {
        while let Some(&Reverse((d, slot, serial))) = self.timeouts.peek() {
            if d > now {
                return d;
            }
            self.timeouts.pop();
            let Some(e) = self.slots.get(slot as usize).and_then(|s| s.as_ref()) else { continue };
            if e.serial != serial {
                continue;
            }
            let due = e.deadline();
            if due > now {
                self.timeouts.push(Reverse((due, slot, serial)));
                continue;
            }
            let reason = e.expiry_reason(now);
            let e = self.remove(slot);
            if e.flags & flags::SEND_FLOW_REM != 0 {
                removed.push((e, reason));
            }
        }
        u64::MAX
    }

    /// Check the invariants in the module docs (tests and debugging; O(n)).
    pub fn check(&self) -> Result<(), String> {
        let mut seen = 0;
        for (ti, t) in self.tables.iter().enumerate() {
            let mut n = 0;
            for (i, s) in t.subs.iter().enumerate() {
                if s.map.is_empty() || t.by_mask.get(&s.mask) != Some(&i) {
                    return Err(format!("table {ti}: subtable {i} empty or not indexed"));
                }
                if i > 0 && t.subs[i - 1].max_priority < s.max_priority {
                    return Err(format!("table {ti}: subtables out of order at {i}"));
                }
                for (k, b) in &s.map {
                    let items: Vec<(u16, u32)> = match b {
                        Bucket::One(p, x) => vec![(*p, *x)],
                        Bucket::Many(v) => v.clone(),
                    };
                    for w in items.windows(2) {
                        if w[0].0 < w[1].0 {
                            return Err("bucket out of priority order".into());
                        }
                    }
                    for (p, x) in items {
                        let e = self.slots.get(x as usize).and_then(|e| e.as_ref()).ok_or("dangling slot")?;
                        if e.priority != p || e.m.value != *k || e.m.mask != s.mask || e.table as usize != ti || p > s.max_priority {
                            return Err(format!("slot {x} indexed wrongly"));
                        }
                        n += 1;
                    }
                }
            }
            if n != t.len || (self.max_entries > 0 && n > self.max_entries) || t.matched > t.lookups {
                return Err(format!("table {ti}: counts disagree"));
            }
            seen += n;
        }
        if seen != self.entries().count() {
            return Err("live slots not all indexed".into());
        }
        Ok(())
    }
}

fn push_bucket(b: &Bucket, out: &mut Vec<u32>) {
    match b {
        Bucket::One(_, s) => out.push(*s),
        Bucket::Many(v) => out.extend(v.iter().map(|x| x.1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 254 tables cost nothing until used; a table beyond `n_tables` is refused.
    #[test]
    fn tables_are_created_on_first_use() {
        let mut t = FlowTable::new(254, 0);
        assert_eq!(t.tables.len(), 0);
        assert_eq!(t.counters(0), TableCounters::default());
        let mut removed = Vec::new();
        let add = |table| FlowModReq { command: 0, table, entry: Entry { table, ..Default::default() }, ..Default::default() };
        assert_eq!(t.apply(add(200), 0, &mut removed), Applied::Added);
        assert_eq!(t.tables.len(), 201);
        assert_eq!(t.apply(add(254), 0, &mut removed), Applied::BadTable);
        assert_eq!(t.lookup(253, &Key::default(), 0, 0), None);
        assert_eq!(t.counters(253).lookups, 1);
        assert_eq!(t.lookup(200, &Key::default(), 0, 0).map(|s| t.get(s).table), Some(200));
        t.check().unwrap();
    }
}
