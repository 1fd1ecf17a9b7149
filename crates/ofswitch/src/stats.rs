//! Flow and aggregate stats replies, built from the switch's flow table as ofwire values.
//!
//! Flow stats may not fit in one message (64 KiB): entries are split over several replies, all
//! but the last flagged REPLY_MORE (OF1.0 §5.3.5, OF1.3 §7.3.5).

use crate::consts::*;
use crate::emit;
use crate::flow_table::Entry;
use crate::switch::Switch;
use ofwire::action::parse_actions;
use ofwire::instruction::parse_instructions;
use ofwire::version::Version;
use ofwire::{AggregateStats, Body, FlowStats, Match10, OxmMatch, StatsReply, StatsReplyBody};

const REPLY_MORE: u16 = 1;
const MAX_MSG: usize = 65_000;

/// One entry as a flow stats record. The entry's match and actions/instructions were written
/// by ofwire from a flow-mod it decoded (`Entry::from_flow_mod`), so reading them back cannot
/// fail; a default stands in should it ever.
fn flow_stats(v: Version, now: u64, e: &Entry) -> FlowStats {
    let age = now.saturating_sub(e.installed_ns);
    let mut f = FlowStats {
        table_id: e.table,
        duration_sec: (age / 1_000_000_000) as u32,
        duration_nsec: (age % 1_000_000_000) as u32,
        priority: e.priority,
        idle_timeout: e.idle_timeout,
        hard_timeout: e.hard_timeout,
        flags: if v == Version::V10 { 0 } else { e.flags },
        cookie: e.cookie,
        ..Default::default()
    };
    match v {
        Version::V10 => {
            f.match10 = Match10::parse(&e.r#match).map(|(_, m)| m).unwrap_or_default();
            f.actions = parse_actions(v, &e.body).unwrap_or_default();
        }
        Version::V13 => {
            f.match_ = OxmMatch::parse(&e.r#match).map(|(_, m)| m).unwrap_or_default();
            f.instructions = parse_instructions(&e.body).unwrap_or_default();
        }
    }
    f
}

/// Answer a flow (`ST_FLOW`) or aggregate (`ST_AGGREGATE`) stats request with every entry.
pub fn flows(sw: &Switch, now: u64, ty: u16, xid: u32, out: &mut Vec<u8>) {
    let (version, v) = (sw.version, crate::consts::layout(sw.version));
    let entries = &sw.flows.entries;
    if ty == ST_AGGREGATE {
        let a = AggregateStats { packet_count: 0, byte_count: 0, flow_count: entries.len() as u32 };
        emit::stats_reply(out, version, xid, StatsReplyBody::Aggregate(a));
        return;
    }
    let head = if v == Version::V10 { 12 } else { 16 };
    let mut i = 0;
    loop {
        let (mut part, mut len) = (Vec::new(), head);
        while i < entries.len() {
            let f = flow_stats(v, now, &entries[i]);
            if len + f.buffer_len(v) > MAX_MSG {
                break;
            }
            len += f.buffer_len(v);
            part.push(f);
            i += 1;
        }
        let flags = if i < entries.len() { REPLY_MORE } else { 0 };
        let reply = StatsReply { flags, body: StatsReplyBody::Flow(part) };
        emit::push(out, version, xid, Body::StatsReply(reply));
        if i >= entries.len() {
            break;
        }
    }
}
