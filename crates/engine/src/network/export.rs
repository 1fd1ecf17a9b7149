//! The network section of the engine's JSON result: the workers' figures merged.

use super::node::NetReport;
use super::router::NetCounters;
use super::hosts::HostCounters;
use crate::hist::Hist;
use serde_json::{json, Value};

fn hist_json(h: &Hist) -> Value {
    let s = h.summary();
    json!({"unit": "us", "count": s.count, "min": s.min_us, "p50": s.p50_us, "p99": s.p99_us, "max": s.max_us})
}

/// Null when the run had no network.
pub fn build(reports: &[&NetReport], links: usize) -> Value {
    if reports.is_empty() {
        return Value::Null;
    }
    let mut c = NetCounters::default();
    let mut hosts = HostCounters::default();
    let (mut local, mut cross) = (Hist::with_sigfig(3), Hist::with_sigfig(3));
    let mut events = vec![];
    for r in reports {
        c.merge(&r.counters);
        hosts.merge(&r.hosts);
        for (h, b) in [(&mut local, &r.transport_local), (&mut cross, &r.transport_cross)] {
            if let Ok(x) = Hist::from_base64(b) {
                h.merge(&x);
            }
        }
        events.extend(r.events.iter().cloned());
    }
    events.sort_by(|a, b| (a.event, a.worker).cmp(&(b.event, b.worker)));
    let lldp_total: u64 = c.lldp.iter().map(|d| d[0] + d[1]).sum();
    json!({
        "links": links,
        "links_probed_both_ways": c.links_probed_both_ways(),
        "lldp_forwarded": lldp_total,
        "invariant": match c.check() { Ok(()) => Value::from("ok"), Err(e) => Value::from(e) },
        "counters": {"tx_linked": c.tx_linked, "rx_linked": c.rx_linked, "dropped_down": c.dropped_down,
                     "dropped_unlinked": c.dropped_unlinked, "in_transit": c.in_transit, "to_hosts": c.to_hosts,
                     "switch_dropped_out_port_down": c.switch_dropped[0], "switch_dropped_out_no_port": c.switch_dropped[1],
                     "switch_dropped_in_port_down": c.switch_dropped[2]},
        "frames_to_other_workers": reports.iter().map(|r| r.frames_to_other_workers).sum::<u64>(),
        "transport_delay": {"same_worker": hist_json(&local), "cross_worker": hist_json(&cross)},
        "hosts": {"injected": hosts.injected, "delivered": hosts.delivered, "delivered_foreign": hosts.delivered_foreign,
                  "flows": hosts.flows},
        "events": events,
        "lldp_per_link": c.lldp,
        "flows_per_switch": reports.iter().flat_map(|r| r.flows.iter().cloned()).collect::<Vec<_>>(),
        "timed_out": reports.iter().any(|r| r.timed_out),
    })
}
