//! PACKET_IN emission: the hot path of the load engine.
//!
//! [`PacketInGen`] keeps one frame per switch. ofwire's zero-copy writer
//! ([`PacketInRef::emit_append`]) puts the packet-in around it straight into the engine's output
//! buffer, then only what changes between requests is patched in the copy (the host pair's
//! MAC/IP bytes, the IPv4 checksum and the marker). The request's sequence number is its buffer
//! id and its xid.

use crate::consts::*;
use crate::frames;
use ofwire::packet_in::reason;
use ofwire::version::Version;
use ofwire::PacketInRef;

/// Generates the measured packet-ins of one switch.
#[derive(Clone, Debug)]
pub struct PacketInGen {
    pub version: u8,
    pub switch: u32,
    pub macs: u32,
    pub ports: u32,
    /// The frame with host 0 -> 0 and seq 0: copied into each packet-in, then patched there.
    frame: Vec<u8>,
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
        PacketInGen { version, switch, macs: macs.max(1), ports: ports.max(1), frame, fixed_sum, last: (u32::MAX, 0, 0) }
    }

    pub fn frame_len(&self) -> usize {
        self.frame.len()
    }

    #[inline]
    fn layout(&self) -> Version {
        if self.version == OFP10 { Version::V10 } else { Version::V13 }
    }

    /// Append request `seq`. With `miss_send_len` = None it is unbuffered (buffer id NO_BUFFER,
    /// whole frame); otherwise buffered under `seq` with at most `miss_send_len` bytes of data.
    #[inline]
    pub fn emit(&mut self, out: &mut Vec<u8>, seq: u32, miss_send_len: Option<u16>) {
        let (src, in_port) = if seq == self.last.0.wrapping_add(1) && self.last.1 != 0 {
            // the next request: step the source host (and its port) by one, wrapping
            if self.last.1 == self.macs { (1, 1) } else { (self.last.1 + 1, if self.last.2 == self.ports { 1 } else { self.last.2 + 1 }) }
        } else {
            let src = frames::hosts_of(seq, self.macs).0;
            (src, frames::host_port(src, self.ports))
        };
        self.last = (seq, src, in_port);
        let dst = if src == self.macs { 1 } else { src + 1 };
        let v = self.layout();
        let total_len = self.frame.len() as u16;
        let (buffer_id, cut) = match miss_send_len {
            Some(n) => (seq, self.frame.len().min(n as usize)),
            None => (NO_BUFFER, self.frame.len()),
        };
        if cut < frames::MARKER_OFFSET + 12 {
            // A cut inside the headers (a tiny miss_send_len): patch a whole copy, send its head.
            let mut f = self.frame.clone();
            self.patch(&mut f, seq, src, dst);
            let pi = PacketInRef { buffer_id, total_len, reason: reason::NO_MATCH, in_port, table_id: 0, cookie: 0, data: &f[..cut] };
            pi.emit_append(v, seq, out);
            return;
        }
        // ofwire writes the packet-in around the unchanging frame; the per-request bytes are
        // then patched in the output, where the frame is the message's tail. Patching our own
        // copy first and having it copied would read back just-stored bytes (a store-forwarding
        // stall that cost a fifth of the request).
        let pi = PacketInRef { buffer_id, total_len, reason: reason::NO_MATCH, in_port, table_id: 0, cookie: 0, data: &self.frame[..cut] };
        pi.emit_append(v, seq, out);
        let at = out.len() - cut;
        self.patch(&mut out[at..], seq, src, dst);
    }

    /// Write request `seq`'s host pair, IPv4 checksum and marker into a copy of the frame
    /// (at least [`frames::MARKER_OFFSET`] + 12 bytes of it).
    #[inline]
    fn patch(&self, f: &mut [u8], seq: u32, src: u32, dst: u32) {
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
        frames::set_seq(f, seq);
    }

    /// Append the gratuitous ARP packet-in announcing `host` (unbuffered).
    pub fn emit_arp(&self, out: &mut Vec<u8>, xid: u32, host: u32) {
        let f = frames::gratuitous_arp(self.switch, host);
        PacketInRef::miss(frames::host_port(host, self.ports), &f).emit_append(self.layout(), xid, out);
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
