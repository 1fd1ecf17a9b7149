//! Probe frames: what sdnbench sends into a switch's data ports and recognises coming out.
//!
//! Layout (60 bytes, the Ethernet minimum without FCS, or longer with zero padding up to
//! `--frame-size`): destination MAC [`flow_mac`] (the
//! flow the frame belongs to: flows match on it), source MAC `02:db:ff:00:00:PORT`, EtherType
//! 0x88b5 (IEEE local experimental), then `SDNB`, flow (u32), seq (u64), tx time (u64 ns)
//! and the tx time of the previous probe of the same flow (u64 ns, 0 for none), zero padded.

pub const ETHERTYPE: u16 = 0x88b5;
pub const LEN: usize = 60;
/// The largest frame a probe may be (Ethernet without FCS and VLAN tag).
pub const MAX_LEN: usize = 1514;
const MAGIC: &[u8; 4] = b"SDNB";

/// The destination MAC that names flow `i` (locally administered, unicast; 2^24 flows).
pub fn flow_mac(i: u32) -> [u8; 6] {
    [0x02, 0xdb, 0x00, (i >> 16) as u8, (i >> 8) as u8, i as u8]
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probe {
    pub flow: u32,
    pub seq: u64,
    pub tx: u64,
    pub prev_tx: u64,
}

impl Probe {
    /// Writes the probe into `buf` (at least LEN bytes; the rest is zero padding).
    pub fn emit(&self, src_port: u8, buf: &mut [u8]) {
        buf.fill(0);
        buf[0..6].copy_from_slice(&flow_mac(self.flow));
        buf[6..12].copy_from_slice(&[0x02, 0xdb, 0xff, 0, 0, src_port]);
        buf[12..14].copy_from_slice(&ETHERTYPE.to_be_bytes());
        buf[14..18].copy_from_slice(MAGIC);
        buf[18..22].copy_from_slice(&self.flow.to_be_bytes());
        buf[22..30].copy_from_slice(&self.seq.to_be_bytes());
        buf[30..38].copy_from_slice(&self.tx.to_be_bytes());
        buf[38..46].copy_from_slice(&self.prev_tx.to_be_bytes());
    }

    pub fn to_vec(self, src_port: u8, len: usize) -> Vec<u8> {
        let mut b = vec![0u8; len.max(LEN)];
        self.emit(src_port, &mut b);
        b
    }

    /// The probe in `frame`, or None for any other frame.
    pub fn parse(frame: &[u8]) -> Option<Probe> {
        if frame.len() < 46 || frame[12..14] != ETHERTYPE.to_be_bytes() || &frame[14..18] != MAGIC {
            return None;
        }
        let u64_at = |o: usize| u64::from_be_bytes(frame[o..o + 8].try_into().unwrap());
        Some(Probe { flow: u32::from_be_bytes(frame[18..22].try_into().unwrap()), seq: u64_at(22), tx: u64_at(30), prev_tx: u64_at(38) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probe_round_trips_and_names_its_flow_in_the_destination_mac() {
        let p = Probe { flow: 0x01_0203, seq: 9, tx: 123_456_789, prev_tx: 5 };
        let f = p.to_vec(1, LEN);
        assert_eq!(f.len(), LEN);
        let big = p.to_vec(1, 1514);
        assert_eq!((big.len(), Probe::parse(&big)), (1514, Some(p)));
        assert_eq!(&f[0..6], &flow_mac(0x01_0203));
        assert_eq!(Probe::parse(&f), Some(p));
    }

    #[test]
    fn other_frames_are_not_probes() {
        let mut f = Probe { flow: 1, seq: 1, tx: 1, prev_tx: 0 }.to_vec(1, LEN);
        f[13] = 0x00;
        assert_eq!(Probe::parse(&f), None);
        assert_eq!(Probe::parse(&[0u8; 20]), None);
    }
}
