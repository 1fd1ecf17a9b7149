//! The 1.3 table features as Open vSwitch announces them, so that a controller that reads them
//! decides as it would on Open vSwitch.
//!
//! Open vSwitch 3.1.0 (userspace datapath, a Mininet bridge) gives every table the same record
//! but for its id, its next tables (every later table) and, on the last table, no goto-table:
//! no name, all 64 metadata bits matched and written, config 0, max_entries 1,000,000, and the
//! properties in its order (instructions, next tables, write actions, write set-fields, apply
//! actions, apply set-fields, then each one's table-miss twin, match, wildcards), with Nicira
//! experimenter fields among them. `data/ovs31_table0.hex` is its record of table 0, captured
//! from ovs-vswitchd answering an empty request (docs/emulated-switch.md says how); the other
//! tables are derived from it here, and `tests/ovs_tables.rs` checks the derivation against
//! the captured records of tables 1, 252 and 253 and the captured part sizes.
//!
//! What it announces is Open vSwitch's, not only what this switch runs: a match field, action
//! or set-field announced here that the switch does not run is still refused with the error
//! of docs/emulated-switch.md's table (set-queue, IPv6 and MPLS matches, Nicira fields ...).

use ofwire::table_features::{prop, Prop, TableFeatures};
use std::sync::OnceLock;

/// Open vSwitch's record of table 0, as captured.
const OVS31_TABLE0_HEX: &str = include_str!("../data/ovs31_table0.hex");

/// Open vSwitch's table size announcement (`ofproto.c`: `pp->max_entries = 1000000` when the
/// table has no `flow_limit`).
pub const OVS_MAX_ENTRIES: u32 = 1_000_000;

/// Open vSwitch ends a multipart part when the next record would take it past 65,535 bytes
/// (`ofpmp_postappend`): records are appended whole while the message fits.
pub const OVS_PART_MAX: usize = 65_535;

const GOTO_TABLE: u16 = 1;
const METER: u16 = 6;
const GROUP_ACTION: u16 = 22;

fn table0() -> &'static TableFeatures {
    static T: OnceLock<TableFeatures> = OnceLock::new();
    T.get_or_init(|| {
        let s = OVS31_TABLE0_HEX.trim();
        let bytes: Vec<u8> = (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex")).collect();
        TableFeatures::parse(&bytes).expect("Open vSwitch's captured table record parses").1
    })
}

/// Ids (type, length 4) of a property, less those `drop` names.
fn without(p: &Prop, drop: impl Fn(u16) -> bool) -> Prop {
    let data = p.data.chunks(4).filter(|c| !drop(u16::from_be_bytes([c[0], c[1]]))).flatten().copied().collect();
    Prop { typ: p.typ, data }
}

/// Table `t` of `n` as Open vSwitch describes it; without meters or groups the meter
/// instruction or the group action is left out (Open vSwitch's own record has both).
pub fn table_features(t: u8, n: u8, meters: bool, groups: bool, max_entries: u32) -> TableFeatures {
    let mut rec = table0().clone();
    rec.table_id = t;
    rec.max_entries = max_entries;
    let last = t.saturating_add(1) >= n;
    for p in rec.props.iter_mut() {
        match p.typ {
            prop::NEXT_TABLES | prop::NEXT_TABLES_MISS => p.data = (t.saturating_add(1)..n).collect(),
            prop::INSTRUCTIONS | prop::INSTRUCTIONS_MISS => *p = without(p, |i| (last && i == GOTO_TABLE) || (!meters && i == METER)),
            prop::WRITE_ACTIONS | prop::WRITE_ACTIONS_MISS | prop::APPLY_ACTIONS | prop::APPLY_ACTIONS_MISS => {
                *p = without(p, |a| !groups && a == GROUP_ACTION)
            }
            _ => {}
        }
    }
    rec
}
