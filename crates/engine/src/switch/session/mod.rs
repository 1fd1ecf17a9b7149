//! One emulated switch's connection: handshake, learning, load, drain — one loop, one task.
//!
//! The loop never blocks on one direction: it reads whatever is there (into the worker's shared
//! scratch buffer; only a partial trailing message is kept per session), answers through the
//! switch state machine, generates requests as the pacer allows, and writes what it can. It
//! sleeps only on socket readiness, the next timer (pacer, keep-alive, phase change, loss
//! timeout) or a phase change from the worker: no spinning, in any mode.
//!
//! A malformed message, a disconnect or a reset ends only this session (recorded in its
//! `SwitchStats`); with `strict` it also asks the worker to stop the whole run. With `reconnect`
//! (the default; `switch/reconnect.rs`) a session that was up is then tried again after Open
//! vSwitch's backoff, the switch keeping its flow table while it is down (`wait_down`; fail mode
//! `standalone` fails open after 3 probe intervals, as OVS).
//!
//! One file per phase of a connection, in the order a switch lives them; all are `impl Session`
//! blocks over the state declared here, so the split costs the loop nothing (no indirection):
//!
//! | file           | what it does                                                              |
//! |----------------|---------------------------------------------------------------------------|
//! | `lifetime.rs`  | `run`: connection after connection (HELLO fallback, loss, backoff, down)   |
//! | `serve.rs`     | one connection's loop: one turn per wake, the phase's work, then sleep     |
//! | `handshake.rs` | the HELLO, the extra controllers' channels, the switch coming up           |
//! | `learning.rs`  | the learning phase's requests, once                                       |
//! | `load.rs`      | the measured phase: requests as the pacer allows, keep-alive, loop pauses  |
//! | `drain.rs`     | after the run: wait (briefly) for the answers still in flight             |
//! | `answers.rs`   | every message read: the flow-mod fast path, then the switch's events       |
//! | `socket.rs`    | connect (TCP, then TLS: `crate::tls`), read, write                        |
//! | `network.rs`   | linked switches' LLDP and the emulated network's frames                   |

mod answers;
mod drain;
#[cfg(test)]
mod footprint;
mod handshake;
mod learning;
mod lifetime;
mod load;
mod network;
mod serve;
pub(crate) mod socket;
#[cfg(test)]
mod tests;

use crate::config::Config;
use crate::switch::accounting::SwitchStats;
use crate::switch::outstanding::Outstanding;
use crate::switch::pacer::Pacer;
use crate::switch::shared::Shared;
use crate::switch::workload::Workload;
use ofswitch::{PacketInGen, Switch, SwitchConfig};
use std::cell::RefCell;
use std::io;
use std::rc::Rc;

/// Why a session ended (kept in the switch's record).
pub struct End {
    pub kind: &'static str,
    pub reason: String,
}

impl End {
    fn new(kind: &'static str, reason: impl Into<String>) -> End {
        End { kind, reason: reason.into() }
    }
    fn io(e: io::Error) -> End {
        if let Some(t) = e.get_ref().and_then(|i| i.downcast_ref::<crate::tls::TlsFailure>()) {
            return End::new("tls", t.to_string());
        }
        match e.kind() {
            io::ErrorKind::ConnectionReset => End::new("reset", "connection reset by the controller"),
            io::ErrorKind::BrokenPipe => End::new("closed", "the controller closed the connection"),
            io::ErrorKind::ConnectionRefused => End::new("refused", "connection refused"),
            _ => End::new("io", e.to_string()),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// Handshake / learning; waiting for the worker's go.
    Wait,
    Load,
    /// Run over: wait (briefly) for the answers still in flight.
    Drain,
}

/// The switch's stats, borrowed to change them: the switch goes on its worker's list of touched
/// switches (`tally.rs`), which the loop boundary visits. Every change goes through here.
#[inline]
pub(super) fn stats_mut<'a>(sh: &Shared, stats: &'a RefCell<SwitchStats>, pos: u32) -> std::cell::RefMut<'a, SwitchStats> {
    let mut st = stats.borrow_mut();
    sh.tally.touch(&mut st, pos);
    st
}

pub struct Session {
    sh: Rc<Shared>,
    stats: Rc<RefCell<SwitchStats>>,
    sw: Switch,
    gen: PacketInGen,
    out: Outstanding,
    pacer: Pacer,
    partial: Vec<u8>,
    wbuf: Vec<u8>,
    wpos: usize,
    index: u32,
    /// Position among the worker's switches (its group of a staggered go, `stagger.rs`).
    pos: u32,
    /// The periodic keep-alive under load (`keepalive.rs`; off unless `echo_every_ms`).
    ka: crate::switch::keepalive::Keepalive,
    echoed: bool,
    /// Counted among the worker's settled sessions (`drain.rs`).
    settled: bool,
    /// The learning ARPs were sent (or this session had none to send).
    learned: bool,
    inbox: Option<Rc<crate::switch::shared::Inbox>>,
    /// The emulated network, when the config has one: this worker's node and our inbox in it.
    net: Option<(Rc<crate::network::node::Node>, Rc<crate::network::node::Inbox>)>,
    /// Network runs: the controllers after the first (channels 1..; `network/channels.rs`).
    /// Made on first use: network runs only (`network.rs`).
    chans: Option<Box<crate::network::channels::Channels>>,
    workload: Workload,
    sample_every: u32,
    /// Count replies as cbench counts them (`cbench_switch::counts_as_response`): only for the cbench
    /// profile, whose RESULT line prints them; other runs skip the per-message check.
    count_responses: bool,
    /// The `faucet` profile: a flow-mod answers the request whose MAC its match names
    /// (`ofswitch::faucet`), not a buffer id, so it never takes the flow-mod fast path.
    faucet: bool,
    /// One of the worker's `connect_parallel` slots, held from connect() until the first OpenFlow
    /// handshake is done or the first attempt ends (`holding`).
    slot: Option<Rc<tokio::sync::Semaphore>>,
    /// Recent latency high-water mark (decays by 1/1024 per answer), for the adaptive timeout.
    rtt_est_ns: u64,
    /// Sessions that came up (handshake done): 1 + the reconnects (`reconnect.rs`).
    established: u32,
    /// cbench's latency-mode pacing (`Config::cbench_compat`, latency mode only).
    probe: Option<crate::switch::cbench_switch::ProbeState>,
    /// Loops whose pause was drained (`loop_pause`).
    drained_loops: u64,
    /// How long this connection may take to come up: `connect_timeout_ms` for the first, OVS's
    /// rule for a reconnection (`Backoff::handshake_timeout_ns`).
    handshake_timeout_ns: u64,
    /// The version byte of the first message the controller sent on this connection
    /// (`hello_fallback.rs`).
    peer_version: Option<u8>,
    /// This connection: how it opened (TCP, TLS) and what TLS agreed; when its HELLO left.
    opening: crate::tls::conn::Opening,
    negotiated: Option<Box<crate::tls::conn::Negotiated>>,
    opened_at: u64,
}

impl Session {
    pub fn new(sh: Rc<Shared>, stats: Rc<RefCell<SwitchStats>>, index: u32, pos_in_worker: u32) -> Session {
        let c = &sh.cfg;
        let net = sh.net.borrow().clone().and_then(|n| n.inbox(index).map(|b| (n, b)));
        let sc = switch_config(c, index, net.as_ref().map(|(n, _)| &**n));
        let inbox = if sc.links.is_empty() {
            None
        } else {
            let i = Rc::new(crate::switch::shared::Inbox::default());
            sh.inboxes.borrow_mut().insert(sc.dpid, i.clone());
            Some(i)
        };
        let pacer = Pacer::for_config(c, pos_in_worker, sh.n_local);
        let version = c.versions.hello_version();
        Session {
            gen: PacketInGen::with_profile(c.profile(), version, index, c.macs, c.ports, c.frame_size),
            workload: Workload::of(c),
            sample_every: Workload::of(c).latency_sample_every(c),
            count_responses: c.traffic == "cbench",
            faucet: c.profile() == ofswitch::Profile::Faucet,
            rtt_est_ns: 0,
            established: 0,
            probe: (c.cbench_compat && c.mode == crate::config::Mode::Latency).then(Default::default),
            drained_loops: 0,
            handshake_timeout_ns: c.connect_timeout_ms * 1_000_000,
            peer_version: None,
            opening: Default::default(),
            negotiated: None,
            opened_at: 0,
            sw: Switch::new(sc),
            out: Outstanding::new(1),
            pacer,
            partial: Vec::new(),
            wbuf: Vec::new(), // grows to what the connection writes at once (issue 50: idle sessions)
            wpos: 0,
            index,
            pos: pos_in_worker,
            ka: crate::switch::keepalive::Keepalive::new(c.echo_every_ms * 1_000_000, pos_in_worker, sh.n_local),
            echoed: false,
            settled: false,
            learned: false,
            inbox,
            net,
            chans: None,
            slot: None,
            stats,
            sh,
        }
    }

    /// Hold a slot of `slots` (taken with `forget()`) until this session's first OpenFlow
    /// handshake is done: `connect_parallel` then bounds the handshakes in progress, not only
    /// the TCP connects (issue 32).
    pub fn holding(mut self, slots: Rc<tokio::sync::Semaphore>) -> Session {
        self.slot = Some(slots);
        self
    }

    fn release_slot(&mut self) {
        if let Some(s) = self.slot.take() {
            s.add_permits(1);
        }
    }

    fn phase(&self, now: u64) -> Phase {
        match self.sh.phase_at(now) {
            0 => Phase::Wait,
            1 => Phase::Load,
            _ => Phase::Drain,
        }
    }
}

/// Switch `index`'s state machine as the config (and, in a network run, the network) sets it up.
fn switch_config(c: &Config, index: u32, net: Option<&crate::network::node::Node>) -> SwitchConfig {
    let dpid = net.map_or(c.first_dpid + index as u64, |n| n.model.dpids[index as usize]);
    let mut sc = SwitchConfig::new(dpid);
    sc.ports = c.ports;
    sc.versions = c.versions;
    sc.keep_flows = c.keep_flows;
    if let Some(n) = net {
        // a network switch forwards: packet-outs and its flow table put frames on its ports
        sc.ports = n.model.ports(index);
        sc.forward = true;
        sc.keep_flows = true;
        sc.max_flows = n.table_size;
    }
    sc.echo_interval_ns = c.echo_interval_ms * 1_000_000;
    // a reconnecting switch probes as OVS's rconn: idle one interval -> echo, no answer for
    // one more -> disconnect; without reconnection, 3 intervals (as before)
    sc.echo_timeout_ns = if c.reconnects() { sc.echo_interval_ns } else { 3 * sc.echo_interval_ns };
    for &(a, pa, b, pb) in &c.links {
        if a == dpid {
            sc.links.push((pa, b, pb));
        }
        if b == dpid {
            sc.links.push((pb, a, pa));
        }
    }
    // a linked port past `ports` exists (a stack port: no load traffic comes from it)
    sc.ports = sc.links.iter().map(|l| l.0).fold(sc.ports, u32::max);
    sc
}
