//! The parts of a switch's record that most switches never write (issue 50: a held session's
//! bytes): late answers' latency, learning answers after the drain, LLDP counts, errors by
//! code, echo round trips of a capacity probe. Kept in a block made the first time one is
//! written (`SwitchStats::rare_mut`); a switch without one reads zeros and empties.

use std::collections::BTreeMap;

#[derive(Debug, Default)]
pub struct Rare {
    /// Latency of the late answers: sum, max and the last (ns).
    pub late_ns_sum: u64,
    pub late_ns_max: u64,
    pub late_ns_last: u64,
    /// Learning replies that came after the measured phase began (counted nowhere else).
    pub learning_late: u64,
    /// LLDP frames this switch sent to a neighbour (packet-outs) and raised from one (packet-ins).
    pub lldp_out: u64,
    pub lldp_in: u64,
    /// Error messages by (type, code).
    pub errors: BTreeMap<(u16, u16), u64>,
    /// Echo round trips of a capacity probe (`driver/capacity.rs`), ns.
    pub echo_rtt_ns: Vec<u64>,
}

/// What a switch without the block reads.
pub static NONE: Rare = Rare {
    late_ns_sum: 0,
    late_ns_max: 0,
    late_ns_last: 0,
    learning_late: 0,
    lldp_out: 0,
    lldp_in: 0,
    errors: BTreeMap::new(),
    echo_rtt_ns: Vec::new(),
};
