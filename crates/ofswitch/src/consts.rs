//! OpenFlow numbers the emulated switch needs, for 1.0 (wire version 0x01) and 1.3 (0x04).
//!
//! Message type codes differ between the versions after PORT_MOD, so every type the switch
//! answers goes through [`Kind::from_code`], which maps a (version, type) pair to one enum.

pub const OFP10: u8 = 0x01;
pub const OFP13: u8 = 0x04;
pub const HEADER_LEN: usize = 8;
pub const NO_BUFFER: u32 = 0xffff_ffff;

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
    pub fn from_code(version: u8, code: u8) -> Kind {
        use Kind::*;
        match (code, version) {
            (0, _) => Hello,
            (1, _) => Error,
            (2, _) => EchoRequest,
            (3, _) => EchoReply,
            (4, _) => Experimenter,
            (5, _) => FeaturesRequest,
            (6, _) => FeaturesReply,
            (7, _) => GetConfigRequest,
            (8, _) => GetConfigReply,
            (9, _) => SetConfig,
            (10, _) => PacketIn,
            (11, _) => FlowRemoved,
            (12, _) => PortStatus,
            (13, _) => PacketOut,
            (14, _) => FlowMod,
            (15, OFP10) => PortMod,
            (16, OFP10) => StatsRequest,
            (17, OFP10) => StatsReply,
            (18, OFP10) => BarrierRequest,
            (19, OFP10) => BarrierReply,
            (20, OFP10) => QueueGetConfigRequest,
            (21, OFP10) => QueueGetConfigReply,
            (15, _) => GroupMod,
            (16, _) => PortMod,
            (17, _) => TableMod,
            (18, _) => StatsRequest,
            (19, _) => StatsReply,
            (20, _) => BarrierRequest,
            (21, _) => BarrierReply,
            (22, _) => QueueGetConfigRequest,
            (23, _) => QueueGetConfigReply,
            (24, _) => RoleRequest,
            (25, _) => RoleReply,
            (26, _) => GetAsyncRequest,
            (27, _) => GetAsyncReply,
            (28, _) => SetAsync,
            (29, _) => MeterMod,
            (c, _) => Unknown(c),
        }
    }

    /// The wire code of a message the switch sends.
    pub fn code(self, version: u8) -> u8 {
        use Kind::*;
        let v10 = version == OFP10;
        match self {
            Hello => 0,
            Error => 1,
            EchoRequest => 2,
            EchoReply => 3,
            Experimenter => 4,
            FeaturesRequest => 5,
            FeaturesReply => 6,
            GetConfigRequest => 7,
            GetConfigReply => 8,
            SetConfig => 9,
            PacketIn => 10,
            FlowRemoved => 11,
            PortStatus => 12,
            PacketOut => 13,
            FlowMod => 14,
            PortMod => if v10 { 15 } else { 16 },
            GroupMod => 15,
            TableMod => 17,
            StatsRequest => if v10 { 16 } else { 18 },
            StatsReply => if v10 { 17 } else { 19 },
            BarrierRequest => if v10 { 18 } else { 20 },
            BarrierReply => if v10 { 19 } else { 21 },
            QueueGetConfigRequest => if v10 { 20 } else { 22 },
            QueueGetConfigReply => if v10 { 21 } else { 23 },
            RoleRequest => 24,
            RoleReply => 25,
            GetAsyncRequest => 26,
            GetAsyncReply => 27,
            SetAsync => 28,
            MeterMod => 29,
            Unknown(c) => c,
        }
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

// Stats / multipart body types (OF1.0 §5.3.5, OF1.3 §7.3.5).
pub const ST_DESC: u16 = 0;
pub const ST_FLOW: u16 = 1;
pub const ST_AGGREGATE: u16 = 2;
pub const ST_TABLE: u16 = 3;
pub const ST_PORT: u16 = 4;
pub const MP_TABLE_FEATURES: u16 = 12;
pub const MP_PORT_DESC: u16 = 13;

// Error types and codes.
pub const ET_HELLO_FAILED: u16 = 0;
pub const HFC_INCOMPATIBLE: u16 = 0;
pub const ET_BAD_REQUEST: u16 = 1;
pub const BRC_BAD_TYPE: u16 = 1;
pub const BRC_BAD_STAT: u16 = 2;
pub const BRC_BAD_LEN: u16 = 6;
pub const BRC_BAD_VERSION: u16 = 0;

// Flow-mod commands.
pub const FC_ADD: u8 = 0;
pub const FC_MODIFY: u8 = 1;
pub const FC_MODIFY_STRICT: u8 = 2;
pub const FC_DELETE: u8 = 3;
pub const FC_DELETE_STRICT: u8 = 4;

pub const ETH_LLDP: u16 = 0x88cc;
