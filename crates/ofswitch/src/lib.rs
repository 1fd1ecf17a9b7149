//! An emulated OpenFlow 1.0 / 1.3 switch as a pure state machine, for the load engine.
//!
//! Every OpenFlow byte goes through the project's codec, `ofwire`: its zero-copy views on the
//! hot path (header, flow-mod and packet-out buffer ids, packet-in written into a reused buffer)
//! and its `Repr` values (`Message`, `Body`, stats bodies, ports, ...) for everything else. This
//! crate decides what the switch says, never how it is encoded. Message kinds are ofwire's
//! [`ofwire::MsgType`], and every OpenFlow number (error types and codes, stats kinds, commands)
//! is ofwire's: this crate declares none of its own.
//!
//! # Shape
//! A [`Switch`] has ports (`ports`: numbers 1..=n, link state, config, counters), flow tables
//! (`flow_table`: indexed, see there), and one or more controller [`Channel`]s (`channel`:
//! handshake state, negotiated version, role, async config, keep-alive). Nothing here does I/O
//! or reads a clock: the engine owns sockets, links, hosts and time, and calls in:
//!
//! - `on_message_from(now, ch, msg, outs) -> Event`: one message from controller `ch`. Replies
//!   go to `outs[ch]`; asynchronous messages it causes (flow-removed of a DELETE, packet-ins of
//!   a packet-out to CONTROLLER, port-status of a port-mod) to the channels that get them.
//!   `on_message(now, msg, out)` is channel 0 with one buffer (the single-controller engine).
//! - `receive_frame(now, port, frame, outs) -> Received`: a frame arrives on a port and runs
//!   the pipeline (`pipeline`); frames to send are appended to `tx: Vec<(port, frame)>`, which
//!   the engine drains and carries over its links; packet-ins go to `outs`.
//! - `set_port_state(now, port, up, outs)`: a cable cut or mended; PORT_STATUS to the channels.
//! - `set_link_end(now, port, up, end, outs)`: one end of a link Mininet takes down or up, reported
//!   as Open vSwitch reports it (`link_change`).
//! - `poll(now, out)` / `poll_channel(now, ch, out)` / `expire(now, outs)`: keep-alives and flow
//!   timeouts (FLOW_REMOVED).
//! - `async_channels(Async::PacketIn(reason))`: which channels get an async message now (role
//!   and async config, OF1.3 §6.3.5; in OF1.0 every channel is equal and gets everything).
//!
//! Packet-outs are forwarded onto `tx` only with `SwitchConfig::forward`; without it (plain
//! load tests) they are only accounted, as before forwarding existed, and cost nothing extra.
//!
//! # Layering
//! `key` (the header fields a frame carries), `flow_match` (OF1.0/OXM matches as key + mask),
//! `flow_table` (tuple-space classifier, flow-mod semantics, timeouts, counters), `frame_edit`
//! and `pipeline` (actions and instructions on a frame), `ports`, `channel`, `switch` (state
//! machine and dispatch), `control` (flow-mod, packet-out, port-mod, roles), `forward` (data
//! plane, async messages), `stats`, `emit` (reply values), `frames` and `profile` (the frames
//! the engine's packet-ins carry, per traffic profile), `packet_in` (the load hot path).

pub mod channel;
pub mod check;
pub mod checksum;
mod control;
pub mod emit;
pub mod fail_open;
pub mod faucet;
pub mod flow_match;
pub mod flow_table;
pub mod forward;
pub mod frame_edit;
pub mod frames;
mod fxhash;
pub mod group;
pub mod ipv6_exthdr;
pub mod key;
pub mod link_change;
pub mod meter;
mod mods;
pub mod mpls;
mod nicira;
pub mod on_write;
pub mod ovs_tables;
pub mod packet_in;
pub mod pipeline;
pub mod ports;
pub mod profile;
pub mod stats;
pub mod stats13;
pub mod switch;

pub use channel::{Async, Channel};
pub use forward::Received;
pub use link_change::LinkEnd;
pub use ofwire::MsgType;
pub use packet_in::PacketInGen;
pub use profile::{Dress, Learning, Profile, UnknownProfile};
pub use switch::{frame_len, Counters, Event, State, Switch, SwitchConfig, SwitchError};
