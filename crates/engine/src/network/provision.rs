//! Path provisioning (RFC 8456 §5.1.4/§5.1.6, and the data-plane half of §5.1.5/§5.1.7 and
//! §5.2.3): hosts send the first frame of NEW flows across the network, and each flow's time is
//! taken from the frame entering the ingress switch to the frame leaving the egress switch toward
//! the destination host (the data-plane mode of §5.1.4, as the RFC's appendix measures it).
//!
//! # The traffic
//! 1. At go, and again `announce_ms / 2` later, every destination host announces itself (a
//!    gratuitous ARP, broadcast): TP2 announcing D1 in §5.1.4, so a learning controller knows
//!    where the destinations are (twice: a controller still busy with a switch's handshake
//!    drops the first).
//! 2. After `announce_ms`, flow `i` (0..`flows`) is one UDP frame from a source MAC and IP of its
//!    own (`02:5d:` + i, 172.16.0.0 + i: a new flow for any controller that matches on addresses)
//!    to host `pairs[i % len].1`, injected at host `pairs[i % len].0`'s port. Its payload carries
//!    `MAGIC` and `i`, so a delivery names its flow whatever the controller rewrote.
//! 3. At most `concurrency` flows wait for their first delivery at once; flows start no faster
//!    than `rate` per second (0: as fast as `concurrency` allows). A flow not delivered within
//!    `timeout_ms` counts as timed out and frees its place.
//!
//! # Invariants (`ProvisionReport::check`)
//! `started == provisioned + timed_out + in_flight`; `provisioned <= started <= flows`;
//! every provisioned flow has `delivered_ns >= started_ns`. Deliveries after a flow timed out
//! are counted (`late`) but do not make it provisioned.
//!
//! The section of the network JSON is `config/network/provision.rs`; `traffic.rs` sends the frames in time.

use super::model::Model;
use crate::config::network::provision::ProvisionSpec;
use crate::result::network::provision::ProvisionReport;
use ofwire::frame::build::MIN_FRAME;
use ofwire::frame::{gratuitous_arp, udp_frame_carrying, UdpFrameSpec};

/// First bytes of a provisioning frame's UDP payload.
pub const MAGIC: [u8; 4] = *b"SDNP";
const UDP_PORT: u16 = 5002;

impl ProvisionReport {
    pub fn check(&self) -> Result<(), String> {
        if self.started != self.provisioned + self.timed_out + self.in_flight {
            return Err(format!(
                "started {} != provisioned {} + timed_out {} + in_flight {}",
                self.started, self.provisioned, self.timed_out, self.in_flight
            ));
        }
        if self.started > self.flows as u64 {
            return Err(format!("started {} > flows {}", self.started, self.flows));
        }
        for (i, (&s, &d)) in self.started_ns.iter().zip(&self.delivered_ns).enumerate() {
            if d != 0 && d < s {
                return Err(format!("flow {i} delivered at {d} ns before it started at {s} ns"));
            }
        }
        Ok(())
    }
}

/// The state of a provisioning run: pure, `now` passed in (ns since go).
pub struct Provision {
    pub spec: ProvisionSpec,
    pub r: ProvisionReport,
    /// Flows waiting for their first delivery (ids, in start order).
    waiting: std::collections::VecDeque<u32>,
    timed_out: Vec<bool>,
}

impl Provision {
    pub fn new(spec: ProvisionSpec) -> Provision {
        let n = spec.flows as usize;
        let r = ProvisionReport { flows: spec.flows, started_ns: vec![0; n], delivered_ns: vec![0; n], ..Default::default() };
        Provision { spec, r, waiting: Default::default(), timed_out: vec![false; n] }
    }

    /// Flows in flight longer than the timeout stop waiting.
    pub fn expire(&mut self, now: u64) {
        let t = self.spec.timeout_ms * 1_000_000;
        while let Some(&i) = self.waiting.front() {
            if self.r.delivered_ns[i as usize] != 0 {
                self.waiting.pop_front();
            } else if now >= self.r.started_ns[i as usize] + t {
                self.waiting.pop_front();
                self.timed_out[i as usize] = true;
                self.r.timed_out += 1;
                self.r.in_flight -= 1;
            } else {
                break;
            }
        }
    }

    /// When the next flow may start (`None`: all started). `start` at or after it.
    pub fn next_start(&self, first_ns: u64) -> Option<u64> {
        let i = self.r.started;
        if i >= self.spec.flows as u64 || self.r.in_flight >= self.spec.concurrency as u64 {
            return None;
        }
        Some(if self.spec.rate > 0.0 { first_ns + (i as f64 * 1e9 / self.spec.rate) as u64 } else { first_ns })
    }

    /// Start the next flow at `now`: its id and (source, destination) hosts.
    pub fn start(&mut self, now: u64) -> (u32, u32, u32) {
        let i = self.r.started as u32;
        self.r.started += 1;
        self.r.in_flight += 1;
        self.r.started_ns[i as usize] = now.max(1);
        self.waiting.push_back(i);
        let (s, d) = self.spec.pairs[i as usize % self.spec.pairs.len()];
        (i, s, d)
    }

    /// When the oldest waiting flow times out (after `expire`; `None`: none waits).
    pub fn next_timeout(&self) -> Option<u64> {
        self.waiting.front().map(|&i| self.r.started_ns[i as usize] + self.spec.timeout_ms * 1_000_000)
    }

    /// The flows still waiting for their first delivery (after `expire`).
    pub fn waiting(&self) -> Vec<(u32, u32)> {
        let pairs = &self.spec.pairs;
        self.waiting.iter().filter(|&&i| self.r.delivered_ns[i as usize] == 0).map(|&i| (i, pairs[i as usize % pairs.len()].1)).collect()
    }

    pub fn done(&self) -> bool {
        self.r.started >= self.spec.flows as u64 && self.r.in_flight == 0
    }

    /// A frame reached host `host` at `now` (already less the host link's delay).
    pub fn delivered(&mut self, now: u64, host: u32, frame: &[u8]) {
        let Some(i) = flow_of(frame) else { return };
        if i >= self.spec.flows || self.r.started_ns[i as usize] == 0 {
            return;
        }
        if self.spec.pairs[i as usize % self.spec.pairs.len()].1 != host {
            return; // a flooded copy at another host
        }
        if self.r.delivered_ns[i as usize] != 0 || self.timed_out[i as usize] {
            self.r.late += 1;
            return;
        }
        self.r.delivered_ns[i as usize] = now.max(self.r.started_ns[i as usize]);
        self.r.provisioned += 1;
        self.r.in_flight -= 1;
    }
}

/// The flow id of a provisioning frame (IPv4/UDP to `UDP_PORT` with `MAGIC`).
pub fn flow_of(f: &[u8]) -> Option<u32> {
    if f.len() < 50 || f[12..14] != [0x08, 0x00] || f[23] != 17 || f[36..38] != UDP_PORT.to_be_bytes() || f[42..46] != MAGIC {
        return None;
    }
    Some(u32::from_be_bytes([f[46], f[47], f[48], f[49]]))
}

/// Flow `i`'s frame: from its own source MAC and IP to host `dst`.
pub fn flow_frame(model: &Model, i: u32, dst: u32) -> Vec<u8> {
    let d = &model.hosts[dst as usize];
    let spec = UdpFrameSpec {
        src_mac: [0x02, 0x5d, (i >> 24) as u8, (i >> 16) as u8, (i >> 8) as u8, i as u8],
        dst_mac: d.mac,
        src_ip: ((172u32 << 24 | 16 << 16) + i).to_be_bytes(),
        dst_ip: d.ip,
        src_port: UDP_PORT,
        dst_port: UDP_PORT,
        frame_len: MIN_FRAME,
    };
    udp_frame_carrying(&spec, &[&MAGIC[..], &i.to_be_bytes()].concat())
}

/// Host `h` announces itself: a gratuitous ARP (request for its own IP), broadcast.
pub fn announce_frame(model: &Model, h: u32) -> Vec<u8> {
    let s = &model.hosts[h as usize];
    gratuitous_arp(s.mac, s.ip)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::network::provision::tests::spec;
    use crate::network::model::tests::ring;

    #[test]
    fn frames_name_their_flow_and_are_valid() {
        let m = Model::new(&ring(3), 1);
        let f = flow_frame(&m, 7, 2);
        assert_eq!(flow_of(&f), Some(7));
        assert_eq!(ofwire::frame::internet_checksum(&f[14..34]), 0);
        assert_eq!(&f[0..6], &m.hosts[2].mac);
        assert_ne!(flow_frame(&m, 8, 2)[6..12], f[6..12], "each flow has its own source MAC");
        assert_eq!(flow_of(&announce_frame(&m, 2)), None);
        assert_eq!(&announce_frame(&m, 2)[28..32], &m.hosts[2].ip);
    }

    #[test]
    fn concurrency_and_rate_gate_starts_and_counters_add_up() {
        let m = Model::new(&ring(3), 1);
        let mut p = Provision::new(spec(4, 2, 0.0));
        assert_eq!(p.next_start(5), Some(5));
        assert_eq!(p.start(5), (0, 0, 2));
        p.start(6);
        assert_eq!(p.next_start(5), None, "two in flight");
        p.delivered(100, 1, &flow_frame(&m, 0, 2)); // a flooded copy elsewhere: nothing
        p.delivered(100, 2, &flow_frame(&m, 0, 2));
        p.delivered(120, 2, &flow_frame(&m, 0, 2)); // a second copy: late
        assert_eq!((p.r.provisioned, p.r.late, p.r.delivered_ns[0]), (1, 1, 100));
        p.expire(10_000_006); // flow 1 waited 10 ms: timed out
        assert_eq!((p.r.timed_out, p.r.in_flight), (1, 0));
        p.start(10_000_010);
        p.start(10_000_011);
        assert!(!p.done());
        p.delivered(10_000_100, 2, &flow_frame(&m, 1, 2)); // after its timeout: late
        p.delivered(10_000_200, 2, &flow_frame(&m, 3, 2));
        p.expire(30_000_000);
        assert!(p.done());
        assert_eq!((p.r.started, p.r.provisioned, p.r.timed_out, p.r.late), (4, 2, 2, 2));
        p.r.check().unwrap();
        let mut w = Provision::new(spec(3, 3, 0.0));
        w.start(0);
        w.start(0);
        w.delivered(5, 2, &flow_frame(&m, 0, 2));
        assert_eq!(w.waiting(), vec![(1, 2)], "only undelivered flows are sent again");
        let mut r = Provision::new(spec(3, 10, 1000.0));
        assert_eq!(r.next_start(0), Some(0));
        r.start(0);
        assert_eq!(r.next_start(0), Some(1_000_000), "1000/s: one every ms");
    }
}
