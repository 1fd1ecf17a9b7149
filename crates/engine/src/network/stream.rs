//! Sequence-numbered streams (RFC 8456 §5.4.1 failover and §5.4.2 re-provisioning): for each
//! host pair, one frame every `interval_us`, from the source host's own MAC and IP to the
//! destination host's, its UDP payload carrying `MAGIC`, the pair id and a sequence number. The
//! destination side records per pair what arrived, every break in the sequence (a gap), and the
//! first arrival after each scheduled event (`events.rs`).
//!
//! The frames of one pair are one flow (same addresses and ports every time): a controller
//! provisions it once, and a failure on its path shows as a gap in the sequence until traffic
//! flows on another path.
//!
//! # What is recorded (raw; summaries are computed from it)
//! Per pair: frames `sent` (sequence numbers 0..sent), `received`, `reordered` (a sequence
//! number at or below the last one seen: late or duplicated, not counted in the gaps), the first
//! and last sequence numbers and arrival times, and `gaps`: every arrival whose sequence number
//! skips (`seq > last + 1`) or that comes more than `gap_us` after the previous one, as
//! (last seq before, its arrival, first seq after, its arrival). Per event: the last arrival
//! before it and the first after it (RFC 8456 §5.4.2: "the first frame after the gap minus the
//! last frame before it").
//!
//! # Invariants (`StreamReport::check`)
//! Per pair: `received <= sent` unless frames were duplicated (`reordered` covers those);
//! the frames missing inside the gaps, `sum(after_seq - before_seq - 1)`, are at most
//! `sent - received + reordered`; arrival times never go backwards.
//!
//! The section of the network JSON is `config/network/stream.rs`; `traffic.rs` sends the frames in time.

use super::model::Model;
use crate::config::network::stream::StreamSpec;
use crate::result::network::stream::{AroundEvent, Gap, PairReport, StreamReport};

/// First bytes of a stream frame's UDP payload.
pub const MAGIC: [u8; 4] = *b"SDNS";
const UDP_PORT: u16 = 5003;
/// Gaps kept per pair at most (then only counted).
const MAX_GAPS: usize = 1000;

impl StreamReport {
    pub fn check(&self) -> Result<(), String> {
        for (i, p) in self.pairs.iter().enumerate() {
            let missing: u64 = p.gaps.iter().map(|g| (g.after_seq - g.before_seq - 1) as u64).sum();
            if p.received > p.sent + p.reordered {
                return Err(format!("pair {i}: received {} > sent {} + reordered {}", p.received, p.sent, p.reordered));
            }
            if missing > p.sent - p.received.min(p.sent) + p.reordered {
                return Err(format!(
                    "pair {i}: {missing} missing in gaps > sent {} - received {} + reordered {}",
                    p.sent, p.received, p.reordered
                ));
            }
            if p.gaps.iter().any(|g| g.after_ns < g.before_ns) || p.last_rx_ns < p.first_rx_ns {
                return Err(format!("pair {i}: arrival times go backwards"));
            }
        }
        Ok(())
    }
}

/// The state of the streams: pure, times passed in (ns since go).
pub struct Streams {
    pub spec: StreamSpec,
    pub r: StreamReport,
}

impl Streams {
    pub fn new(spec: StreamSpec) -> Streams {
        let pairs = spec.pairs.iter().map(|&(src, dst)| PairReport { src, dst, ..Default::default() }).collect();
        Streams { r: StreamReport { interval_us: spec.interval_us, pairs, ..Default::default() }, spec }
    }

    fn gap_ns(&self) -> u64 {
        if self.spec.gap_us > 0 {
            self.spec.gap_us * 1000
        } else {
            10 * self.spec.interval_us * 1000
        }
    }

    /// Pair `i` sends its next frame, due at `due`, at `now`: its sequence number.
    pub fn send(&mut self, i: usize, now: u64, due: u64) -> u32 {
        let p = &mut self.r.pairs[i];
        if p.sent == 0 {
            p.first_sent_ns = now.max(1);
        }
        p.max_late_ns = p.max_late_ns.max(now.saturating_sub(due));
        p.sent += 1;
        (p.sent - 1) as u32
    }

    /// A frame reached host `host` at `now`.
    pub fn delivered(&mut self, now: u64, host: u32, frame: &[u8]) {
        let Some((i, seq)) = pair_of(frame) else { return };
        let gap_ns = self.gap_ns();
        let Some(p) = self.r.pairs.get_mut(i as usize) else { return };
        if p.dst != host || seq as u64 >= p.sent {
            return; // a flooded copy elsewhere, or not ours
        }
        let now = now.max(p.last_rx_ns).max(1);
        if let Some(last) = p.last_seq {
            if seq <= last {
                p.reordered += 1;
                return;
            }
            let (jump, silence) = ((seq - last - 1) as u64, now - p.last_rx_ns);
            p.max_seq_gap = p.max_seq_gap.max(jump);
            p.max_time_gap_ns = p.max_time_gap_ns.max(silence);
            if jump > 0 || silence > gap_ns {
                if p.gaps.len() < MAX_GAPS {
                    p.gaps.push(Gap { before_seq: last, before_ns: p.last_rx_ns, after_seq: seq, after_ns: now });
                } else {
                    p.gaps_dropped += 1;
                }
            }
        } else {
            p.first_seq = Some(seq);
            p.first_rx_ns = now;
        }
        for e in p.events.iter_mut().filter(|e| e.after_ns == 0) {
            e.after_seq = Some(seq);
            e.after_ns = now;
        }
        p.received += 1;
        p.last_seq = Some(seq);
        p.last_rx_ns = now;
    }

    /// Scheduled event `event` was applied at `now`.
    pub fn event(&mut self, event: u32, now: u64) {
        for p in &mut self.r.pairs {
            let (before_seq, before_ns) = (p.last_seq, p.last_rx_ns);
            p.events.push(AroundEvent { event, at_ns: now, before_seq, before_ns, after_seq: None, after_ns: 0 });
        }
    }
}

/// (pair id, sequence number) of a stream frame (IPv4/UDP to `UDP_PORT` with `MAGIC`).
pub fn pair_of(f: &[u8]) -> Option<(u32, u32)> {
    if f.len() < 54 || f[12..14] != [0x08, 0x00] || f[23] != 17 || f[36..38] != UDP_PORT.to_be_bytes() || f[42..46] != MAGIC {
        return None;
    }
    Some((u32::from_be_bytes([f[46], f[47], f[48], f[49]]), u32::from_be_bytes([f[50], f[51], f[52], f[53]])))
}

/// Pair `pair`'s frame `seq`: host `src` to host `dst`, their own addresses.
pub fn stream_frame(model: &Model, src: u32, dst: u32, pair: u32, seq: u32) -> Vec<u8> {
    super::hosts::udp_between(model, src, dst, UDP_PORT, 60, &[&MAGIC[..], &pair.to_be_bytes(), &seq.to_be_bytes()].concat())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::network::stream::tests::spec;
    use crate::network::model::tests::ring;

    #[test]
    fn the_engines_stream_frame_is_the_shared_vector() {
        // The bytes the Mininet side of the conformance harness sends for the same frame
        // (sdnbench/differential/stimuli.py `stream_frame(1, 2, 3, 7)`, whose test reads this file too).
        let hex = include_str!("../../../../sdnbench/differential/testdata/stream_frame.hex").trim();
        let want: Vec<u8> = (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
        let mut spec = ring(3);
        for (i, h) in spec.hosts.iter_mut().enumerate() {
            (h.mac, h.ip) = (format!("00:00:00:00:00:{:02x}", i + 1), format!("10.0.0.{}", i + 1));
        }
        assert_eq!(stream_frame(&Model::new(&spec, 1), 0, 1, 3, 7), want);
    }

    #[test]
    fn frames_name_their_pair_and_sequence() {
        let m = Model::new(&ring(3), 1);
        let f = stream_frame(&m, 0, 2, 1, 77);
        assert_eq!(pair_of(&f), Some((1, 77)));
        assert_eq!(&f[0..6], &m.hosts[2].mac);
        assert_eq!(&f[6..12], &m.hosts[0].mac, "the source host's own address: one flow per pair");
        assert_eq!(pair_of(&super::super::hosts::host_frame(&m, 0, 2, 5, 60)), None);
    }

    #[test]
    fn gaps_losses_and_events_are_recorded() {
        let m = Model::new(&ring(3), 1);
        let mut s = Streams::new(spec());
        for seq in 0..10 {
            s.send(0, seq as u64 * 1_000_000, seq as u64 * 1_000_000);
        }
        let at = |seq: u32| (seq as u64 + 1) * 1_000_000;
        for seq in [0, 1, 2] {
            s.delivered(at(seq), 2, &stream_frame(&m, 0, 2, 0, seq));
        }
        s.event(0, 3_500_000);
        s.delivered(at(3), 1, &stream_frame(&m, 0, 2, 0, 3)); // a flooded copy: not for host 1
        for seq in [6, 7, 6, 9] {
            s.delivered(at(seq), 2, &stream_frame(&m, 0, 2, 0, seq));
        }
        let p = &s.r.pairs[0];
        assert_eq!((p.sent, p.received, p.reordered), (10, 6, 1));
        assert_eq!(
            p.gaps,
            vec![
                Gap { before_seq: 2, before_ns: at(2), after_seq: 6, after_ns: at(6) },
                Gap { before_seq: 7, before_ns: at(7), after_seq: 9, after_ns: at(9) }
            ]
        );
        assert_eq!((p.max_seq_gap, p.max_time_gap_ns), (3, 4_000_000));
        let e = &p.events[0];
        assert_eq!((e.before_seq, e.before_ns, e.after_seq, e.after_ns), (Some(2), at(2), Some(6), at(6)));
        assert_eq!(s.r.pairs[1].events[0].after_ns, 0, "the other pair received nothing");
        s.r.check().unwrap();
        let mut bad = s.r.clone();
        bad.pairs[0].gaps[0].after_seq = 60;
        assert!(bad.check().unwrap_err().contains("missing in gaps"));
    }

    #[test]
    fn a_long_silence_is_a_gap_with_nothing_missing() {
        let m = Model::new(&ring(3), 1);
        let mut s = Streams::new(spec());
        s.send(0, 0, 0);
        s.send(0, 1, 1);
        s.delivered(1_000_000, 2, &stream_frame(&m, 0, 2, 0, 0));
        s.delivered(50_000_000, 2, &stream_frame(&m, 0, 2, 0, 1));
        assert_eq!(s.r.pairs[0].gaps[0].after_seq, 1);
        s.r.check().unwrap();
    }

    #[test]
    fn a_frame_sent_after_its_due_time_is_the_pairs_lateness() {
        let mut s = Streams::new(spec());
        s.send(0, 0, 0);
        s.send(0, 5_000_000, 1_000_000);
        s.send(0, 2_000_000, 2_000_000);
        assert_eq!(s.r.pairs[0].max_late_ns, 4_000_000, "the latest, not the last");
        assert_eq!(s.r.pairs[1].max_late_ns, 0, "per pair");
    }
}
