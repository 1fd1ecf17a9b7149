//! The data plane: frames arriving on ports run the pipeline; outputs become frames on `tx`
//! or packet-ins; ports go up and down (PORT_STATUS); flows time out (FLOW_REMOVED).
//!
//! Nothing here panics on what a controller or the traffic sends: an output to a port that is
//! down or does not exist is dropped and counted (`Counters`).

use crate::channel::Async;
use crate::emit;
use crate::fail_open::{FailOpen, Normal};
use crate::flow_table::Entry;
use crate::pipeline::{ports as pn, Out, Run, Verdict};
use crate::switch::Switch;
use ofwire::packet_in::reason;
use ofwire::packet_in::NO_BUFFER;
use ofwire::port::port_config;
use ofwire::version::Version;
use ofwire::OFP10;
use ofwire::{Body, FlowRemoved, PacketInRef, PortStatus};

/// What happened to a received frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Received {
    /// The in port is down or does not exist.
    Dropped,
    Matched,
    /// No entry matched: a packet-in (1.0) or a drop (1.3 without table-miss entry).
    Miss {
        to_controller: bool,
    },
}

impl Switch {
    /// Enter (true) or leave (false) fail-open (`fail_open.rs`); leaving forgets what it learned.
    pub fn set_fail_open(&mut self, on: bool) {
        if on != self.fail_open.is_some() {
            self.fail_open = on.then(FailOpen::default);
        }
    }

    pub fn is_fail_open(&self) -> bool {
        self.fail_open.is_some()
    }

    /// Forward `frame` as OVS's NORMAL action does for a plain L2 switch (in fail-open).
    fn normal(&mut self, in_port: u32, frame: &[u8], outs: &mut [Vec<u8>]) -> Received {
        let port = match self.fail_open.as_mut().expect("fail-open").normal(in_port, frame) {
            Normal::Drop => return Received::Dropped,
            Normal::Port(p) => p,
            Normal::Flood => pn::FLOOD13,
        };
        self.counters.fail_open_frames += 1;
        self.resolve(in_port, Out::Port { port, frame: frame.to_vec() }, outs);
        Received::Matched
    }

    /// A frame arrives on `in_port`: run the pipeline. Frames to send are appended to `tx`,
    /// packet-ins to the buffers of the channels that get them (`outs[ch]`).
    pub fn receive_frame(&mut self, now: u64, in_port: u32, frame: &[u8], outs: &mut [Vec<u8>]) -> Received {
        self.counters.frames_in += 1;
        if !self.ports.rx(in_port, frame.len()) {
            self.counters.dropped_in += 1;
            return Received::Dropped;
        }
        if self.fail_open.is_some() {
            return self.normal(in_port, frame, outs);
        }
        self.counters.looked_up += 1;
        self.pipeline(now, in_port, frame, outs)
    }

    /// A frame from an emulated link arrives on `port` (the `links` path: what a neighbour's
    /// controller sent out of the linked port). A switch that keeps flows runs it through its
    /// tables as any frame arriving on a port ([`Switch::receive_frame`]), as Open vSwitch does:
    /// a controller's output:CONTROLLER flow makes a packet-in with reason ACTION and that
    /// flow's cookie and table (Faucet takes no other: its stack LLDP), a table-miss entry one
    /// with NO_MATCH and its own cookie, and a 1.3 miss without one drops the frame. Frames its
    /// flows send out of ports are dropped unless the switch forwards (`SwitchConfig::forward`).
    /// A switch that keeps no flows (plain load tests) has no tables to run: the frame comes up
    /// as an unbuffered table-miss packet-in on channel 0 ([`Switch::packet_in_from_link`]).
    pub fn frame_from_link(&mut self, now: u64, port: u32, frame: &[u8], out: &mut Vec<u8>) -> Received {
        if !self.cfg.keep_flows {
            self.packet_in_from_link(port, frame, out);
            return Received::Miss { to_controller: true };
        }
        let sent = self.tx.len();
        let r = self.receive_frame(now, port, frame, std::slice::from_mut(out));
        if !self.cfg.forward {
            self.tx.truncate(sent);
        }
        r
    }

    /// Run `frame` through the tables from table 0 and resolve the outputs.
    pub(crate) fn pipeline(&mut self, now: u64, in_port: u32, frame: &[u8], outs: &mut [Vec<u8>]) -> Received {
        let v10 = self.version == OFP10;
        // the outputs' list is reused from frame to frame (no allocation for it per frame)
        let mut o = std::mem::take(&mut self.scratch);
        let verdict = Run::new(v10, in_port, now, &mut o, &mut self.groups, &mut self.meters, &self.ports).frame(&mut self.flows, frame, 0);
        for out in o.drain(..) {
            self.resolve(in_port, out, outs);
        }
        self.scratch = o;
        match verdict {
            Verdict::Matched => Received::Matched,
            Verdict::Miss { .. } if v10 => {
                self.counters.missed += 1;
                self.packet_in(in_port, frame, reason::NO_MATCH, 0, 0, outs);
                Received::Miss { to_controller: true }
            }
            Verdict::Miss { .. } => {
                self.counters.missed += 1;
                self.counters.dropped_miss += 1;
                Received::Miss { to_controller: false }
            }
        }
    }

    /// Deliver one pipeline output.
    pub(crate) fn resolve(&mut self, in_port: u32, out: Out, outs: &mut [Vec<u8>]) {
        match out {
            Out::Controller { frame, reason, table, cookie, .. } => self.packet_in(in_port, &frame, reason, table, cookie, outs),
            Out::Port { port, frame } => match port {
                pn::FLOOD13 | pn::ALL13 => {
                    let flood = port == pn::FLOOD13;
                    let targets: Vec<u32> = self
                        .ports
                        .list
                        .iter()
                        .filter(|p| p.no != in_port && p.is_up() && !(flood && p.config & port_config::NO_FLOOD10 != 0))
                        .map(|p| p.no)
                        .collect();
                    for p in targets {
                        self.send(p, frame.clone());
                    }
                }
                pn::IN_PORT13 => self.send(in_port, frame),
                // OF1.3 §7.2.5 (and 1.0 §5.2.1): back out of the in port only by IN_PORT; an
                // output naming the in port itself is dropped, as Open vSwitch does ("skipping
                // output to input port"). Faucet's flood rules rely on it.
                p if p == in_port => self.counters.dropped_out_in_port += 1,
                p if p <= pn::MAX13 => self.send(p, frame),
                _ => self.counters.dropped_out_unsupported += 1,
            },
        }
    }

    fn send(&mut self, port: u32, frame: Vec<u8>) {
        if self.ports.get(port).is_none() {
            self.counters.dropped_out_no_port += 1;
        } else if self.ports.tx(port, frame.len()) {
            self.counters.frames_out += 1;
            self.tx.push((port, frame));
        } else {
            self.counters.dropped_out_down += 1;
        }
    }

    /// An unbuffered packet-in of the whole frame (the switch keeps no buffers) to every
    /// channel that gets packet-ins with `reason`.
    pub(crate) fn packet_in(&mut self, in_port: u32, frame: &[u8], reason: u8, table: u8, cookie: u64, outs: &mut [Vec<u8>]) {
        let n = frame.len().min(u16::MAX as usize);
        let pi = PacketInRef { buffer_id: NO_BUFFER, total_len: n as u16, reason, in_port, table_id: table, cookie, data: &frame[..n] };
        for ch in 0..self.channels.len().min(outs.len()) {
            if self.channels[ch].wants(Async::PacketIn(reason)) {
                let xid = self.next_xid();
                let v = self.channels[ch].version;
                let port = if v == OFP10 { in_port & 0xffff } else { in_port };
                PacketInRef { in_port: port, ..pi }.emit_append(Version::layout(v), xid, &mut outs[ch]);
                self.counters.packet_ins += 1;
            }
        }
    }

    /// Bring `port`'s link down or up. On a change, PORT_STATUS (reason MODIFY, state
    /// LINK_DOWN or not) goes to the channels that get port-status. Returns false for a port
    /// that does not exist.
    pub fn set_port_state(&mut self, now: u64, port: u32, up: bool, outs: &mut [Vec<u8>]) -> bool {
        let Some(p) = self.ports.get_mut(port) else { return false };
        if p.link_up != up {
            p.link_up = up;
            self.port_status(now, port, outs);
        }
        true
    }

    pub(crate) fn port_status(&mut self, now: u64, port: u32, outs: &mut [Vec<u8>]) {
        self.port_status_as(now, port, false, outs);
    }

    /// PORT_STATUS MODIFY for `port`; with `live_cleared`, the port as it was with its LIVE bit
    /// cleared, and to 1.3 channels only (1.0 has no LIVE bit: the same port again, which Open
    /// vSwitch does not send).
    pub(crate) fn port_status_as(&mut self, _now: u64, port: u32, live_cleared: bool, outs: &mut [Vec<u8>]) {
        const MODIFY: u8 = ofwire::port_status::reason::MODIFY;
        for ch in 0..self.channels.len().min(outs.len()) {
            let v = self.channels[ch].version;
            if self.channels[ch].wants(Async::PortStatus(MODIFY)) && !(live_cleared && v == OFP10) {
                let mut desc = self.ports.describe(v, self.cfg.dpid, port);
                if live_cleared {
                    desc.state &= !ofwire::port::port_state::LIVE;
                }
                let ps = PortStatus { reason: MODIFY, port: desc };
                let xid = self.next_xid();
                emit::push(&mut outs[ch], v, xid, Body::PortStatus(ps));
                self.counters.port_status += 1;
            }
        }
    }

    /// FLOW_REMOVED for `e` to the channels that get it.
    pub(crate) fn flow_removed(&mut self, now: u64, e: &Entry, reason: u8, outs: &mut [Vec<u8>]) {
        let age = now.saturating_sub(e.installed_ns);
        let mut fr = FlowRemoved {
            cookie: e.cookie,
            priority: e.priority,
            reason,
            table_id: e.table,
            duration_sec: (age / 1_000_000_000) as u32,
            duration_nsec: (age % 1_000_000_000) as u32,
            idle_timeout: e.idle_timeout,
            hard_timeout: e.hard_timeout,
            packet_count: e.packets,
            byte_count: e.bytes,
            ..Default::default()
        };
        for ch in 0..self.channels.len().min(outs.len()) {
            if self.channels[ch].wants(Async::FlowRemoved(reason)) {
                let v = self.channels[ch].version;
                if Version::layout(v) == Version::V10 {
                    fr.match10 = e.m.to_match10();
                } else {
                    fr.match_ = e.m.to_oxm();
                }
                let xid = self.next_xid();
                emit::push(&mut outs[ch], v, xid, Body::FlowRemoved(fr.clone()));
                self.counters.flow_removed += 1;
            }
        }
    }

    /// Remove flows whose timeouts passed (FLOW_REMOVED where asked). Returns when to call
    /// again (`u64::MAX`: no timeout pending).
    pub fn expire(&mut self, now: u64, outs: &mut [Vec<u8>]) -> u64 {
        let mut removed = Vec::new();
        let next = self.flows.expire(now, &mut removed);
        for (e, reason) in removed {
            self.flow_removed(now, &e, reason, outs);
        }
        next
    }
}
