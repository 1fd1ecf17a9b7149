//! The network JSON (field `network` of the engine config), as the Python topology side writes it,
//! and its validation. Every error is one line naming the field: `network.links[3]: ...`. It is
//! parsed once, with the config (`Config::network`); the emulated network (`crate::network`)
//! reads the typed spec.
//!
//! ```json
//! {"spec": "ring,50",
//!  "switches": [{"dpid": 1, "ports": 3}],          // ports are numbered 1..=ports
//!  "links": [[1, 1, 2, 2]],                         // [dpid_a, port_a, dpid_b, port_b]
//!  "hosts": [{"dpid": 1, "port": 3, "mac": "00:00:00:00:00:01", "ip": "10.0.0.1"}],
//!  "link_delay_us": 0,
//!  "events": [{"at_ms": 5000, "link": [1, 1, 2, 2], "state": "down"}]}
//! ```
//! Invariants after `validate` succeeds: dpids are unique; every link and host end names an
//! existing port, and every (dpid, port) is used by at most one link or host; host MACs and IPs
//! are unique; every event names a link of the network (either orientation) or an existing port.

pub(crate) mod provision;
pub(crate) mod stream;

use crate::result::network::events::LinkState;
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::HashMap;
use std::net::Ipv4Addr;

/// One switch-to-switch link: (dpid_a, port_a, dpid_b, port_b).
pub type LinkSpec = (u64, u32, u64, u32);

/// Highest physical port number OpenFlow 1.3 allows (OFPP_MAX = 0xffffff00); 1.0 stops at 0xff00.
pub const MAX_PORT: u32 = 0xff00;
/// A link delay above this is a typo, not an experiment.
pub const MAX_DELAY_US: u64 = 10_000_000;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkSpec {
    /// The topology spec it was built from (for the record only).
    #[serde(default)]
    pub spec: String,
    pub switches: Vec<SwitchSpec>,
    #[serde(default)]
    pub links: Vec<LinkSpec>,
    #[serde(default)]
    pub hosts: Vec<HostSpec>,
    /// One-way delay every link adds, in microseconds.
    #[serde(default)]
    pub link_delay_us: u64,
    #[serde(default)]
    pub events: Vec<EventSpec>,
    /// The `hosts` traffic: every this many ms, each host sends one frame to the next host
    /// (0: hosts send nothing).
    #[serde(default)]
    pub host_traffic_ms: u64,
    /// The provisioning traffic (`provision.rs`): new flows across chosen host pairs.
    #[serde(default)]
    pub provisioning: Option<provision::ProvisionSpec>,
    /// Sequence-numbered streams between host pairs (`stream.rs`).
    #[serde(default)]
    pub stream: Option<stream::StreamSpec>,
    /// Flow entries each emulated switch holds at most (0: no limit); an ADD beyond it is
    /// refused with TABLE_FULL (RFC 8456 §5.2.3's switch-side limit).
    #[serde(default)]
    pub table_size: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwitchSpec {
    pub dpid: u64,
    pub ports: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostSpec {
    pub dpid: u64,
    pub port: u32,
    pub mac: String,
    pub ip: String,
}

/// The config's `network` field (null: no network). A spec that does not read says so in one
/// line naming the field, `network: ...` (its checks are `validate`'s, at config time too).
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<NetworkSpec>, D::Error> {
    let Some(v) = Option::<serde_json::Value>::deserialize(d)? else { return Ok(None) };
    parse(v).map(Some).map_err(serde::de::Error::custom)
}

/// A network spec from its JSON: `network: ...` when it does not read.
pub fn parse(v: serde_json::Value) -> Result<NetworkSpec, String> {
    serde_json::from_value(v).map_err(|e| format!("network: {e}"))
}

/// A scheduled change, `at_ms` after the measured phase begins: a link (both ends) or one port.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventSpec {
    pub at_ms: u64,
    #[serde(default)]
    pub link: Option<LinkSpec>,
    /// (dpid, port): one port only (the peer sees nothing but lost frames).
    #[serde(default)]
    pub port: Option<(u64, u32)>,
    pub state: LinkState,
}

pub fn parse_mac(s: &str) -> Option<[u8; 6]> {
    let parts: Vec<&str> = s.split(':').collect();
    if parts.len() != 6 {
        return None;
    }
    let mut m = [0u8; 6];
    for (i, p) in parts.iter().enumerate() {
        if p.len() != 2 {
            return None;
        }
        m[i] = u8::from_str_radix(p, 16).ok()?;
    }
    Some(m)
}

/// Check everything that can be checked without the machine (see the module doc).
pub fn validate(n: &NetworkSpec) -> Result<(), String> {
    let ports = switch_ports(n)?;
    let mut used: HashMap<(u64, u32), String> = HashMap::new();
    let mut claim = |dpid: u64, port: u32, what: String| -> Result<(), String> {
        match ports.get(&dpid) {
            None => return Err(format!("{what}: no switch with dpid {dpid}")),
            Some(&p) if port == 0 || port > p => return Err(format!("{what}: dpid {dpid} has no port {port} (its ports are 1..={p})")),
            _ => {}
        }
        if let Some(first) = used.insert((dpid, port), what.clone()) {
            return Err(format!("{what}: port {port} of dpid {dpid} is already used by {first}"));
        }
        Ok(())
    };
    for (i, &(a, pa, b, pb)) in n.links.iter().enumerate() {
        claim(a, pa, format!("network.links[{i}]"))?;
        claim(b, pb, format!("network.links[{i}]"))?;
    }
    for (i, h) in n.hosts.iter().enumerate() {
        claim(h.dpid, h.port, format!("network.hosts[{i}]"))?;
    }
    check_addresses(&n.hosts)?;
    if n.link_delay_us > MAX_DELAY_US {
        return Err(format!("network.link_delay_us: {} is more than {} (10 s)", n.link_delay_us, MAX_DELAY_US));
    }
    if let Some(p) = &n.provisioning {
        provision::validate(p, n.hosts.len())?;
    }
    if let Some(s) = &n.stream {
        stream::validate(s, n.hosts.len())?;
    }
    check_events(n, &ports)
}

fn switch_ports(n: &NetworkSpec) -> Result<HashMap<u64, u32>, String> {
    if n.switches.is_empty() {
        return Err("network.switches: empty (a network needs at least one switch)".into());
    }
    let mut ports = HashMap::with_capacity(n.switches.len());
    let mut first = HashMap::with_capacity(n.switches.len());
    for (i, s) in n.switches.iter().enumerate() {
        if s.ports == 0 || s.ports > MAX_PORT {
            return Err(format!("network.switches[{i}].ports: {} (must be 1..={MAX_PORT})", s.ports));
        }
        if s.dpid == 0 {
            return Err(format!("network.switches[{i}].dpid: 0 is not a datapath id"));
        }
        if let Some(j) = first.insert(s.dpid, i) {
            return Err(format!("network.switches[{i}].dpid: {} appears twice (also switches[{j}])", s.dpid));
        }
        ports.insert(s.dpid, s.ports);
    }
    Ok(ports)
}

fn check_addresses(hosts: &[HostSpec]) -> Result<(), String> {
    let mut macs: HashMap<[u8; 6], usize> = HashMap::new();
    let mut ips: HashMap<Ipv4Addr, usize> = HashMap::new();
    for (i, h) in hosts.iter().enumerate() {
        let mac =
            parse_mac(&h.mac).ok_or_else(|| format!("network.hosts[{i}].mac: {:?} is not a MAC address (aa:bb:cc:dd:ee:ff)", h.mac))?;
        if mac[0] & 1 != 0 {
            return Err(format!("network.hosts[{i}].mac: {} is a multicast address", h.mac));
        }
        let ip: Ipv4Addr = h.ip.parse().map_err(|_| format!("network.hosts[{i}].ip: {:?} is not an IPv4 address", h.ip))?;
        if let Some(j) = macs.insert(mac, i) {
            return Err(format!("network.hosts[{i}].mac: {} collides with hosts[{j}]", h.mac));
        }
        if let Some(j) = ips.insert(ip, i) {
            return Err(format!("network.hosts[{i}].ip: {} collides with hosts[{j}]", h.ip));
        }
    }
    Ok(())
}

fn check_events(n: &NetworkSpec, ports: &HashMap<u64, u32>) -> Result<(), String> {
    for (i, e) in n.events.iter().enumerate() {
        match (&e.link, e.port) {
            (Some(l), None) => {
                let (a, pa, b, pb) = *l;
                if !n.links.iter().any(|&k| k == (a, pa, b, pb) || k == (b, pb, a, pa)) {
                    return Err(format!("network.events[{i}].link: [{a}, {pa}, {b}, {pb}] is not a link of the network"));
                }
            }
            (None, Some((d, p))) => {
                if !ports.get(&d).is_some_and(|&np| p >= 1 && p <= np) {
                    return Err(format!("network.events[{i}].port: dpid {d} has no port {p}"));
                }
            }
            _ => return Err(format!("network.events[{i}]: give exactly one of \"link\" or \"port\"")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(n: u64) -> NetworkSpec {
        NetworkSpec {
            spec: format!("ring,{n}"),
            switches: (1..=n).map(|d| SwitchSpec { dpid: d, ports: 3 }).collect(),
            links: (1..=n).map(|d| (d, 2, d % n + 1, 1)).collect(),
            hosts: (1..=n)
                .map(|d| HostSpec { dpid: d, port: 3, mac: format!("00:00:00:00:00:{d:02x}"), ip: format!("10.0.0.{d}") })
                .collect(),
            ..Default::default()
        }
    }

    fn err(n: &NetworkSpec) -> String {
        validate(n).unwrap_err()
    }

    #[test]
    fn a_ring_is_valid_and_round_trips() {
        let n = ring(5);
        validate(&n).unwrap();
        let j = serde_json::to_string(&n).unwrap();
        assert!(j.contains("\"links\":[[1,2,2,1],"));
        assert_eq!(serde_json::from_str::<NetworkSpec>(&j).unwrap(), n);
    }

    #[test]
    fn the_documented_example_parses() {
        let j = r#"{"spec": "ring,50", "switches": [{"dpid": 1, "ports": 3}, {"dpid": 2, "ports": 3}],
            "links": [[1, 1, 2, 2]], "hosts": [{"dpid": 1, "port": 3, "mac": "00:00:00:00:00:01", "ip": "10.0.0.1"}],
            "link_delay_us": 0, "events": [{"at_ms": 5000, "link": [2, 2, 1, 1], "state": "down"}]}"#;
        let n: NetworkSpec = serde_json::from_str(j).unwrap();
        validate(&n).unwrap();
        assert_eq!(n.events[0].state, LinkState::Down);
    }

    #[test]
    fn unknown_fields_are_refused() {
        let e = serde_json::from_str::<NetworkSpec>(r#"{"switches": [], "linkz": []}"#).unwrap_err();
        assert!(e.to_string().contains("linkz"), "{e}");
    }

    #[test]
    fn each_mistake_is_one_line_naming_its_field() {
        let mut n = ring(4);
        n.switches[2].dpid = 1;
        assert_eq!(err(&n), "network.switches[2].dpid: 1 appears twice (also switches[0])");
        let mut n = ring(4);
        n.links[1].1 = 7;
        assert_eq!(err(&n), "network.links[1]: dpid 2 has no port 7 (its ports are 1..=3)");
        let mut n = ring(4);
        n.links[1].2 = 99;
        assert_eq!(err(&n), "network.links[1]: no switch with dpid 99");
        let mut n = ring(4);
        n.hosts[0].port = 2;
        assert_eq!(err(&n), "network.hosts[0]: port 2 of dpid 1 is already used by network.links[0]");
        let mut n = ring(4);
        n.hosts[3].mac = n.hosts[1].mac.clone();
        assert_eq!(err(&n), "network.hosts[3].mac: 00:00:00:00:00:02 collides with hosts[1]");
        let mut n = ring(4);
        n.hosts[3].ip = "10.0.0.1".into();
        assert_eq!(err(&n), "network.hosts[3].ip: 10.0.0.1 collides with hosts[0]");
        let mut n = ring(4);
        n.hosts[0].mac = "00:00:00:00:01".into();
        assert!(err(&n).starts_with("network.hosts[0].mac: \"00:00:00:00:01\" is not a MAC"));
        let mut n = ring(4);
        n.events.push(EventSpec { at_ms: 1, link: Some((1, 1, 2, 2)), port: None, state: LinkState::Down });
        assert_eq!(err(&n), "network.events[0].link: [1, 1, 2, 2] is not a link of the network");
        let mut n = ring(4);
        n.link_delay_us = MAX_DELAY_US + 1;
        assert!(err(&n).starts_with("network.link_delay_us:"));
        assert!(!err(&NetworkSpec::default()).contains('\n'));
    }

    #[test]
    fn events_name_links_in_either_orientation_or_a_port() {
        let mut n = ring(3);
        n.events.push(EventSpec { at_ms: 1, link: Some((2, 1, 1, 2)), port: None, state: LinkState::Down });
        n.events.push(EventSpec { at_ms: 2, link: None, port: Some((3, 3)), state: LinkState::Up });
        validate(&n).unwrap();
        n.events.push(EventSpec { at_ms: 3, link: None, port: None, state: LinkState::Up });
        assert_eq!(err(&n), "network.events[2]: give exactly one of \"link\" or \"port\"");
    }
}
