//! What the emulated switch runs, and the OpenFlow error a flow-mod or packet-out gets when
//! it names something else: never accepted and ignored.
//!
//! - Actions run (`frame_edit`, `mpls`, `pipeline`): output (and 1.0 enqueue, as an output),
//!   the 1.0 set/strip actions, push/pop VLAN, push/pop MPLS, set/decrement MPLS TTL, copy TTL
//!   out/in, push/pop PBB, set/decrement IP TTL, group, and set-field of the fields
//!   in [`SET_FIELDS`]. Any other action → BAD_ACTION / BAD_TYPE (a vendor or experimenter
//!   action → BAD_VENDOR / BAD_EXPERIMENTER); a set-field of another field → BAD_ACTION /
//!   BAD_SET_TYPE; a group that does not exist → BAD_ACTION / BAD_OUT_GROUP (as Open vSwitch).
//! - Instructions run: apply/write/clear actions, goto-table (to a later table that exists,
//!   else BAD_INSTRUCTION / BAD_TABLE_ID, as Open vSwitch), meter (one that exists, else
//!   METER_MOD_FAILED / UNKNOWN_METER, as Open vSwitch), write-metadata (all 64 bits, matched by
//!   the next table); an experimenter or unknown instruction → BAD_INSTRUCTION / UNKNOWN_INST.

use crate::group::Groups;
use crate::meter::Meters;
use ofwire::error_names::{bad_action, bad_instruction, error_type, meter_mod_failed};
use ofwire::{Action, Instruction, Oxm, OxmField};

/// The OXM fields a set-field action rewrites (`frame_edit`).
pub const SET_FIELDS: &[OxmField] = &[
    OxmField::EthDst,
    OxmField::EthSrc,
    OxmField::VlanVid,
    OxmField::VlanPcp,
    OxmField::IpDscp,
    OxmField::IpEcn,
    OxmField::IpProto,
    OxmField::Ipv4Src,
    OxmField::Ipv4Dst,
    OxmField::TcpSrc,
    OxmField::TcpDst,
    OxmField::UdpSrc,
    OxmField::UdpDst,
    OxmField::Icmpv4Type,
    OxmField::Icmpv4Code,
    OxmField::ArpOp,
    OxmField::ArpSpa,
    OxmField::ArpTpa,
    OxmField::ArpSha,
    OxmField::ArpTha,
    OxmField::Ipv6Src,
    OxmField::Ipv6Dst,
    OxmField::Ipv6Flabel,
    OxmField::Icmpv6Type,
    OxmField::Icmpv6Code,
    OxmField::Ipv6NdTarget,
    OxmField::Ipv6NdSll,
    OxmField::Ipv6NdTll,
    OxmField::MplsLabel,
    OxmField::MplsTc,
    OxmField::MplsBos,
    OxmField::EthType,
    OxmField::PbbIsid,
    // not in the frame: the pipeline keeps it for the tables that follow
    OxmField::TunnelId,
];

/// The OFPAT_* (1.3) action types the switch runs, as a bitmap (group features) and a list
/// (table features): output 0, copy TTL out/in 11/12, set/dec MPLS TTL 15/16, push/pop VLAN
/// 17/18, push/pop MPLS 19/20, group 22, set/dec NW TTL 23/24, set-field 25, push/pop PBB 26/27.
pub const ACTIONS13: &[u16] = &[0, 11, 12, 15, 16, 17, 18, 19, 20, 22, 23, 24, 25, 26, 27];

pub fn actions13_bitmap() -> u32 {
    ACTIONS13.iter().fold(0, |m, a| m | 1 << a)
}

/// An error (type, code) for the first action the switch does not run.
pub fn actions(list: &[Action], groups: &Groups) -> Result<(), (u16, u16)> {
    for a in list {
        match a {
            Action::Group(g) if !groups.exists(*g) => return Err((error_type::BAD_ACTION, bad_action::BAD_OUT_GROUP)),
            Action::SetField(Oxm::Basic { field, .. }) if !SET_FIELDS.contains(field) => {
                return Err((error_type::BAD_ACTION, bad_action::BAD_SET_TYPE))
            }
            Action::SetField(Oxm::Other { .. }) => return Err((error_type::BAD_ACTION, bad_action::BAD_SET_TYPE)),
            Action::Experimenter { .. } => return Err((error_type::BAD_ACTION, bad_action::BAD_EXPERIMENTER)),
            Action::SetQueue(_) | Action::Unknown { .. } => return Err((error_type::BAD_ACTION, bad_action::BAD_TYPE)),
            _ => {}
        }
    }
    Ok(())
}

/// An error (type, code) for the first instruction of an entry in `table` the switch does not run.
pub fn instructions(list: &[Instruction], table: u8, n_tables: u8, groups: &Groups, meters: &Meters) -> Result<(), (u16, u16)> {
    for i in list {
        match i {
            Instruction::ApplyActions(a) | Instruction::WriteActions(a) => actions(a, groups)?,
            Instruction::ClearActions => {}
            Instruction::GotoTable(t) if *t <= table || *t >= n_tables => {
                return Err((error_type::v13::BAD_INSTRUCTION, bad_instruction::BAD_TABLE_ID))
            }
            Instruction::GotoTable(_) => {}
            Instruction::Meter(m) if !meters.exists(*m) => {
                return Err((error_type::v13::METER_MOD_FAILED, meter_mod_failed::UNKNOWN_METER))
            }
            Instruction::Meter(_) => {}
            Instruction::WriteMetadata { .. } => {}
            Instruction::Experimenter { .. } | Instruction::Unknown { .. } => {
                return Err((error_type::v13::BAD_INSTRUCTION, bad_instruction::UNKNOWN_INST))
            }
        }
    }
    Ok(())
}
