//! Stats/multipart kinds (OFPST_* / OFPMP_*): the `type` of a stats request or reply (1.0
//! §5.3.5, 1.3 §7.3.5), read by the envelope (`stats.rs`) and the reply entries
//! (`stats_reply.rs`); used as `stats::kind`.

pub const DESC: u16 = 0;
pub const FLOW: u16 = 1;
pub const AGGREGATE: u16 = 2;
pub const TABLE: u16 = 3;
pub const PORT: u16 = 4;
pub const QUEUE: u16 = 5;
/// 1.3 only; its request and reply bodies are kept as `Unknown` bytes.
pub const TABLE_FEATURES: u16 = 12;
pub const PORT_DESC: u16 = 13;
