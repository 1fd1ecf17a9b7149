//! The ethertypes sdnbench reads and writes (used as `frame::ETHERTYPE_*`).

pub const ETHERTYPE_IPV4: u16 = 0x0800;
pub const ETHERTYPE_ARP: u16 = 0x0806;
pub const ETHERTYPE_VLAN: u16 = 0x8100;
pub const ETHERTYPE_LLDP: u16 = 0x88cc;
/// Broadcast domain discovery (Floodlight's BDDP: LLDP's format under its own type).
pub const ETHERTYPE_BDDP: u16 = 0x8942;
