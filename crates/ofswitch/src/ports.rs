//! The switch's ports: numbers 1..=n, link state, configuration and counters.
//!
//! Of the OFPPC_* configuration bits a port-mod sets, PORT_DOWN (frames neither enter nor
//! leave) and, in 1.0, NO_FLOOD (left out of FLOOD) are honoured; the others (NO_RECV, NO_FWD,
//! NO_PACKET_IN, ...) are stored and reported, not emulated.
//!
//! Counters obey, per port: `rx_packets` counts frames accepted on the port, `rx_dropped`
//! frames that arrived while the port was down (not in `rx_packets`); `tx_packets` frames sent,
//! `tx_dropped` frames the switch wanted to send while it was down (not in `tx_packets`).

use crate::emit;
use crate::on_write::{OnWrite, Zero};
use ofwire::port::port_config;
use ofwire::port::port_state;
use ofwire::Port;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortCounters {
    pub rx_packets: u64,
    pub tx_packets: u64,
    pub rx_bytes: u64,
    pub tx_bytes: u64,
    pub rx_dropped: u64,
    pub tx_dropped: u64,
}

impl Zero for PortCounters {
    const ZERO: &'static PortCounters =
        &PortCounters { rx_packets: 0, tx_packets: 0, rx_bytes: 0, tx_bytes: 0, rx_dropped: 0, tx_dropped: 0 };
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortState {
    pub no: u32,
    /// Link up (the emulated cable is there).
    pub link_up: bool,
    /// OFPPC_* bits the controller set (port-mod).
    pub config: u32,
    /// The interface is administratively down (Mininet's `link down`: `ip link set down`),
    /// reported as config PORT_DOWN, as Open vSwitch reports a netdev without NETDEV_UP.
    pub admin_down: bool,
    /// Made on the port's first frame: a load test's switch, which does not forward, never
    /// counts one (issue 50: a held session's bytes).
    pub counters: OnWrite<PortCounters>,
}

impl PortState {
    /// Frames pass: the link is up and the controller did not take the port down.
    pub fn is_up(&self) -> bool {
        self.link_up && !self.admin_down && self.config & port_config::PORT_DOWN == 0
    }
}

#[derive(Clone, Debug)]
pub struct Ports {
    pub list: Vec<PortState>,
}

impl Ports {
    pub fn new(n: u32) -> Ports {
        Ports {
            list: (1..=n).map(|no| PortState { no, link_up: true, config: 0, admin_down: false, counters: OnWrite::default() }).collect(),
        }
    }

    pub fn get(&self, no: u32) -> Option<&PortState> {
        self.list.get((no as usize).wrapping_sub(1))
    }

    pub fn get_mut(&mut self, no: u32) -> Option<&mut PortState> {
        self.list.get_mut((no as usize).wrapping_sub(1))
    }

    /// The port as OpenFlow describes it (features reply, port-desc, port-status).
    pub fn describe(&self, version: u8, dpid: u64, no: u32) -> Port {
        let mut p = emit::port(version, dpid, no);
        if let Some(s) = self.get(no) {
            p.config = s.config | if s.admin_down { port_config::PORT_DOWN } else { 0 };
            if !s.link_up {
                p.state = port_state::LINK_DOWN;
            }
        }
        p
    }

    /// Every port as OpenFlow lists them (features reply, port-desc): with `local`, LOCAL
    /// first, as Open vSwitch lists a bridge's ports; then 1..=n.
    pub fn describe_all(&self, version: u8, dpid: u64, local: bool) -> Vec<Port> {
        let first = local.then(|| emit::local_port(version, dpid));
        first.into_iter().chain(self.list.iter().map(|p| self.describe(version, dpid, p.no))).collect()
    }

    /// Count a frame arriving on `no`; false (and counted as dropped) when the port is down
    /// or does not exist.
    pub fn rx(&mut self, no: u32, len: usize) -> bool {
        match self.get_mut(no) {
            Some(p) if p.is_up() => {
                p.counters.rx_packets += 1;
                p.counters.rx_bytes += len as u64;
                true
            }
            Some(p) => {
                p.counters.rx_dropped += 1;
                false
            }
            None => false,
        }
    }

    /// Count a frame leaving on `no`; false when the port is down or does not exist.
    pub fn tx(&mut self, no: u32, len: usize) -> bool {
        match self.get_mut(no) {
            Some(p) if p.is_up() => {
                p.counters.tx_packets += 1;
                p.counters.tx_bytes += len as u64;
                true
            }
            Some(p) => {
                p.counters.tx_dropped += 1;
                false
            }
            None => false,
        }
    }
}
