//! Builders for the frames the load engine puts into packet-ins.

use super::lldp::{Lldp, NEAREST_BRIDGE};
use super::ETHERTYPE_LLDP;
use etherparse::{ArpEthIpv4Packet, ArpOperation, PacketBuilder};

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
    let payload = vec![0u8; s.frame_len.saturating_sub(UDP_HEADERS)];
    let builder = PacketBuilder::ethernet2(s.src_mac, s.dst_mac).ipv4(s.src_ip, s.dst_ip, 64).udp(s.src_port, s.dst_port);
    let mut out = Vec::with_capacity(builder.size(payload.len()));
    builder.write(&mut out, &payload).expect("writing into a Vec cannot fail and 64-KiB limits are not reached");
    out
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
