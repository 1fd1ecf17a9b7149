//! Builders for the frames the load engine puts into packet-ins.

use super::ethertype::ETHERTYPE_LLDP;
use super::lldp::{Lldp, NEAREST_BRIDGE};
use etherparse::{ArpEthIpv4Packet, ArpOperation, IpHeaders, IpNumber, Ipv4Header, PacketBuilder, TcpOptionElement};

/// Ethernet frames shorter than this (without FCS) are padded with zeros.
pub const MIN_FRAME: usize = 60;

/// An Ethernet/IPv4/UDP frame of `frame_len` bytes (at least 42, the bare headers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UdpFrameSpec {
    pub src_mac: [u8; 6],
    pub dst_mac: [u8; 6],
    pub src_ip: [u8; 4],
    pub dst_ip: [u8; 4],
    pub src_port: u16,
    pub dst_port: u16,
    pub frame_len: usize,
}

const UDP_HEADERS: usize = 14 + 20 + 8;

/// Builds the frame; the UDP payload is zeros, checksums are computed.
pub fn udp_frame(s: &UdpFrameSpec) -> Vec<u8> {
    udp_frame_carrying(s, &[])
}

/// Builds the frame with `data` at the start of its UDP payload (offset 42) and zeros after it
/// up to `frame_len`; the IPv4 header and UDP checksums are computed, DF set (as a Linux host
/// sends it). A `frame_len` too short for `data` grows to fit it.
pub fn udp_frame_carrying(s: &UdpFrameSpec, data: &[u8]) -> Vec<u8> {
    let mut payload = data.to_vec();
    payload.resize(s.frame_len.saturating_sub(UDP_HEADERS).max(data.len()), 0);
    let builder = PacketBuilder::ethernet2(s.src_mac, s.dst_mac).ipv4(s.src_ip, s.dst_ip, 64).udp(s.src_port, s.dst_port);
    let mut out = Vec::with_capacity(builder.size(payload.len()));
    builder.write(&mut out, &payload).expect("writing into a Vec cannot fail and 64-KiB limits are not reached");
    out
}

/// A TCP SYN as an IPv4 packet (no Ethernet header; 44 bytes): TTL 64, DF, identification
/// `ip_id`, window 64,240 and one option, MSS 1460 (what a Linux client's first SYN carries,
/// less its timestamps and SACK); both checksums computed.
pub fn tcp_syn(src: [u8; 4], dst: [u8; 4], src_port: u16, dst_port: u16, seq: u32, ip_id: u16) -> Vec<u8> {
    let mut ip = Ipv4Header::new(0, 64, IpNumber::TCP, src, dst).expect("an empty payload fits");
    ip.identification = ip_id;
    let builder = PacketBuilder::ip(IpHeaders::Ipv4(ip, Default::default()))
        .tcp(src_port, dst_port, seq, 64240)
        .syn()
        .options(&[TcpOptionElement::MaximumSegmentSize(1460)])
        .expect("one MSS option fits the TCP header");
    let mut out = Vec::with_capacity(builder.size(0));
    builder.write(&mut out, &[]).expect("writing into a Vec cannot fail");
    out
}

/// The RFC 1071 Internet checksum of `data` (an odd last byte padded with zero). A header
/// whose checksum field is right sums to 0 with it.
pub fn internet_checksum(data: &[u8]) -> u16 {
    let mut sum: u32 = data.chunks(2).map(|c| u32::from(u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)]))).sum();
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

/// A gratuitous ARP request announcing `ip` at `mac`, broadcast, padded to 60 bytes.
pub fn gratuitous_arp(mac: [u8; 6], ip: [u8; 4]) -> Vec<u8> {
    let arp = ArpEthIpv4Packet { operation: ArpOperation::REQUEST, sender_mac: mac, sender_ipv4: ip, target_mac: [0; 6], target_ipv4: ip };
    let builder = PacketBuilder::ethernet2(mac, [0xff; 6]).arp(arp.to_arp_packet());
    let mut out = Vec::with_capacity(MIN_FRAME);
    builder.write(&mut out).expect("writing into a Vec cannot fail");
    out.resize(out.len().max(MIN_FRAME), 0);
    out
}

/// An LLDP frame from `src_mac` to the nearest-bridge group address.
pub fn lldp_frame(src_mac: [u8; 6], lldp: &Lldp) -> Vec<u8> {
    let mut out = Vec::with_capacity(14 + lldp.buffer_len());
    out.extend_from_slice(&NEAREST_BRIDGE);
    out.extend_from_slice(&src_mac);
    out.extend_from_slice(&ETHERTYPE_LLDP.to_be_bytes());
    let at = out.len();
    out.resize(at + lldp.buffer_len(), 0);
    lldp.emit(&mut out[at..]);
    out.resize(out.len().max(MIN_FRAME), 0);
    out
}
