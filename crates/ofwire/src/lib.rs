//! OpenFlow 1.0 (wire version 0x01) and 1.3 (0x04) encoding and decoding, with no I/O.
//!
//! # Layering (after smoltcp's `wire`)
//! - Zero-copy views for the load engine's hot path: [`header::Header`] (version, type,
//!   length, xid), [`flow_mod::Packet`], [`packet_out::Packet`] and [`packet_in::Packet`]
//!   (buffer_id, xid, in_port, frame, ...), and [`packet_in::PacketInRef`], which writes a
//!   whole packet-in into a reused buffer.
//! - Owned values with `parse` / `buffer_len` / `emit` for every message ([`Message`],
//!   [`Body`]) and for the TLV lists inside them: OXM fields ([`oxm::Oxm`]), actions
//!   ([`action::Action`]) and instructions ([`instruction::Instruction`]), each with the
//!   shape `parse(buf) -> (rest, item)` and `emit(buf) -> rest`.
//! - [`frame`]: the Ethernet frames packet-ins and packet-outs carry.
//!
//! # Invariants
//! - Decoding never panics and never reads past its slice: every read is bounds-checked and
//!   a short or lying length is a typed [`Error`]. Allocations are bounded by the input size.
//! - After a view's `new_checked` succeeds, none of its accessors panics.
//! - `emit` writes exactly `buffer_len()` bytes (pad bytes as zero) and never panics into a
//!   buffer of at least that size.
//! - Unknown message types, OXM fields, actions, instructions, stats kinds and hello
//!   elements decode to an `Unknown` variant that re-encodes to the same bytes.
//! - Fields a version lacks are ignored when emitting that version and are zero (or empty)
//!   after parsing it, so for a value `x` valid in version `v`, `parse(emit(x)) == x`.
//!
//! # Coverage
//! Both versions: hello (1.3 version bitmap; [`hello::negotiate`]), error (every type and
//! code named in [`error_names`]), echo request/reply, vendor/experimenter, features
//! request/reply (1.0 port list), get-config request/reply, set-config, packet-in (1.3 OXM
//! match, reason), flow-removed, port-status, packet-out, flow-mod, port-mod, stats (1.0) /
//! multipart (1.3) request and reply for desc, flow, aggregate, table, port, queue and (1.3)
//! port-desc, barrier request/reply. 1.3 only: group-mod, meter-mod, role request/reply,
//! get-async request/reply, set-async; group stats, description and features
//! ([`group_stats`]), meter stats, configuration and features ([`meter_stats`]) and table
//! features ([`table_features`]) as bodies of their own (a `StatsReplyBody::Unknown` carries
//! them); the Nicira role, flow-format and packet-in-format messages ([`nicira`]). Other
//! message types (table-mod, queue-get-config, ...) are kept as bytes.

pub mod action;
mod bytes;
pub mod config;
pub mod error;
pub mod error_msg;
pub mod error_names;
pub mod experimenter;
pub mod features;
pub mod flow_mod;
pub mod flow_removed;
pub mod frame;
pub mod group_mod;
pub mod group_stats;
pub mod header;
pub mod hello;
pub mod instruction;
pub mod match10;
pub mod message;
pub mod meter_mod;
pub mod meter_stats;
pub mod msg_type;
pub mod nicira;
pub mod oxm;
pub mod packet_in;
pub mod packet_out;
pub mod port;
pub mod port_mod;
pub mod port_status;
pub mod stats;
pub mod stats_kind;
pub mod stats_reply;
pub mod table_features;
pub mod version;

pub use action::Action;
pub use config::{AsyncConfig, Role, SwitchConfig};
pub use error::{Error, Result};
pub use error_msg::ErrorMsg;
pub use experimenter::Experimenter;
pub use features::FeaturesReply;
pub use flow_mod::FlowMod;
pub use flow_removed::FlowRemoved;
pub use group_mod::{Bucket, GroupMod};
pub use header::{frame_len, Header, HEADER_LEN};
pub use hello::{negotiate, Hello, HelloElem};
pub use instruction::Instruction;
pub use match10::Match10;
pub use message::{Body, Message};
pub use meter_mod::{MeterBand, MeterMod};
pub use msg_type::MsgType;
pub use oxm::{Oxm, OxmField, OxmMatch};
pub use packet_in::{PacketIn, PacketInRef};
pub use packet_out::PacketOut;
pub use port::Port;
pub use port_mod::PortMod;
pub use port_status::PortStatus;
pub use stats::{FlowStatsRequest, StatsReply, StatsRequest, StatsRequestBody};
pub use stats_reply::{AggregateStats, DescStats, FlowStats, PortStats, QueueStats, StatsReplyBody, TableStats};
pub use version::{Version, Versions, OFP10, OFP13};
