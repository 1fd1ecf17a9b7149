//! The host traffic of a worker's part of the network (`node.rs`), driven in time: the
//! provisioning flows (`provision.rs` decides which flow starts when) and the streams
//! (`stream.rs` numbers their frames). Each runs on the worker's thread, beside its sessions.

use super::clock::mono_ns;
use super::node::Node;
use super::provision::{announce_frame, flow_frame};
use super::router::{Frame, FROM_HOST};
use super::stream::stream_frame;
use std::rc::Rc;
use tokio::time::{sleep, Duration};

/// The provisioning traffic of one worker (the network checks it runs in one): announce the
/// destinations, wait `announce_ms`, then start flows as `Provision` allows until all are done.
pub async fn provision(node: Rc<Node>) {
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

/// The streams of one worker (the network checks it runs in one): every `interval_us` from
/// `start_ms`, each pair sends its next frame; a late timer sends the frames it owes at once.
pub async fn streams(node: Rc<Node>) {
    let Some(spec) = node.stream.borrow().as_ref().map(|s| s.spec.clone()) else { return };
    if let Some(s) = node.stream.borrow_mut().as_mut() {
        s.r.go_mono_ns = node.go_mono();
    }
    let go = node.go_mono();
    let step = spec.interval_us * 1000;
    let first = spec.start_ms * 1_000_000;
    let stop = if spec.stop_ms == 0 { u64::MAX } else { spec.stop_ms * 1_000_000 };
    let mut k: u64 = 0;
    loop {
        let due = first + k * step;
        if due >= stop {
            return;
        }
        let now = mono_ns().saturating_sub(go);
        if due > now {
            sleep(Duration::from_nanos(due - now)).await;
            continue;
        }
        for (i, &(s, d)) in spec.pairs.iter().enumerate() {
            let early = spec.pair_start_ms.get(i).is_some_and(|&ms| due < ms * 1_000_000);
            let late = spec.pair_stop_ms.get(i).is_some_and(|&ms| ms > 0 && due >= ms * 1_000_000);
            if early || late {
                continue;
            }
            let t = mono_ns().saturating_sub(go);
            let seq = node.stream.borrow_mut().as_mut().expect("stream state").send(i, t, due);
            let (index, port) = node.hosts.borrow_mut().inject(&node.model, t, s, d);
            let data = stream_frame(&node.model, s, d, i as u32, seq);
            node.deliver(Frame { to: index, port, link: FROM_HOST, dir: 0, sent_ns: mono_ns(), data });
        }
        k += 1;
    }
}
