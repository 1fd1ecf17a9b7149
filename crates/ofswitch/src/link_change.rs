//! A link going down or up as Mininet takes it (`link down`: `ip link set down` on the first
//! end's interface, then on the second's; `link up` the same way), reported as Open vSwitch
//! (userspace datapath) reports it for each end, captured from ovs-vswitchd 3.1.0
//! (docs/emulated-switch.md). Each step is one PORT_STATUS MODIFY, (config, state):
//!
//! | end | down | up |
//! |---|---|---|
//! | first (its own interface goes down first) | LIVE cleared (1.3 only); (PORT_DOWN, LINK_DOWN) | (0, LINK_DOWN): the peer is still down; then (0, LIVE) |
//! | second (loses carrier first) | LIVE cleared (1.3 only); (0, LINK_DOWN); (PORT_DOWN, LINK_DOWN) | (0, LIVE) |
//! | only (one interface, `ip link set dev X down`) | LIVE cleared (1.3 only); (PORT_DOWN, LINK_DOWN) | (0, LIVE) |
//!
//! "LIVE cleared" is the port as it was without its LIVE bit (Open vSwitch's `port_run` sees the
//! carrier go before `update_port` reads the netdev's flags); at 1.0, which has no LIVE bit, it
//! would be the same port again, which Open vSwitch does not send. 1.0 reports LIVE as state 0.

use crate::switch::Switch;

/// Which end of a link a port is, in the order Mininet takes the interfaces down and up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkEnd {
    First,
    Second,
    Only,
}

impl Switch {
    /// `port`, one end of a link Mininet takes down (`up` false) or up: its state and the
    /// PORT_STATUS messages Open vSwitch sends for it. Returns false for a port that does not
    /// exist; nothing is sent when the port is already so.
    pub fn set_link_end(&mut self, now: u64, port: u32, up: bool, end: LinkEnd, outs: &mut [Vec<u8>]) -> bool {
        let Some(p) = self.ports.get(port) else { return false };
        if (p.link_up && !p.admin_down) == up {
            return true;
        }
        let steps: &[(bool, bool)] = match (up, end) {
            (false, LinkEnd::Second) => &[(false, false), (false, true)],
            (false, _) => &[(false, true)],
            (true, LinkEnd::First) => &[(false, false), (true, false)],
            (true, _) => &[(true, false)],
        };
        if !up {
            self.port_status_as(now, port, true, outs);
        }
        for &(link_up, admin_down) in steps {
            let p = self.ports.get_mut(port).expect("checked");
            (p.link_up, p.admin_down) = (link_up, admin_down);
            self.port_status(now, port, outs);
        }
        true
    }
}
