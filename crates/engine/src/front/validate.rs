//! Range and consistency checks of a `Config`, one line per bad field, naming the field (as in
//! the JSON config) and the bad value. The command line, the JSON config and `check` all use it.

use crate::config::{Config, Mode};

fn range<T: PartialOrd + std::fmt::Display>(errs: &mut Vec<String>, field: &str, v: T, lo: T, hi: T) {
    if v < lo || v > hi {
        errs.push(format!("{field}: {v} is out of range ({lo} to {hi})"));
    }
}

/// Upper bounds: past them a run could not start on any machine, or would not end in a day
/// (a typo, not a benchmark); each is far beyond what a run here uses.
pub(crate) const MAX_SWITCHES: u32 = 1_000_000;
const MAX_LOOPS: u32 = 1_000_000;
const MAX_WINDOW: u32 = 1_000_000;
const MAX_WORKERS: u32 = 4096;
const MAX_RATE: f64 = 1e9;
const HOUR_MS: u64 = 3_600_000;

/// Every problem in `c` (empty: valid).
pub fn check(c: &Config) -> Vec<String> {
    let mut e = Vec::new();
    range(&mut e, "switches", c.switches, 1, MAX_SWITCHES);
    if c.mode != Mode::Capacity {
        range(&mut e, "loops", c.loops, 1, MAX_LOOPS);
    }
    range(&mut e, "warmup", c.warmup, 0, MAX_LOOPS);
    range(&mut e, "loop_ms", c.loop_ms, 1, HOUR_MS);
    for (field, v) in
        [("settle_ms", c.settle_ms), ("echo_interval_ms", c.echo_interval_ms), ("hold_ms", c.hold_ms), ("echo_every_ms", c.echo_every_ms)]
    {
        range(&mut e, field, v, 0, HOUR_MS);
    }
    if c.first_dpid.checked_add(c.switches as u64).is_none() {
        e.push(format!(
            "first_dpid: {} leaves no room for {} switches (at most {})",
            c.first_dpid,
            c.switches,
            u64::MAX - c.switches as u64
        ));
    }
    // cbench's MAC index is 4 bytes of the source MAC (its default -M is 100,000); the other
    // profiles announce every host with an ARP and number hosts in 16 bits
    let max_macs = if c.profile() == ofswitch::Profile::Cbench { u32::MAX } else { 65_535 };
    range(&mut e, "macs", c.macs, 1, max_macs);
    range(&mut e, "loop_gap_ms", c.loop_gap_ms, 0, 60_000);
    range(&mut e, "ports", c.ports, 1, 65_000);
    range(&mut e, "frame_size", c.frame_size, 60, 9000);
    range(&mut e, "window", c.window, 1, MAX_WINDOW);
    range(&mut e, "timeout_ms", c.timeout_ms, 1, HOUR_MS);
    range(&mut e, "timeout_floor_ms", c.timeout_floor_ms, 1, HOUR_MS);
    range(&mut e, "connect_timeout_ms", c.connect_timeout_ms, 1, HOUR_MS);
    range(&mut e, "coalesce_pct", c.coalesce_pct, 0.0, 10.0);
    range(&mut e, "connect_parallel", c.connect_parallel, 1, MAX_SWITCHES);
    range(&mut e, "reconnect_backoff_ms", c.reconnect_backoff_ms, 1, 3_600_000);
    range(&mut e, "max_backoff_ms", c.max_backoff_ms, c.reconnect_backoff_ms, 3_600_000);
    if let Some(w) = c.workers {
        range(&mut e, "workers", w, 1, MAX_WORKERS);
    }
    // a rate is a positive number in every mode (fixed-rate uses it; elsewhere it is recorded)
    if !(c.rate > 0.0 && c.rate <= MAX_RATE) {
        e.push(format!("rate: {} is not a positive number of requests/s (at most {MAX_RATE})", c.rate));
    }
    if c.versions.is_empty() || !c.versions.is_known() {
        e.push(format!("versions: bitmap {:#x} must offer 1.0 (bit 1), 1.3 (bit 4) or both", c.versions));
    }
    match c.traffic.parse::<ofswitch::Profile>() {
        Err(err) => e.push(format!("traffic: {err}")),
        Ok(p) if p.needs_of13() && !c.versions.has(ofwire::OFP13) => {
            e.push(format!("traffic: profile {p} is OpenFlow 1.3 only (Faucet's packet-ins); offer 1.3 (--of 1.3)"))
        }
        Ok(_) => {}
    }
    if !c.links.is_empty() && c.ports < 2 {
        e.push(format!("links: need at least 2 ports per switch, not {}", c.ports));
    }
    e.extend(crate::network::check(c));
    e.extend(crate::robust::check(c));
    e.extend(crate::distributed::agents::check(&c.agents, c.switches));
    if !(c.max_skew_ms > 0.0 && c.max_skew_ms <= HOUR_MS as f64) {
        e.push(format!("max_skew_ms: {} (a positive number of ms, at most {HOUR_MS})", c.max_skew_ms));
    }
    for a in &c.source_addrs {
        if a.parse::<std::net::IpAddr>().is_err() {
            e.push(format!("source_addrs: {a:?} is not an IP address"));
        }
    }
    if let Some(t) = &c.tls {
        // the files are read now: a missing, unreadable or non-PEM one is this run's mistake
        if let Err(err) = crate::tls::Client::new(t, c.controller()) {
            e.push(err);
        }
    }
    if c.controllers.is_empty() {
        e.push("controllers: no controller address given".into());
    }
    // a Kubernetes manifest's controller is resolved in the pods (the cluster's DNS), not here
    let in_pods = crate::distributed::k8s::of(c).is_some();
    for a in &c.controllers {
        let shape = a.rsplit_once(':').is_some_and(|(h, p)| !h.is_empty() && p.parse::<u16>().is_ok());
        if in_pods && !shape {
            e.push(format!("controllers: {a:?} is not HOST:PORT"));
        } else if let (false, Err(err)) = (in_pods, crate::config::limits::resolve(a)) {
            e.push(format!("controllers: {err}"));
        }
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        assert_eq!(check(&Config::default()), Vec::<String>::new());
    }

    #[test]
    fn each_bad_field_is_named_with_its_value() {
        let c = Config { switches: 0, loops: 0, frame_size: 10, workers: Some(0), controllers: vec!["nohost".into()], ..Config::default() };
        let e = check(&c);
        for f in ["switches: 0", "loops: 0", "frame_size: 10", "workers: 0", "controllers:"] {
            assert!(e.iter().any(|l| l.starts_with(f)), "{f} missing in {e:?}");
        }
    }

    #[test]
    fn a_parsed_config_is_checked_field_by_field() {
        let c = Config::parse_json(r#"{"switches": 0, "workers": 0, "traffic": "x"}"#).unwrap();
        let e = check(&c);
        assert!(e.iter().any(|l| l.starts_with("switches")), "{e:?}");
        assert!(e.iter().any(|l| l.starts_with("traffic") && l.contains("unique-pairs")), "{e:?}");
        assert!(e.iter().all(|l| !l.contains('\n')));
    }

    #[test]
    fn capacity_needs_no_loops() {
        let c = Config { mode: Mode::Capacity, loops: 0, ..Config::default() };
        assert!(check(&c).is_empty());
    }
}
