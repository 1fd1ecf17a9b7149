//! Traffic profiles: which frames the measured packet-ins carry, and so what a controller must
//! do per request. Chosen by name (`--traffic NAME`); the name is recorded with every result.
//!
//! | profile        | frame | what a learning controller does per request |
//! |----------------|-------|---------------------------------------------|
//! | `cbench`       | cbench's own packet-in, checked against a capture of cbench (request `seq` = buffer id `seq`, xid `seq + 1`): a 64-byte frame, IPv4 protocol 0xff 192.168.0.40 -> 192.168.1.40, destination MAC `80:00:00:00:00:<dpid>`, source MAC `00:<m as 4 little-endian bytes>:<dpid>` with `m` cycling through `macs` (cbench `-M`). Learning phase as cbench's default `-L`: one gratuitous ARP reply from the destination MAC on port 2 (xid 1), so the destination is known ([`Learning::CbenchDestination`]); with learning off it is never learned | learned destination: learn the source MAC, install a flow for it (flow-mod) and forward the frame (packet-out): two responses per request in cbench's count. Without learning: flood, a packet-out only. Comparable with published cbench numbers (which use the default `-L`). |
//! | `unique-pairs` | UDP between two hosts of the switch that were announced by gratuitous ARP (learning phase); the (source, destination) pair steps through the hosts | look up a known destination and install a flow for the pair: flow-mod (+ packet-out). |
//! | `new-flows`    | as `unique-pairs`, but the UDP source/destination ports encode the request number, so no two requests share a 5-tuple | same as `unique-pairs` for an L2 controller; a controller that installs exact 5-tuple (microflow) entries installs a new one per request. |
//! | `faucet`       | as a switch under Faucet raises it (`faucet.rs`): OpenFlow 1.3, reason ACTION, Faucet's cookie, table 1 (eth_src), unbuffered, a 64-byte UDP frame tagged VLAN 100 from a source MAC never seen before (it carries the request number), on ports 1..`ports`. Learning phase: one gratuitous ARP from the switch's host 1 on its port 1, dressed the same way ([`Learning::FirstHost`]) | learn a new host: two flow-mods (eth_dst and eth_src tables), no packet-out. Answered by the first flow-mod naming the request's MAC. For pipeline controllers that take only their own packet-ins; not comparable with cbench numbers. |

use crate::{faucet, frames};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Profile {
    // the host-pair UDP profiles first: `own_frame` is one comparison on the hot path
    #[default]
    UniquePairs = 0,
    NewFlows = 1,
    Cbench = 2,
    Faucet = 3,
}

impl Profile {
    pub const ALL: [Profile; 4] = [Profile::Cbench, Profile::UniquePairs, Profile::NewFlows, Profile::Faucet];

    pub fn name(self) -> &'static str {
        match self {
            Profile::Cbench => "cbench",
            Profile::UniquePairs => "unique-pairs",
            Profile::NewFlows => "new-flows",
            Profile::Faucet => "faucet",
        }
    }

    /// What a switch sends in the learning phase, before any measured request.
    pub fn learning(self) -> Option<Learning> {
        match self {
            Profile::Cbench => Some(Learning::CbenchDestination),
            Profile::Faucet => Some(Learning::FirstHost),
            _ => Some(Learning::HostArps),
        }
    }

    /// How many learning requests a switch sends, with `macs` hosts per switch.
    pub fn learning_requests(self, macs: u32) -> u32 {
        match self.learning() {
            Some(Learning::CbenchDestination | Learning::FirstHost) => 1,
            Some(Learning::HostArps) => macs.min(65_535),
            None => 0,
        }
    }

    /// How its packet-ins are dressed ([`Dress`]).
    pub fn dress(self) -> Dress {
        match self {
            Profile::Faucet => Dress::FAUCET,
            _ => Dress::TABLE_MISS,
        }
    }

    /// Whether its frame is its own (cbench's, Faucet's), not the host-pair UDP frame.
    #[inline(always)]
    pub fn own_frame(self) -> bool {
        self as u8 >= Profile::Cbench as u8
    }

    /// Whether its requests may be buffered (`faucet`: never; OVS sends packet-ins unbuffered).
    pub fn buffered(self) -> bool {
        self != Profile::Faucet
    }

    /// Whether it exists only in OpenFlow 1.3 (Faucet speaks nothing else).
    pub fn needs_of13(self) -> bool {
        self == Profile::Faucet
    }
}

/// How a packet-in is dressed: what the controller expects of the packet-ins its own
/// pipeline raises. Table-miss packet-ins (reason NO_MATCH, cookie 0, table 0, untagged) are
/// what every other profile sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dress {
    pub reason: u8,
    pub cookie: u64,
    pub table_id: u8,
    /// Tag the frame with this VLAN (802.1Q), unless it is LLDP (never tagged).
    pub vlan: Option<u16>,
}

impl Dress {
    pub const TABLE_MISS: Dress = Dress { reason: ofwire::packet_in::reason::NO_MATCH, cookie: 0, table_id: 0, vlan: None };
    pub const FAUCET: Dress = Dress {
        reason: ofwire::packet_in::reason::ACTION,
        cookie: faucet::COOKIE,
        table_id: faucet::ETH_SRC_TABLE,
        vlan: Some(faucet::VLAN),
    };

    /// `frame` as this dress carries it: with the VLAN tag inserted after the MACs (an empty,
    /// short or LLDP frame is left alone).
    pub fn frame(&self, frame: Vec<u8>) -> Vec<u8> {
        match self.vlan {
            Some(vid) if frame.len() >= 14 && frames::ethertype(&frame) != Some(ofwire::frame::ETHERTYPE_LLDP) => frames::tag(&frame, vid),
            _ => frame,
        }
    }
}

impl Default for Dress {
    fn default() -> Dress {
        Dress::TABLE_MISS
    }
}

/// A profile's learning phase (turned off as a whole by the engine's `learn: false`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Learning {
    /// One gratuitous ARP per host of the switch: the controller learns every host's port.
    HostArps,
    /// cbench's `-L` packet-in (on by default in cbench: `learn-dst-macs`, fakeswitch.c
    /// `fakeswitch_learn_dstmac`): a gratuitous ARP reply from the one destination MAC every
    /// request goes to, `80:00:00:00:00:<dpid>`, on port 2. A learning switch then knows the
    /// destination, so each request costs it a flow-mod and a packet-out, as under cbench.
    CbenchDestination,
    /// `faucet`: one gratuitous ARP from the switch's host 1 (`frames::host_mac(switch, 1)`, on
    /// its port 1), dressed as the profile's requests (Faucet's cookie, reason ACTION, table 1,
    /// tagged VLAN 100: a packet-in Faucet learns from). Faucet learns each switch's first host
    /// on that switch before anything is measured, so the same MAC seen later on another
    /// switch is a host that moved, not a new one (`host-hijack`, docs/robustness.md). One
    /// host only: the measured requests are all new hosts, and Faucet spends about 1 ms on each.
    FirstHost,
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown profile name; its message lists the known ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownProfile(pub String);

impl fmt::Display for UnknownProfile {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let known: Vec<&str> = Profile::ALL.iter().map(|p| p.name()).collect();
        write!(f, "unknown traffic profile {:?} (known: {})", self.0, known.join(", "))
    }
}

impl std::error::Error for UnknownProfile {}

impl FromStr for Profile {
    type Err = UnknownProfile;
    fn from_str(s: &str) -> Result<Profile, UnknownProfile> {
        Profile::ALL.into_iter().find(|p| p.name() == s).ok_or_else(|| UnknownProfile(s.to_string()))
    }
}

/// cbench's Ethernet frame (64 bytes) as `make_packet_in` in cbench/fakeswitch.c (mininet/oflops)
/// fills it before the per-request patches: destination MAC byte 5 and source MAC bytes 1..=5
/// are patched by [`cbench_frame_patch`].
pub const CBENCH_FRAME: [u8; 64] = [
    0x80, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x08, 0x00, // Ethernet
    0x45, 0x00, 0x00, 0x32, 0x00, 0x00, 0x00, 0x00, 0x40, 0xff, 0xf7, 0x2c, // IPv4, proto 0xff
    0xc0, 0xa8, 0x00, 0x28, 0xc0, 0xa8, 0x01, 0x28, // 192.168.0.40 -> 192.168.1.40
    0x7a, 0x18, 0x58, 0x6b, 0x11, 0x08, 0x97, 0xf5, 0x19, 0xe2, 0x65, 0x7e, 0x07, 0xcc, 0x31, 0xc3, // payload
    0x11, 0xc7, 0xc4, 0x0c, 0x8b, 0x95, 0x51, 0x51, 0x33, 0x54, 0x51, 0xd5, 0x00, 0x36,
];

/// cbench's per-request frame patches (fakeswitch.c `make_packet_in`): the MAC index `mac` is
/// copied as a 4-byte little-endian int (x86) into source MAC bytes 1..=4, and the low byte of
/// the switch's dpid into byte 5 of both MACs.
#[inline]
pub fn cbench_frame_patch(frame: &mut [u8], dpid: u64, mac: u32) {
    frame[5] = dpid as u8;
    frame[7..11].copy_from_slice(&mac.to_le_bytes());
    frame[11] = dpid as u8;
}

/// The frame of cbench's `-L` (learn destination MAC) packet-in, `fakeswitch_learn_dstmac` in
/// cbench/fakeswitch.c: a gratuitous ARP reply (64 bytes, from wireshark) re-addressed to MAC
/// `80:00:00:00:00:<dpid>` and IPv4 192.168.<dpid>.40, so the controller learns the destination
/// MAC of every later request. cbench sends it in a packet-in of `sizeof(struct ofp_packet_in)`
/// (20) + 64 bytes: the data is this frame plus 2 zero bytes (total_len says 64), unbuffered,
/// in_port 2, reason NO_MATCH. Returned with those 2 bytes.
pub fn cbench_learn_frame(dpid: u64) -> [u8; 66] {
    let id = dpid as u8;
    let mac = [0x80, 0, 0, 0, 0, id];
    let ip = [192, 168, id, 40];
    let mut f = [0u8; 66];
    f[0..6].copy_from_slice(&[0xff; 6]);
    f[6..12].copy_from_slice(&mac);
    f[12..22].copy_from_slice(&[0x08, 0x06, 0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x02]);
    f[22..28].copy_from_slice(&mac);
    f[28..32].copy_from_slice(&ip);
    f[32..38].copy_from_slice(&mac);
    f[38..42].copy_from_slice(&ip);
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_unknown_lists_known() {
        for p in Profile::ALL {
            assert_eq!(p.name().parse::<Profile>(), Ok(p));
        }
        let e = "cbnech".parse::<Profile>().unwrap_err().to_string();
        assert_eq!(e, "unknown traffic profile \"cbnech\" (known: cbench, unique-pairs, new-flows, faucet)");
        assert_eq!(Profile::default(), Profile::UniquePairs);
    }

    #[test]
    fn learning_phases() {
        assert_eq!(Profile::Faucet.learning(), Some(Learning::FirstHost));
        assert_eq!(Profile::Faucet.learning_requests(1000), 1, "Faucet learns one host per switch first");
        assert_eq!(Profile::UniquePairs.learning_requests(1000), 1000);
        assert_eq!(Profile::Cbench.learning_requests(1000), 1);
    }

    #[test]
    fn cbench_frame_is_a_valid_ipv4_frame() {
        let ip = &CBENCH_FRAME[14..34];
        let sum: u32 = ip.chunks(2).map(|c| u16::from_be_bytes([c[0], c[1]]) as u32).sum();
        assert_eq!(((sum & 0xffff) + (sum >> 16)) as u16, 0xffff, "cbench's IPv4 checksum holds");
        assert_eq!(ip[9], 0xff);
        assert_eq!(u16::from_be_bytes([ip[2], ip[3]]) as usize, 64 - 14);
    }
}
