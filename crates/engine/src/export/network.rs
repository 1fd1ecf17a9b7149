//! The result's `network` section: the workers' network figures merged (`src/network/`).

use crate::hist::Hist;
use crate::network::node::NetReport;
use crate::network::router::NetCounters;
use crate::result::network::frames::HostCounters;
use crate::result::network::{Brief, Checked, Discovery, Network, Role, TransportDelay};

fn brief(h: &Hist) -> Brief {
    let s = h.summary();
    Brief { unit: "us".into(), count: s.count, min: s.min_us, p50: s.p50_us, p99: s.p99_us, max: s.max_us }
}

fn verdict(r: Result<(), String>) -> String {
    r.err().unwrap_or_else(|| "ok".into())
}

/// None when the run had no network.
pub fn build(reports: &[&NetReport], links: usize) -> Option<Network> {
    if reports.is_empty() {
        return None;
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
    Some(Network {
        links: links as u64,
        links_probed_both_ways: c.links_probed_both_ways() as u64,
        links_raised_both_ways: c.links_raised_both_ways() as u64,
        lldp_forwarded: c.lldp.iter().map(|d| d[0] + d[1]).sum(),
        invariant: verdict(c.check()),
        counters: c.frames.clone(),
        frames_to_other_workers: reports.iter().map(|r| r.frames_to_other_workers).sum(),
        transport_delay: TransportDelay { same_worker: brief(&local), cross_worker: brief(&cross) },
        hosts,
        events,
        lldp_per_link: c.lldp.clone(),
        lldp_raised_per_link: c.lldp_raised.clone(),
        flows_per_switch: reports.iter().flat_map(|r| r.flows.iter().cloned()).collect(),
        timed_out: reports.iter().any(|r| r.timed_out),
        table_full: reports.iter().map(|r| r.table_full).sum(),
        provisioning: reports
            .iter()
            .find_map(|r| r.provisioning.as_ref())
            .map(|p| Checked { record: p.clone(), invariant: verdict(p.check()) }),
        stream: reports.iter().find_map(|r| r.stream.as_ref()).map(|s| Checked { record: s.clone(), invariant: verdict(s.check()) }),
        roles: roles(reports),
        discovery: discovery(reports, &c),
    })
}

/// The southbound view of discovery (RFC 8456 §5.1.1): times in ms since the first switch
/// connected. `probes_ms[l][d]` = [first, last] probe that crossed link `l` in direction `d`
/// (None: none); `complete_ms` = when the last link direction carried its first probe (None
/// until every link carried probes both ways). `first_connect_mono_ns` is CLOCK_MONOTONIC, the
/// clock of Python's `time.monotonic_ns()`, so a northbound poller can align its own times.
fn discovery(reports: &[&NetReport], c: &NetCounters) -> Discovery {
    let t0 = reports.iter().map(|r| r.first_connect_ns).filter(|&t| t != 0).min().unwrap_or(0);
    let ms = |t: u64| if t == 0 { None } else { Some(t.saturating_sub(t0) as f64 / 1e6) };
    let probes_ms = (0..c.lldp.len())
        .map(|l| {
            let first = c.lldp_first_ns.get(l).copied().unwrap_or([0; 2]);
            let last = c.lldp_last_ns.get(l).copied().unwrap_or([0; 2]);
            [[ms(first[0]), ms(last[0])], [ms(first[1]), ms(last[1])]]
        })
        .collect();
    let all: Option<Vec<u64>> =
        (0..c.lldp.len()).flat_map(|l| [(l, 0), (l, 1)]).map(|(l, d)| c.lldp_first_ns.get(l).map(|x| x[d]).filter(|&t| t != 0)).collect();
    let complete_ms = match all {
        Some(v) if !v.is_empty() && t0 != 0 => ms(v.into_iter().max().unwrap()),
        _ => None,
    };
    Discovery { first_connect_mono_ns: t0, switches_connected: reports.iter().map(|r| r.switches_connected).sum(), complete_ms, probes_ms }
}

/// OF1.3 role changes the switches saw, in time order (channel 0 is the first controller
/// address; roles EQUAL 1, MASTER 2, SLAVE 3).
fn roles(reports: &[&NetReport]) -> Vec<Role> {
    let mut all: Vec<(u64, u64, u32, u32)> = reports.iter().flat_map(|r| r.roles.iter().cloned()).collect();
    all.sort_by_key(|r| (r.1, r.0));
    all.into_iter().map(|(dpid, mono_ns, channel, role)| Role { dpid, mono_ns, channel, role }).collect()
}
