//! The 1.3 multipart replies of groups, meters and table features (1.0 has none: BAD_STAT).
//!
//! Table features are Open vSwitch's (`ovs_tables`), split into parts as Open vSwitch splits
//! them. A request carrying table records
//! (a request to reconfigure the tables) → TABLE_FEATURES_FAILED / EPERM: the tables are fixed.
//! Replies bigger than one message are split, all but the last flagged REPLY_MORE.

use crate::emit;
use crate::ovs_tables::{table_features, OVS_MAX_ENTRIES, OVS_PART_MAX};
use crate::switch::Switch;
use ofwire::error_names::{error_type, table_features_failed};
use ofwire::group_stats::{self as gs, MP_GROUP, MP_GROUP_DESC, MP_GROUP_FEATURES};
use ofwire::meter_stats::{self as ms, MP_METER, MP_METER_CONFIG, MP_METER_FEATURES};
use ofwire::stats::kind;
use ofwire::stats::REPLY_MORE;
use ofwire::table_features::TableFeatures;
use ofwire::HEADER_LEN;
use ofwire::{Action, Body, Instruction, StatsReply, StatsReplyBody};

/// The soft size of one multipart part.
const PART: usize = 64_000;

/// Whether `ty` is a multipart type answered here.
pub fn handles(ty: u16) -> bool {
    matches!(ty, MP_GROUP | MP_GROUP_DESC | MP_GROUP_FEATURES | MP_METER | MP_METER_CONFIG | MP_METER_FEATURES | kind::TABLE_FEATURES)
}

impl Switch {
    /// Answer a group, meter or table-features multipart request (1.3).
    pub(crate) fn on_stats13(&mut self, now: u64, version: u8, xid: u32, ty: u16, msg: &[u8], out: &mut Vec<u8>) {
        let req = msg.get(HEADER_LEN + 8..).unwrap_or(&[]);
        let id = |r| gs::parse_group_request(r).unwrap_or(gs::G_ALL);
        let parts: Vec<Vec<u8>> = match ty {
            MP_GROUP => {
                let refs = |g| self.flows.entries().filter(|e| names_group(&e.instructions, g)).count() as u32;
                chunks(self.groups.stats(id(req), now, &refs), gs::GroupStats::buffer_len, gs::stats_to_bytes)
            }
            MP_GROUP_DESC => chunks(self.groups.desc(), gs::GroupDesc::buffer_len, gs::desc_to_bytes),
            MP_GROUP_FEATURES => vec![self.groups.features(crate::check::actions13_bitmap()).to_bytes()],
            MP_METER => {
                let flows = |m| self.flows.entries().filter(|e| e.instructions.contains(&Instruction::Meter(m))).count() as u32;
                let mid = ms::parse_meter_request(req).unwrap_or(ms::M_ALL);
                chunks(self.meters.stats(mid, now, &flows), ms::MeterStats::buffer_len, ms::stats_to_bytes)
            }
            MP_METER_CONFIG => {
                let mid = ms::parse_meter_request(req).unwrap_or(ms::M_ALL);
                chunks(self.meters.config(mid), ms::MeterConfig::buffer_len, ms::config_to_bytes)
            }
            MP_METER_FEATURES => vec![self.meters.features().to_bytes()],
            _ if !req.is_empty() => {
                emit::error(out, version, xid, error_type::v13::TABLE_FEATURES_FAILED, table_features_failed::EPERM, msg);
                return;
            }
            _ => {
                let max = if self.cfg.max_flows > 0 { self.cfg.max_flows as u32 } else { OVS_MAX_ENTRIES };
                let (n, meters, groups) = (self.cfg.n_tables, self.meters.max_meter > 0, self.groups.enabled);
                let all: Vec<TableFeatures> = (0..n).map(|t| table_features(t, n, meters, groups, max)).collect();
                // as Open vSwitch: a part ends when the next record would take the message past 65,535 bytes
                chunks_of(all, OVS_PART_MAX - HEADER_LEN - 8, TableFeatures::buffer_len, ofwire::table_features::to_bytes)
            }
        };
        let last = parts.len() - 1;
        for (i, data) in parts.into_iter().enumerate() {
            let flags = if i < last { REPLY_MORE } else { 0 };
            emit::push(out, version, xid, Body::StatsReply(StatsReply { flags, body: StatsReplyBody::Unknown { typ: ty, data } }));
        }
    }
}

/// Whether an entry's instructions send frames to group `g`.
fn names_group(ins: &[Instruction], g: u32) -> bool {
    ins.iter().any(|i| match i {
        Instruction::ApplyActions(a) | Instruction::WriteActions(a) => a.contains(&Action::Group(g)),
        _ => false,
    })
}

/// Records cut into parts of at most `PART` bytes each (at least one part, every record in
/// one), each part encoded by `enc`.
fn chunks<T>(records: Vec<T>, len: impl Fn(&T) -> usize, enc: impl Fn(&[T]) -> Vec<u8>) -> Vec<Vec<u8>> {
    chunks_of(records, PART, len, enc)
}

/// Records cut into parts of at most `max` bytes each (every record in one part).
fn chunks_of<T>(records: Vec<T>, max: usize, len: impl Fn(&T) -> usize, enc: impl Fn(&[T]) -> Vec<u8>) -> Vec<Vec<u8>> {
    let mut parts = Vec::new();
    let (mut start, mut size) = (0, 0);
    for (i, r) in records.iter().enumerate() {
        let n = len(r);
        if i > start && size + n > max {
            parts.push(enc(&records[start..i]));
            (start, size) = (i, 0);
        }
        size += n;
    }
    parts.push(enc(&records[start..]));
    parts
}
