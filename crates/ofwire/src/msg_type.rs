//! Message type codes (`ofp_header.type`), which differ between 1.0 and 1.3 after type 14.

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

    /// The code in version `v`; messages that version lacks are given their 1.3 code.
    #[inline]
    pub const fn code(self, v: Version) -> u8 {
        use MsgType::*;
        match (self, v) {
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
}
