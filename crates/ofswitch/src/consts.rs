//! The message kinds and OpenFlow numbers the emulated switch uses, for 1.0 (0x01) and 1.3 (0x04).
//!
//! Message kinds are ofwire's [`MsgType`] (one table for the whole project).

use ofwire::error_names::{bad_request, error_type, hello_failed};
use ofwire::flow_mod::command;
use ofwire::stats::kind;
use ofwire::version::Version;
use ofwire::MsgType;

pub use ofwire::packet_in::NO_BUFFER;
pub use ofwire::{HEADER_LEN, OFP10, OFP13};

/// Compatibility name for the engine, which calls `Kind::from_code(version, code).name()`.
/// The switch has no message-type enum of its own any more: this returns ofwire's [`MsgType`]
/// (total, with `TableMod`, `QueueGetConfig*` and `Unknown(code)`). New code should call
/// `MsgType::from_wire(version, code)` directly; this shim goes once the engine does.
pub struct Kind;

impl Kind {
    #[inline]
    pub const fn from_code(version: u8, code: u8) -> MsgType {
        MsgType::from_wire(version, code)
    }
}

/// The layout version of a wire version byte: 1.0, or 1.3 for anything else.
#[inline]
pub fn layout(version: u8) -> Version {
    if version == OFP10 {
        Version::V10
    } else {
        Version::V13
    }
}

// Stats / multipart body types (OF1.0 §5.3.5, OF1.3 §7.3.5).
pub const ST_DESC: u16 = kind::DESC;
pub const ST_FLOW: u16 = kind::FLOW;
pub const ST_AGGREGATE: u16 = kind::AGGREGATE;
pub const ST_TABLE: u16 = kind::TABLE;
pub const ST_PORT: u16 = kind::PORT;
pub const MP_PORT_DESC: u16 = kind::PORT_DESC;
pub const MP_TABLE_FEATURES: u16 = kind::TABLE_FEATURES;

// Error types and codes the switch sends (OF1.0 §5.4.4, OF1.3 §7.4.4), named by ofwire.
pub const ET_HELLO_FAILED: u16 = error_type::HELLO_FAILED;
pub const HFC_INCOMPATIBLE: u16 = hello_failed::INCOMPATIBLE;
pub const ET_BAD_REQUEST: u16 = error_type::BAD_REQUEST;
pub const BRC_BAD_TYPE: u16 = bad_request::BAD_TYPE;
pub const BRC_BAD_STAT: u16 = bad_request::BAD_STAT;
pub const BRC_BAD_EXPERIMENTER: u16 = bad_request::BAD_EXPERIMENTER;
pub const BRC_BAD_LEN: u16 = bad_request::BAD_LEN;
pub const BRC_BAD_VERSION: u16 = bad_request::BAD_VERSION;

// Codes ofwire does not name yet (OF1.0 §5.4.4 `ofp_error_type`, OF1.3 §7.4.4).
pub const BRC_BUFFER_UNKNOWN: u16 = 8;
/// OFPBRC_IS_SLAVE (1.3 only).
pub const BRC_IS_SLAVE: u16 = 10;
pub const ET_BAD_ACTION: u16 = 2;
pub const BAC_BAD_OUT_PORT: u16 = 4;
/// OFPET_FLOW_MOD_FAILED: type 3 in 1.0, 5 in 1.3.
pub const ET_FLOW_MOD_FAILED10: u16 = 3;
pub const ET_FLOW_MOD_FAILED13: u16 = 5;
pub const FMF10_ALL_TABLES_FULL: u16 = 0;
pub const FMF10_OVERLAP: u16 = 1;
pub const FMF10_BAD_COMMAND: u16 = 4;
pub const FMF13_TABLE_FULL: u16 = 1;
pub const FMF13_BAD_TABLE_ID: u16 = 2;
pub const FMF13_OVERLAP: u16 = 3;
pub const FMF13_BAD_COMMAND: u16 = 6;
/// OFPET_BAD_MATCH (1.3) / OFPBMC_BAD_FIELD.
pub const ET_BAD_MATCH13: u16 = 4;
pub const BMC_BAD_FIELD: u16 = 6;
/// OFPET_PORT_MOD_FAILED: type 4 in 1.0, 7 in 1.3; OFPPMFC_BAD_PORT = 0.
pub const ET_PORT_MOD_FAILED10: u16 = 4;
pub const ET_PORT_MOD_FAILED13: u16 = 7;
pub const PMF_BAD_PORT: u16 = 0;
/// OFPET_ROLE_REQUEST_FAILED (1.3): STALE, BAD_ROLE.
pub const ET_ROLE_REQUEST_FAILED: u16 = 11;
pub const RRF_STALE: u16 = 0;
pub const RRF_BAD_ROLE: u16 = 2;

// Flow-mod commands, as the 8 bits both versions use.
pub const FC_ADD: u8 = command::ADD as u8;
pub const FC_MODIFY: u8 = command::MODIFY as u8;
pub const FC_MODIFY_STRICT: u8 = command::MODIFY_STRICT as u8;
pub const FC_DELETE: u8 = command::DELETE as u8;
pub const FC_DELETE_STRICT: u8 = command::DELETE_STRICT as u8;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_shim_is_msg_type() {
        assert_eq!(Kind::from_code(OFP13, 17), MsgType::TableMod);
        assert_eq!(Kind::from_code(OFP10, 20).name(), "queue_get_config_request");
        assert_eq!(Kind::from_code(OFP13, 77), MsgType::Unknown(77));
    }
}
