//! One worker's part of the network: the inboxes of its switches, its router, its end of the
//! transport, the event schedule and the host counters. Sessions call in; tasks on the worker's
//! `LocalSet` run the delay line, the schedule and the host traffic.
//!
//! A session, per turn of its loop: `take(index)` what arrived for its switch (frames, then
//! port changes) and feed them to the switch (`arrive` first, then `Switch::receive_frame`,
//! `Switch::set_port_state`); after anything that may transmit, `transmit(index, &mut sw.tx)`.

use super::clock::mono_ns;
use super::events::{local_ends, Schedule};
use super::hosts::host_frame;
use super::model::Model;
use super::router::{Frame, NetCounters, Route, Router, FROM_HOST};
use super::transport::{Inbound, Outbox};
use crate::config::network::NetworkSpec;
use crate::result::network::events::{Applied, LinkState};
use crate::result::network::frames::HostCounters;
use crate::result::network::provision::ProvisionReport;
use crate::result::network::stream::StreamReport;
use serde::{Deserialize, Serialize};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use tokio::sync::Notify;
use tokio::time::{sleep, Duration};

/// What arrived for one local switch since its session last looked.
#[derive(Default)]
pub struct Inbox {
    pub frames: RefCell<Vec<Frame>>,
    /// (port, up, which end of the link) changes from the schedule.
    pub ports: RefCell<Vec<(u32, bool, ofswitch::LinkEnd)>>,
    pub notify: Notify,
}

/// A worker's network figures (summed over workers by the coordinator).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct NetReport {
    pub counters: NetCounters,
    pub hosts: HostCounters,
    pub events: Vec<Applied>,
    /// Transport delay histograms (base64, as the engine's latency histogram).
    pub transport_local: String,
    pub transport_cross: String,
    pub frames_to_other_workers: u64,
    /// The other workers did not all close their streams in time (counts may be short).
    #[serde(default)]
    pub timed_out: bool,
    /// (dpid, flow entries) of this worker's switches at the end.
    #[serde(default)]
    pub flows: Vec<(u64, u64)>,
    /// The provisioning traffic's flows (`provision.rs`), when the network has it.
    #[serde(default)]
    pub provisioning: Option<ProvisionReport>,
    /// The sequence-numbered streams (`stream.rs`), when the network has them.
    #[serde(default)]
    pub stream: Option<StreamReport>,
    /// OF1.3 role changes the switches saw: (dpid, monotonic ns, channel, new role); channel 0
    /// is the first controller address, 1.. the others in order.
    #[serde(default)]
    pub roles: Vec<(u64, u64, u32, u32)>,
    /// Flow-mods this worker's switches refused with TABLE_FULL (`table_size` reached).
    #[serde(default)]
    pub table_full: u64,
    /// When this worker's first switch connected to its controller (monotonic ns; 0: none did),
    /// and how many did: the origin of the discovery times (RFC 8456 §5.1.1).
    #[serde(default)]
    pub first_connect_ns: u64,
    #[serde(default)]
    pub switches_connected: u32,
}

thread_local! {
    /// This worker thread's node (one per worker; set by `attach`), for the switch-side code
    /// that holds no reference to it (`Channels`).
    static CURRENT: RefCell<Option<Rc<Node>>> = const { RefCell::new(None) };
}

pub fn set_current(n: Option<Rc<Node>>) {
    CURRENT.with(|c| *c.borrow_mut() = n);
}

/// Run `f` with this worker's node (nothing when the worker has none).
pub fn with_current(f: impl FnOnce(&Node)) {
    CURRENT.with(|c| {
        if let Some(n) = c.borrow().as_ref() {
            f(n)
        }
    });
}

pub struct Node {
    pub me: u32,
    pub model: Arc<Model>,
    pub router: RefCell<Router>,
    inboxes: Vec<Option<Rc<Inbox>>>,
    outbox: RefCell<Option<Rc<Outbox>>>,
    inbound: RefCell<Option<Rc<Inbound>>>,
    pub hosts: RefCell<HostCounters>,
    schedule: RefCell<Schedule>,
    applied: RefCell<Vec<Applied>>,
    /// Applied events whose southbound reaction is still awaited: link → applied index (a link
    /// that came up: its first probes), and (switch index, applied index) (an end that went
    /// down: its flow entries changing).
    watch_up: RefCell<std::collections::HashMap<u32, usize>>,
    watch_flows: RefCell<Vec<(u32, usize)>>,
    wake: Notify,
    go_mono: Cell<u64>,
    routes: RefCell<Vec<Route>>,
    /// Per switch: its own drop counters as last seen (see `Counters::switch_dropped_out_port_down`).
    switch_dropped: RefCell<Vec<[u64; 3]>>,
    /// Per switch: flow entries, as last seen.
    flows: RefCell<Vec<u64>>,
    /// Flow entries per switch at most (0: no limit), from the spec's `table_size`.
    pub table_size: usize,
    table_full: Cell<u64>,
    /// The provisioning traffic's state and its wake-up (a delivery, or a flow may start).
    pub prov: RefCell<Option<super::provision::Provision>>,
    pub prov_wake: Notify,
    roles: RefCell<Vec<(u64, u64, u32, u32)>>,
    /// The streams' state.
    pub stream: RefCell<Option<super::stream::Streams>>,
    /// (first connect in monotonic ns, switches connected).
    connected: Cell<(u64, u32)>,
}

impl Node {
    pub fn new(spec: &NetworkSpec, workers: u32, me: u32) -> Node {
        let model = Arc::new(Model::new(spec, workers));
        let n = model.len();
        let inboxes = (0..n as u32).map(|i| (model.owner(i) == me).then(|| Rc::new(Inbox::default()))).collect();
        Node {
            me,
            router: RefCell::new(Router::new(model.clone())),
            schedule: RefCell::new(Schedule::new(spec, &model)),
            model,
            inboxes,
            outbox: RefCell::new(None),
            inbound: RefCell::new(None),
            hosts: RefCell::new(HostCounters::default()),
            applied: RefCell::new(Vec::new()),
            watch_up: RefCell::new(Default::default()),
            watch_flows: RefCell::new(Vec::new()),
            wake: Notify::new(),
            go_mono: Cell::new(0),
            routes: RefCell::new(Vec::new()),
            switch_dropped: RefCell::new(vec![[0; 3]; n]),
            flows: RefCell::new(vec![0; n]),
            table_size: spec.table_size as usize,
            table_full: Cell::new(0),
            prov: RefCell::new(spec.provisioning.clone().map(super::provision::Provision::new)),
            prov_wake: Notify::new(),
            roles: RefCell::new(Vec::new()),
            stream: RefCell::new(spec.stream.clone().map(super::stream::Streams::new)),
            connected: Cell::new((0, 0)),
        }
    }

    /// For the live line: (switches connected, link directions with probes received here, links).
    pub fn progress(&self) -> (u32, u64, u64) {
        let dirs = self.router.borrow().counters.lldp.iter().map(|d| (d[0] > 0) as u64 + (d[1] > 0) as u64).sum();
        (self.connected.get().1, dirs, self.model.links.len() as u64)
    }

    /// A switch of this worker connected to its (first) controller.
    pub fn connected(&self) {
        let (first, n) = self.connected.get();
        self.connected.set((if first == 0 { mono_ns() } else { first }, n + 1));
    }

    pub fn set_transport(&self, outbox: Rc<Outbox>, inbound: Rc<Inbound>) {
        *self.outbox.borrow_mut() = Some(outbox);
        *self.inbound.borrow_mut() = Some(inbound);
    }

    pub fn inbox(&self, index: u32) -> Option<Rc<Inbox>> {
        self.inboxes.get(index as usize).cloned().flatten()
    }

    /// Switch `from` transmitted `tx` (drained).
    pub fn transmit(&self, from: u32, tx: &mut Vec<(u32, Vec<u8>)>) {
        if tx.is_empty() {
            return;
        }
        let now = mono_ns();
        let mut r = self.router.borrow_mut();
        for (port, data) in tx.drain(..) {
            r.transmit(now, from, port, data);
        }
        drop(r);
        self.pump(now);
    }

    /// Move what the delay line lets go; returns when the next frame is due.
    fn pump(&self, now: u64) -> u64 {
        let mut routes = self.routes.borrow_mut();
        let next = self.router.borrow_mut().due(now, &mut routes);
        for r in routes.drain(..) {
            match r {
                Route::Switch(f) => self.deliver(f),
                Route::Host { host, data } => {
                    let t = now.saturating_sub(self.go_mono.get());
                    if let Some(p) = self.prov.borrow_mut().as_mut() {
                        // the frame left the egress switch one host-link delay ago
                        p.delivered(t.saturating_sub(self.model.link_delay_ns), host, &data);
                        self.prov_wake.notify_one();
                    }
                    if let Some(s) = self.stream.borrow_mut().as_mut() {
                        s.delivered(t.saturating_sub(self.model.link_delay_ns), host, &data);
                    }
                    self.hosts.borrow_mut().deliver(&self.model, t, host, &data)
                }
            }
        }
        if next != u64::MAX {
            self.wake.notify_one();
        }
        next
    }

    /// A frame for a switch: into its inbox here, or to the worker that owns it.
    pub fn deliver(&self, f: Frame) {
        match self.inbox(f.to) {
            Some(b) => {
                b.frames.borrow_mut().push(f);
                b.notify.notify_one();
            }
            None => match &*self.outbox.borrow() {
                Some(o) => o.send(self.model.owner(f.to), &f),
                None => unreachable!("a switch of another worker without a transport"),
            },
        }
    }

    /// The switch's own drop counters now: (out to a down port, out to no port, in on a down port).
    /// And its flow entries now.
    pub fn switch_state(&self, index: u32, d: [u64; 3], flows: u64) {
        self.switch_dropped.borrow_mut()[index as usize] = d;
        let before = std::mem::replace(&mut self.flows.borrow_mut()[index as usize], flows);
        if before != flows && !self.watch_flows.borrow().is_empty() {
            let now = mono_ns();
            let mut applied = self.applied.borrow_mut();
            self.watch_flows.borrow_mut().retain(|&(i, a)| {
                if i != index {
                    return true;
                }
                // the first of the event's end switches to change (both may be this worker's)
                if applied[a].flows_changed_ns == 0 {
                    applied[a].flows_changed_ns = now;
                }
                false
            });
        }
    }

    /// Switch `dpid` saw these role changes: (monotonic ns, channel, role) (`Channels::turn`).
    pub fn role_changes(&self, dpid: u64, changes: Vec<(u64, u32, u32)>) {
        self.roles.borrow_mut().extend(changes.into_iter().map(|(t, ch, role)| (dpid, t, ch, role)));
    }

    /// A switch of this worker refused a flow-mod with TABLE_FULL.
    pub fn table_full(&self) {
        self.table_full.set(self.table_full.get() + 1);
    }

    /// The provisioning traffic has ended: every flow started and none waits (false without it).
    pub fn prov_done(&self) -> bool {
        self.prov.borrow().as_ref().is_some_and(|p| p.done())
    }

    /// When the measured phase began (monotonic ns; 0: not yet).
    pub fn go_mono(&self) -> u64 {
        self.go_mono.get()
    }

    /// Called by the session just before `receive_frame`; false: dropped (link down meanwhile).
    pub fn arrive(&self, f: &Frame) -> bool {
        let now = mono_ns();
        let ok = self.router.borrow_mut().arrive(now, f);
        if ok && f.link != super::router::FROM_HOST && super::router::is_lldp(&f.data) {
            if let Some(&i) = self.watch_up.borrow().get(&f.link) {
                let t = &mut self.applied.borrow_mut()[i].first_probe_after_ns[f.dir as usize];
                if *t == 0 {
                    *t = now;
                }
            }
        }
        ok
    }

    /// The switch raised the arrived frame `f` to its controller (`NetCounters::raised`).
    pub fn raised(&self, f: &Frame) {
        self.router.borrow_mut().counters.raised(f);
    }

    /// The delay line's timer: frames whose link delay passed while no session transmitted.
    pub async fn run_delay_line(self: Rc<Self>) {
        loop {
            let next = self.pump(mono_ns());
            if next == u64::MAX {
                self.wake.notified().await;
            } else {
                tokio::select! {
                    _ = sleep(Duration::from_nanos(next.saturating_sub(mono_ns()))) => {}
                    _ = self.wake.notified() => {}
                }
            }
        }
    }

    /// The measured phase began now: run the schedule from here.
    pub async fn run_schedule(self: Rc<Self>) {
        let go = mono_ns();
        self.go_mono.set(go);
        loop {
            let next = self.schedule.borrow().next_ns();
            if next == u64::MAX {
                return;
            }
            sleep(Duration::from_nanos((go + next).saturating_sub(mono_ns()))).await;
            let due = self.schedule.borrow_mut().due(mono_ns() - go);
            for d in due {
                self.apply(go, d);
            }
        }
    }

    fn apply(&self, go: u64, d: super::events::Due) {
        if let super::events::Target::Link(l) = d.target {
            self.router.borrow_mut().set_link(l, d.up);
        }
        let ends = local_ends(&self.model, d.target, self.me);
        for &(i, p) in &ends {
            let b = self.inbox(i).expect("owned");
            b.ports.borrow_mut().push((p, d.up, super::events::end_of(&self.model, d.target, i, p)));
            b.notify.notify_one();
        }
        let now = mono_ns();
        if let Some(s) = self.stream.borrow_mut().as_mut() {
            s.event(d.event, now - go);
        }
        let idx = self.applied.borrow().len();
        match (d.target, d.up) {
            (super::events::Target::Link(l), true) => {
                self.watch_up.borrow_mut().insert(l, idx);
            }
            (_, false) => self.watch_flows.borrow_mut().extend(ends.iter().map(|&(i, _)| (i, idx))),
            _ => {}
        }
        self.applied.borrow_mut().push(Applied {
            event: d.event,
            worker: self.me,
            at_ms: d.at_ms,
            actual_ms: (now - go) as f64 / 1e6,
            mono_ns: now,
            state: if d.up { LinkState::Up } else { LinkState::Down },
            ends: ends.iter().map(|&(i, p)| (self.model.dpids[i as usize], p)).collect(),
            first_probe_after_ns: [0; 2],
            flows_changed_ns: 0,
        });
    }

    /// The `hosts` traffic: every `interval`, each host of this worker sends one frame to the
    /// next host (host h → h+1, wrapping), so every host sends and receives.
    pub async fn run_host_traffic(self: Rc<Self>, interval: Duration, frame_size: usize) {
        let n = self.model.hosts.len() as u32;
        if n < 2 {
            return;
        }
        let mine: Vec<u32> = (0..n).filter(|&h| self.model.owner(self.model.hosts[h as usize].index) == self.me).collect();
        let mut seq = 0u32;
        loop {
            for &src in &mine {
                let dst = (src + 1) % n;
                let now = mono_ns();
                let (index, port) = self.hosts.borrow_mut().inject(&self.model, now.saturating_sub(self.go_mono.get()), src, dst);
                let data = host_frame(&self.model, src, dst, seq, frame_size);
                self.deliver(Frame { to: index, port, link: FROM_HOST, dir: 0, sent_ns: now, data });
            }
            seq += 1;
            sleep(interval).await;
        }
    }

    /// At stop, after every worker closed its transport: the figures of this worker.
    pub async fn finish(&self) -> NetReport {
        let ob = self.outbox.borrow().clone();
        if let Some(o) = &ob {
            o.close().await;
        }
        let ib = self.inbound.borrow().clone();
        if let Some(i) = &ib {
            i.finished().await;
        }
        // frames that arrived in inboxes but were never taken by a session count as in transit
        let waiting: u64 =
            self.inboxes.iter().flatten().map(|b| b.frames.borrow().iter().filter(|f| f.link != FROM_HOST).count() as u64).sum();
        let mut r = self.router.borrow_mut();
        r.stop();
        r.counters.frames.in_transit += waiting;
        drop(r);
        self.snapshot()
    }

    /// The figures as they are now.
    pub fn snapshot(&self) -> NetReport {
        let r = self.router.borrow();
        let ob = self.outbox.borrow().clone();
        let mut counters = r.counters.clone();
        let f = &mut counters.frames;
        for &[out_port_down, out_no_port, in_port_down] in self.switch_dropped.borrow().iter() {
            f.switch_dropped_out_port_down += out_port_down;
            f.switch_dropped_out_no_port += out_no_port;
            f.switch_dropped_in_port_down += in_port_down;
        }
        NetReport {
            counters,
            hosts: self.hosts.borrow().clone(),
            events: self.applied.borrow().clone(),
            transport_local: r.transport_local.to_base64(),
            transport_cross: r.transport_cross.to_base64(),
            frames_to_other_workers: ob.map_or(0, |o| o.frames_sent.get()),
            timed_out: false,
            flows: (0..self.model.len() as u32)
                .filter(|&i| self.model.owner(i) == self.me)
                .map(|i| (self.model.dpids[i as usize], self.flows.borrow()[i as usize]))
                .collect(),
            provisioning: self.prov.borrow().as_ref().map(|p| p.r.clone()),
            stream: self.stream.borrow().as_ref().map(|s| s.r.clone()),
            roles: self.roles.borrow().clone(),
            table_full: self.table_full.get(),
            first_connect_ns: self.connected.get().0,
            switches_connected: self.connected.get().1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::events::{Due, Target};
    use crate::network::model::tests::ring;

    fn lldp() -> Vec<u8> {
        let mut f = vec![0u8; 60];
        f[12..14].copy_from_slice(&0x88ccu16.to_be_bytes());
        f
    }

    /// One worker, ring,4 with a 1 ms link delay: frames cross only after the delay, through the
    /// delay line's timer, and the counters balance.
    #[test]
    fn frames_cross_after_the_delay_and_counters_balance() {
        let mut s = ring(4);
        s.link_delay_us = 1000;
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let local = tokio::task::LocalSet::new();
        local.block_on(&rt, async {
            let node = Rc::new(Node::new(&s, 1, 0));
            tokio::task::spawn_local(node.clone().run_delay_line());
            let t0 = mono_ns();
            node.transmit(0, &mut vec![(2, lldp()), (1, lldp()), (3, vec![0; 60])]);
            let inbox1 = node.inbox(1).unwrap();
            assert!(inbox1.frames.borrow().is_empty());
            inbox1.notify.notified().await;
            assert!(mono_ns() - t0 >= 1_000_000);
            let f = inbox1.frames.borrow_mut().pop().unwrap();
            assert_eq!((f.to, f.port), (1, 1));
            assert!(node.arrive(&f));
            let rep = node.finish().await;
            let c = &rep.counters;
            // one frame taken by switch 1; the one for switch 3 still sits in its inbox
            let f = &c.frames;
            assert_eq!((f.tx_linked, f.rx_linked, f.in_transit, f.to_hosts), (2, 1, 1, 1));
            c.check().unwrap();
            assert_eq!(rep.hosts.delivered, 1);
        });
    }

    /// A link goes down with both its ends on this worker: the reaction recorded is the first
    /// end switch whose flow entries change, not the last.
    #[test]
    fn a_link_down_records_its_first_end_to_change_flows() {
        let s = ring(4);
        let node = Node::new(&s, 1, 0);
        let link = node.model.link_of(s.links[0]).unwrap();
        node.apply(mono_ns(), Due { event: 0, at_ms: 0, target: Target::Link(link), up: false });
        let (a, _, b, _) = node.model.links[link as usize];
        node.switch_state(a, [0; 3], 0);
        assert_eq!(node.snapshot().events[0].flows_changed_ns, 0, "no change yet");
        node.switch_state(a, [0; 3], 3);
        let first = node.snapshot().events[0].flows_changed_ns;
        assert!(first > 0);
        std::thread::sleep(Duration::from_millis(2));
        node.switch_state(b, [0; 3], 5);
        assert_eq!(node.snapshot().events[0].flows_changed_ns, first);
    }
}
