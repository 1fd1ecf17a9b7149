//! An emulated OpenFlow 1.0 / 1.3 switch as a pure state machine, for the load engine.
//!
//! Layering: `consts` (numbers), `emit` (reply bodies), `frames` (the Ethernet frames packet-ins
//! carry), `packet_in` (the load hot path), `flow_table`, `stats`, and `switch` (the state
//! machine: `on_message(now, msg, out) -> Event`, `poll(now, out)` for keep-alives). Nothing here
//! does I/O or reads a clock: the engine owns sockets and time.

pub mod consts;
pub mod emit;
pub mod flow_table;
pub mod frames;
pub mod packet_in;
pub mod stats;
pub mod switch;

pub use consts::{Kind, NO_BUFFER, OFP10, OFP13};
pub use packet_in::PacketInGen;
pub use switch::{frame_len, Event, State, Switch, SwitchConfig, SwitchError};
