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
///
/// It keeps the whole message for the current cut (buffered with `miss_send_len` bytes, or
/// unbuffered) as a template: a request is one copy plus a few patches in the output buffer.
#[derive(Clone, Debug)]
pub struct PacketInGen {
    pub version: u8,
    pub switch: u32,
    pub macs: u32,
    pub ports: u32,
    frame: Vec<u8>,
    tpl: Vec<u8>,
    tpl_key: (u8, Option<u16>),
    /// One's-complement sum of the IPv4 header words before the checksum (they never change).
    fixed_sum: u32,
    /// The last request's (seq, source host, its port), to step hosts without dividing.
    last: (u32, u32, u32),
}

impl PacketInGen {
    pub fn new(version: u8, switch: u32, macs: u32, ports: u32, frame_size: usize) -> PacketInGen {
        let frame = frames::udp_frame(switch, 0, 0, 0, frame_size);
        let mut fixed_sum: u32 = 0;
        for i in (14..24).step_by(2) {
            fixed_sum += u16::from_be_bytes([frame[i], frame[i + 1]]) as u32;
        }
        let mut g = PacketInGen {
            version,
            switch,
            macs: macs.max(1),
            ports: ports.max(1),
            frame,
            tpl: Vec::new(),
            tpl_key: (0, None),
            fixed_sum,
            last: (u32::MAX, 0, 0),
        };
        g.retemplate(version, Some(128));
        g
    }

    pub fn frame_len(&self) -> usize {
        self.frame.len()
    }

    fn retemplate(&mut self, version: u8, miss_send_len: Option<u16>) {
        self.tpl.clear();
        let total = self.frame.len() as u16;
        match miss_send_len {
            Some(n) => {
                let cut = self.frame.len().min(n as usize);
                emit(&mut self.tpl, version, 0, 0, 0, total, &self.frame[..cut]);
            }
            None => emit(&mut self.tpl, version, 0, NO_BUFFER, 0, total, &self.frame),
        }
        self.tpl_key = (version, miss_send_len);
    }

    /// Append request `seq`. With `miss_send_len` = None it is unbuffered (buffer id NO_BUFFER,
    /// whole frame); otherwise buffered under `seq` with at most `miss_send_len` bytes of data.
    #[inline]
    pub fn emit(&mut self, out: &mut Vec<u8>, seq: u32, miss_send_len: Option<u16>) {
        if self.tpl_key != (self.version, miss_send_len) {
            self.retemplate(self.version, miss_send_len);
        }
        let (src, in_port) = if seq == self.last.0.wrapping_add(1) && self.last.1 != 0 {
            // the next request: step the source host (and its port) by one, wrapping
            if self.last.1 == self.macs { (1, 1) } else { (self.last.1 + 1, if self.last.2 == self.ports { 1 } else { self.last.2 + 1 }) }
        } else {
            let src = frames::hosts_of(seq, self.macs).0;
            (src, frames::host_port(src, self.ports))
        };
        self.last = (seq, src, in_port);
        let dst = if src == self.macs { 1 } else { src + 1 };
        let v10 = self.version == OFP10;
        let d = if v10 { 18 } else { 42 };
        let at = out.len();
        out.extend_from_slice(&self.tpl);
        let m = &mut out[at..];
        m[4..8].copy_from_slice(&seq.to_be_bytes());
        if miss_send_len.is_some() {
            m[8..12].copy_from_slice(&seq.to_be_bytes());
        }
        if v10 {
            m[14..16].copy_from_slice(&(in_port as u16).to_be_bytes());
        } else {
            m[32..36].copy_from_slice(&in_port.to_be_bytes());
        }
        let f = &mut m[d..];
        f[4..6].copy_from_slice(&(dst as u16).to_be_bytes());
        f[10..12].copy_from_slice(&(src as u16).to_be_bytes());
        let (si, di) = (frames::host_ip(src), frames::host_ip(dst));
        f[27..30].copy_from_slice(&si[1..]);
        f[31..34].copy_from_slice(&di[1..]);
        // Sum the addresses from registers, not by reading back the bytes just stored (that
        // read stalls on store forwarding and was half of this function's time).
        let (s32, d32) = (u32::from_be_bytes(si), u32::from_be_bytes(di));
        let mut sum = self.fixed_sum + (s32 >> 16) + (s32 & 0xffff) + (d32 >> 16) + (d32 & 0xffff);
        sum = (sum & 0xffff) + (sum >> 16);
        sum = (sum & 0xffff) + (sum >> 16);
        f[24..26].copy_from_slice(&(!(sum as u16)).to_be_bytes());
        if f.len() >= frames::MARKER_OFFSET + 12 {
            frames::set_seq(f, seq);
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
    fn stepping_hosts_matches_the_formula() {
        let mut g = PacketInGen::new(OFP13, 1, 5, 3, 64);
        let mut out = vec![];
        for seq in (0..40).chain(100..103).chain([7, 8]) {
            out.clear();
            g.emit(&mut out, seq, Some(128));
            let (src, dst) = frames::hosts_of(seq, 5);
            assert_eq!(&out[42 + 6..42 + 12], &frames::host_mac(1, src), "seq {seq}");
            assert_eq!(&out[42..42 + 6], &frames::host_mac(1, dst), "seq {seq}");
            assert_eq!(be32(&out[32..]), frames::host_port(src, 3), "seq {seq}");
            assert_eq!(&out[42..], &frames::udp_frame(1, src, dst, seq, 64)[..], "seq {seq}");
        }
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
