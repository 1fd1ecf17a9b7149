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

use crate::faucet;
use crate::frames;
use crate::profile::Dress;
use crate::profile::{cbench_frame_patch, Profile, CBENCH_FRAME};
use ofwire::packet_in::NO_BUFFER;
use ofwire::packet_in::{self, reason, PatchPoints};
use ofwire::version::Version;
use ofwire::PacketInRef;

/// A packet-in written once by ofwire for one (version, cut, buffered) combination; requests
/// patch a copy of it at the [`PatchPoints`] ofwire found in it, so the layout lives in ofwire.
#[derive(Clone, Debug)]
struct Template {
    key: (Version, usize, bool),
    /// The message, zero-padded to a whole number of [`BLOCK`]s (see [`Template::append`]).
    bytes: Vec<u8>,
    len: usize,
    at: PatchPoints,
}

/// Templates are copied in whole blocks of this size: a copy of constant size is inlined, where
/// a variable-length `extend_from_slice` went through memcpy's call and size dispatch (a fifth
/// of this function's cost, measured with perf).
const BLOCK: usize = 32;

impl Template {
    fn new(v: Version, frame: &[u8], cut: usize, buffered: bool, dress: Dress) -> Template {
        let buffer_id = if buffered { 0 } else { NO_BUFFER };
        let pi = PacketInRef {
            buffer_id,
            total_len: frame.len() as u16,
            reason: dress.reason,
            in_port: 0,
            table_id: dress.table_id,
            cookie: dress.cookie,
            data: &frame[..cut],
        };
        let mut bytes = Vec::with_capacity(pi.message_len(v) + BLOCK);
        pi.emit_append(v, 0, &mut bytes);
        let len = bytes.len();
        // ofwire writes a 1.3 in_port as the match's first OXM, so this cannot fail
        let at = packet_in::Packet::new_unchecked(&bytes[..]).patch_points().expect("ofwire writes in_port first");
        bytes.resize(len.div_ceil(BLOCK) * BLOCK, 0);
        Template { key: (v, cut, buffered), bytes, len, at }
    }

    /// Append the message to `out` (the padding is copied, then cut off).
    #[inline(always)]
    fn append(&self, out: &mut Vec<u8>) {
        let at = out.len();
        let b = &self.bytes[..];
        macro_rules! blocks {
            ($($n:literal)*) => {
                match b.len() {
                    $($n => out.extend_from_slice(<&[u8; $n]>::try_from(b).expect("the padded length")),)*
                    _ => out.extend_from_slice(b),
                }
            };
        }
        blocks!(96 128 160 192 224 256);
        out.truncate(at + self.len);
    }
}

/// The frame bytes a request patches: up to the end of the marker's sequence number.
const PATCHED: usize = frames::MARKER_OFFSET + 12;

/// The patched head of a frame of at least [`PATCHED`] bytes (callers check the cut), as an
/// array, so the patches' indexes are checked at compile time, not one by one per request.
#[inline(always)]
fn patched(f: &mut [u8]) -> &mut [u8; PATCHED] {
    (&mut f[..PATCHED]).try_into().expect("a frame of at least PATCHED bytes")
}

/// What the host-pair profiles patch per request besides the sequence number: the hosts' MAC
/// and IPv4 bytes and the IPv4 checksum (the fixed header words' sum plus the two addresses').
#[derive(Clone, Copy)]
struct PairSums {
    ip_base: u32,
    fixed_sum: u32,
}

impl PairSums {
    /// Host `host`'s IPv4 address (`frames::host_ip_at`) and the sum of its two 16-bit words.
    #[inline(always)]
    fn host(self, host: u32) -> ([u8; 4], u32) {
        let ip = frames::host_ip_at(self.ip_base, host);
        let w = u32::from_be_bytes(ip);
        (ip, (w >> 16) + (w & 0xffff))
    }

    /// Write request `seq`'s varying bytes (hosts `src` -> `dst`, whose `host` values are
    /// `si` and `di`) into a copy of the frame.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn patch(self, f: &mut [u8; PATCHED], seq: u32, src: u32, dst: u32, si: ([u8; 4], u32), di: ([u8; 4], u32), new_flows: bool) {
        f[4..6].copy_from_slice(&(dst as u16).to_be_bytes());
        f[10..12].copy_from_slice(&(src as u16).to_be_bytes());
        f[27..30].copy_from_slice(&si.0[1..]);
        f[31..34].copy_from_slice(&di.0[1..]);
        // Sum the addresses from registers, not by reading back the bytes just stored (that
        // read stalls on store forwarding and was half of this function's time).
        let mut sum = self.fixed_sum + si.1 + di.1;
        sum = (sum & 0xffff) + (sum >> 16);
        sum = (sum & 0xffff) + (sum >> 16);
        f[24..26].copy_from_slice(&(!(sum as u16)).to_be_bytes());
        if new_flows {
            // the UDP port pair is the request number: a 5-tuple never seen before
            f[34..38].copy_from_slice(&seq.to_be_bytes());
        }
        frames::set_seq(f, seq);
    }
}

/// Generates the measured packet-ins of one switch, for one traffic [`Profile`].
#[derive(Clone, Debug)]
pub struct PacketInGen {
    pub version: u8,
    pub switch: u32,
    pub macs: u32,
    pub ports: u32,
    pub profile: Profile,
    /// The datapath id (cbench writes its low byte into both MACs). Default: `switch + 1`.
    pub dpid: u64,
    /// The frame with host 0 -> 0 and seq 0 (cbench: its frame for mac 0), as the template
    /// carries it.
    frame: Vec<u8>,
    tpl: Template,
    /// One's-complement sum of the IPv4 header words before the checksum (they never change).
    fixed_sum: u32,
    /// The 24-bit host number of host 0 of this switch (unique addresses, see `frames`).
    ip_base: u32,
    /// The last request's (seq, source host, its port), to step hosts without dividing.
    last: (u32, u32, u32),
    /// `faucet`: the first three octets of every request's source MAC (`faucet.rs`).
    faucet_prefix: [u8; 3],
}

impl PacketInGen {
    /// The `unique-pairs` generator (the engine's historical traffic).
    pub fn new(version: u8, switch: u32, macs: u32, ports: u32, frame_size: usize) -> PacketInGen {
        PacketInGen::with_profile(Profile::UniquePairs, version, switch, macs, ports, frame_size)
    }

    /// A generator for `profile`. `frame_size` is ignored by `cbench` (its frame is 64 bytes).
    pub fn with_profile(profile: Profile, version: u8, switch: u32, macs: u32, ports: u32, frame_size: usize) -> PacketInGen {
        let macs = macs.max(1);
        let dpid = switch as u64 + 1;
        let faucet_prefix = faucet::mac_prefix(faucet::salt_now(), switch);
        let frame = match profile {
            Profile::Cbench => {
                let mut f = CBENCH_FRAME.to_vec();
                cbench_frame_patch(&mut f, dpid, 0);
                f
            }
            Profile::Faucet => faucet::request_frame(faucet_prefix),
            _ => frames::udp_frame(switch, macs, 0, 0, 0, frame_size),
        };
        let mut fixed_sum: u32 = 0;
        for i in (14..24).step_by(2) {
            fixed_sum += u16::from_be_bytes([frame[i], frame[i + 1]]) as u32;
        }
        let tpl = Template::new(Version::layout(version), &frame, frame.len().min(128), true, profile.dress());
        let ip_base = frames::ip_base(switch, macs);
        PacketInGen {
            version,
            switch,
            macs,
            ports: ports.max(1),
            profile,
            dpid,
            frame,
            tpl,
            fixed_sum,
            ip_base,
            last: (u32::MAX, 0, 0),
            faucet_prefix,
        }
    }

    /// `faucet`: use this run salt (the default is the wall clock's, `faucet::salt_now`).
    pub fn with_salt(mut self, salt: u16) -> PacketInGen {
        if self.profile == Profile::Faucet {
            self.faucet_prefix = faucet::mac_prefix(salt, self.switch);
            self.frame = faucet::request_frame(self.faucet_prefix);
            self.tpl = Template::new(Version::layout(self.version), &self.frame, self.frame.len(), false, self.profile.dress());
        }
        self
    }

    /// `faucet`: the request a flow-mod (a whole message) answers, if it names one of this
    /// switch's request MACs (`faucet::answered_seq24`, widened against the last request sent).
    pub fn faucet_answer(&self, msg: &[u8]) -> Option<u32> {
        let low = faucet::answered_seq24(msg, Version::layout(self.version), self.faucet_prefix)?;
        Some(faucet::widen(low, self.last.0))
    }

    /// Set the datapath id (cbench profile: its low byte is in the frame).
    pub fn with_dpid(mut self, dpid: u64) -> PacketInGen {
        self.dpid = dpid;
        if self.profile == Profile::Cbench {
            cbench_frame_patch(&mut self.frame, dpid, 0);
            self.tpl = Template::new(Version::layout(self.version), &self.frame, self.frame.len().min(128), true, self.profile.dress());
        }
        self
    }

    pub fn frame_len(&self) -> usize {
        self.frame.len()
    }

    /// Append request `seq`. With `miss_send_len` = None it is unbuffered (buffer id NO_BUFFER,
    /// whole frame); otherwise buffered under `seq` with at most `miss_send_len` bytes of data.
    /// `faucet` requests are sent unbuffered (as OVS sends packet-ins; Faucet names no buffer):
    /// the engine passes None for them ([`Profile::buffered`]).
    /// The xid is `seq` (`cbench`: `seq + 1`, see [`Profile::Cbench`]'s numbering in `source`).
    #[inline]
    pub fn emit(&mut self, out: &mut Vec<u8>, seq: u32, miss_send_len: Option<u16>) {
        let (src, in_port) = self.source(seq);
        let xid = if self.profile == Profile::Cbench { seq.wrapping_add(1) } else { seq };
        let dst = if src == self.macs { 1 } else { src + 1 };
        let v = Version::layout(self.version);
        let (buffered, cut) = match miss_send_len {
            Some(n) => (true, self.frame.len().min(n as usize)),
            None => (false, self.frame.len()),
        };
        if cut < PATCHED {
            // A cut inside the patched bytes (a tiny miss_send_len): patch a whole copy, send
            // its head.
            let mut f = self.frame.clone();
            self.patch(patched(&mut f), seq, src, dst, buffered);
            let buffer_id = if buffered { seq } else { NO_BUFFER };
            let d = self.profile.dress();
            let pi = PacketInRef {
                buffer_id,
                total_len: f.len() as u16,
                reason: d.reason,
                in_port,
                table_id: d.table_id,
                cookie: d.cookie,
                data: &f[..cut],
            };
            pi.emit_append(v, xid, out);
            return;
        }
        if self.tpl.key != (v, cut, buffered) {
            self.tpl = Template::new(v, &self.frame, cut, buffered, self.profile.dress());
        }
        let at = out.len();
        self.tpl.append(out);
        let m = &mut out[at..];
        // 1.0 ports are 16-bit by construction (host_port < ports)
        self.tpl.at.apply(m, xid, buffered.then_some(seq), in_port);
        self.patch(patched(&mut m[self.tpl.at.data_at..]), seq, src, dst, buffered);
    }

    /// Append requests `first`, `first + 1`, ... (`n` of them): the same bytes as `n` calls of
    /// [`emit`](Self::emit), for the engine's window refills. The per-request work of `emit` that
    /// does not change within a run (the profile and cut tests, the template's key, the copy's
    /// size dispatch, the call itself) is done once per run: that was about half of `emit`'s
    /// instructions (cachegrind, `bench.py instructions`). Profiles with a frame of their own, a
    /// cut inside the patched bytes, or a run that wraps the sequence number take `emit`.
    pub fn emit_run(&mut self, out: &mut Vec<u8>, first: u32, n: u32, miss_send_len: Option<u16>) {
        let (buffered, cut) = match miss_send_len {
            Some(m) => (true, self.frame.len().min(m as usize)),
            None => (false, self.frame.len()),
        };
        if self.profile.own_frame() || cut < PATCHED || first.checked_add(n).is_none() {
            return (0..n).for_each(|i| self.emit(out, first.wrapping_add(i), miss_send_len));
        }
        let v = Version::layout(self.version);
        if self.tpl.key != (v, cut, buffered) {
            self.tpl = Template::new(v, &self.frame, cut, buffered, self.profile.dress());
        }
        macro_rules! sized {
            ($($size:literal)*) => {
                match self.tpl.bytes.len() {
                    $($size => self.run::<$size>(out, first, n, buffered),)*
                    _ => (0..n).for_each(|i| self.emit(out, first + i, miss_send_len)),
                }
            };
        }
        sized!(96 128 160 192 224 256);
    }

    /// `emit_run` for one padded template size `N`: copy, patch, step to the next host. The
    /// loop reads only locals: the generator's fields are copied out first (read through `self`
    /// they were loaded again after every store into `out`), the message is patched as an
    /// `N`-byte array at offsets checked once before the loop, and the source host's address
    /// and checksum words are the last request's destination's (the next source host is always
    /// the last destination), so each request computes one address, not two.
    #[inline(always)]
    fn run<const N: usize>(&mut self, out: &mut Vec<u8>, first: u32, n: u32, buffered: bool) {
        let tpl: [u8; N] = self.tpl.bytes[..].try_into().expect("the padded length");
        let (len, at) = (self.tpl.len, self.tpl.at);
        out.reserve(n as usize * len + N);
        if n == 0 {
            return;
        }
        let (data_at, port_at) = (at.data_at, at.in_port_at);
        assert!(len <= N && port_at + 4 <= data_at && data_at + PATCHED <= len, "a template holds its patch points");
        let (macs, ports, sums) = (self.macs, self.ports, PairSums { ip_base: self.ip_base, fixed_sum: self.fixed_sum });
        let new_flows = self.profile == Profile::NewFlows;
        let (mut src, mut in_port) = self.source(first);
        let mut dst = if src == macs { 1 } else { src + 1 };
        let mut src_ip = sums.host(src);
        let mut seq = first;
        loop {
            let dst_ip = sums.host(dst);
            let start = out.len();
            out.extend_from_slice(&tpl);
            let m: &mut [u8; N] = (&mut out[start..]).try_into().expect("N bytes appended");
            // 1.0 ports are 16-bit by construction (host_port < ports)
            at.apply(m, seq, buffered.then_some(seq), in_port);
            let f: &mut [u8; PATCHED] = (&mut m[data_at..data_at + PATCHED]).try_into().expect("checked before the loop");
            sums.patch(f, seq, src, dst, src_ip, dst_ip, new_flows);
            out.truncate(start + len);
            if seq == first + (n - 1) {
                break;
            }
            // the next host and its port, as `source` steps them
            seq += 1;
            in_port = if src == macs || in_port == ports { 1 } else { in_port + 1 };
            (src, src_ip) = (dst, dst_ip);
            dst = if src == macs { 1 } else { src + 1 };
        }
        self.last = (seq, src, in_port);
    }

    /// Request `seq`'s source host and in_port. cbench: request `seq` is cbench's request with
    /// buffer id `seq` (its first has buffer id 1, MAC index 0, and xid 2, after the `-L`
    /// packet-in with xid 1, which cbench sends by default): MAC index `(seq - 1) % macs`, port
    /// 1, xid `seq + 1`. cbench wraps buffer ids at 100,000; the engine's sequence does not.
    #[inline(always)]
    fn source(&mut self, seq: u32) -> (u32, u32) {
        if self.profile.own_frame() {
            return self.source_own(seq);
        }
        let (src, in_port) = if seq == self.last.0.wrapping_add(1) && self.last.1 != 0 {
            // the next request: step the source host (and its port) by one, wrapping
            if self.last.1 == self.macs {
                (1, 1)
            } else {
                (self.last.1 + 1, if self.last.2 == self.ports { 1 } else { self.last.2 + 1 })
            }
        } else {
            let src = frames::hosts_of(seq, self.macs).0;
            (src, frames::host_port(src, self.ports))
        };
        self.last = (seq, src, in_port);
        (src, in_port)
    }

    /// `source` for the profiles with a frame of their own (one test on the hot path for both).
    #[inline(never)]
    fn source_own(&mut self, seq: u32) -> (u32, u32) {
        if self.profile == Profile::Cbench {
            return (seq.wrapping_sub(1) % self.macs, 1);
        }
        // faucet: a new host per request, on ports 1..=ports in turn
        self.last.0 = seq;
        (0, 1 + seq % self.ports)
    }

    /// Write request `seq`'s varying bytes into a copy of the frame (at least
    /// [`frames::MARKER_OFFSET`] + 12 bytes of it).
    #[inline(always)]
    fn patch(&self, f: &mut [u8; PATCHED], seq: u32, src: u32, dst: u32, buffered: bool) {
        if self.profile.own_frame() {
            return self.patch_own(f, seq, src, buffered);
        }
        let sums = PairSums { ip_base: self.ip_base, fixed_sum: self.fixed_sum };
        sums.patch(f, seq, src, dst, sums.host(src), sums.host(dst), self.profile == Profile::NewFlows);
    }

    /// `patch` for the profiles with a frame of their own.
    #[inline(never)]
    fn patch_own(&self, f: &mut [u8; PATCHED], seq: u32, src: u32, buffered: bool) {
        if self.profile == Profile::Cbench {
            return self.patch_cbench(f, seq, src, buffered);
        }
        // faucet: the source MAC's low three octets are the request number (`faucet::request_mac`)
        f[9..12].copy_from_slice(&seq.to_be_bytes()[1..]);
    }

    /// cbench's patches: its MAC pattern only (see `profile`).
    #[inline(always)]
    fn patch_cbench(&self, f: &mut [u8; PATCHED], seq: u32, mac: u32, buffered: bool) {
        cbench_frame_patch(f, self.dpid, mac);
        if !buffered {
            // unbuffered replies are matched by the marker (cbench itself never sends
            // unbuffered packet-ins): it replaces 12 bytes of cbench's payload
            f[frames::MARKER_OFFSET..frames::MARKER_OFFSET + 4].copy_from_slice(frames::MARKER);
            f[frames::MARKER_OFFSET + 4..frames::MARKER_OFFSET + 8].copy_from_slice(&self.switch.to_be_bytes());
            frames::set_seq(f, seq);
        }
    }

    /// Append cbench's `-L` packet-in (see [`crate::profile::cbench_learn_frame`]) for this
    /// switch's dpid: it teaches the controller the MAC every `cbench` request goes to.
    pub fn emit_cbench_learn(&self, out: &mut Vec<u8>, xid: u32) {
        let f = crate::profile::cbench_learn_frame(self.dpid);
        let pi =
            PacketInRef { buffer_id: NO_BUFFER, total_len: 64, reason: reason::NO_MATCH, in_port: 2, table_id: 0, cookie: 0, data: &f };
        pi.emit_append(Version::layout(self.version), xid, out);
    }

    /// Append the gratuitous ARP packet-in announcing `host` (unbuffered), dressed as the
    /// profile's requests (`Profile::dress`: a table miss, or Faucet's).
    pub fn emit_arp(&self, out: &mut Vec<u8>, xid: u32, host: u32) {
        let d = self.profile.dress();
        let f = d.frame(frames::gratuitous_arp(self.switch, self.macs, host));
        let pi = PacketInRef {
            reason: d.reason,
            table_id: d.table_id,
            cookie: d.cookie,
            ..PacketInRef::miss(frames::host_port(host, self.ports), &f)
        };
        pi.emit_append(Version::layout(self.version), xid, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ofwire::{OFP10, OFP13};

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
        assert_eq!(data, &frames::udp_frame(3, 10, 2, 3, 41, 128)[..]);
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
            assert_eq!(&out[42..], &frames::udp_frame(1, 5, src, dst, seq, 64)[..], "seq {seq}");
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
                let f = frames::udp_frame(9, 7, src, dst, seq, 200);
                let cut = miss.map_or(f.len(), |n| f.len().min(n as usize));
                let buffer_id = if miss.is_some() { seq } else { NO_BUFFER };
                let pi = PacketInRef {
                    buffer_id,
                    total_len: 200,
                    reason: reason::NO_MATCH,
                    in_port: frames::host_port(src, 3),
                    table_id: 0,
                    cookie: 0,
                    data: &f[..cut],
                };
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
        let m = ofwire::Message::parse(&out).unwrap();
        let ofwire::Body::PacketIn(p) = m.body else { panic!("not a packet-in") };
        assert_eq!(
            (p.reason, p.cookie, p.table_id, p.buffer_id, p.port(Version::V13)),
            (reason::NO_MATCH, 0, 0, NO_BUFFER, Some(3)),
            "a table miss"
        );
    }

    /// `faucet`'s learning ARP: dressed as Faucet's own flows raise a frame (its cookie, reason
    /// ACTION, table 1, tagged VLAN 100), so Faucet learns the switch's host 1 on port 1.
    #[test]
    fn faucet_arp_packet_in_is_dressed_as_faucets() {
        let g = PacketInGen::with_profile(Profile::Faucet, OFP13, 0, 100, 4, 128);
        let mut out = vec![];
        g.emit_arp(&mut out, 7, 1);
        let m = ofwire::Message::parse(&out).unwrap();
        let ofwire::Body::PacketIn(p) = m.body else { panic!("not a packet-in") };
        assert_eq!((p.reason, p.cookie, p.table_id, p.buffer_id), (reason::ACTION, faucet::COOKIE, 1, NO_BUFFER));
        assert_eq!(p.port(Version::V13), Some(1));
        assert_eq!(&p.data[..12], &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 1], "host 1 of switch 0");
        assert_eq!(&p.data[12..18], &[0x81, 0x00, 0x00, 100, 0x08, 0x06], "tagged VLAN 100, ARP");
        assert_eq!(p.total_len as usize, p.data.len());
    }

    /// The packet-in cbench sends, byte for byte: the `fake[]` array of `make_packet_in` in
    /// cbench/fakeswitch.c (github.com/mininet/oflops) with its patches applied for switch id
    /// (dpid) 1, xid 2, buffer id 1 and MAC index 0 (cbench's first request after its `-L`
    /// packet-in), then MAC index 0x01020304 (copied as a little-endian int into source MAC
    /// bytes 1..=4).
    #[test]
    fn cbench_profile_is_cbench_bytes() {
        let want: [u8; 82] = [
            0x01, 0x0a, 0x00, 0x52, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, // header, buffer id
            0x00, 0x40, 0x00, 0x01, 0x00, 0x00, // total_len 64, in_port 1, reason NO_MATCH, pad
            0x80, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x45, 0x00, 0x00, 0x32, 0x00, 0x00, 0x00,
            0x00, 0x40, 0xff, 0xf7, 0x2c, 0xc0, 0xa8, 0x00, 0x28, 0xc0, 0xa8, 0x01, 0x28, 0x7a, 0x18, 0x58, 0x6b, 0x11, 0x08, 0x97, 0xf5,
            0x19, 0xe2, 0x65, 0x7e, 0x07, 0xcc, 0x31, 0xc3, 0x11, 0xc7, 0xc4, 0x0c, 0x8b, 0x95, 0x51, 0x51, 0x33, 0x54, 0x51, 0xd5, 0x00,
            0x36,
        ];
        // engine switch index 0 is dpid 1; -M large enough for the second MAC index
        let mut g = PacketInGen::with_profile(Profile::Cbench, OFP10, 0, 0x0200_0000, 4, 128);
        let mut out = vec![];
        g.emit(&mut out, 1, Some(128));
        assert_eq!(out, want);
        out.clear();
        g.emit(&mut out, 0x0102_0305, Some(0xffff));
        let mut want2 = want;
        want2[4..8].copy_from_slice(&0x0102_0306u32.to_be_bytes());
        want2[8..12].copy_from_slice(&0x0102_0305u32.to_be_bytes());
        want2[18 + 6..18 + 12].copy_from_slice(&[0x00, 0x04, 0x03, 0x02, 0x01, 0x01]);
        assert_eq!(out, want2);
        // MAC index cycles through -M; dpid's low byte in both MACs
        let mut g = PacketInGen::with_profile(Profile::Cbench, OFP10, 4, 3, 4, 128).with_dpid(0x105);
        out.clear();
        g.emit(&mut out, 8, Some(128));
        assert_eq!(&out[18..30], &[0x80, 0, 0, 0, 0, 0x05, 0, 1, 0, 0, 0, 0x05], "(8 - 1) % 3 = 1");
        // unbuffered: the marker (cbench never sends these) identifies the reply
        out.clear();
        g.emit(&mut out, 9, None);
        assert_eq!(frames::marker(&out[18..]), Some((4, 9)));
        assert_eq!(out.len(), 82);
    }

    #[test]
    fn new_flows_never_repeat_a_five_tuple() {
        let mut g = PacketInGen::with_profile(Profile::NewFlows, OFP13, 2, 3, 2, 64);
        let mut seen = std::collections::HashSet::new();
        let mut out = vec![];
        for seq in 0..1000 {
            out.clear();
            g.emit(&mut out, seq, Some(128));
            let k = crate::key::Key::of_frame(1, &out[42..]);
            use crate::key::at;
            let tuple = (k.u32_at(at::IP_SRC), k.u32_at(at::IP_DST), k.u16_at(at::TP_SRC), k.u16_at(at::TP_DST));
            assert!(seen.insert(tuple), "seq {seq}");
            assert_eq!(frames::marker(&out[42..]), Some((2, seq)));
            let (src, dst) = frames::hosts_of(seq, 3);
            assert_eq!(k.get::<4>(at::IP_SRC), frames::host_ip(2, src, 3));
            assert_eq!(k.get::<4>(at::IP_DST), frames::host_ip(2, dst, 3));
        }
    }

    /// `faucet`: what Faucet's `parse_pkt_meta` takes (reason ACTION, its cookie, a known
    /// in_port, a frame tagged with its VLAN), unbuffered whatever `miss_send_len` says, a new
    /// source MAC per request; and Faucet's learning flow-mods for that MAC answer it.
    #[test]
    fn faucet_packet_ins_are_new_tagged_hosts_answered_by_their_flow_mods() {
        use ofwire::{Body, FlowMod, Message, Oxm, OxmMatch};
        assert!(!Profile::Faucet.buffered());
        let mut g = PacketInGen::with_profile(Profile::Faucet, OFP13, 5, 10, 4, 128).with_salt(0x123);
        let mut out = vec![];
        let mut macs = std::collections::HashSet::new();
        for seq in [0u32, 1, 2, 3, 4, 0x00ab_cdef, 0x0100_0005] {
            out.clear();
            g.emit(&mut out, seq, None);
            let Body::PacketIn(pi) = Message::parse(&out).unwrap().body else { panic!("not a packet-in") };
            assert_eq!((pi.reason, pi.cookie, pi.table_id, pi.buffer_id), (1, faucet::COOKIE, 1, NO_BUFFER));
            assert_eq!(pi.match_.fields, vec![Oxm::in_port(1 + seq % 4)]);
            assert_eq!((pi.data.len(), pi.total_len), (64, 64));
            assert_eq!(&pi.data[12..16], &[0x81, 0, 0, 100], "VLAN 100");
            let src: [u8; 6] = pi.data[6..12].try_into().unwrap();
            assert_eq!(src, faucet::request_mac(faucet::mac_prefix(0x123, 5), seq));
            // a new host each request (within 2^24 requests: the MAC keeps 24 bits of seq)
            assert!(macs.insert(src), "seq {seq}");
            // Faucet's two flow-mods (eth_dst table 2, eth_src table 1) both name the request
            for field in [ofwire::OxmField::EthDst, ofwire::OxmField::EthSrc] {
                let fm = FlowMod { buffer_id: NO_BUFFER, match_: OxmMatch { fields: vec![Oxm::basic(field, &src)] }, ..Default::default() };
                let msg = Message::new(Version::V13, 9, Body::FlowMod(fm)).to_vec();
                assert_eq!(g.faucet_answer(&msg), Some(seq), "{field:?}");
            }
        }
        let other = PacketInGen::with_profile(Profile::Faucet, OFP13, 6, 10, 4, 128).with_salt(0x123);
        let fm = FlowMod {
            match_: OxmMatch { fields: vec![Oxm::eth_src(faucet::request_mac(faucet::mac_prefix(0x123, 5), 3))] },
            ..Default::default()
        };
        assert_eq!(other.faucet_answer(&Message::new(Version::V13, 9, Body::FlowMod(fm)).to_vec()), None, "another switch's host");
    }

    /// cbench `-L`: `fakeswitch_learn_dstmac` in cbench/fakeswitch.c builds an 84-byte
    /// packet-in (xid from its counter, buffer -1, total_len 64, in_port 2) around its
    /// gratuitous ARP reply, re-addressed to 80:00:00:00:00:<id> / 192.168.<id>.40.
    #[test]
    fn cbench_learn_packet_in_bytes() {
        let mut want = vec![0x01, 0x0a, 0x00, 0x54, 0x00, 0x00, 0x00, 0x01, 0xff, 0xff, 0xff, 0xff, 0x00, 0x40, 0x00, 0x02, 0x00, 0x00];
        want.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x80, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06]);
        want.extend_from_slice(&[0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x02]);
        want.extend_from_slice(&[0x80, 0x00, 0x00, 0x00, 0x00, 0x01, 0xc0, 0xa8, 0x01, 0x28]);
        want.extend_from_slice(&[0x80, 0x00, 0x00, 0x00, 0x00, 0x01, 0xc0, 0xa8, 0x01, 0x28]);
        want.extend_from_slice(&[0; 22 + 2]);
        assert_eq!(want.len(), 84);
        let g = PacketInGen::with_profile(Profile::Cbench, OFP10, 0, 10, 4, 64);
        let mut out = vec![];
        g.emit_cbench_learn(&mut out, 1);
        assert_eq!(out, want);
    }

    /// Captured from cbench itself (built from mininet/oflops b6cbd02 outside the repository,
    /// `cbench -s 1 -M 3 -t`, first messages on the wire to a scripted controller): the `-L`
    /// packet-in, then requests 1..=4 (MAC indexes 0, 1, 2, 0). The generator writes the same.
    #[test]
    fn cbench_profile_equals_a_capture_of_cbench() {
        const FRAME_TAIL: &str = "0800450000320000000040fff72cc0a80028c0a801287a18586b110897f519e2657e07cc31c311c7c40c8b955151335451d50036";
        let learn = "010a005400000001ffffffff004000020000ffffffffffff80000000000108060001080006040002800000000001c0a80128800000000001c0a80128000000000000000000000000000000000000000000000000";
        let requests = [
            "010a00520000000200000001004000010000800000000001000000000001",
            "010a00520000000300000002004000010000800000000001000100000001",
            "010a00520000000400000003004000010000800000000001000200000001",
            "010a00520000000500000004004000010000800000000001000000000001",
        ];
        let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
        let mut g = PacketInGen::with_profile(Profile::Cbench, OFP10, 0, 3, 4, 64);
        let mut out = vec![];
        g.emit_cbench_learn(&mut out, 1);
        assert_eq!(hex(&out), learn);
        for (i, head) in requests.iter().enumerate() {
            out.clear();
            g.emit(&mut out, i as u32 + 1, Some(128));
            assert_eq!(hex(&out), format!("{head}{FRAME_TAIL}"), "request {}", i + 1);
        }
    }

    /// `emit_run` writes what `emit` one request at a time writes, for every profile, version,
    /// cut and frame size, from any first sequence number (a non-consecutive one, wrapping near
    /// NO_BUFFER), and leaves the generator where `emit` leaves it (the request after the run).
    #[test]
    fn a_run_equals_one_emit_per_request() {
        let firsts = [0u32, 1, 7, 999, u32::MAX - 5];
        for profile in Profile::ALL {
            for version in [OFP10, OFP13] {
                for (frame, miss) in [(64, Some(128)), (64, None), (300, Some(128)), (128, Some(20)), (1500, Some(0xffff))] {
                    for (macs, ports) in [(1, 1), (5, 3), (1000, 48)] {
                        let g0 = PacketInGen::with_profile(profile, version, 3, macs, ports, frame).with_salt(7);
                        let (mut one, mut run) = (g0.clone(), g0.clone());
                        let (mut a, mut b) = (vec![], vec![]);
                        for (k, &first) in firsts.iter().enumerate() {
                            let n = [0, 1, 2, 17, 64][k];
                            for i in 0..n {
                                one.emit(&mut a, first.wrapping_add(i), miss);
                            }
                            run.emit_run(&mut b, first, n, miss);
                            assert_eq!(a, b, "{profile:?} v{version} frame {frame} {miss:?} macs {macs} ports {ports} run {first}+{n}");
                            // the next request, emitted singly by both: the stepping state agrees
                            one.emit(&mut a, first.wrapping_add(n), miss);
                            run.emit(&mut b, first.wrapping_add(n), miss);
                            assert_eq!(a, b, "{profile:?} after the run {first}+{n}");
                        }
                    }
                }
            }
        }
    }
}
