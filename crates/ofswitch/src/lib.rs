//! An emulated OpenFlow 1.0 / 1.3 switch as a pure state machine, for the load engine.
//!
//! Every OpenFlow byte goes through the project's codec, `ofwire`: its zero-copy views on the
//! hot path (header, flow-mod and packet-out buffer ids, packet-in written into a reused buffer)
//! and its `Repr` values (`Message`, `Body`, stats bodies, ports, ...) for everything else. This
//! crate decides what the switch says, never how it is encoded.
//!
//! Layering: `consts` (message kinds and the codes the switch answers with), `emit` (the reply
//! values), `frames` (the Ethernet frames packet-ins carry), `packet_in` (the load hot path),
//! `flow_table`, `stats`, and `switch` (the state machine: `on_message(now, msg, out) -> Event`,
//! `poll(now, out)` for keep-alives). Nothing here does I/O or reads a clock: the engine owns
//! sockets and time.

pub mod channel;
pub mod consts;
mod control;
pub mod emit;
pub mod flow_match;
pub mod flow_table;
pub mod forward;
pub mod frame_edit;
pub mod frames;
mod fxhash;
pub mod key;
pub mod packet_in;
pub mod pipeline;
pub mod ports;
pub mod profile;
pub mod stats;
pub mod switch;

pub use consts::{Kind, NO_BUFFER, OFP10, OFP13};
pub use packet_in::PacketInGen;
pub use profile::{Profile, UnknownProfile};
pub use switch::{frame_len, Counters, Event, State, Switch, SwitchConfig, SwitchError};
pub use channel::{Async, Channel};
pub use forward::Received;
pub use ofwire::MsgType;
