//! PACKET_IN emission: the hot path of the load engine.
//!
//! [`PacketInGen`] keeps one frame per switch and a packet-in around it written by ofwire's
//! zero-copy writer ([`PacketInRef`]): a [`Template`]. A request is one copy of the template into
//! the engine's output buffer, then a few patches in the copy through ofwire's mutable
//! packet-in view (xid, buffer id, in_port, and in `data_mut` what changes in the frame: the host
//! pair's MAC/IP bytes, the IPv4 checksum and the marker). The request's sequence number is its
//! buffer id and its xid.
//!
//! Why a template instead of one `PacketInRef::emit_append` per request: that call zero-fills,
//! looks up the type code and writes every field each time, which cost about a tenth of the
//! engine's answered requests per CPU-second (`bench/engine/bench.py efficiency`).

use crate::consts::*;
use crate::frames;
use ofwire::packet_in::{self, reason};
use ofwire::version::Version;
use ofwire::PacketInRef;

/// A packet-in written once by ofwire for one (version, cut, buffered) combination; requests
/// patch a copy of it through ofwire's mutable packet-in view, so the layout lives in ofwire.
#[derive(Clone, Debug)]
struct Template {
    key: (Version, usize, bool),
    bytes: Vec<u8>,
}

impl Template {
    fn new(v: Version, frame: &[u8], cut: usize, buffered: bool) -> Template {
        let buffer_id = if buffered { 0 } else { NO_BUFFER };
        let pi = PacketInRef { buffer_id, total_len: frame.len() as u16, reason: reason::NO_MATCH, in_port: 0, table_id: 0, cookie: 0, data: &frame[..cut] };
        let mut bytes = Vec::with_capacity(pi.message_len(v));
        pi.emit_append(v, 0, &mut bytes);
        Template { key: (v, cut, buffered), bytes }
    }
}

/// Generates the measured packet-ins of one switch.
#[derive(Clone, Debug)]
pub struct PacketInGen {
    pub version: u8,
    pub switch: u32,
    pub macs: u32,
    pub ports: u32,
    /// The frame with host 0 -> 0 and seq 0, as the template carries it.
    frame: Vec<u8>,
    tpl: Template,
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
        let tpl = Template::new(layout(version), &frame, frame.len().min(128), true);
        PacketInGen { version, switch, macs: macs.max(1), ports: ports.max(1), frame, tpl, fixed_sum, last: (u32::MAX, 0, 0) }
    }

    pub fn frame_len(&self) -> usize {
        self.frame.len()
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
        let v = layout(self.version);
        let (buffered, cut) = match miss_send_len {
            Some(n) => (true, self.frame.len().min(n as usize)),
            None => (false, self.frame.len()),
        };
        if cut < frames::MARKER_OFFSET + 12 {
            // A cut inside the headers (a tiny miss_send_len): patch a whole copy, send its head.
            let mut f = self.frame.clone();
            self.patch(&mut f, seq, src, dst);
            let buffer_id = if buffered { seq } else { NO_BUFFER };
            let pi = PacketInRef { buffer_id, total_len: f.len() as u16, reason: reason::NO_MATCH, in_port, table_id: 0, cookie: 0, data: &f[..cut] };
            pi.emit_append(v, seq, out);
            return;
        }
        if self.tpl.key != (v, cut, buffered) {
            self.tpl = Template::new(v, &self.frame, cut, buffered);
        }
        let at = out.len();
        out.extend_from_slice(&self.tpl.bytes);
        let mut p = packet_in::Packet::new_unchecked(&mut out[at..]);
        p.set_xid(seq);
        if buffered {
            p.set_buffer_id(seq);
        }
        // 1.0 ports are 16-bit by construction (host_port < ports) and ofwire's writer puts
        // the 1.3 in_port first in the match, so this cannot fail.
        p.set_in_port(in_port).expect("the template has an in_port ofwire can patch");
        self.patch(p.data_mut(), seq, src, dst);
    }

    /// Write request `seq`'s host pair, IPv4 checksum and marker into a copy of the frame
    /// (at least [`frames::MARKER_OFFSET`] + 12 bytes of it).
    #[inline(always)]
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
        PacketInRef::miss(frames::host_port(host, self.ports), &f).emit_append(layout(self.version), xid, out);
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

    /// The copied-and-patched template is byte for byte what ofwire writes for that request.
    #[test]
    fn template_equals_ofwire_writer() {
        for (version, v) in [(OFP10, Version::V10), (OFP13, Version::V13)] {
            let mut g = PacketInGen::new(version, 9, 7, 3, 200);
            for (seq, miss) in [(0, Some(128)), (1, Some(128)), (2, None), (50, Some(100)), (51, Some(20)), (52, None)] {
                let mut out = vec![0xa5];
                g.emit(&mut out, seq, miss);
                let (src, dst) = frames::hosts_of(seq, 7);
                let f = frames::udp_frame(9, src, dst, seq, 200);
                let cut = miss.map_or(f.len(), |n| f.len().min(n as usize));
                let buffer_id = if miss.is_some() { seq } else { NO_BUFFER };
                let pi = PacketInRef { buffer_id, total_len: 200, reason: reason::NO_MATCH, in_port: frames::host_port(src, 3), table_id: 0, cookie: 0, data: &f[..cut] };
                let mut want = vec![0xa5];
                pi.emit_append(v, seq, &mut want);
                assert_eq!(out, want, "version {version} seq {seq} miss {miss:?}");
            }
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
