//! Stats (1.0) / multipart (1.3) replies, read from the flow table's, tables' and ports'
//! counters.
//!
//! Flow stats may not fit in one message (64 KiB): entries are split over several replies, all
//! but the last flagged REPLY_MORE (OF1.0 §5.3.5, OF1.3 §7.3.5). Every part carries at least
//! one entry; an entry whose record alone exceeds the largest OpenFlow message (65,535 bytes
//! with the headers) cannot be sent at all and is left out (counted in `oversize_entries`).
//!
//! A request body ofwire cannot read is answered as if it asked for everything (lenient, like
//! a real switch answering by type).

use crate::emit;
use crate::flow_match::FlowMatch;
use crate::flow_table::Entry;
use crate::switch::{codec, Switch, SwitchError};
use ofwire::error_names::{bad_request, error_type};
use ofwire::port::ports as pn;
use ofwire::stats::kind;
use ofwire::stats::REPLY_MORE;
use ofwire::version::Version;
use ofwire::HEADER_LEN;
use ofwire::OFP10;
use ofwire::{AggregateStats, Body, FlowStats, FlowStatsRequest, PortStats, StatsReply, StatsReplyBody, StatsRequest, StatsRequestBody};

/// The soft size of one part; a single bigger record still goes alone up to `u16::MAX`.
const MAX_MSG: usize = 65_000;

/// One entry as a flow stats record.
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
        packet_count: e.packets,
        byte_count: e.bytes,
        ..Default::default()
    };
    match v {
        Version::V10 => {
            f.match10 = e.m.to_match10();
            f.actions = e.actions.clone();
        }
        Version::V13 => {
            f.match_ = e.m.to_oxm();
            f.instructions = e.instructions.clone();
        }
    }
    f
}

/// Whether `e` is selected by a flow/aggregate stats request (non-strict match, table,
/// out_port and cookie filters).
fn selects(v: Version, r: &FlowStatsRequest, e: &Entry) -> bool {
    let (m, any_port) = match v {
        Version::V10 => (FlowMatch::from_match10(&r.match10), pn::NONE10 as u32),
        Version::V13 => (FlowMatch::from_oxm(&r.match_).unwrap_or_default(), pn::ANY13),
    };
    (r.table_id == 0xff || r.table_id == e.table)
        && m.covers(&e.m)
        && (r.out_port == any_port || e.outputs_to(r.out_port))
        && (e.cookie & r.cookie_mask) == (r.cookie & r.cookie_mask)
}

/// The flow stats records as multipart parts: (records, more-flag). Pure, for testing.
pub fn split_parts(v: Version, records: Vec<FlowStats>, oversize: &mut u64) -> Vec<(Vec<FlowStats>, bool)> {
    let head = HEADER_LEN + if v == Version::V10 { 4 } else { 8 };
    let mut parts: Vec<(Vec<FlowStats>, bool)> = Vec::new();
    let (mut part, mut len) = (Vec::new(), head);
    for f in records {
        let n = f.buffer_len(v);
        if head + n > u16::MAX as usize {
            *oversize += 1;
            continue;
        }
        if !part.is_empty() && len + n > MAX_MSG {
            parts.push((std::mem::take(&mut part), true));
            len = head;
        }
        len += n;
        part.push(f);
    }
    parts.push((part, false));
    parts
}

impl Switch {
    pub(crate) fn on_stats(&mut self, now: u64, version: u8, xid: u32, msg: &[u8], out: &mut Vec<u8>) -> Result<(), SwitchError> {
        let v = Version::layout(version);
        let ty = ofwire::stats::Packet::new_checked(msg).map_err(|e| codec("stats_request", e))?.stats_type();
        let req = StatsRequest::parse(v, &msg[HEADER_LEN..]).ok().map(|r| r.body);
        let all_flows = FlowStatsRequest {
            table_id: 0xff,
            out_port: if v == Version::V10 { pn::NONE10 as u32 } else { pn::ANY13 },
            ..Default::default()
        };
        let dpid = self.cfg.dpid;
        let body = match ty {
            kind::DESC => StatsReplyBody::Desc(emit::desc(dpid)),
            kind::FLOW | kind::AGGREGATE => {
                let r = match req {
                    Some(StatsRequestBody::Flow(r)) | Some(StatsRequestBody::Aggregate(r)) => r,
                    _ => all_flows,
                };
                self.flow_stats(now, version, ty, xid, &r, out);
                return Ok(());
            }
            kind::TABLE => StatsReplyBody::Table(
                (0..self.cfg.n_tables)
                    .map(|t| {
                        let c = self.flows.counters(t);
                        let mut s = emit::table_stats(t, c.active as u32, c.lookups);
                        s.matched_count = c.matched;
                        if self.cfg.max_flows > 0 {
                            s.max_entries = self.cfg.max_flows as u32;
                        }
                        s
                    })
                    .collect(),
            ),
            kind::PORT => {
                let want = match req {
                    Some(StatsRequestBody::Port { port_no }) if port_no != pn::NONE10 as u32 && port_no != pn::ANY13 => Some(port_no),
                    _ => None,
                };
                StatsReplyBody::Port(self.ports.list.iter().filter(|p| want.is_none_or(|w| w == p.no)).map(port_stats).collect())
            }
            kind::PORT_DESC if version != OFP10 => StatsReplyBody::PortDesc(self.ports.describe_all(version, dpid, self.cfg.forward)),
            t if version != OFP10 && crate::stats13::handles(t) => {
                self.on_stats13(now, version, xid, t, msg, out);
                return Ok(());
            }
            _ => {
                emit::error(out, version, xid, error_type::BAD_REQUEST, bad_request::BAD_STAT, msg);
                return Ok(());
            }
        };
        emit::stats_reply(out, version, xid, body);
        Ok(())
    }

    /// Answer a flow (`kind::FLOW`) or aggregate (`kind::AGGREGATE`) stats request.
    fn flow_stats(&mut self, now: u64, version: u8, ty: u16, xid: u32, r: &FlowStatsRequest, out: &mut Vec<u8>) {
        let v = Version::layout(version);
        let selected = self.flows.entries().filter(|e| selects(v, r, e));
        if ty == kind::AGGREGATE {
            let mut a = AggregateStats::default();
            for e in selected {
                a.packet_count += e.packets;
                a.byte_count += e.bytes;
                a.flow_count += 1;
            }
            emit::stats_reply(out, version, xid, StatsReplyBody::Aggregate(a));
            return;
        }
        let records: Vec<FlowStats> = selected.map(|e| flow_stats(v, now, e)).collect();
        let mut oversize = 0;
        for (part, more) in split_parts(v, records, &mut oversize) {
            let reply = StatsReply { flags: if more { REPLY_MORE } else { 0 }, body: StatsReplyBody::Flow(part) };
            emit::push(out, version, xid, Body::StatsReply(reply));
        }
        self.counters.oversize_entries += oversize;
    }
}

fn port_stats(p: &crate::ports::PortState) -> PortStats {
    let c = &p.counters;
    // rx/tx packets, rx/tx bytes, rx/tx dropped, then errors the emulation never has
    let mut counters = [0u64; 12];
    counters[..6].copy_from_slice(&[c.rx_packets, c.tx_packets, c.rx_bytes, c.tx_bytes, c.rx_dropped, c.tx_dropped]);
    PortStats { port_no: p.no, counters, ..Default::default() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ofwire::{Action, Instruction};

    fn record(actions: usize) -> FlowStats {
        let a = vec![Action::Output { port: 1, max_len: 0 }; actions];
        FlowStats { instructions: vec![Instruction::ApplyActions(a)], ..Default::default() }
    }

    /// Regression: an entry bigger than one part used to loop forever on empty parts.
    #[test]
    fn big_entries_terminate_and_are_never_empty_parts() {
        let v = Version::V13;
        // 16-byte output actions: 4,000 of them make a 64,000+ byte record
        let big = record(4_070);
        assert!(big.buffer_len(v) > 64_984 && big.buffer_len(v) + 16 <= 65_535, "{}", big.buffer_len(v));
        let mut oversize = 0;
        let parts = split_parts(v, vec![record(1), big.clone(), record(1), big.clone()], &mut oversize);
        assert_eq!(oversize, 0);
        assert!(parts.iter().all(|(p, _)| !p.is_empty()));
        assert_eq!(parts.iter().map(|(p, _)| p.len()).sum::<usize>(), 4);
        assert!(parts[..parts.len() - 1].iter().all(|(_, more)| *more) && !parts.last().unwrap().1);
        // too big for any message: left out, counted
        let huge = record(4_100);
        let parts = split_parts(v, vec![huge, record(1)], &mut oversize);
        assert_eq!((oversize, parts.len(), parts[0].0.len()), (1, 1, 1));
        // nothing at all: one empty, final part
        assert_eq!(split_parts(v, vec![], &mut oversize), vec![(vec![], false)]);
    }
}
