//! Flow and aggregate stats replies, built from the switch's flow table.
//!
//! Flow stats may not fit in one message (64 KiB): entries are split over several replies, all
//! but the last flagged REPLY_MORE (OF1.0 §5.3.5, OF1.3 §7.3.5).

use crate::consts::*;
use crate::emit;
use crate::flow_table::Entry;
use crate::switch::Switch;

const REPLY_MORE: u16 = 1;
const MAX_MSG: usize = 65_000;

fn entry_len(version: u8, e: &Entry) -> usize {
    if version == OFP10 { 88 + e.body.len() } else { 48 + e.r#match.len() + e.body.len() }
}

fn flow_stats_entry(m: &mut emit::Msg, version: u8, now: u64, e: &Entry) {
    let age = now.saturating_sub(e.installed_ns);
    let (sec, nsec) = ((age / 1_000_000_000) as u32, (age % 1_000_000_000) as u32);
    m.u16(entry_len(version, e) as u16).u8(e.table).u8(0);
    if version == OFP10 {
        m.bytes(&e.r#match).u32(sec).u32(nsec).u16(e.priority);
        m.u16(e.idle_timeout).u16(e.hard_timeout).zeros(6);
    } else {
        m.u32(sec).u32(nsec).u16(e.priority).u16(e.idle_timeout).u16(e.hard_timeout);
        m.u16(e.flags).zeros(4);
    }
    m.u64(e.cookie).u64(0).u64(0);
    if version != OFP10 {
        m.bytes(&e.r#match);
    }
    m.bytes(&e.body);
}

/// Answer a flow (`ST_FLOW`) or aggregate (`ST_AGGREGATE`) stats request with every entry.
pub fn flows(sw: &Switch, now: u64, ty: u16, xid: u32, out: &mut Vec<u8>) {
    let v = sw.version;
    let entries = &sw.flows.entries;
    if ty == ST_AGGREGATE {
        let mut m = emit::stats_head(out, v, xid, ty);
        m.u64(0).u64(0).u32(entries.len() as u32).zeros(4);
        m.finish();
        return;
    }
    let mut i = 0;
    loop {
        let start = out.len();
        let mut m = emit::stats_head(out, v, xid, ty);
        while i < entries.len() && m.len() + entry_len(v, &entries[i]) <= MAX_MSG {
            flow_stats_entry(&mut m, v, now, &entries[i]);
            i += 1;
        }
        m.finish();
        if i >= entries.len() {
            break;
        }
        // flags are at offset 10 in both versions
        out[start + 10..start + 12].copy_from_slice(&REPLY_MORE.to_be_bytes());
    }
}
