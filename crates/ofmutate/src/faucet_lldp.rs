//! Faucet's LLDP beacon, forged: what `fabricated-lldp` sends when the controller is Faucet.
//!
//! Faucet reads LLDP on its stack ports only, and only in its own format (1.10.12
//! `valve.py` `_send_lldp_beacon_on_port`, `valve_packet.lldp_beacon`, `parse_faucet_lldp`):
//! source MAC and chassis ID (subtype 4, MAC) its `faucet_dp_mac` (default 0e:00:00:00:00:01),
//! port ID (subtype 5, interface name) the port number in decimal, TTL 3 × the beacon interval
//! (5 s), system name the datapath's name, port description the interface's name, and two
//! organisation-specific TLVs under the OUI of that MAC: subtype 1 the datapath id in decimal,
//! subtype 2 the sending port's stack state. os-ken's format (`dpid:%016x`) is not Faucet's: an
//! LLDP in it is dropped by Faucet's parser before any check, so a case forging it against
//! Faucet tests the parser, not the check (`verify_lldp`: the beacon must name the port's
//! configured peer, by datapath id, name and port).
//!
//! The names are sdnbench's `faucet:auto` configuration's (`controllers/faucet_config.py`):
//! datapath `s{dpid}`, interface `port{n}`. The bytes are checked against a beacon captured from
//! Faucet 1.10.12 (test below).

use ofwire::frame::lldp::Lldp;

/// Faucet's default `faucet_dp_mac` (`valve_packet.FAUCET_MAC`): its beacons' source and
/// chassis ID; its first three bytes are the OUI of Faucet's own TLVs.
pub const FAUCET_MAC: [u8; 6] = [0x0e, 0, 0, 0, 0, 0x01];
/// Faucet's stack port states (`port.py` STACK_STATE_*): UP.
pub const STACK_UP: u8 = 3;

const CHASSIS_MAC: u8 = 4;
const PORT_INTERFACE_NAME: u8 = 5;
const TLV_PORT_DESCRIPTION: u8 = 4;
const TLV_SYSTEM_NAME: u8 = 5;
const TLV_ORG: u8 = 127;
const FAUCET_DP_ID: u8 = 1;
const FAUCET_STACK_STATE: u8 = 2;
/// Faucet's beacon interval for a stack (`DEFAULT_LLDP_SEND_INTERVAL`, 5 s); its TTL is 3 ×.
const TTL_S: u16 = 15;

fn org(subtype: u8, info: &str) -> (u8, Vec<u8>) {
    let mut v = FAUCET_MAC[..3].to_vec();
    v.push(subtype);
    v.extend_from_slice(info.as_bytes());
    (TLV_ORG, v)
}

/// The beacon Faucet sends out of `port` of datapath `dpid` whose stack state is `state`.
pub fn beacon(dpid: u64, port: u32, state: u8) -> Vec<u8> {
    let l = Lldp {
        chassis_subtype: CHASSIS_MAC,
        chassis_id: FAUCET_MAC.to_vec(),
        port_subtype: PORT_INTERFACE_NAME,
        port_id: port.to_string().into_bytes(),
        ttl: TTL_S,
        extra: vec![
            (TLV_SYSTEM_NAME, format!("s{dpid}").into_bytes()),
            (TLV_PORT_DESCRIPTION, format!("port{port}").into_bytes()),
            org(FAUCET_DP_ID, &dpid.to_string()),
            org(FAUCET_STACK_STATE, &state.to_string()),
        ],
    };
    ofwire::frame::build::lldp_frame(FAUCET_MAC, &l)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Captured from Faucet 1.10.12 (2026-11-25): the packet-out of datapath s1's beacon out of
    /// its stack port 6 (state INIT, 1), configured as `faucet:auto`'s stack names it.
    const CAPTURED_S1_PORT6_INIT: &str = "0180c200000e0e000000000188cc0207040e0000000001040205360602000f0a0273310805706f727436\
                                          fe050e00000131fe050e0000023100000000";

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    #[test]
    fn the_beacon_is_faucets_byte_for_byte() {
        assert_eq!(beacon(1, 6, 1), hex(CAPTURED_S1_PORT6_INIT));
        // another datapath, port and state change exactly their TLVs
        let b = beacon(2, 5, STACK_UP);
        assert_eq!(b.len(), 60);
        let l = Lldp::parse(&b[14..]).unwrap();
        assert_eq!((l.port_id.as_slice(), l.extra[0].1.as_slice()), (&b"5"[..], &b"s2"[..]));
        assert_eq!(&l.extra[2].1[3..], b"\x012");
        assert_eq!(&l.extra[3].1[3..], b"\x023");
    }
}
