//! The Ethernet frames that packet-ins and packet-outs carry.
//!
//! Ethernet, VLAN, ARP, IPv4, UDP and TCP are parsed and built with the `etherparse` crate.
//! LLDP (IEEE 802.1AB) is written by hand in [`lldp`] because no well-kept crate covers it;
//! only the three mandatory TLVs (chassis ID, port ID, TTL) are interpreted, others are kept.
//! [`build`] makes the frames the load engine sends: Ethernet/IPv4/UDP of a chosen size and
//! gratuitous ARP.

pub mod build;
mod ethertype;
pub mod lldp;

use crate::error::{Error, Result};
use etherparse::{NetSlice, SlicedPacket, TransportSlice};

pub use build::{gratuitous_arp, internet_checksum, lldp_frame, tcp_syn, udp_frame, udp_frame_carrying, UdpFrameSpec};
pub use ethertype::*;
pub use lldp::Lldp;

/// Destination and source MAC of a frame without parsing anything else (the hot path of a
/// learning switch). `None` if the frame is shorter than 12 bytes.
#[inline]
pub fn macs(frame: &[u8]) -> Option<([u8; 6], [u8; 6])> {
    let dst = frame.get(0..6)?.try_into().ok()?;
    let src = frame.get(6..12)?.try_into().ok()?;
    Some((dst, src))
}

/// What a frame carries, as far as sdnbench cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    Arp {
        op: u16,
        sender_mac: [u8; 6],
        sender_ip: [u8; 4],
        target_mac: [u8; 6],
        target_ip: [u8; 4],
    },
    /// IPv4, with the transport ports when it is UDP or TCP.
    Ipv4 {
        src: [u8; 4],
        dst: [u8; 4],
        protocol: u8,
        ports: Option<(u16, u16)>,
    },
    Lldp(Lldp),
    Other,
}

/// A parsed frame: Ethernet addresses, the innermost ethertype, the VLAN id if tagged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub dst: [u8; 6],
    pub src: [u8; 6],
    pub ethertype: u16,
    pub vlan: Option<u16>,
    pub payload: Payload,
}

/// The innermost ethertype and the outer VLAN id; the frame has at least 14 bytes
/// (etherparse has sliced it).
fn ethertype_vlan(frame: &[u8]) -> (u16, Option<u16>) {
    let outer = u16::from_be_bytes([frame[12], frame[13]]);
    if (outer == ETHERTYPE_VLAN || outer == 0x88a8) && frame.len() >= 18 {
        let tci = u16::from_be_bytes([frame[14], frame[15]]);
        (u16::from_be_bytes([frame[16], frame[17]]), Some(tci & 0x0fff))
    } else {
        (outer, None)
    }
}

/// Parses an Ethernet frame.
pub fn parse(frame: &[u8]) -> Result<Frame> {
    let (dst, src) = macs(frame).ok_or(Error::Truncated { need: 14, have: frame.len() })?;
    let sliced = SlicedPacket::from_ethernet(frame).map_err(|_| Error::BadFrame("etherparse could not slice the frame"))?;
    let (ethertype, vlan) = ethertype_vlan(frame);
    let payload = match (&sliced.net, &sliced.transport) {
        (Some(NetSlice::Arp(a)), _) => {
            let p = a.to_packet().try_eth_ipv4().map_err(|_| Error::BadFrame("ARP that is not Ethernet/IPv4"))?;
            Payload::Arp {
                op: p.operation.0,
                sender_mac: p.sender_mac,
                sender_ip: p.sender_ipv4,
                target_mac: p.target_mac,
                target_ip: p.target_ipv4,
            }
        }
        (Some(NetSlice::Ipv4(ip)), t) => {
            let h = ip.header();
            let ports = match t {
                Some(TransportSlice::Udp(u)) => Some((u.source_port(), u.destination_port())),
                Some(TransportSlice::Tcp(tcp)) => Some((tcp.source_port(), tcp.destination_port())),
                _ => None,
            };
            Payload::Ipv4 { src: h.source(), dst: h.destination(), protocol: h.protocol().0, ports }
        }
        _ if ethertype == ETHERTYPE_LLDP => {
            let at = if vlan.is_some() { 18 } else { 14 };
            Payload::Lldp(Lldp::parse(&frame[at..])?)
        }
        _ => Payload::Other,
    };
    Ok(Frame { dst, src, ethertype, vlan, payload })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 02:..:01 (10.0.0.1) to 02:..:02 (10.0.0.2), UDP `src_port` to `dst_port`.
    fn spec(src_port: u16, dst_port: u16, frame_len: usize) -> UdpFrameSpec {
        UdpFrameSpec {
            src_mac: [2, 0, 0, 0, 0, 1],
            dst_mac: [2, 0, 0, 0, 0, 2],
            src_ip: [10, 0, 0, 1],
            dst_ip: [10, 0, 0, 2],
            src_port,
            dst_port,
            frame_len,
        }
    }

    #[test]
    fn udp_frame_parses_back() {
        let spec = spec(1234, 5678, 64);
        let f = udp_frame(&spec);
        assert_eq!(f.len(), 64);
        let p = parse(&f).unwrap();
        assert_eq!((p.dst, p.src, p.ethertype), (spec.dst_mac, spec.src_mac, ETHERTYPE_IPV4));
        assert_eq!(p.payload, Payload::Ipv4 { src: spec.src_ip, dst: spec.dst_ip, protocol: 17, ports: Some((1234, 5678)) });
        assert_eq!(macs(&f), Some((spec.dst_mac, spec.src_mac)));
    }

    #[test]
    fn udp_frame_carries_its_data_and_its_checksums_verify() {
        let spec = spec(5003, 5003, 60);
        let f = udp_frame_carrying(&spec, b"SDNS\0\0\0\x01");
        assert_eq!((f.len(), &f[42..50], &f[50..]), (60, &b"SDNS\0\0\0\x01"[..], &[0u8; 10][..]));
        assert_eq!(internet_checksum(&f[14..34]), 0, "the IPv4 header sums to 0");
        assert_eq!(f[20] & 0x40, 0x40, "DF set");
        let pseudo = [&f[26..34], &[0, 17], &f[38..40]].concat();
        assert_eq!(internet_checksum(&[&pseudo[..], &f[34..]].concat()), 0, "the UDP checksum verifies");
        assert_eq!(udp_frame_carrying(&UdpFrameSpec { frame_len: 44, ..spec }, &[7; 8]).len(), 50, "grows to fit its data");
    }

    #[test]
    fn internet_checksum_of_the_rfc_1071_style_known_header() {
        // The IPv4 header of Wikipedia's worked example (192.168.0.1 -> 192.168.0.199, UDP).
        let h = [0x45, 0, 0, 0x73, 0, 0, 0x40, 0, 0x40, 0x11, 0, 0, 0xc0, 0xa8, 0, 1, 0xc0, 0xa8, 0, 0xc7];
        assert_eq!(internet_checksum(&h), 0xb861);
        assert_eq!(internet_checksum(&[0x01]), !0x0100, "an odd byte is padded with zero");
    }

    #[test]
    fn a_syn_is_well_formed_and_its_checksums_verify() {
        let p = tcp_syn([192, 0, 2, 7], [127, 0, 0, 1], 40000, 6653, 0x1234_5678, 99);
        assert_eq!(p.len(), 44);
        assert_eq!(internet_checksum(&p[..20]), 0, "IP header checksum verifies to 0");
        let pseudo = [&p[12..20], &[0, 6, 0, 24]].concat();
        assert_eq!(internet_checksum(&[&pseudo[..], &p[20..]].concat()), 0, "TCP checksum verifies to 0");
        let ip = etherparse::Ipv4HeaderSlice::from_slice(&p).unwrap();
        assert_eq!((ip.identification(), ip.ttl(), ip.dont_fragment()), (99, 64, true));
        let tcp = etherparse::TcpHeaderSlice::from_slice(&p[20..]).unwrap();
        assert!(tcp.syn() && !tcp.ack());
        assert_eq!(
            (tcp.source_port(), tcp.destination_port(), tcp.sequence_number(), tcp.window_size()),
            (40000, 6653, 0x1234_5678, 64240)
        );
        assert_eq!(tcp.options(), &[2, 4, 0x05, 0xb4], "MSS 1460");
    }

    #[test]
    fn garp_parses_back() {
        let f = gratuitous_arp([2, 0, 0, 0, 0, 9], [10, 0, 0, 9]);
        assert_eq!(f.len(), 60, "padded to the Ethernet minimum");
        let p = parse(&f).unwrap();
        assert_eq!(p.dst, [0xff; 6]);
        assert_eq!(
            p.payload,
            Payload::Arp { op: 1, sender_mac: [2, 0, 0, 0, 0, 9], sender_ip: [10, 0, 0, 9], target_mac: [0; 6], target_ip: [10, 0, 0, 9] }
        );
    }

    #[test]
    fn lldp_frame_parses_back() {
        let l = Lldp::for_port(0x1, 3);
        let f = lldp_frame([2, 0, 0, 0, 0, 3], &l);
        let p = parse(&f).unwrap();
        assert_eq!((p.ethertype, p.dst), (ETHERTYPE_LLDP, lldp::NEAREST_BRIDGE));
        assert_eq!(p.payload, Payload::Lldp(l));
    }

    #[test]
    fn vlan_tagged_tcp() {
        use etherparse::{PacketBuilder, VlanId};
        let b = PacketBuilder::ethernet2([2, 0, 0, 0, 0, 1], [2, 0, 0, 0, 0, 2])
            .single_vlan(VlanId::try_new(42).unwrap())
            .ipv4([10, 0, 0, 1], [10, 0, 0, 2], 64)
            .tcp(40000, 80, 1, 65535);
        let mut f = Vec::new();
        b.write(&mut f, b"GET").unwrap();
        let p = parse(&f).unwrap();
        assert_eq!((p.ethertype, p.vlan), (ETHERTYPE_IPV4, Some(42)));
        assert_eq!(p.payload, Payload::Ipv4 { src: [10, 0, 0, 1], dst: [10, 0, 0, 2], protocol: 6, ports: Some((40000, 80)) });
    }

    #[test]
    fn short_frames_are_errors() {
        assert!(parse(&[0; 10]).is_err());
        assert!(parse(&[0; 13]).is_err());
        assert_eq!(macs(&[0; 11]), None);
    }
}
