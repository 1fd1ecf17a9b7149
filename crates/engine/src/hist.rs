//! Latency histograms (HDR), in nanoseconds.
//!
//! Per-switch histograms use 2 significant digits (about 15 KiB each), the merged one per worker
//! 3 digits; merging adds the per-switch counts into a wider histogram without losing samples.
//! Values above the range (60 s) are clamped, and counted, rather than dropped.
//! Serialized as base64 of the HdrHistogram V2 format so any HDR implementation can read it.

use crate::result::switches::Summary;
use hdrhistogram::serialization::{Deserializer, Serializer, V2Serializer};
use hdrhistogram::Histogram;

const HIGH_NS: u64 = 60_000_000_000;

#[derive(Clone, Debug)]
pub struct Hist {
    pub h: Histogram<u64>,
    pub clamped: u64,
}

impl Hist {
    pub fn new() -> Hist {
        Hist::with_sigfig(2)
    }

    pub fn with_sigfig(sigfig: u8) -> Hist {
        Hist { h: Histogram::new_with_bounds(1, HIGH_NS, sigfig).expect("valid bounds"), clamped: 0 }
    }

    #[inline]
    pub fn record_ns(&mut self, ns: u64) {
        let v = if ns > HIGH_NS {
            self.clamped += 1;
            HIGH_NS
        } else {
            ns.max(1)
        };
        self.h.record(v).expect("value within bounds");
    }

    pub fn count(&self) -> u64 {
        self.h.len()
    }

    pub fn merge(&mut self, other: &Hist) {
        self.h.add(&other.h).expect("same bounds");
        self.clamped += other.clamped;
    }

    pub fn summary(&self) -> Summary {
        let h = &self.h;
        if h.is_empty() {
            return Summary::default();
        }
        let us = |ns: u64| ns as f64 / 1000.0;
        Summary {
            count: h.len(),
            mean_us: h.mean() / 1000.0,
            stdev_us: h.stdev() / 1000.0,
            min_us: us(h.min()),
            p50_us: us(h.value_at_quantile(0.5)),
            p90_us: us(h.value_at_quantile(0.9)),
            p99_us: us(h.value_at_quantile(0.99)),
            p99_9_us: us(h.value_at_quantile(0.999)),
            max_us: us(h.max()),
        }
    }

    /// Every non-empty bucket as (value in µs, count): the raw distribution, small enough for JSON.
    pub fn buckets_us(&self) -> Vec<(f64, u64)> {
        self.h.iter_recorded().map(|v| (v.value_iterated_to() as f64 / 1000.0, v.count_at_value())).collect()
    }

    pub fn to_base64(&self) -> String {
        let mut buf = Vec::new();
        V2Serializer::new().serialize(&self.h, &mut buf).expect("serialize to memory");
        b64::encode(&buf)
    }

    pub fn from_base64(s: &str) -> Result<Hist, String> {
        let bytes = b64::decode(s).ok_or("bad base64")?;
        let h: Histogram<u64> = Deserializer::new().deserialize(&mut &bytes[..]).map_err(|e| format!("bad histogram: {e:?}"))?;
        let mut out = Hist::with_sigfig(3);
        out.h.add(&h).map_err(|e| format!("bad histogram: {e:?}"))?;
        Ok(out)
    }
}

impl Default for Hist {
    fn default() -> Hist {
        Hist::new()
    }
}

/// Standard base64 (RFC 4648 §4), small enough to keep here rather than pull a crate.
mod b64 {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    pub fn encode(b: &[u8]) -> String {
        let mut s = String::with_capacity(b.len().div_ceil(3) * 4);
        for c in b.chunks(3) {
            let n = (c[0] as u32) << 16 | (*c.get(1).unwrap_or(&0) as u32) << 8 | *c.get(2).unwrap_or(&0) as u32;
            for i in 0..4 {
                if i <= c.len() {
                    s.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
                } else {
                    s.push('=');
                }
            }
        }
        s
    }

    pub fn decode(s: &str) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(s.len() / 4 * 3);
        let mut acc = 0u32;
        let mut bits = 0;
        for ch in s.bytes().filter(|&c| c != b'=') {
            let v = A.iter().position(|&a| a == ch)? as u32;
            acc = acc << 6 | v;
            bits += 6;
            if bits >= 8 {
                bits -= 8;
                out.push((acc >> bits) as u8);
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_in_microseconds() {
        let mut h = Hist::with_sigfig(3);
        for i in 1..=1000u64 {
            h.record_ns(i * 1000);
        }
        let s = h.summary();
        assert_eq!(s.count, 1000);
        assert!((s.p50_us - 500.0).abs() <= 1.0, "{}", s.p50_us);
        assert!((s.p99_us - 990.0).abs() <= 1.0);
        assert!((s.max_us - 1000.0).abs() <= 1.0);
    }

    #[test]
    fn merge_and_serialize_round_trip() {
        let mut a = Hist::new();
        let mut b = Hist::new();
        a.record_ns(10_000);
        b.record_ns(20_000);
        b.record_ns(u64::MAX);
        let mut m = Hist::with_sigfig(3);
        m.merge(&a);
        m.merge(&b);
        assert_eq!((m.count(), m.clamped), (3, 1));
        let back = Hist::from_base64(&m.to_base64()).unwrap();
        assert_eq!(back.count(), 3);
        assert_eq!(back.summary().min_us, m.summary().min_us);
        let b = m.buckets_us();
        assert_eq!(b.iter().map(|x| x.1).sum::<u64>(), 3);
        assert!((b[0].0 - 10.0).abs() < 0.1, "{b:?}");
    }

    #[test]
    fn base64_matches_rfc4648_vectors() {
        for (plain, enc) in [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy")] {
            assert_eq!(b64::encode(plain.as_bytes()), enc);
            assert_eq!(b64::decode(enc).unwrap(), plain.as_bytes());
        }
    }
}
