//! One controller connection of a switch: handshake state, negotiated version, role, async
//! configuration and keep-alive. A switch has one or more (`Switch::channels`); the engine owns
//! the sockets and passes each channel's output buffer.
//!
//! Roles (OF1.3 §6.3.5): EQUAL (the default) and MASTER receive every asynchronous message
//! their async config allows; SLAVE receives only port-status by default, and its flow-mods,
//! packet-outs and other state changes are refused (OFPET_BAD_REQUEST / OFPBRC_IS_SLAVE). A
//! new MASTER demotes the previous master to SLAVE. OF1.0 has no roles: every channel is
//! equal and receives everything.

use ofwire::config::role;
use ofwire::AsyncConfig;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Our hello is out; waiting for the controller's.
    Hello,
    /// Version agreed; waiting for the features request.
    Features,
    /// Features reply sent: the session is up.
    Up,
}

/// Which async message a channel might get, for [`Channel::wants`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Async {
    /// A packet-in with this reason (0 NO_MATCH, 1 ACTION).
    PacketIn(u8),
    /// A port-status with this reason (0 ADD, 1 DELETE, 2 MODIFY).
    PortStatus(u8),
    /// A flow-removed with this reason (0 IDLE, 1 HARD, 2 DELETE).
    FlowRemoved(u8),
}

/// The default async configuration of OF1.3 §7.3.10 (as OVS applies it): master/equal get
/// packet-in (no-match, action), every port-status and flow-removed; slaves get port-status.
pub const DEFAULT_ASYNC: AsyncConfig = AsyncConfig { packet_in_mask: [0x3, 0], port_status_mask: [0x7, 0x7], flow_removed_mask: [0xf, 0] };

pub const KEEPALIVE_XID: u32 = 0xffff_0000;

#[derive(Clone, Debug)]
pub struct Channel {
    pub state: State,
    pub version: u8,
    pub role: u32,
    pub async_config: AsyncConfig,
    pub last_rx_ns: u64,
    pub echo_sent_ns: Option<u64>,
    pub echo_seq: u32,
}

impl Channel {
    pub fn new(version: u8) -> Channel {
        Channel {
            state: State::Hello,
            version,
            role: role::EQUAL,
            async_config: DEFAULT_ASYNC,
            last_rx_ns: 0,
            echo_sent_ns: None,
            echo_seq: 0,
        }
    }

    pub fn is_up(&self) -> bool {
        self.state == State::Up
    }

    pub fn is_slave(&self) -> bool {
        self.version != ofwire::OFP10 && self.role == role::SLAVE
    }

    /// Whether this channel receives `what` now: up, and (1.3) allowed by its role's mask.
    pub fn wants(&self, what: Async) -> bool {
        if !self.is_up() {
            return false;
        }
        if self.version == ofwire::OFP10 {
            // 1.0 has no async config: every channel gets everything, but a slave (by a
            // Nicira role request) gets port-status only, as Open vSwitch's defaults
            return self.role != role::SLAVE || matches!(what, Async::PortStatus(_));
        }
        let i = usize::from(self.role == role::SLAVE);
        let c = &self.async_config;
        let (mask, reason) = match what {
            Async::PacketIn(r) => (c.packet_in_mask[i], r),
            Async::PortStatus(r) => (c.port_status_mask[i], r),
            Async::FlowRemoved(r) => (c.flow_removed_mask[i], r),
        };
        reason < 32 && mask & (1 << reason) != 0
    }

    /// The round-trip time of a keep-alive echo, if `xid` answers ours.
    pub fn on_echo_reply(&mut self, now: u64, xid: u32) -> Option<u64> {
        match self.echo_sent_ns {
            Some(t) if xid & 0xffff_0000 == KEEPALIVE_XID => {
                self.echo_sent_ns = None;
                Some(now.saturating_sub(t))
            }
            _ => None,
        }
    }

    /// The xid of the next keep-alive echo; marks it sent at `now`.
    pub fn next_echo(&mut self, now: u64) -> u32 {
        self.echo_seq = (self.echo_seq + 1) & 0xffff;
        self.echo_sent_ns = Some(now);
        KEEPALIVE_XID | self.echo_seq
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_async_by_role() {
        let mut c = Channel::new(ofwire::OFP13);
        assert!(!c.wants(Async::PortStatus(2)), "not up yet");
        c.state = State::Up;
        assert!(c.wants(Async::PacketIn(0)) && c.wants(Async::FlowRemoved(2)) && c.wants(Async::PortStatus(2)));
        c.role = role::SLAVE;
        assert!(!c.wants(Async::PacketIn(0)) && !c.wants(Async::PacketIn(1)));
        assert!(!c.wants(Async::FlowRemoved(0)));
        assert!(c.wants(Async::PortStatus(2)), "slaves still get port-status");
        let mut c10 = Channel::new(ofwire::OFP10);
        c10.state = State::Up;
        c10.role = role::SLAVE;
        assert!(!c10.wants(Async::PacketIn(0)) && !c10.is_slave(), "a 1.0 slave (Nicira role) gets no packet-in");
        assert!(c10.wants(Async::PortStatus(2)), "but port-status");
        c10.role = role::EQUAL;
        assert!(c10.wants(Async::PacketIn(0)) && c10.wants(Async::FlowRemoved(0)));
    }
}
