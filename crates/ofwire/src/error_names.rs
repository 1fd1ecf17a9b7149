//! The names of every error type and code of OpenFlow 1.0 (§5.4.4) and 1.3 (§7.4.4).

use crate::version::Version;

/// Error types (OFPET_*): those whose number is the same in 1.0 and 1.3 here, the others in
/// [`error_type::v10`] and [`error_type::v13`] (1.3 inserts BAD_INSTRUCTION and BAD_MATCH at 3
/// and 4, so every later type moves).
pub mod error_type {
    use crate::version::Version;

    pub const HELLO_FAILED: u16 = 0;
    pub const BAD_REQUEST: u16 = 1;
    pub const BAD_ACTION: u16 = 2;

    /// OpenFlow 1.0's numbers (§5.4.4).
    pub mod v10 {
        pub const FLOW_MOD_FAILED: u16 = 3;
        pub const PORT_MOD_FAILED: u16 = 4;
        pub const QUEUE_OP_FAILED: u16 = 5;
    }

    /// OpenFlow 1.3's numbers (§7.4.4).
    pub mod v13 {
        pub const BAD_INSTRUCTION: u16 = 3;
        pub const BAD_MATCH: u16 = 4;
        pub const FLOW_MOD_FAILED: u16 = 5;
        pub const GROUP_MOD_FAILED: u16 = 6;
        pub const PORT_MOD_FAILED: u16 = 7;
        pub const TABLE_MOD_FAILED: u16 = 8;
        pub const QUEUE_OP_FAILED: u16 = 9;
        pub const SWITCH_CONFIG_FAILED: u16 = 10;
        pub const ROLE_REQUEST_FAILED: u16 = 11;
        pub const METER_MOD_FAILED: u16 = 12;
        pub const TABLE_FEATURES_FAILED: u16 = 13;
    }

    /// OFPET_FLOW_MOD_FAILED in version `v`.
    #[inline]
    pub const fn flow_mod_failed(v: Version) -> u16 {
        match v {
            Version::V10 => v10::FLOW_MOD_FAILED,
            Version::V13 => v13::FLOW_MOD_FAILED,
        }
    }

    /// OFPET_PORT_MOD_FAILED in version `v`.
    #[inline]
    pub const fn port_mod_failed(v: Version) -> u16 {
        match v {
            Version::V10 => v10::PORT_MOD_FAILED,
            Version::V13 => v13::PORT_MOD_FAILED,
        }
    }
}

/// OFPET_HELLO_FAILED codes (OFPHFC_*), both versions.
pub mod hello_failed {
    pub const INCOMPATIBLE: u16 = 0;
    pub const EPERM: u16 = 1;
}

/// OFPET_BAD_REQUEST codes (OFPBRC_*) (1.3 renames BAD_STAT to BAD_MULTIPART, BAD_VENDOR to
/// BAD_EXPERIMENTER and BAD_SUBTYPE to BAD_EXP_TYPE; IS_SLAVE is 1.3 only).
pub mod bad_request {
    pub const BAD_VERSION: u16 = 0;
    pub const BAD_TYPE: u16 = 1;
    pub const BAD_STAT: u16 = 2;
    pub const BAD_EXPERIMENTER: u16 = 3;
    pub const BAD_SUBTYPE: u16 = 4;
    pub const EPERM: u16 = 5;
    pub const BAD_LEN: u16 = 6;
    pub const BUFFER_EMPTY: u16 = 7;
    pub const BUFFER_UNKNOWN: u16 = 8;
    pub const IS_SLAVE: u16 = 10;
}

/// OFPET_BAD_ACTION codes (OFPBAC_*) (1.3 renames BAD_VENDOR to BAD_EXPERIMENTER; the codes
/// from BAD_OUT_GROUP on are 1.3 only).
pub mod bad_action {
    pub const BAD_TYPE: u16 = 0;
    pub const BAD_EXPERIMENTER: u16 = 2;
    pub const BAD_OUT_PORT: u16 = 4;
    pub const BAD_OUT_GROUP: u16 = 9;
    pub const BAD_SET_TYPE: u16 = 13;
}

/// OFPET_BAD_INSTRUCTION codes (OFPBIC_*, 1.3).
pub mod bad_instruction {
    pub const UNKNOWN_INST: u16 = 0;
    pub const UNSUP_INST: u16 = 1;
    pub const BAD_TABLE_ID: u16 = 2;
}

/// OFPET_BAD_MATCH codes (OFPBMC_*, 1.3).
pub mod bad_match {
    pub const BAD_FIELD: u16 = 6;
}

/// OFPET_FLOW_MOD_FAILED codes (OFPFMFC_*), numbered differently in each version.
pub mod flow_mod_failed {
    /// 1.0's codes.
    pub mod v10 {
        pub const ALL_TABLES_FULL: u16 = 0;
        pub const OVERLAP: u16 = 1;
        pub const BAD_COMMAND: u16 = 4;
    }
    /// 1.3's codes.
    pub mod v13 {
        pub const TABLE_FULL: u16 = 1;
        pub const BAD_TABLE_ID: u16 = 2;
        pub const OVERLAP: u16 = 3;
        pub const BAD_COMMAND: u16 = 6;
    }
}

/// OFPET_GROUP_MOD_FAILED codes (OFPGMFC_*, 1.3).
pub mod group_mod_failed {
    pub const GROUP_EXISTS: u16 = 0;
    pub const INVALID_GROUP: u16 = 1;
    pub const OUT_OF_GROUPS: u16 = 3;
    pub const WATCH_UNSUPPORTED: u16 = 6;
    pub const UNKNOWN_GROUP: u16 = 8;
    pub const BAD_TYPE: u16 = 10;
    pub const BAD_COMMAND: u16 = 11;
    pub const BAD_BUCKET: u16 = 12;
    pub const BAD_WATCH: u16 = 13;
}

/// OFPET_PORT_MOD_FAILED codes (OFPPMFC_*), both versions.
pub mod port_mod_failed {
    pub const BAD_PORT: u16 = 0;
}

/// OFPET_TABLE_MOD_FAILED codes (OFPTMFC_*, 1.3).
pub mod table_mod_failed {
    pub const BAD_TABLE: u16 = 0;
}

/// OFPET_ROLE_REQUEST_FAILED codes (OFPRRFC_*, 1.3).
pub mod role_request_failed {
    pub const STALE: u16 = 0;
    pub const BAD_ROLE: u16 = 2;
}

/// OFPET_METER_MOD_FAILED codes (OFPMMFC_*, 1.3).
pub mod meter_mod_failed {
    pub const METER_EXISTS: u16 = 1;
    pub const INVALID_METER: u16 = 2;
    pub const UNKNOWN_METER: u16 = 3;
    pub const BAD_COMMAND: u16 = 4;
    pub const BAD_FLAGS: u16 = 5;
    pub const BAD_RATE: u16 = 6;
    pub const BAD_BAND: u16 = 8;
    pub const OUT_OF_METERS: u16 = 10;
    pub const OUT_OF_BANDS: u16 = 11;
}

/// OFPET_TABLE_FEATURES_FAILED codes (OFPTFFC_*, 1.3).
pub mod table_features_failed {
    pub const EPERM: u16 = 5;
}

type Table = &'static [(&'static str, &'static [&'static str])];

const V10: Table = &[
    ("OFPET_HELLO_FAILED", &["OFPHFC_INCOMPATIBLE", "OFPHFC_EPERM"]),
    (
        "OFPET_BAD_REQUEST",
        &[
            "OFPBRC_BAD_VERSION",
            "OFPBRC_BAD_TYPE",
            "OFPBRC_BAD_STAT",
            "OFPBRC_BAD_VENDOR",
            "OFPBRC_BAD_SUBTYPE",
            "OFPBRC_EPERM",
            "OFPBRC_BAD_LEN",
            "OFPBRC_BUFFER_EMPTY",
            "OFPBRC_BUFFER_UNKNOWN",
        ],
    ),
    (
        "OFPET_BAD_ACTION",
        &[
            "OFPBAC_BAD_TYPE",
            "OFPBAC_BAD_LEN",
            "OFPBAC_BAD_VENDOR",
            "OFPBAC_BAD_VENDOR_TYPE",
            "OFPBAC_BAD_OUT_PORT",
            "OFPBAC_BAD_ARGUMENT",
            "OFPBAC_EPERM",
            "OFPBAC_TOO_MANY",
            "OFPBAC_BAD_QUEUE",
        ],
    ),
    (
        "OFPET_FLOW_MOD_FAILED",
        &[
            "OFPFMFC_ALL_TABLES_FULL",
            "OFPFMFC_OVERLAP",
            "OFPFMFC_EPERM",
            "OFPFMFC_BAD_EMERG_TIMEOUT",
            "OFPFMFC_BAD_COMMAND",
            "OFPFMFC_UNSUPPORTED",
        ],
    ),
    ("OFPET_PORT_MOD_FAILED", &["OFPPMFC_BAD_PORT", "OFPPMFC_BAD_HW_ADDR"]),
    ("OFPET_QUEUE_OP_FAILED", &["OFPQOFC_BAD_PORT", "OFPQOFC_BAD_QUEUE", "OFPQOFC_EPERM"]),
];

const V13: Table = &[
    ("OFPET_HELLO_FAILED", &["OFPHFC_INCOMPATIBLE", "OFPHFC_EPERM"]),
    (
        "OFPET_BAD_REQUEST",
        &[
            "OFPBRC_BAD_VERSION",
            "OFPBRC_BAD_TYPE",
            "OFPBRC_BAD_MULTIPART",
            "OFPBRC_BAD_EXPERIMENTER",
            "OFPBRC_BAD_EXP_TYPE",
            "OFPBRC_EPERM",
            "OFPBRC_BAD_LEN",
            "OFPBRC_BUFFER_EMPTY",
            "OFPBRC_BUFFER_UNKNOWN",
            "OFPBRC_BAD_TABLE_ID",
            "OFPBRC_IS_SLAVE",
            "OFPBRC_BAD_PORT",
            "OFPBRC_BAD_PACKET",
            "OFPBRC_MULTIPART_BUFFER_OVERFLOW",
        ],
    ),
    (
        "OFPET_BAD_ACTION",
        &[
            "OFPBAC_BAD_TYPE",
            "OFPBAC_BAD_LEN",
            "OFPBAC_BAD_EXPERIMENTER",
            "OFPBAC_BAD_EXP_TYPE",
            "OFPBAC_BAD_OUT_PORT",
            "OFPBAC_BAD_ARGUMENT",
            "OFPBAC_EPERM",
            "OFPBAC_TOO_MANY",
            "OFPBAC_BAD_QUEUE",
            "OFPBAC_BAD_OUT_GROUP",
            "OFPBAC_MATCH_INCONSISTENT",
            "OFPBAC_UNSUPPORTED_ORDER",
            "OFPBAC_BAD_TAG",
            "OFPBAC_BAD_SET_TYPE",
            "OFPBAC_BAD_SET_LEN",
            "OFPBAC_BAD_SET_ARGUMENT",
        ],
    ),
    (
        "OFPET_BAD_INSTRUCTION",
        &[
            "OFPBIC_UNKNOWN_INST",
            "OFPBIC_UNSUP_INST",
            "OFPBIC_BAD_TABLE_ID",
            "OFPBIC_UNSUP_METADATA",
            "OFPBIC_UNSUP_METADATA_MASK",
            "OFPBIC_BAD_EXPERIMENTER",
            "OFPBIC_BAD_EXP_TYPE",
            "OFPBIC_BAD_LEN",
            "OFPBIC_EPERM",
        ],
    ),
    (
        "OFPET_BAD_MATCH",
        &[
            "OFPBMC_BAD_TYPE",
            "OFPBMC_BAD_LEN",
            "OFPBMC_BAD_TAG",
            "OFPBMC_BAD_DL_ADDR_MASK",
            "OFPBMC_BAD_NW_ADDR_MASK",
            "OFPBMC_BAD_WILDCARDS",
            "OFPBMC_BAD_FIELD",
            "OFPBMC_BAD_VALUE",
            "OFPBMC_BAD_MASK",
            "OFPBMC_BAD_PREREQ",
            "OFPBMC_DUP_FIELD",
            "OFPBMC_EPERM",
        ],
    ),
    (
        "OFPET_FLOW_MOD_FAILED",
        &[
            "OFPFMFC_UNKNOWN",
            "OFPFMFC_TABLE_FULL",
            "OFPFMFC_BAD_TABLE_ID",
            "OFPFMFC_OVERLAP",
            "OFPFMFC_EPERM",
            "OFPFMFC_BAD_TIMEOUT",
            "OFPFMFC_BAD_COMMAND",
            "OFPFMFC_BAD_FLAGS",
        ],
    ),
    (
        "OFPET_GROUP_MOD_FAILED",
        &[
            "OFPGMFC_GROUP_EXISTS",
            "OFPGMFC_INVALID_GROUP",
            "OFPGMFC_WEIGHT_UNSUPPORTED",
            "OFPGMFC_OUT_OF_GROUPS",
            "OFPGMFC_OUT_OF_BUCKETS",
            "OFPGMFC_CHAINING_UNSUPPORTED",
            "OFPGMFC_WATCH_UNSUPPORTED",
            "OFPGMFC_LOOP",
            "OFPGMFC_UNKNOWN_GROUP",
            "OFPGMFC_CHAINED_GROUP",
            "OFPGMFC_BAD_TYPE",
            "OFPGMFC_BAD_COMMAND",
            "OFPGMFC_BAD_BUCKET",
            "OFPGMFC_BAD_WATCH",
            "OFPGMFC_EPERM",
        ],
    ),
    ("OFPET_PORT_MOD_FAILED", &["OFPPMFC_BAD_PORT", "OFPPMFC_BAD_HW_ADDR", "OFPPMFC_BAD_CONFIG", "OFPPMFC_BAD_ADVERTISE", "OFPPMFC_EPERM"]),
    ("OFPET_TABLE_MOD_FAILED", &["OFPTMFC_BAD_TABLE", "OFPTMFC_BAD_CONFIG", "OFPTMFC_EPERM"]),
    ("OFPET_QUEUE_OP_FAILED", &["OFPQOFC_BAD_PORT", "OFPQOFC_BAD_QUEUE", "OFPQOFC_EPERM"]),
    ("OFPET_SWITCH_CONFIG_FAILED", &["OFPSCFC_BAD_FLAGS", "OFPSCFC_BAD_LEN", "OFPSCFC_EPERM"]),
    ("OFPET_ROLE_REQUEST_FAILED", &["OFPRRFC_STALE", "OFPRRFC_UNSUP", "OFPRRFC_BAD_ROLE"]),
    (
        "OFPET_METER_MOD_FAILED",
        &[
            "OFPMMFC_UNKNOWN",
            "OFPMMFC_METER_EXISTS",
            "OFPMMFC_INVALID_METER",
            "OFPMMFC_UNKNOWN_METER",
            "OFPMMFC_BAD_COMMAND",
            "OFPMMFC_BAD_FLAGS",
            "OFPMMFC_BAD_RATE",
            "OFPMMFC_BAD_BURST",
            "OFPMMFC_BAD_BAND",
            "OFPMMFC_BAD_BAND_VALUE",
            "OFPMMFC_OUT_OF_METERS",
            "OFPMMFC_OUT_OF_BANDS",
        ],
    ),
    (
        "OFPET_TABLE_FEATURES_FAILED",
        &["OFPTFFC_BAD_TABLE", "OFPTFFC_BAD_METADATA", "OFPTFFC_BAD_TYPE", "OFPTFFC_BAD_LEN", "OFPTFFC_BAD_ARGUMENT", "OFPTFFC_EPERM"],
    ),
];

/// Names for an error type and code; "UNKNOWN" for numbers the version does not define.
pub fn error_name(v: Version, typ: u16, code: u16) -> (&'static str, &'static str) {
    if typ == 0xffff {
        return match v {
            Version::V10 => ("UNKNOWN", "UNKNOWN"),
            Version::V13 => ("OFPET_EXPERIMENTER", "EXPERIMENTER"),
        };
    }
    let table = match v {
        Version::V10 => V10,
        Version::V13 => V13,
    };
    match table.get(typ as usize) {
        Some((t, codes)) => (t, codes.get(code as usize).copied().unwrap_or("UNKNOWN")),
        None => ("UNKNOWN", "UNKNOWN"),
    }
}

/// How many codes each type has, per version (used to generate every error in tests).
pub fn codes_per_type(v: Version) -> Vec<usize> {
    let table = match v {
        Version::V10 => V10,
        Version::V13 => V13,
    };
    table.iter().map(|(_, c)| c.len()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The named constants are where the spec's names sit in both versions' tables.
    #[test]
    fn constants_name_the_tables_entries() {
        let pinned: [(u16, u16, &str, &str, &str); 10] = [
            (error_type::HELLO_FAILED, hello_failed::INCOMPATIBLE, "OFPET_HELLO_FAILED", "OFPHFC_INCOMPATIBLE", "OFPHFC_INCOMPATIBLE"),
            (error_type::HELLO_FAILED, hello_failed::EPERM, "OFPET_HELLO_FAILED", "OFPHFC_EPERM", "OFPHFC_EPERM"),
            (error_type::BAD_REQUEST, bad_request::BAD_VERSION, "OFPET_BAD_REQUEST", "OFPBRC_BAD_VERSION", "OFPBRC_BAD_VERSION"),
            (error_type::BAD_REQUEST, bad_request::BAD_TYPE, "OFPET_BAD_REQUEST", "OFPBRC_BAD_TYPE", "OFPBRC_BAD_TYPE"),
            (error_type::BAD_REQUEST, bad_request::BAD_STAT, "OFPET_BAD_REQUEST", "OFPBRC_BAD_STAT", "OFPBRC_BAD_MULTIPART"),
            (error_type::BAD_REQUEST, bad_request::BAD_EXPERIMENTER, "OFPET_BAD_REQUEST", "OFPBRC_BAD_VENDOR", "OFPBRC_BAD_EXPERIMENTER"),
            (error_type::BAD_REQUEST, bad_request::EPERM, "OFPET_BAD_REQUEST", "OFPBRC_EPERM", "OFPBRC_EPERM"),
            (error_type::BAD_REQUEST, bad_request::BAD_LEN, "OFPET_BAD_REQUEST", "OFPBRC_BAD_LEN", "OFPBRC_BAD_LEN"),
            (error_type::BAD_REQUEST, bad_request::BUFFER_UNKNOWN, "OFPET_BAD_REQUEST", "OFPBRC_BUFFER_UNKNOWN", "OFPBRC_BUFFER_UNKNOWN"),
            (error_type::BAD_ACTION, 0, "OFPET_BAD_ACTION", "OFPBAC_BAD_TYPE", "OFPBAC_BAD_TYPE"),
        ];
        for (t, c, tname, c10, c13) in pinned {
            assert_eq!(error_name(Version::V10, t, c), (tname, c10));
            assert_eq!(error_name(Version::V13, t, c), (tname, c13));
        }
        assert_eq!(error_name(Version::V13, error_type::BAD_REQUEST, bad_request::BUFFER_EMPTY).1, "OFPBRC_BUFFER_EMPTY");
    }

    /// Every named constant, of every module, sits where its spec name does in the version(s)
    /// it belongs to: ("" for a version that lacks it).
    #[test]
    fn every_named_constant_is_its_spec_name() {
        use error_type::{v10, v13};
        let v13only = |t: u16, c: u16, name: &'static str| (t, c, "", t, name);
        let both = |t: u16, c: u16, n10: &'static str, n13: &'static str| (t, c, n10, t, n13);
        let rows: Vec<(u16, u16, &str, u16, &str)> = vec![
            both(error_type::BAD_REQUEST, bad_request::BAD_SUBTYPE, "OFPBRC_BAD_SUBTYPE", "OFPBRC_BAD_EXP_TYPE"),
            both(error_type::BAD_REQUEST, bad_request::BUFFER_EMPTY, "OFPBRC_BUFFER_EMPTY", "OFPBRC_BUFFER_EMPTY"),
            v13only(error_type::BAD_REQUEST, bad_request::IS_SLAVE, "OFPBRC_IS_SLAVE"),
            both(error_type::BAD_ACTION, bad_action::BAD_TYPE, "OFPBAC_BAD_TYPE", "OFPBAC_BAD_TYPE"),
            both(error_type::BAD_ACTION, bad_action::BAD_EXPERIMENTER, "OFPBAC_BAD_VENDOR", "OFPBAC_BAD_EXPERIMENTER"),
            both(error_type::BAD_ACTION, bad_action::BAD_OUT_PORT, "OFPBAC_BAD_OUT_PORT", "OFPBAC_BAD_OUT_PORT"),
            v13only(error_type::BAD_ACTION, bad_action::BAD_OUT_GROUP, "OFPBAC_BAD_OUT_GROUP"),
            v13only(error_type::BAD_ACTION, bad_action::BAD_SET_TYPE, "OFPBAC_BAD_SET_TYPE"),
            v13only(v13::BAD_INSTRUCTION, bad_instruction::UNKNOWN_INST, "OFPBIC_UNKNOWN_INST"),
            v13only(v13::BAD_INSTRUCTION, bad_instruction::UNSUP_INST, "OFPBIC_UNSUP_INST"),
            v13only(v13::BAD_INSTRUCTION, bad_instruction::BAD_TABLE_ID, "OFPBIC_BAD_TABLE_ID"),
            v13only(v13::BAD_MATCH, bad_match::BAD_FIELD, "OFPBMC_BAD_FIELD"),
            (v10::FLOW_MOD_FAILED, flow_mod_failed::v10::ALL_TABLES_FULL, "OFPFMFC_ALL_TABLES_FULL", 0xffff, ""),
            (v10::FLOW_MOD_FAILED, flow_mod_failed::v10::OVERLAP, "OFPFMFC_OVERLAP", 0xffff, ""),
            (v10::FLOW_MOD_FAILED, flow_mod_failed::v10::BAD_COMMAND, "OFPFMFC_BAD_COMMAND", 0xffff, ""),
            v13only(v13::FLOW_MOD_FAILED, flow_mod_failed::v13::TABLE_FULL, "OFPFMFC_TABLE_FULL"),
            v13only(v13::FLOW_MOD_FAILED, flow_mod_failed::v13::BAD_TABLE_ID, "OFPFMFC_BAD_TABLE_ID"),
            v13only(v13::FLOW_MOD_FAILED, flow_mod_failed::v13::OVERLAP, "OFPFMFC_OVERLAP"),
            v13only(v13::FLOW_MOD_FAILED, flow_mod_failed::v13::BAD_COMMAND, "OFPFMFC_BAD_COMMAND"),
            v13only(v13::GROUP_MOD_FAILED, group_mod_failed::GROUP_EXISTS, "OFPGMFC_GROUP_EXISTS"),
            v13only(v13::GROUP_MOD_FAILED, group_mod_failed::INVALID_GROUP, "OFPGMFC_INVALID_GROUP"),
            v13only(v13::GROUP_MOD_FAILED, group_mod_failed::OUT_OF_GROUPS, "OFPGMFC_OUT_OF_GROUPS"),
            v13only(v13::GROUP_MOD_FAILED, group_mod_failed::WATCH_UNSUPPORTED, "OFPGMFC_WATCH_UNSUPPORTED"),
            v13only(v13::GROUP_MOD_FAILED, group_mod_failed::UNKNOWN_GROUP, "OFPGMFC_UNKNOWN_GROUP"),
            v13only(v13::GROUP_MOD_FAILED, group_mod_failed::BAD_TYPE, "OFPGMFC_BAD_TYPE"),
            v13only(v13::GROUP_MOD_FAILED, group_mod_failed::BAD_COMMAND, "OFPGMFC_BAD_COMMAND"),
            v13only(v13::GROUP_MOD_FAILED, group_mod_failed::BAD_BUCKET, "OFPGMFC_BAD_BUCKET"),
            v13only(v13::GROUP_MOD_FAILED, group_mod_failed::BAD_WATCH, "OFPGMFC_BAD_WATCH"),
            (v10::PORT_MOD_FAILED, port_mod_failed::BAD_PORT, "OFPPMFC_BAD_PORT", v13::PORT_MOD_FAILED, "OFPPMFC_BAD_PORT"),
            (v10::QUEUE_OP_FAILED, 0, "OFPQOFC_BAD_PORT", v13::QUEUE_OP_FAILED, "OFPQOFC_BAD_PORT"),
            v13only(v13::TABLE_MOD_FAILED, table_mod_failed::BAD_TABLE, "OFPTMFC_BAD_TABLE"),
            v13only(v13::SWITCH_CONFIG_FAILED, 0, "OFPSCFC_BAD_FLAGS"),
            v13only(v13::ROLE_REQUEST_FAILED, role_request_failed::STALE, "OFPRRFC_STALE"),
            v13only(v13::ROLE_REQUEST_FAILED, role_request_failed::BAD_ROLE, "OFPRRFC_BAD_ROLE"),
            v13only(v13::METER_MOD_FAILED, meter_mod_failed::METER_EXISTS, "OFPMMFC_METER_EXISTS"),
            v13only(v13::METER_MOD_FAILED, meter_mod_failed::INVALID_METER, "OFPMMFC_INVALID_METER"),
            v13only(v13::METER_MOD_FAILED, meter_mod_failed::UNKNOWN_METER, "OFPMMFC_UNKNOWN_METER"),
            v13only(v13::METER_MOD_FAILED, meter_mod_failed::BAD_COMMAND, "OFPMMFC_BAD_COMMAND"),
            v13only(v13::METER_MOD_FAILED, meter_mod_failed::BAD_FLAGS, "OFPMMFC_BAD_FLAGS"),
            v13only(v13::METER_MOD_FAILED, meter_mod_failed::BAD_RATE, "OFPMMFC_BAD_RATE"),
            v13only(v13::METER_MOD_FAILED, meter_mod_failed::BAD_BAND, "OFPMMFC_BAD_BAND"),
            v13only(v13::METER_MOD_FAILED, meter_mod_failed::OUT_OF_METERS, "OFPMMFC_OUT_OF_METERS"),
            v13only(v13::METER_MOD_FAILED, meter_mod_failed::OUT_OF_BANDS, "OFPMMFC_OUT_OF_BANDS"),
            v13only(v13::TABLE_FEATURES_FAILED, table_features_failed::EPERM, "OFPTFFC_EPERM"),
        ];
        for (t10, c, n10, t13, n13) in rows {
            if !n10.is_empty() {
                assert_eq!(error_name(Version::V10, t10, c).1, n10);
            }
            if !n13.is_empty() {
                assert_eq!(error_name(Version::V13, t13, c).1, n13);
            }
        }
        assert_eq!(error_type::flow_mod_failed(Version::V10), v10::FLOW_MOD_FAILED);
        assert_eq!(error_type::flow_mod_failed(Version::V13), v13::FLOW_MOD_FAILED);
        assert_eq!(error_name(Version::V13, error_type::port_mod_failed(Version::V13), 0).0, "OFPET_PORT_MOD_FAILED");
        assert_eq!(error_name(Version::V10, error_type::port_mod_failed(Version::V10), 0).0, "OFPET_PORT_MOD_FAILED");
        for (t, name) in [(v13::BAD_INSTRUCTION, "OFPET_BAD_INSTRUCTION"), (v13::TABLE_FEATURES_FAILED, "OFPET_TABLE_FEATURES_FAILED")] {
            assert_eq!(error_name(Version::V13, t, 0).0, name);
        }
    }

    #[test]
    fn known_and_unknown() {
        assert_eq!(error_name(Version::V10, 3, 5), ("OFPET_FLOW_MOD_FAILED", "OFPFMFC_UNSUPPORTED"));
        assert_eq!(error_name(Version::V13, 13, 5), ("OFPET_TABLE_FEATURES_FAILED", "OFPTFFC_EPERM"));
        assert_eq!(error_name(Version::V13, 12, 99), ("OFPET_METER_MOD_FAILED", "UNKNOWN"));
        assert_eq!(error_name(Version::V10, 6, 0).0, "UNKNOWN");
        assert_eq!(codes_per_type(Version::V13).iter().sum::<usize>(), 2 + 14 + 16 + 9 + 12 + 8 + 15 + 5 + 3 + 3 + 3 + 3 + 12 + 6);
    }
}
