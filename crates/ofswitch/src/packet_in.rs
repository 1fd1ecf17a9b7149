//! PACKET_IN emission: the hot path of the load engine.
//!
//! [`PacketInGen`] keeps one frame per switch and patches only what changes between requests
//! (the host pair's MAC/IP bytes, the IPv4 checksum and the marker), then appends the packet-in
//! to the engine's output buffer. The request's sequence number is its buffer id and its xid.
//!
//! Layouts: OF1.0 §5.4.1 (`buffer_id, total_len, in_port, reason, pad`, data at 18) and
//! OF1.3 §7.4.1 (`buffer_id, total_len, reason, table_id, cookie, match{in_port}, pad(2)`,
//! data at 42).

use crate::consts::*;
use crate::frames;

const REASON_NO_MATCH: u8 = 0;

/// Append a packet-in carrying `data` (already cut to what the switch sends).
pub fn emit(out: &mut Vec<u8>, version: u8, xid: u32, buffer_id: u32, in_port: u32, total_len: u16, data: &[u8]) {
    let head = if version == OFP10 { 18 } else { 42 };
    let len = (head + data.len()) as u16;
    out.extend_from_slice(&[version, Kind::PacketIn.code(version)]);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(&xid.to_be_bytes());
    out.extend_from_slice(&buffer_id.to_be_bytes());
    out.extend_from_slice(&total_len.to_be_bytes());
    if version == OFP10 {
        out.extend_from_slice(&(in_port as u16).to_be_bytes());
        out.extend_from_slice(&[REASON_NO_MATCH, 0]);
    } else {
        out.extend_from_slice(&[REASON_NO_MATCH, 0]);
        out.extend_from_slice(&[0; 8]); // cookie
        // ofp_match: type OXM (1), length 12, OXM in_port (class 0x8000, field 0, len 4), pad 4
        out.extend_from_slice(&[0, 1, 0, 12, 0x80, 0x00, 0x00, 4]);
        out.extend_from_slice(&in_port.to_be_bytes());
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&[0; 2]);
    }
    out.extend_from_slice(data);
}

/// Generates the measured packet-ins of one switch.
#[derive(Clone, Debug)]
pub struct PacketInGen {
    pub version: u8,
    pub switch: u32,
    pub macs: u32,
    pub ports: u32,
    frame: Vec<u8>,
}

impl PacketInGen {
    pub fn new(version: u8, switch: u32, macs: u32, ports: u32, frame_size: usize) -> PacketInGen {
        let frame = frames::udp_frame(switch, 1, 1, 0, frame_size);
        PacketInGen { version, switch, macs: macs.max(1), ports: ports.max(1), frame }
    }

    pub fn frame_len(&self) -> usize {
        self.frame.len()
    }

    /// Append request `seq`. With `miss_send_len` = None it is unbuffered (buffer id NO_BUFFER,
    /// whole frame); otherwise buffered under `seq` with at most `miss_send_len` bytes of data.
    #[inline]
    pub fn emit(&mut self, out: &mut Vec<u8>, seq: u32, miss_send_len: Option<u16>) {
        let (src, dst) = frames::hosts_of(seq, self.macs);
        let f = &mut self.frame;
        f[4..6].copy_from_slice(&(dst as u16).to_be_bytes());
        f[10..12].copy_from_slice(&(src as u16).to_be_bytes());
        f[27..30].copy_from_slice(&frames::host_ip(src)[1..]);
        f[31..34].copy_from_slice(&frames::host_ip(dst)[1..]);
        f[24] = 0;
        f[25] = 0;
        let mut sum: u32 = 0;
        for i in (14..34).step_by(2) {
            sum += u16::from_be_bytes([f[i], f[i + 1]]) as u32;
        }
        sum = (sum & 0xffff) + (sum >> 16);
        sum = (sum & 0xffff) + (sum >> 16);
        f[24..26].copy_from_slice(&(!(sum as u16)).to_be_bytes());
        frames::set_seq(f, seq);
        let in_port = frames::host_port(src, self.ports);
        let total = f.len() as u16;
        match miss_send_len {
            Some(n) => {
                let cut = f.len().min(n as usize);
                emit(out, self.version, seq, seq, in_port, total, &self.frame[..cut]);
            }
            None => emit(out, self.version, seq, NO_BUFFER, in_port, total, &self.frame),
        }
    }

    /// Append the gratuitous ARP packet-in announcing `host` (unbuffered).
    pub fn emit_arp(&self, out: &mut Vec<u8>, xid: u32, host: u32) {
        let f = frames::gratuitous_arp(self.switch, host);
        emit(out, self.version, xid, NO_BUFFER, frames::host_port(host, self.ports), f.len() as u16, &f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn be32(b: &[u8]) -> u32 {
        u32::from_be_bytes([b[0], b[1], b[2], b[3]])
    }

    #[test]
    fn of10_layout() {
        let mut g = PacketInGen::new(OFP10, 3, 10, 4, 128);
        let mut out = vec![];
        g.emit(&mut out, 41, Some(128));
        assert_eq!(out.len(), 18 + 128);
        assert_eq!(&out[..4], &[1, 10, 0, 146]);
        assert_eq!(be32(&out[4..]), 41);
        assert_eq!(be32(&out[8..]), 41, "buffer id is the sequence number");
        let data = &out[18..];
        assert_eq!(frames::marker(data), Some((3, 41)));
        // host pair of seq 41 with 10 macs: 2 -> 3; host 2 sits behind port 2
        assert_eq!(&data[6..12], &frames::host_mac(3, 2));
        assert_eq!(&data[0..6], &frames::host_mac(3, 3));
        assert_eq!(u16::from_be_bytes([out[14], out[15]]), 2);
        // the patched frame equals a freshly built one
        assert_eq!(data, &frames::udp_frame(3, 2, 3, 41, 128)[..]);
    }

    #[test]
    fn of13_layout_and_truncation() {
        let mut g = PacketInGen::new(OFP13, 1, 1, 1, 512);
        let mut out = vec![];
        g.emit(&mut out, 7, Some(128));
        assert_eq!(out.len(), 42 + 128);
        assert_eq!(u16::from_be_bytes([out[12], out[13]]), 512, "total_len is the whole frame");
        assert_eq!(&out[24..28], &[0, 1, 0, 12]);
        assert_eq!(be32(&out[32..]), 1, "in_port");
        out.clear();
        g.emit(&mut out, 8, None);
        assert_eq!(be32(&out[8..]), NO_BUFFER);
        assert_eq!(out.len(), 42 + 512);
    }

    #[test]
    fn arp_packet_in() {
        let g = PacketInGen::new(OFP13, 2, 4, 4, 64);
        let mut out = vec![];
        g.emit_arp(&mut out, 1, 3);
        assert_eq!(out.len(), 42 + 60);
        assert_eq!(frames::ethertype(&out[42..]), Some(0x0806));
    }
}
