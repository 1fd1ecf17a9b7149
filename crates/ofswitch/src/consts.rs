//! The message kinds and OpenFlow numbers the emulated switch uses, for 1.0 (0x01) and 1.3 (0x04).
//!
//! [`Kind`] names every message the switch and the engine's counters deal with. The type codes
//! come from ofwire's `MsgType` table; `Kind` adds only the kinds ofwire keeps as raw bytes
//! (table-mod, queue-get-config) and unknown codes.

use ofwire::flow_mod::command;
use ofwire::error_names::{bad_request, error_type, hello_failed};
use ofwire::stats::kind;
use ofwire::version::Version;
use ofwire::MsgType;

pub use ofwire::packet_in::NO_BUFFER;
pub use ofwire::{HEADER_LEN, OFP10, OFP13};

/// A message type, independent of the wire version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Hello,
    Error,
    EchoRequest,
    EchoReply,
    Experimenter,
    FeaturesRequest,
    FeaturesReply,
    GetConfigRequest,
    GetConfigReply,
    SetConfig,
    PacketIn,
    FlowRemoved,
    PortStatus,
    PacketOut,
    FlowMod,
    GroupMod,
    PortMod,
    TableMod,
    StatsRequest,
    StatsReply,
    BarrierRequest,
    BarrierReply,
    QueueGetConfigRequest,
    QueueGetConfigReply,
    RoleRequest,
    RoleReply,
    GetAsyncRequest,
    GetAsyncReply,
    SetAsync,
    MeterMod,
    Unknown(u8),
}

impl Kind {
    /// The kind of message type `code` in wire version `version` (1.3 numbering for anything
    /// but 1.0, as for a hello of a later version). ofwire's table decides; only the kinds it
    /// keeps as bytes are added here.
    pub fn from_code(version: u8, code: u8) -> Kind {
        let v = layout(version);
        if let Some(t) = MsgType::from_code(v, code) {
            return Kind::from(t);
        }
        // TODO(ofwire): table-mod and queue-get-config request/reply in MsgType.
        match (v, code) {
            (Version::V10, 20) | (Version::V13, 22) => Kind::QueueGetConfigRequest,
            (Version::V10, 21) | (Version::V13, 23) => Kind::QueueGetConfigReply,
            (Version::V13, 17) => Kind::TableMod,
            (_, c) => Kind::Unknown(c),
        }
    }

    /// The wire code of this kind in `version` (messages a version lacks get their 1.3 code).
    pub fn code(self, version: u8) -> u8 {
        let v = layout(version);
        match self {
            Kind::QueueGetConfigRequest => if v == Version::V10 { 20 } else { 22 },
            Kind::QueueGetConfigReply => if v == Version::V10 { 21 } else { 23 },
            Kind::TableMod => 17,
            Kind::Unknown(c) => c,
            k => k.msg_type().expect("every other kind is an ofwire MsgType").code(v),
        }
    }

    fn msg_type(self) -> Option<MsgType> {
        use Kind::*;
        Some(match self {
            Hello => MsgType::Hello,
            Error => MsgType::Error,
            EchoRequest => MsgType::EchoRequest,
            EchoReply => MsgType::EchoReply,
            Experimenter => MsgType::Experimenter,
            FeaturesRequest => MsgType::FeaturesRequest,
            FeaturesReply => MsgType::FeaturesReply,
            GetConfigRequest => MsgType::GetConfigRequest,
            GetConfigReply => MsgType::GetConfigReply,
            SetConfig => MsgType::SetConfig,
            PacketIn => MsgType::PacketIn,
            FlowRemoved => MsgType::FlowRemoved,
            PortStatus => MsgType::PortStatus,
            PacketOut => MsgType::PacketOut,
            FlowMod => MsgType::FlowMod,
            GroupMod => MsgType::GroupMod,
            PortMod => MsgType::PortMod,
            StatsRequest => MsgType::StatsRequest,
            StatsReply => MsgType::StatsReply,
            BarrierRequest => MsgType::BarrierRequest,
            BarrierReply => MsgType::BarrierReply,
            RoleRequest => MsgType::RoleRequest,
            RoleReply => MsgType::RoleReply,
            GetAsyncRequest => MsgType::GetAsyncRequest,
            GetAsyncReply => MsgType::GetAsyncReply,
            SetAsync => MsgType::SetAsync,
            MeterMod => MsgType::MeterMod,
            TableMod | QueueGetConfigRequest | QueueGetConfigReply | Unknown(_) => return None,
        })
    }

    /// A short snake_case name, used as the key of reply counters in the engine's JSON.
    pub fn name(self) -> &'static str {
        use Kind::*;
        match self {
            Hello => "hello",
            Error => "error",
            EchoRequest => "echo_request",
            EchoReply => "echo_reply",
            Experimenter => "experimenter",
            FeaturesRequest => "features_request",
            FeaturesReply => "features_reply",
            GetConfigRequest => "get_config_request",
            GetConfigReply => "get_config_reply",
            SetConfig => "set_config",
            PacketIn => "packet_in",
            FlowRemoved => "flow_removed",
            PortStatus => "port_status",
            PacketOut => "packet_out",
            FlowMod => "flow_mod",
            GroupMod => "group_mod",
            PortMod => "port_mod",
            TableMod => "table_mod",
            StatsRequest => "stats_request",
            StatsReply => "stats_reply",
            BarrierRequest => "barrier_request",
            BarrierReply => "barrier_reply",
            QueueGetConfigRequest => "queue_get_config_request",
            QueueGetConfigReply => "queue_get_config_reply",
            RoleRequest => "role_request",
            RoleReply => "role_reply",
            GetAsyncRequest => "get_async_request",
            GetAsyncReply => "get_async_reply",
            SetAsync => "set_async",
            MeterMod => "meter_mod",
            Unknown(_) => "unknown",
        }
    }
}

impl From<MsgType> for Kind {
    fn from(t: MsgType) -> Kind {
        use Kind::*;
        match t {
            MsgType::Hello => Hello,
            MsgType::Error => Error,
            MsgType::EchoRequest => EchoRequest,
            MsgType::EchoReply => EchoReply,
            MsgType::Experimenter => Experimenter,
            MsgType::FeaturesRequest => FeaturesRequest,
            MsgType::FeaturesReply => FeaturesReply,
            MsgType::GetConfigRequest => GetConfigRequest,
            MsgType::GetConfigReply => GetConfigReply,
            MsgType::SetConfig => SetConfig,
            MsgType::PacketIn => PacketIn,
            MsgType::FlowRemoved => FlowRemoved,
            MsgType::PortStatus => PortStatus,
            MsgType::PacketOut => PacketOut,
            MsgType::FlowMod => FlowMod,
            MsgType::GroupMod => GroupMod,
            MsgType::PortMod => PortMod,
            MsgType::StatsRequest => StatsRequest,
            MsgType::StatsReply => StatsReply,
            MsgType::BarrierRequest => BarrierRequest,
            MsgType::BarrierReply => BarrierReply,
            MsgType::RoleRequest => RoleRequest,
            MsgType::RoleReply => RoleReply,
            MsgType::GetAsyncRequest => GetAsyncRequest,
            MsgType::GetAsyncReply => GetAsyncReply,
            MsgType::SetAsync => SetAsync,
            MsgType::MeterMod => MeterMod,
        }
    }
}

/// The layout version of a wire version byte: 1.0, or 1.3 for anything else.
#[inline]
pub fn layout(version: u8) -> Version {
    if version == OFP10 { Version::V10 } else { Version::V13 }
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

// Flow-mod commands, as the 8 bits both versions use.
pub const FC_ADD: u8 = command::ADD as u8;
pub const FC_MODIFY: u8 = command::MODIFY as u8;
pub const FC_MODIFY_STRICT: u8 = command::MODIFY_STRICT as u8;
pub const FC_DELETE: u8 = command::DELETE as u8;
pub const FC_DELETE_STRICT: u8 = command::DELETE_STRICT as u8;

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes pinned from the specs (OF1.0 §5.1 `ofp_type`, OF1.3 §7.1 `ofp_type`).
    #[test]
    fn codes_of_both_versions() {
        let pinned: [(Kind, u8, u8); 9] = [
            (Kind::Hello, 0, 0),
            (Kind::FlowMod, 14, 14),
            (Kind::PortMod, 15, 16),
            (Kind::StatsRequest, 16, 18),
            (Kind::BarrierReply, 19, 21),
            (Kind::QueueGetConfigRequest, 20, 22),
            (Kind::QueueGetConfigReply, 21, 23),
            (Kind::RoleReply, 25, 25),
            (Kind::MeterMod, 29, 29),
        ];
        for (k, c10, c13) in pinned {
            assert_eq!((k.code(OFP10), k.code(OFP13)), (c10, c13), "{k:?}");
            assert_eq!(Kind::from_code(OFP13, c13), k);
            if k != Kind::RoleReply && k != Kind::MeterMod {
                assert_eq!(Kind::from_code(OFP10, c10), k);
            }
        }
        assert_eq!(Kind::from_code(OFP13, 17), Kind::TableMod);
        assert_eq!(Kind::from_code(OFP13, 77), Kind::Unknown(77));
        assert_eq!(Kind::from_code(6, 0), Kind::Hello, "a later version's hello");
        for c in 0..=40u8 {
            for v in [OFP10, OFP13] {
                let k = Kind::from_code(v, c);
                assert_eq!(k.code(v), c, "{k:?} in {v}");
            }
        }
    }
}
