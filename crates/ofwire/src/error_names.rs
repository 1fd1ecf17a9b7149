//! The names of every error type and code of OpenFlow 1.0 (§5.4.4) and 1.3 (§7.4.4).

use crate::version::Version;

/// Error types (OFPET_*) whose number is the same in 1.0 and 1.3.
pub mod error_type {
    pub const HELLO_FAILED: u16 = 0;
    pub const BAD_REQUEST: u16 = 1;
    pub const BAD_ACTION: u16 = 2;
}

/// OFPET_HELLO_FAILED codes (OFPHFC_*), both versions.
pub mod hello_failed {
    pub const INCOMPATIBLE: u16 = 0;
    pub const EPERM: u16 = 1;
}

/// OFPET_BAD_REQUEST codes (OFPBRC_*) whose number is the same in 1.0 and 1.3 (1.3 renames
/// BAD_STAT to BAD_MULTIPART and BAD_VENDOR to BAD_EXPERIMENTER).
pub mod bad_request {
    pub const BAD_VERSION: u16 = 0;
    pub const BAD_TYPE: u16 = 1;
    pub const BAD_STAT: u16 = 2;
    pub const BAD_EXPERIMENTER: u16 = 3;
    pub const EPERM: u16 = 5;
    pub const BAD_LEN: u16 = 6;
    pub const BUFFER_EMPTY: u16 = 7;
    pub const BUFFER_UNKNOWN: u16 = 8;
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

    #[test]
    fn known_and_unknown() {
        assert_eq!(error_name(Version::V10, 3, 5), ("OFPET_FLOW_MOD_FAILED", "OFPFMFC_UNSUPPORTED"));
        assert_eq!(error_name(Version::V13, 13, 5), ("OFPET_TABLE_FEATURES_FAILED", "OFPTFFC_EPERM"));
        assert_eq!(error_name(Version::V13, 12, 99), ("OFPET_METER_MOD_FAILED", "UNKNOWN"));
        assert_eq!(error_name(Version::V10, 6, 0).0, "UNKNOWN");
        assert_eq!(codes_per_type(Version::V13).iter().sum::<usize>(), 2 + 14 + 16 + 9 + 12 + 8 + 15 + 5 + 3 + 3 + 3 + 3 + 12 + 6);
    }
}
