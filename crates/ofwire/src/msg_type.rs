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

// (kind, 1.0 code, 1.3 code); 0xff where the version has no such message.
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
    pub fn from_code(v: Version, code: u8) -> Option<MsgType> {
        if code == 0xff {
            return None;
        }
        TABLE.iter().find(|e| code_in(e, v) == code).map(|e| e.0)
    }

    /// The code in version `v`; messages that version lacks are given their 1.3 code.
    pub fn code(self, v: Version) -> u8 {
        let e = TABLE.iter().find(|e| e.0 == self).expect("every kind is in the table");
        match code_in(e, v) {
            0xff => e.2,
            c => c,
        }
    }
}

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
                if code_in(e, v) != 0xff {
                    assert_eq!(MsgType::from_code(v, e.0.code(v)), Some(e.0));
                }
            }
        }
    }
}
