//! Joining a worker to the network: build its `Node`, connect the transport to the other
//! workers, start the delay line; at go, the schedule and host traffic; at the end, the report.

use super::node::{NetReport, Node};
use super::transport;
use crate::config::{Config, Slice};
use std::rc::Rc;
use tokio::time::{sleep, timeout, Duration};

/// The run id the workers of one run share: the coordinator's pid (every local worker is its
/// child), so two runs on one machine never meet.
fn run_id() -> String {
    std::os::unix::process::parent_id().to_string()
}

/// This worker's node, connected to the others (None: the config has no network).
pub async fn attach(cfg: &Config, slice: Slice) -> Result<Option<Rc<Node>>, String> {
    let Some(spec) = &cfg.network else { return Ok(None) };
    let workers = cfg.workers.unwrap_or(1).max(1);
    let node = Rc::new(Node::new(spec, workers, slice.worker));
    if workers > 1 && !cfg.net_peers.is_empty() {
        let n2 = node.clone();
        let (ob, ib) = transport::start_tcp(slice.worker, &cfg.net_peers, Rc::new(move |f| n2.deliver(f))).await?;
        node.set_transport(ob, ib);
    } else if workers > 1 {
        let id = run_id();
        let listener = transport::bind(&id, slice.worker)?;
        let n2 = node.clone();
        let (ob, ib) = transport::start(&id, slice.worker, workers, listener, Rc::new(move |f| n2.deliver(f))).await?;
        node.set_transport(ob, ib);
    }
    tokio::task::spawn_local(node.clone().run_delay_line());
    super::node::set_current(Some(node.clone()));
    Ok(Some(node))
}

/// The measured phase begins `settle_ms` from now: start the schedule and the host traffic.
pub fn go(node: &Rc<Node>, cfg: &Config) {
    let (n, settle) = (node.clone(), Duration::from_millis(cfg.settle_ms));
    let host_ms = cfg.network.as_ref().map_or(0, |s| s.host_traffic_ms);
    let size = cfg.frame_size;
    tokio::task::spawn_local(async move {
        sleep(settle).await;
        if n.prov.borrow().is_some() {
            tokio::task::spawn_local(super::traffic::provision(n.clone()));
        }
        if n.stream.borrow().is_some() {
            tokio::task::spawn_local(super::traffic::streams(n.clone()));
        }
        if host_ms > 0 {
            tokio::task::spawn_local(n.clone().run_host_traffic(Duration::from_millis(host_ms), size));
        }
        n.run_schedule().await;
    });
}

/// After the sessions ended: close the transport, wait (bounded) for the other workers' frames,
/// and report. A worker that never closes its stream (it died) leaves `in_transit` short,
/// which `NetCounters::check` then shows.
pub async fn finish(node: &Rc<Node>) -> NetReport {
    match timeout(Duration::from_secs(10), node.finish()).await {
        Ok(r) => r,
        Err(_) => NetReport { timed_out: true, ..node.snapshot() },
    }
}
