//! Message type codes (`ofp_header.type`), which differ between 1.0 and 1.3 after type 14.
//!
//! [`MsgType`] names every message type of both versions. [`MsgType::from_code`] answers only
//! for the kinds this crate decodes into a `Body` (the others are kept as bytes);
//! [`MsgType::of`] / [`MsgType::from_wire`] are total: table-mod, queue-get-config and codes no
//! version defines come back as `TableMod`, `QueueGetConfig*` and `Unknown(code)`.

use crate::version::Version;

/// The kinds of message this crate decodes, independent of the version's numbering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MsgType {
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
    StatsRequest,
    StatsReply,
    BarrierRequest,
    BarrierReply,
    RoleRequest,
    RoleReply,
    GetAsyncRequest,
    GetAsyncReply,
    SetAsync,
    MeterMod,
    /// OF1.3 table-mod (type 17; 1.0 has none). Kept as bytes by this crate.
    TableMod,
    /// Queue-get-config request (1.0: 20, 1.3: 22). Kept as bytes by this crate.
    QueueGetConfigRequest,
    /// Queue-get-config reply (1.0: 21, 1.3: 23). Kept as bytes by this crate.
    QueueGetConfigReply,
    /// A code the version does not define (or one this table does not name).
    Unknown(u8),
}

// (kind, 1.0 code, 1.3 code); 0xff where the version has no such message. The reference the
// `match`es in `code`/`from_code` are tested against (it is the spec's table, kept readable).
#[cfg(test)]
const TABLE: [(MsgType, u8, u8); 27] = [
    (MsgType::Hello, 0, 0),
    (MsgType::Error, 1, 1),
    (MsgType::EchoRequest, 2, 2),
    (MsgType::EchoReply, 3, 3),
    (MsgType::Experimenter, 4, 4),
    (MsgType::FeaturesRequest, 5, 5),
    (MsgType::FeaturesReply, 6, 6),
    (MsgType::GetConfigRequest, 7, 7),
    (MsgType::GetConfigReply, 8, 8),
    (MsgType::SetConfig, 9, 9),
    (MsgType::PacketIn, 10, 10),
    (MsgType::FlowRemoved, 11, 11),
    (MsgType::PortStatus, 12, 12),
    (MsgType::PacketOut, 13, 13),
    (MsgType::FlowMod, 14, 14),
    (MsgType::GroupMod, 0xff, 15),
    (MsgType::PortMod, 15, 16),
    (MsgType::StatsRequest, 16, 18),
    (MsgType::StatsReply, 17, 19),
    (MsgType::BarrierRequest, 18, 20),
    (MsgType::BarrierReply, 19, 21),
    (MsgType::RoleRequest, 0xff, 24),
    (MsgType::RoleReply, 0xff, 25),
    (MsgType::GetAsyncRequest, 0xff, 26),
    (MsgType::GetAsyncReply, 0xff, 27),
    (MsgType::SetAsync, 0xff, 28),
    (MsgType::MeterMod, 0xff, 29),
];

impl MsgType {
    /// The kind named by `code` in version `v`, `None` for codes this crate keeps as bytes.
    ///
    /// A direct `match` rather than a scan of `TABLE`: every checked view calls this or
    /// `code` on its hot path. The test below holds both to `TABLE`.
    #[inline]
    pub const fn from_code(v: Version, code: u8) -> Option<MsgType> {
        use MsgType::*;
        Some(match (code, v) {
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
            (15, Version::V10) => PortMod,
            (16, Version::V10) => StatsRequest,
            (17, Version::V10) => StatsReply,
            (18, Version::V10) => BarrierRequest,
            (19, Version::V10) => BarrierReply,
            (15, Version::V13) => GroupMod,
            (16, Version::V13) => PortMod,
            (18, Version::V13) => StatsRequest,
            (19, Version::V13) => StatsReply,
            (20, Version::V13) => BarrierRequest,
            (21, Version::V13) => BarrierReply,
            (24, Version::V13) => RoleRequest,
            (25, Version::V13) => RoleReply,
            (26, Version::V13) => GetAsyncRequest,
            (27, Version::V13) => GetAsyncReply,
            (28, Version::V13) => SetAsync,
            (29, Version::V13) => MeterMod,
            _ => return None,
        })
    }

    /// The kind named by `code` in version `v`, total: kinds kept as bytes and undefined codes
    /// included.
    #[inline]
    pub const fn of(v: Version, code: u8) -> MsgType {
        if let Some(t) = MsgType::from_code(v, code) {
            return t;
        }
        match (code, v) {
            (20, Version::V10) | (22, Version::V13) => MsgType::QueueGetConfigRequest,
            (21, Version::V10) | (23, Version::V13) => MsgType::QueueGetConfigReply,
            (17, Version::V13) => MsgType::TableMod,
            (c, _) => MsgType::Unknown(c),
        }
    }

    /// [`MsgType::of`] for a wire version byte: 1.0 numbering for 0x01, 1.3 numbering for any
    /// other (as for a later version's hello).
    #[inline]
    pub const fn from_wire(version: u8, code: u8) -> MsgType {
        MsgType::of(Version::layout(version), code)
    }

    /// The code in version `v`; messages that version lacks are given their 1.3 code.
    #[inline]
    pub const fn code(self, v: Version) -> u8 {
        use MsgType::*;
        match (self, v) {
            (QueueGetConfigRequest, Version::V10) => 20,
            (QueueGetConfigReply, Version::V10) => 21,
            (QueueGetConfigRequest, _) => 22,
            (QueueGetConfigReply, _) => 23,
            (TableMod, _) => 17,
            (Unknown(c), _) => c,
            (PortMod, Version::V10) => 15,
            (StatsRequest, Version::V10) => 16,
            (StatsReply, Version::V10) => 17,
            (BarrierRequest, Version::V10) => 18,
            (BarrierReply, Version::V10) => 19,
            (Hello, _) => 0,
            (Error, _) => 1,
            (EchoRequest, _) => 2,
            (EchoReply, _) => 3,
            (Experimenter, _) => 4,
            (FeaturesRequest, _) => 5,
            (FeaturesReply, _) => 6,
            (GetConfigRequest, _) => 7,
            (GetConfigReply, _) => 8,
            (SetConfig, _) => 9,
            (PacketIn, _) => 10,
            (FlowRemoved, _) => 11,
            (PortStatus, _) => 12,
            (PacketOut, _) => 13,
            (FlowMod, _) => 14,
            (GroupMod, _) => 15,
            (PortMod, _) => 16,
            (StatsRequest, _) => 18,
            (StatsReply, _) => 19,
            (BarrierRequest, _) => 20,
            (BarrierReply, _) => 21,
            (RoleRequest, _) => 24,
            (RoleReply, _) => 25,
            (GetAsyncRequest, _) => 26,
            (GetAsyncReply, _) => 27,
            (SetAsync, _) => 28,
            (MeterMod, _) => 29,
        }
    }

    /// A short snake_case name (the key of reply counters in the engine's JSON).
    pub const fn name(self) -> &'static str {
        use MsgType::*;
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

#[cfg(test)]
fn code_in(e: &(MsgType, u8, u8), v: Version) -> u8 {
    match v {
        Version::V10 => e.1,
        Version::V13 => e.2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_differ_after_flow_mod() {
        assert_eq!(MsgType::from_code(Version::V10, 16), Some(MsgType::StatsRequest));
        assert_eq!(MsgType::from_code(Version::V13, 16), Some(MsgType::PortMod));
        assert_eq!(MsgType::from_code(Version::V10, 24), None);
        assert_eq!(MsgType::from_code(Version::V13, 17), None, "table-mod is kept as bytes");
        assert_eq!(MsgType::BarrierReply.code(Version::V13), 21);
        for e in TABLE.iter() {
            for v in [Version::V10, Version::V13] {
                let want = if code_in(e, v) == 0xff { e.2 } else { code_in(e, v) };
                assert_eq!(e.0.code(v), want, "{:?} in {v:?}", e.0);
                if code_in(e, v) != 0xff {
                    assert_eq!(MsgType::from_code(v, e.0.code(v)), Some(e.0));
                }
            }
        }
        // Every code either names exactly the table's kind or is kept as bytes.
        for v in [Version::V10, Version::V13] {
            for code in 0..=255u8 {
                let want = TABLE.iter().find(|e| code != 0xff && code_in(e, v) == code).map(|e| e.0);
                assert_eq!(MsgType::from_code(v, code), want, "code {code} in {v:?}");
            }
        }
    }

    /// `of` is total and inverse to `code` for every code of both versions; the kinds kept as
    /// bytes have the spec's codes (OF1.0 §5.1, OF1.3 §7.1 `ofp_type`).
    #[test]
    fn total_and_round_trips() {
        assert_eq!(MsgType::of(Version::V13, 17), MsgType::TableMod);
        assert_eq!(MsgType::of(Version::V10, 17), MsgType::StatsReply);
        assert_eq!(MsgType::of(Version::V10, 20), MsgType::QueueGetConfigRequest);
        assert_eq!(MsgType::of(Version::V13, 23), MsgType::QueueGetConfigReply);
        assert_eq!(MsgType::of(Version::V13, 77), MsgType::Unknown(77));
        assert_eq!(MsgType::of(Version::V10, 24), MsgType::Unknown(24));
        assert_eq!(MsgType::from_wire(6, 0), MsgType::Hello, "a later version's hello");
        assert_eq!(MsgType::from_wire(1, 16), MsgType::StatsRequest);
        assert_eq!(MsgType::from_wire(4, 16), MsgType::PortMod);
        for v in [Version::V10, Version::V13] {
            for c in 0..=255u8 {
                let t = MsgType::of(v, c);
                assert_eq!(t.code(v), c, "{t:?} in {v:?}");
                assert!(!t.name().is_empty());
                if MsgType::from_code(v, c).is_some() {
                    assert!(!matches!(
                        t,
                        MsgType::Unknown(_) | MsgType::TableMod | MsgType::QueueGetConfigRequest | MsgType::QueueGetConfigReply
                    ));
                }
            }
        }
        assert_eq!(MsgType::StatsRequest.name(), "stats_request");
    }
}
