//! The network section of the engine's JSON result: the workers' figures merged.

use super::hosts::HostCounters;
use super::node::NetReport;
use super::router::NetCounters;
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
    events.sort_by_key(|e| (e.event, e.worker));
    let lldp_total: u64 = c.lldp.iter().map(|d| d[0] + d[1]).sum();
    json!({
        "links": links,
        "links_probed_both_ways": c.links_probed_both_ways(),
        "links_raised_both_ways": c.links_raised_both_ways(),
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
        "lldp_raised_per_link": c.lldp_raised,
        "flows_per_switch": reports.iter().flat_map(|r| r.flows.iter().cloned()).collect::<Vec<_>>(),
        "timed_out": reports.iter().any(|r| r.timed_out),
        "table_full": reports.iter().map(|r| r.table_full).sum::<u64>(),
        "provisioning": provisioning(reports),
        "stream": stream(reports),
        "roles": roles(reports),
        "discovery": discovery(reports, &c),
    })
}

/// The southbound view of discovery (RFC 8456 §5.1.1): times in ms since the first switch
/// connected. `probes_ms[l][d]` = [first, last] probe that crossed link `l` in direction `d`
/// (null: none); `complete_ms` = when the last link direction carried its first probe (null
/// until every link carried probes both ways). `first_connect_mono_ns` is CLOCK_MONOTONIC, the
/// clock of Python's `time.monotonic_ns()`, so a northbound poller can align its own times.
pub fn discovery(reports: &[&NetReport], c: &NetCounters) -> Value {
    let t0 = reports.iter().map(|r| r.first_connect_ns).filter(|&t| t != 0).min().unwrap_or(0);
    let ms = |t: u64| if t == 0 { Value::Null } else { Value::from(t.saturating_sub(t0) as f64 / 1e6) };
    let probes: Vec<Value> = (0..c.lldp.len())
        .map(|l| {
            let first = c.lldp_first_ns.get(l).copied().unwrap_or([0; 2]);
            let last = c.lldp_last_ns.get(l).copied().unwrap_or([0; 2]);
            json!([[ms(first[0]), ms(last[0])], [ms(first[1]), ms(last[1])]])
        })
        .collect();
    let all: Option<Vec<u64>> =
        (0..c.lldp.len()).flat_map(|l| [(l, 0), (l, 1)]).map(|(l, d)| c.lldp_first_ns.get(l).map(|x| x[d]).filter(|&t| t != 0)).collect();
    let complete = match all {
        Some(v) if !v.is_empty() && t0 != 0 => ms(v.into_iter().max().unwrap()),
        _ => Value::Null,
    };
    json!({
        "first_connect_mono_ns": t0,
        "switches_connected": reports.iter().map(|r| r.switches_connected).sum::<u32>(),
        "complete_ms": complete,
        "probes_ms": probes,
    })
}

/// The provisioning traffic (`provision.rs`; one worker runs it): per flow the ingress and egress
/// times in ns since go (0: never), and the invariant. Null when the network had none.
pub fn provisioning(reports: &[&NetReport]) -> Value {
    let Some(p) = reports.iter().find_map(|r| r.provisioning.as_ref()) else { return Value::Null };
    let mut v = serde_json::to_value(p).unwrap_or(Value::Null);
    v["invariant"] = match p.check() {
        Ok(()) => Value::from("ok"),
        Err(e) => Value::from(e),
    };
    v
}

/// The streams (`stream.rs`; one worker runs them): per pair its raw record, and the invariant.
/// Null when the network had none.
pub fn stream(reports: &[&NetReport]) -> Value {
    let Some(s) = reports.iter().find_map(|r| r.stream.as_ref()) else { return Value::Null };
    let mut v = serde_json::to_value(s).unwrap_or(Value::Null);
    v["invariant"] = match s.check() {
        Ok(()) => Value::from("ok"),
        Err(e) => Value::from(e),
    };
    v
}

/// OF1.3 role changes the switches saw, in time order: `{dpid, mono_ns, channel, role}` (channel 0
/// is the first controller address; roles EQUAL 1, MASTER 2, SLAVE 3).
pub fn roles(reports: &[&NetReport]) -> Value {
    let mut all: Vec<(u64, u64, u32, u32)> = reports.iter().flat_map(|r| r.roles.iter().cloned()).collect();
    all.sort_by_key(|r| (r.1, r.0));
    all.iter().map(|&(dpid, t, channel, role)| json!({"dpid": dpid, "mono_ns": t, "channel": channel, "role": role})).collect()
}
