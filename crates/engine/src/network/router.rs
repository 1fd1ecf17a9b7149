//! Where a transmitted frame goes, after how long, and what got counted on the way.
//!
//! A worker owns one `Router`. Its switches' transmitted frames (`Switch::tx`) come in through
//! `transmit`; after the link delay (`due`) they leave as a `Route`: to a switch port (this
//! worker's, or another worker's through the transport) or to a host. The receiving worker calls
//! `arrive` just before `Switch::receive_frame`, which is where the frame is counted as having
//! crossed and where the transport's own delay is measured (arrival − transmit − link delay).
//!
//! The delay is the same for every link, so the delay line is a FIFO (`VecDeque`), O(1) per frame.
//!
//! # Invariants (summed over all workers, after every worker stopped and drained its transport)
//! - `tx_linked == rx_linked + dropped_down + in_transit` (`tx_linked`: every frame sent on a
//!   port that has a link, up or down; `dropped_down`: the link was down at transmit or arrival)
//! - `lldp[l][d]` counts LLDP frames that crossed link `l` in direction `d` (0: a→b), so
//!   `sum(lldp) <= rx_linked`.
//! - frames on a port without a peer are `dropped_unlinked`, never `tx_linked`.

use super::model::{Model, Peer};
use crate::hist::Hist;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::Arc;

// Discovery frames (LLDP, and Floodlight's BDDP counted with it).
use crate::result::network::frames::Counters;
use ofwire::frame::{ETHERTYPE_BDDP as ETH_BDDP, ETHERTYPE_LLDP as ETH_LLDP};

/// A frame on its way over a link to a switch port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub to: u32,
    pub port: u32,
    pub link: u32,
    pub dir: u8,
    /// When it was transmitted (monotonic ns, comparable across the workers of one machine).
    pub sent_ns: u64,
    pub data: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    Switch(Frame),
    Host { host: u32, data: Vec<u8> },
}

impl Counters {
    pub fn merge(&mut self, o: &Counters) {
        self.tx_linked += o.tx_linked;
        self.rx_linked += o.rx_linked;
        self.dropped_down += o.dropped_down;
        self.dropped_unlinked += o.dropped_unlinked;
        self.in_transit += o.in_transit;
        self.to_hosts += o.to_hosts;
        self.switch_dropped_out_port_down += o.switch_dropped_out_port_down;
        self.switch_dropped_out_no_port += o.switch_dropped_out_no_port;
        self.switch_dropped_in_port_down += o.switch_dropped_in_port_down;
    }
}

/// A worker's network counters: the frame counters and the probes per link.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NetCounters {
    pub frames: Counters,
    /// LLDP/BDDP that crossed each link, per direction.
    pub lldp: Vec<[u64; 2]>,
    /// Of those, the ones the receiving switch raised to its controller as a packet-in (the
    /// others it dropped: at OpenFlow 1.3 a miss without a table-miss entry, or a rule that
    /// does not send LLDP to the controller). Invariant: raised <= crossed, per direction.
    #[serde(default)]
    pub lldp_raised: Vec<[u64; 2]>,
    /// Per link and direction: when the first and the last LLDP/BDDP crossed (monotonic ns at
    /// arrival; 0: none). The switches never make LLDP themselves, so each one is a controller's
    /// probe from a packet-out (RFC 8456 §5.1.1, southbound verification).
    #[serde(default)]
    pub lldp_first_ns: Vec<[u64; 2]>,
    #[serde(default)]
    pub lldp_last_ns: Vec<[u64; 2]>,
}

impl NetCounters {
    pub fn merge(&mut self, o: &NetCounters) {
        self.frames.merge(&o.frames);
        if self.lldp.len() < o.lldp.len() {
            self.lldp.resize(o.lldp.len(), [0; 2]);
        }
        for (a, b) in self.lldp.iter_mut().zip(&o.lldp) {
            a[0] += b[0];
            a[1] += b[1];
        }
        merge_counts(&mut self.lldp_raised, &o.lldp_raised);
        merge_times(&mut self.lldp_first_ns, &o.lldp_first_ns, |a, b| if a == 0 || (b != 0 && b < a) { b } else { a });
        merge_times(&mut self.lldp_last_ns, &o.lldp_last_ns, u64::max);
    }

    /// Record an LLDP/BDDP crossing `link` in direction `dir` at `now`.
    fn probe(&mut self, link: usize, dir: usize, now: u64) {
        self.lldp[link][dir] += 1;
        if self.lldp_first_ns.len() < self.lldp.len() {
            self.lldp_first_ns.resize(self.lldp.len(), [0; 2]);
            self.lldp_last_ns.resize(self.lldp.len(), [0; 2]);
        }
        if self.lldp_first_ns[link][dir] == 0 {
            self.lldp_first_ns[link][dir] = now;
        }
        self.lldp_last_ns[link][dir] = now;
    }

    /// The receiving switch raised the LLDP/BDDP `f` (which arrived over a link) to its
    /// controller.
    pub fn raised(&mut self, f: &Frame) {
        if f.link == FROM_HOST || !is_lldp(&f.data) {
            return;
        }
        let l = f.link as usize;
        if self.lldp_raised.len() <= l {
            self.lldp_raised.resize(self.lldp.len().max(l + 1), [0; 2]);
        }
        self.lldp_raised[l][f.dir as usize] += 1;
    }

    /// Links whose probes were raised to the controller in both directions.
    pub fn links_raised_both_ways(&self) -> usize {
        self.lldp_raised.iter().filter(|d| d[0] > 0 && d[1] > 0).count()
    }

    /// The written invariants; `Err` names the first one broken.
    pub fn check(&self) -> Result<(), String> {
        let f = &self.frames;
        if f.tx_linked != f.rx_linked + f.dropped_down + f.in_transit {
            return Err(format!(
                "tx_linked {} != rx_linked {} + dropped_down {} + in_transit {}",
                f.tx_linked, f.rx_linked, f.dropped_down, f.in_transit
            ));
        }
        let lldp: u64 = self.lldp.iter().map(|d| d[0] + d[1]).sum();
        if lldp > f.rx_linked {
            return Err(format!("lldp {lldp} > rx_linked {}", f.rx_linked));
        }
        for (l, r) in self.lldp_raised.iter().enumerate() {
            let crossed = self.lldp.get(l).copied().unwrap_or([0; 2]);
            if r[0] > crossed[0] || r[1] > crossed[1] {
                return Err(format!("link {l}: lldp raised {r:?} > crossed {crossed:?}"));
            }
        }
        Ok(())
    }

    /// Links whose LLDP crossed in both directions.
    pub fn links_probed_both_ways(&self) -> usize {
        self.lldp.iter().filter(|d| d[0] > 0 && d[1] > 0).count()
    }
}

fn merge_counts(a: &mut Vec<[u64; 2]>, b: &[[u64; 2]]) {
    if a.len() < b.len() {
        a.resize(b.len(), [0; 2]);
    }
    for (x, y) in a.iter_mut().zip(b) {
        x[0] += y[0];
        x[1] += y[1];
    }
}

fn merge_times(a: &mut Vec<[u64; 2]>, b: &[[u64; 2]], pick: impl Fn(u64, u64) -> u64) {
    if a.len() < b.len() {
        a.resize(b.len(), [0; 2]);
    }
    for (x, y) in a.iter_mut().zip(b) {
        x[0] = pick(x[0], y[0]);
        x[1] = pick(x[1], y[1]);
    }
}

pub struct Router {
    pub model: Arc<Model>,
    up: Vec<bool>,
    line: VecDeque<(u64, Route)>,
    pub counters: NetCounters,
    /// Arrival − transmit − link delay, per frame that crossed (ns): the transport's own delay,
    /// over links within this worker and links from another worker.
    pub transport_local: Hist,
    pub transport_cross: Hist,
}

/// The `link` of a frame a host injected (it crossed no link).
pub const FROM_HOST: u32 = u32::MAX;

pub fn is_lldp(frame: &[u8]) -> bool {
    frame.len() >= 14 && matches!(u16::from_be_bytes([frame[12], frame[13]]), ETH_LLDP | ETH_BDDP)
}

impl Router {
    pub fn new(model: Arc<Model>) -> Router {
        let links = model.links.len();
        Router {
            up: vec![true; links],
            line: VecDeque::new(),
            counters: NetCounters {
                lldp: vec![[0; 2]; links],
                lldp_first_ns: vec![[0; 2]; links],
                lldp_last_ns: vec![[0; 2]; links],
                ..Default::default()
            },
            transport_local: Hist::with_sigfig(3),
            transport_cross: Hist::with_sigfig(3),
            model,
        }
    }

    pub fn set_link(&mut self, link: u32, up: bool) {
        self.up[link as usize] = up;
    }

    /// Switch `from` transmitted `data` on `port` at `now`. It leaves through `due` once the
    /// link delay has passed (at once with no delay: call `due(now, ..)` right after).
    pub fn transmit(&mut self, now: u64, from: u32, port: u32, data: Vec<u8>) {
        let route = match self.model.peer(from, port) {
            Peer::None => {
                self.counters.frames.dropped_unlinked += 1;
                return;
            }
            Peer::Host(host) => Route::Host { host, data },
            Peer::Switch { index, port, link, dir } => {
                self.counters.frames.tx_linked += 1;
                if !self.up[link as usize] {
                    self.counters.frames.dropped_down += 1;
                    return;
                }
                Route::Switch(Frame { to: index, port, link, dir, sent_ns: now, data })
            }
        };
        self.line.push_back((now + self.model.link_delay_ns, route));
    }

    /// Move the frames whose delay has passed to `out`; returns when the next one is due
    /// (`u64::MAX`: none waiting).
    pub fn due(&mut self, now: u64, out: &mut Vec<Route>) -> u64 {
        while let Some((at, _)) = self.line.front() {
            if *at > now {
                return *at;
            }
            let (_, r) = self.line.pop_front().unwrap();
            if let Route::Host { .. } = r {
                self.counters.frames.to_hosts += 1;
            }
            out.push(r);
        }
        u64::MAX
    }

    /// A frame reaches its switch (this worker owns `f.to`). False: the link went down while
    /// the frame was on it, and it is dropped (counted).
    pub fn arrive(&mut self, now: u64, f: &Frame) -> bool {
        if f.link == FROM_HOST {
            return true;
        }
        if !self.up[f.link as usize] {
            self.counters.frames.dropped_down += 1;
            return false;
        }
        self.counters.frames.rx_linked += 1;
        if is_lldp(&f.data) {
            self.counters.probe(f.link as usize, f.dir as usize, now);
        }
        let extra = now.saturating_sub(f.sent_ns).saturating_sub(self.model.link_delay_ns);
        let (a, _, b, _) = self.model.links[f.link as usize];
        let from = if f.dir == 0 { a } else { b };
        if self.model.owner(from) == self.model.owner(f.to) {
            self.transport_local.record_ns(extra.max(1));
        } else {
            self.transport_cross.record_ns(extra.max(1));
        }
        true
    }

    /// At stop: what is still on the delay line counts as in transit.
    pub fn stop(&mut self) -> &NetCounters {
        let on_line = self.line.iter().filter(|(_, r)| matches!(r, Route::Switch(_))).count() as u64;
        self.counters.frames.in_transit += on_line;
        self.line.clear();
        &self.counters
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::model::tests::ring;

    fn lldp() -> Vec<u8> {
        let mut f = vec![0u8; 60];
        f[0..6].copy_from_slice(&[0x01, 0x80, 0xc2, 0, 0, 0x0e]);
        f[12..14].copy_from_slice(&ETH_LLDP.to_be_bytes());
        f
    }

    fn router(n: u64, delay_us: u64) -> Router {
        let mut s = ring(n);
        s.link_delay_us = delay_us;
        Router::new(Arc::new(Model::new(&s, 1)))
    }

    /// Deliver everything due at `now` as the engine would, returning the switch frames.
    fn step(r: &mut Router, now: u64) -> Vec<Frame> {
        let mut out = vec![];
        r.due(now, &mut out);
        out.into_iter()
            .filter_map(|x| match x {
                Route::Switch(f) => r.arrive(now, &f).then_some(f),
                Route::Host { .. } => None,
            })
            .collect()
    }

    #[test]
    fn probes_raised_to_the_controller_are_counted_apart_from_those_that_crossed() {
        let mut r = router(3, 0);
        r.transmit(1_000, 0, 2, lldp());
        r.transmit(1_000, 1, 1, lldp());
        let got = step(&mut r, 2_000);
        assert_eq!(got.len(), 2);
        // only the first was raised (say the second switch had no rule sending LLDP up)
        r.counters.raised(&got[0]);
        assert_eq!(r.counters.links_probed_both_ways(), 1);
        assert_eq!(r.counters.links_raised_both_ways(), 0);
        r.counters.raised(&got[1]);
        assert_eq!(r.counters.links_raised_both_ways(), 1);
        r.counters.check().unwrap();
        // raised more often than crossed breaks the invariant
        r.counters.raised(&got[1]);
        assert!(r.counters.check().unwrap_err().contains("raised"));
    }

    #[test]
    fn a_frame_crosses_to_the_peer_port_after_the_delay() {
        let mut r = router(3, 50);
        r.transmit(1_000, 0, 2, lldp());
        assert!(step(&mut r, 50_999).is_empty());
        let got = step(&mut r, 51_000);
        assert_eq!(got.len(), 1);
        assert_eq!((got[0].to, got[0].port, got[0].link, got[0].dir), (1, 1, 0, 0));
        // back the other way: link 0, direction 1
        r.transmit(60_000, 1, 1, lldp());
        let got = step(&mut r, 200_000);
        assert_eq!((got[0].to, got[0].port, got[0].dir), (0, 2, 1));
        assert_eq!(r.counters.lldp[0], [1, 1]);
        assert_eq!((r.counters.lldp_first_ns[0], r.counters.lldp_last_ns[0]), ([51_000, 200_000], [51_000, 200_000]));
        assert_eq!(r.counters.lldp_first_ns[1], [0, 0], "nothing crossed link 1");
        assert_eq!(r.counters.links_probed_both_ways(), 1);
        // the transport's own delay: 0 and 90 µs late here
        assert_eq!((r.transport_local.count(), r.transport_cross.count()), (2, 0));
        r.stop();
        r.counters.check().unwrap();
    }

    #[test]
    fn the_invariant_holds_with_drops_and_frames_in_transit() {
        let mut r = router(4, 10);
        for i in 0..4 {
            r.transmit(0, i, 2, lldp()); // linked
            r.transmit(0, i, 3, vec![0; 60]); // host port
        }
        r.transmit(0, 0, 4, lldp()); // no such port: unlinked
        r.set_link(1, false);
        r.transmit(0, 1, 2, lldp()); // link 1 is down now: dropped at transmit
        assert_eq!(step(&mut r, 10_000).len(), 3, "link 1 went down while its frame was on it");
        r.transmit(20_000, 2, 2, lldp()); // still on the line at stop
        r.stop();
        let c = &r.counters;
        let f = &c.frames;
        assert_eq!((f.tx_linked, f.rx_linked, f.dropped_down, f.in_transit), (6, 3, 2, 1));
        assert_eq!((f.dropped_unlinked, f.to_hosts), (1, 4));
        c.check().unwrap();
        let mut broken = c.clone();
        broken.frames.rx_linked += 1;
        assert!(broken.check().unwrap_err().starts_with("tx_linked 6 != rx_linked 4"));
    }

    #[test]
    fn every_frame_counter_merges() {
        let one = Counters {
            tx_linked: 1,
            rx_linked: 2,
            dropped_down: 3,
            dropped_unlinked: 4,
            in_transit: 5,
            to_hosts: 6,
            switch_dropped_out_port_down: 7,
            switch_dropped_out_no_port: 8,
            switch_dropped_in_port_down: 9,
        };
        let mut two = one.clone();
        two.merge(&one);
        let (one, two) = (serde_json::to_value(&one).unwrap(), serde_json::to_value(&two).unwrap());
        for (k, v) in one.as_object().unwrap() {
            assert_eq!(two[k], 2 * v.as_u64().unwrap(), "{k}");
        }
    }

    #[test]
    fn counters_merge_over_workers() {
        let frames = |tx_linked, rx_linked| Counters { tx_linked, rx_linked, ..Default::default() };
        let mut a = NetCounters { frames: frames(4, 0), lldp: vec![[1, 0]], ..Default::default() };
        let b = NetCounters { frames: frames(0, 4), lldp: vec![[0, 1], [1, 1]], ..Default::default() };
        let mut b = b;
        a.lldp_first_ns = vec![[5, 0]];
        a.lldp_last_ns = vec![[9, 0]];
        b.lldp_first_ns = vec![[3, 7], [0, 2]];
        b.lldp_last_ns = vec![[4, 8], [0, 2]];
        a.merge(&b);
        assert_eq!(a.lldp, vec![[1, 1], [1, 1]]);
        // first: the earliest time either worker saw (0 means none); last: the latest
        assert_eq!(a.lldp_first_ns, vec![[3, 7], [0, 2]]);
        assert_eq!(a.lldp_last_ns, vec![[9, 8], [0, 2]]);
        a.check().unwrap();
        assert_eq!(a.links_probed_both_ways(), 2);
    }
}
