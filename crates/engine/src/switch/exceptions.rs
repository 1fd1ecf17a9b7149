//! RFC 8456 §5.3.1 exception handling: inside an ordinary load run, some packet-ins are made
//! invalid (the RFC's appendix uses a wrong OpenFlow version). With `invalid_every` K, after
//! every K-th request a switch sends one extra packet-in whose version byte is 0x09 (no such
//! version), so 1/(K+1) of its packet-ins are invalid: K = 99 is 1%, K = 49 is 2%.
//!
//! The invalid packet-ins are not requests: they are never answered, counted as sent, or
//! lost, so the request invariant (`sent = answered + late + lost + in_flight`) is untouched.
//! Their number is exact and derived: Σ over switches of ⌊sent / K⌋ (`invalid_sent`).

use crate::config::Config;

/// Version byte of the invalid packet-ins (the `bad-version` case's).
pub const INVALID_VERSION: u8 = 0x09;

/// The invalid packet-in: a valid 1.3 packet-in dressed as the run's traffic profile dresses
/// its requests (a table miss; Faucet's cookie and VLAN for `faucet`), version byte 0x09.
pub fn invalid_packet_in(dress: ofswitch::Dress) -> Vec<u8> {
    let ctx = ofmutate::Ctx { dress, ..ofmutate::Ctx::default() };
    ofmutate::bytes::set_version(ofmutate::cases::good_packet_in(&ctx), INVALID_VERSION)
}

/// Append the invalid packet-ins due when a switch's request count went from `before` to
/// `after`. Returns how many were appended.
pub fn inject(cfg: &Config, before: u64, after: u64, wbuf: &mut Vec<u8>) -> u64 {
    if cfg.invalid_every == 0 {
        return 0;
    }
    let k = cfg.invalid_every as u64;
    let n = after / k - before / k;
    if n > 0 {
        let m = invalid_packet_in(cfg.profile().dress());
        for _ in 0..n {
            wbuf.extend_from_slice(&m);
        }
    }
    n
}

/// Invalid packet-ins a switch sent, from its request count.
pub fn invalid_sent(cfg: &Config, sent: u64) -> u64 {
    if cfg.invalid_every == 0 {
        0
    } else {
        sent / cfg.invalid_every as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_in_k_plus_one_and_counted_exactly() {
        let cfg = Config { invalid_every: 99, ..Config::default() };
        let mut buf = Vec::new();
        let mut total = 0;
        let mut sent = 0u64;
        for step in [7u64, 150, 1, 42, 800] {
            total += inject(&cfg, sent, sent + step, &mut buf);
            sent += step;
        }
        assert_eq!(total, invalid_sent(&cfg, sent));
        assert_eq!(total, 1000 / 99);
        let m = invalid_packet_in(cfg.profile().dress());
        assert_eq!(buf.len(), m.len() * total as usize);
        assert_eq!(m[0], 0x09);
        assert_eq!(m[1], 10);
        assert_eq!(inject(&Config::default(), 0, 1000, &mut buf), 0);
    }
}
