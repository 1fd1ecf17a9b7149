//! A pure OpenFlow 1.0 / 1.3 controller core, the mirror of `ofswitch`, for measuring a switch.
//!
//! Every OpenFlow byte goes through `ofwire`; this crate decides what the controller says and
//! remembers when it said it, never how it is encoded or sent.
//!
//! Layering: `build` (flow-mod, packet-out, stats and barrier bodies for both versions) and
//! `controller` (the state machine: `start(now)`, `on_message(now, msg) -> Vec<Action>`,
//! `request(now, body) -> Message`). Nothing here does I/O or reads a clock: the caller passes
//! `now` (nanoseconds on any one clock; `sdnbench-switch` uses CLOCK_REALTIME so that control
//! times compare with kernel receive timestamps of data-plane frames).
//!
//! # Invariants
//! - Every request made through [`Controller::request`] gets a fresh xid and a pending entry
//!   holding its kind and send time; the entry is closed by the reply with that xid (the last
//!   part of a multipart reply) or by an error with that xid, and then yields exactly one
//!   [`Event::Reply`] or [`Event::Error`]. `replied_at >= sent_at` whenever `now` never goes back.
//! - Echo requests from the switch are answered at once, whatever the state.
//! - Before the handshake completes, only hello, error, echo and features-reply are acted on.

pub mod build;
pub mod controller;

pub use build::{FlowSpec, Next};
pub use controller::{Action, Controller, Event, Kind, State};
