//! The `faucet` traffic profile: packet-ins as a switch under Faucet raises them, and the
//! flow-mods that answer them.
//!
//! Faucet (1.10) is a pipeline controller: it installs its tables when a switch comes up, and
//! the only packet-ins it takes are the ones its own flows send up (`valve.py`
//! `parse_pkt_meta`): cookie = its datapath cookie (`strict_packet_in_cookie`), reason ACTION
//! (or INVALID_TTL), an in_port it has configured, and a frame tagged with a VLAN it knows (on
//! an untagged port its VLAN table pushes the native VLAN before the eth_src table sends the
//! frame up, so the packet-in carries the tag). Its answer to a new source MAC is two flow-mods
//! and no packet-out: eth_dst (table 2, match VLAN + eth_dst = the host) and eth_src (table 1,
//! match in_port + VLAN + eth_src = the host), neither naming a buffer. It learns a host once:
//! the same MAC again gets nothing until the host expires (300 s by default).
//!
//! So each request is a **new host**: its source MAC carries the request's sequence number,
//! and a request is answered by the first ADD/MODIFY flow-mod whose match names that MAC as
//! eth_src or eth_dst (the second of the pair is an extra reply). Unbuffered, as OVS sends
//! packet-ins since 2.7 (Faucet names no buffer anyway); 64-byte tagged UDP frames.
//!
//! Source MAC of request `seq` on switch `s`: `SS:RR:ss:QQ:QQ:QQ` where `SS:RR` carry a 14-bit
//! run salt (first octet `salt_hi << 2 | 0x02`: unicast, locally administered), `ss` the low
//! byte of the switch index and `QQ:QQ:QQ` the low 24 bits of `seq`. The salt differs between
//! runs started in different seconds, so a second run against the same Faucet process (which
//! keeps hosts for 300 s) sends hosts it has not seen. Limits: MACs repeat between switches 256
//! apart (Faucet keeps one host table per datapath, so that is harmless to it), and within a
//! switch after 2^24 requests of one run (the answer's 24 bits are widened against the last
//! sent sequence number: [`widen`]).

use crate::frames;
use ofwire::flow_mod::command;
use ofwire::oxm::OxmField;
use ofwire::version::Version;
use ofwire::{FlowMod, Oxm};

/// Faucet's default datapath cookie (`cookie: 1524372928` in `dp.py`).
pub const COOKIE: u64 = 0x5adc_15c0;
/// The VLAN of sdnbench's generated Faucet config (`sdnbench/controllers/faucet_config.py`,
/// `faucet:auto`); the engine tags every request with it.
pub const VLAN: u16 = 100;
/// Faucet's eth_src table (table 1 with no ACLs or routing): where its learning packet-ins
/// come from.
pub const ETH_SRC_TABLE: u8 = 1;
/// The destination of every request: a documentation MAC (RFC 7042, 00-00-5E-00-53-xx),
/// universally administered, so never equal to a request's locally administered source.
pub const DST_MAC: [u8; 6] = [0x00, 0x00, 0x5e, 0x00, 0x53, 0x01];

/// A run's 14-bit salt from the wall clock's seconds (see the module doc).
pub fn salt_now() -> u16 {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    (secs & 0x3fff) as u16
}

/// The first three octets every request of switch `switch` shares in a run with `salt`.
pub fn mac_prefix(salt: u16, switch: u32) -> [u8; 3] {
    [(((salt >> 8) & 0x3f) as u8) << 2 | 0x02, salt as u8, switch as u8]
}

/// Request `seq`'s source MAC.
#[inline]
pub fn request_mac(prefix: [u8; 3], seq: u32) -> [u8; 6] {
    let q = seq.to_be_bytes();
    [prefix[0], prefix[1], prefix[2], q[1], q[2], q[3]]
}

/// The request frame with seq 0: a 64-byte UDP frame from [`request_mac`] to [`DST_MAC`],
/// tagged with [`VLAN`] (the source MAC is patched per request at offset 6).
pub fn request_frame(prefix: [u8; 3]) -> Vec<u8> {
    let f = ofwire::frame::build::udp_frame(&ofwire::frame::UdpFrameSpec {
        src_mac: request_mac(prefix, 0),
        dst_mac: DST_MAC,
        src_ip: [10, 255, prefix[2], 1],
        dst_ip: [10, 255, 255, 254],
        src_port: 1024,
        dst_port: 9,
        frame_len: 60,
    });
    frames::tag(&f, VLAN)
}

/// The low 24 bits of a request's sequence number, when `msg` (a whole flow-mod, version
/// `v`) is an ADD or MODIFY whose match names one of our MACs (`prefix`) as eth_src or eth_dst.
pub fn answered_seq24(msg: &[u8], v: Version, prefix: [u8; 3]) -> Option<u32> {
    let fm = FlowMod::parse(v, msg.get(ofwire::HEADER_LEN..)?).ok()?;
    if !matches!(fm.command, command::ADD | command::MODIFY | command::MODIFY_STRICT) {
        return None; // Faucet's deletes (a host expiring) answer nothing
    }
    let mac = match v {
        Version::V10 => [fm.match10.dl_src, fm.match10.dl_dst].into_iter().find(|m| m[..3] == prefix)?,
        Version::V13 => fm.match_.fields.iter().find_map(|o| match o {
            Oxm::Basic { field: OxmField::EthSrc | OxmField::EthDst, value, mask: None } if value.len() == 6 && value[..3] == prefix => {
                Some(<[u8; 6]>::try_from(&value[..]).ok()?)
            }
            _ => None,
        })?,
    };
    Some(u32::from_be_bytes([0, mac[3], mac[4], mac[5]]))
}

/// The full sequence number whose low 24 bits are `low`, at or below `last` (the last request
/// sent): the most recent one.
#[inline]
pub fn widen(low: u32, last: u32) -> u32 {
    let cand = (last & !0x00ff_ffff) | (low & 0x00ff_ffff);
    if cand > last && cand >= 0x0100_0000 {
        cand - 0x0100_0000
    } else {
        cand
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Dress;
    use ofwire::{Body, Instruction, OxmMatch};

    fn flow_mod(command: u16, fields: Vec<Oxm>) -> Vec<u8> {
        let fm = FlowMod {
            command,
            table_id: 1,
            buffer_id: ofwire::packet_in::NO_BUFFER,
            match_: OxmMatch { fields },
            instructions: vec![Instruction::GotoTable(2)],
            ..Default::default()
        };
        ofwire::Message::new(Version::V13, 7, Body::FlowMod(fm)).to_vec()
    }

    #[test]
    fn macs_are_unicast_local_and_carry_salt_switch_and_seq() {
        let p = mac_prefix(0x3fff, 0x1_05);
        let m = request_mac(p, 0x0102_0304);
        assert_eq!(m, [0xfe, 0xff, 0x05, 0x02, 0x03, 0x04]);
        assert_eq!(m[0] & 1, 0, "unicast");
        assert_eq!(m[0] & 2, 2, "locally administered");
        for salt in [0u16, 1, 0x100, 0x3fff] {
            assert_eq!(mac_prefix(salt, 0)[0] & 3, 2);
        }
        assert_eq!(DST_MAC[0] & 3, 0, "the destination is universally administered unicast");
        assert_ne!(mac_prefix(1, 0), mac_prefix(2, 0), "salts differ");
    }

    #[test]
    fn request_frame_is_tagged_valid_ipv4() {
        let f = request_frame(mac_prefix(9, 3));
        assert_eq!(f.len(), 64);
        assert_eq!(&f[12..16], &[0x81, 0x00, 0x00, 100]);
        assert_eq!(&f[16..18], &[0x08, 0x00]);
        let ip = &f[18..38];
        let sum: u32 = ip.chunks(2).map(|c| u16::from_be_bytes([c[0], c[1]]) as u32).sum();
        assert_eq!(((sum & 0xffff) + (sum >> 16)) as u16, 0xffff);
        assert_eq!(&f[6..9], &mac_prefix(9, 3));
    }

    #[test]
    fn eth_src_or_eth_dst_adds_answer_deletes_and_strangers_do_not() {
        let p = mac_prefix(77, 2);
        let mac = request_mac(p, 0x00ab_cdef);
        let src = flow_mod(command::ADD, vec![Oxm::in_port(1), Oxm::basic(OxmField::VlanVid, &[0x10, 100]), Oxm::eth_src(mac)]);
        assert_eq!(answered_seq24(&src, Version::V13, p), Some(0x00ab_cdef));
        let dst = flow_mod(command::ADD, vec![Oxm::basic(OxmField::VlanVid, &[0x10, 100]), Oxm::basic(OxmField::EthDst, &mac)]);
        assert_eq!(answered_seq24(&dst, Version::V13, p), Some(0x00ab_cdef));
        assert_eq!(answered_seq24(&flow_mod(command::DELETE, vec![Oxm::eth_src(mac)]), Version::V13, p), None);
        assert_eq!(answered_seq24(&src, Version::V13, mac_prefix(78, 2)), None, "another run's salt");
        assert_eq!(answered_seq24(&src, Version::V13, mac_prefix(77, 3)), None, "another switch");
        assert_eq!(answered_seq24(&src[..20], Version::V13, p), None, "truncated");
    }

    #[test]
    fn widening_restores_the_most_recent_sequence_number() {
        assert_eq!(widen(5, 10), 5);
        assert_eq!(widen(0x00ff_fff0, 0x0100_0005), 0x00ff_fff0);
        assert_eq!(widen(3, 0x0100_0005), 0x0100_0003);
        assert_eq!(widen(0x0000_0007, 0x0000_0005), 7, "not yet sent: left as is (Outstanding says unknown)");
    }

    #[test]
    fn dress_tags_frames_but_not_lldp_or_stubs() {
        let udp = request_frame(mac_prefix(1, 1));
        let untagged: Vec<u8> = [&udp[..12], &udp[16..]].concat();
        assert_eq!(Dress::FAUCET.frame(untagged.clone()), udp);
        assert_eq!(Dress::TABLE_MISS.frame(untagged.clone()), untagged);
        assert_eq!(Dress::FAUCET.frame(vec![]), Vec::<u8>::new());
        let lldp = ofwire::frame::lldp_frame([2, 0, 0, 0, 0, 1], &ofwire::frame::Lldp::for_port(1, 1));
        assert_eq!(Dress::FAUCET.frame(lldp.clone()), lldp);
    }
}
