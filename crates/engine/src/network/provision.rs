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

use super::model::Model;
use super::mono_ns;
use super::node::Node;
use super::router::{Frame, FROM_HOST};
use ofwire::frame::build::MIN_FRAME;
use ofwire::frame::{gratuitous_arp, udp_frame_carrying, UdpFrameSpec};
use serde::{Deserialize, Serialize};
use std::rc::Rc;
use tokio::time::{sleep, Duration};

/// First bytes of a provisioning frame's UDP payload.
pub const MAGIC: [u8; 4] = *b"SDNP";
const UDP_PORT: u16 = 5002;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProvisionSpec {
    /// (source host, destination host) by index into `hosts`; flows take them in turn.
    pub pairs: Vec<(u32, u32)>,
    pub flows: u32,
    #[serde(default = "one")]
    pub concurrency: u32,
    /// New flows per second at most (0: no limit but `concurrency`).
    #[serde(default)]
    pub rate: f64,
    #[serde(default = "default_timeout")]
    pub timeout_ms: u64,
    /// Time the controller gets after the announcements, before the first flow.
    #[serde(default = "default_announce")]
    pub announce_ms: u64,
    /// Send a waiting flow's frame again every this many ms until it is delivered (0: once).
    /// For proactive provisioning (§5.1.5), where a miss is dropped and the path appears when
    /// the northbound request is applied: the frame keeps knocking, so the first one across
    /// comes at most `repeat_ms` after the path is complete.
    #[serde(default)]
    pub repeat_ms: u64,
}

fn one() -> u32 {
    1
}
fn default_timeout() -> u64 {
    5000
}
fn default_announce() -> u64 {
    1000
}

pub fn validate(p: &ProvisionSpec, hosts: usize) -> Result<(), String> {
    if p.pairs.is_empty() {
        return Err("network.provisioning.pairs: empty (give at least one [source, destination] host pair)".into());
    }
    for (i, &(s, d)) in p.pairs.iter().enumerate() {
        if s as usize >= hosts || d as usize >= hosts {
            return Err(format!("network.provisioning.pairs[{i}]: [{s}, {d}] names a host the network does not have (it has {hosts})"));
        }
        if s == d {
            return Err(format!("network.provisioning.pairs[{i}]: source and destination are both host {s}"));
        }
    }
    if p.flows == 0 || p.flows > 1 << 20 {
        return Err(format!("network.provisioning.flows: {} (must be 1..={})", p.flows, 1 << 20));
    }
    if p.concurrency == 0 {
        return Err("network.provisioning.concurrency: 0 (at least 1 flow must be allowed in flight)".into());
    }
    if !(p.rate >= 0.0 && p.rate.is_finite()) {
        return Err(format!("network.provisioning.rate: {} (new flows per second, 0 for no limit)", p.rate));
    }
    if p.timeout_ms == 0 {
        return Err("network.provisioning.timeout_ms: 0 (a flow needs time to be provisioned)".into());
    }
    Ok(())
}

/// Per flow: when its frame entered the ingress switch and left the egress switch (ns since the
/// measured phase began; 0: not yet / never).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ProvisionReport {
    pub flows: u32,
    pub started: u64,
    pub provisioned: u64,
    pub timed_out: u64,
    pub in_flight: u64,
    /// Deliveries of a flow after its first, or after it timed out.
    pub late: u64,
    pub started_ns: Vec<u64>,
    pub delivered_ns: Vec<u64>,
    /// When the announcements went out (ns since go).
    pub announced_ns: u64,
    /// Go itself on CLOCK_MONOTONIC (ns): a northbound client aligns its request times with it.
    #[serde(default)]
    pub go_mono_ns: u64,
    /// Frames sent again (`repeat_ms`).
    #[serde(default)]
    pub repeated: u64,
}

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

/// The provisioning traffic of one worker (the network checks it runs in one): announce the
/// destinations, wait `announce_ms`, then start flows as `Provision` allows until all are done.
pub async fn run(node: Rc<Node>) {
    let Some(spec) = node.prov.borrow().as_ref().map(|p| p.spec.clone()) else { return };
    let rel = |n: &Node| mono_ns().saturating_sub(n.go_mono());
    let mut dsts: Vec<u32> = spec.pairs.iter().map(|p| p.1).collect();
    dsts.sort_unstable();
    dsts.dedup();
    let announce = |node: &Node| {
        for &h in &dsts {
            let host = &node.model.hosts[h as usize];
            let data = announce_frame(&node.model, h);
            node.deliver(Frame { to: host.index, port: host.port, link: FROM_HOST, dir: 0, sent_ns: mono_ns(), data });
        }
    };
    announce(&node);
    if let Some(p) = node.prov.borrow_mut().as_mut() {
        p.r.announced_ns = rel(&node).max(1);
        p.r.go_mono_ns = node.go_mono();
    }
    // and once more halfway: a controller still finishing a switch's handshake when the first
    // announcement arrived drops it (Ryu does), and would then never learn the destination
    sleep(Duration::from_millis(spec.announce_ms / 2)).await;
    announce(&node);
    sleep(Duration::from_millis(spec.announce_ms - spec.announce_ms / 2)).await;
    let first = rel(&node);
    let repeat = spec.repeat_ms * 1_000_000;
    let mut next_repeat = first + repeat;
    loop {
        let now = rel(&node);
        let mut starts = vec![];
        let mut again = vec![];
        let wake_at = {
            let mut b = node.prov.borrow_mut();
            let p = b.as_mut().expect("provisioning state");
            p.expire(now);
            if repeat > 0 && now >= next_repeat {
                again = p.waiting();
                p.r.repeated += again.len() as u64;
                next_repeat = now + repeat;
            }
            while let Some(at) = p.next_start(first) {
                if at > now {
                    break;
                }
                starts.push(p.start(now));
            }
            if p.done() {
                return;
            }
            let rep = (repeat > 0).then_some(next_repeat);
            [p.next_start(first), p.next_timeout(), rep].into_iter().flatten().min()
        };
        for (i, d) in again {
            let h = &node.model.hosts[spec.pairs[i as usize % spec.pairs.len()].0 as usize];
            node.deliver(Frame {
                to: h.index,
                port: h.port,
                link: FROM_HOST,
                dir: 0,
                sent_ns: mono_ns(),
                data: flow_frame(&node.model, i, d),
            });
        }
        for (i, s, d) in starts {
            let (index, port) = node.hosts.borrow_mut().inject(&node.model, now, s, d);
            let data = flow_frame(&node.model, i, d);
            node.deliver(Frame { to: index, port, link: FROM_HOST, dir: 0, sent_ns: mono_ns(), data });
        }
        let wait = wake_at.map_or(Duration::from_secs(3600), |t| Duration::from_nanos(t.saturating_sub(rel(&node))));
        tokio::select! {
            _ = sleep(wait) => {}
            _ = node.prov_wake.notified() => {}
        }
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
    use crate::network::model::tests::ring;

    fn spec(flows: u32, concurrency: u32, rate: f64) -> ProvisionSpec {
        ProvisionSpec { pairs: vec![(0, 2)], flows, concurrency, rate, timeout_ms: 10, announce_ms: 0, repeat_ms: 0 }
    }

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

    #[test]
    fn bad_specs_are_one_line_naming_the_field() {
        let mut s = spec(1, 1, 0.0);
        validate(&s, 3).unwrap();
        s.pairs = vec![(0, 3)];
        assert!(validate(&s, 3).unwrap_err().starts_with("network.provisioning.pairs[0]: [0, 3] names a host"));
        s.pairs = vec![(1, 1)];
        assert!(validate(&s, 3).unwrap_err().contains("both host 1"));
        let s = ProvisionSpec { concurrency: 0, ..spec(1, 1, 0.0) };
        assert!(validate(&s, 3).unwrap_err().starts_with("network.provisioning.concurrency"));
        let s = ProvisionSpec { rate: f64::NAN, ..spec(1, 1, 0.0) };
        assert!(validate(&s, 3).unwrap_err().starts_with("network.provisioning.rate"));
    }
}
