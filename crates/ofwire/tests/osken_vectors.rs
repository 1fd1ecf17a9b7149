//! os-ken's test vectors (tools/ofvectors/gen_osken.py): every message decodes to the field
//! values os-ken gave it and re-encodes to the same bytes.

mod common;

use common::describe::{describe, kind};
use common::subset::first_difference;
use ofwire::Message;
use serde_json::Value;

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

fn check_file(name: &str, text: &str) -> usize {
    let (n, failures) = failures(name, text);
    assert!(failures.is_empty(), "{} of {n} vectors failed:\n{}", failures.len(), failures.join("\n"));
    n
}

fn failures(name: &str, text: &str) -> (usize, Vec<String>) {
    let doc: Value = serde_json::from_str(text).unwrap();
    let vectors = doc["vectors"].as_array().unwrap();
    assert!(!vectors.is_empty(), "{name}: no vectors");
    let mut failures = Vec::new();
    for vec in vectors {
        let label = format!("{name}:{}", vec["name"].as_str().unwrap());
        let raw = unhex(vec["hex"].as_str().unwrap());
        let msg = match Message::parse(&raw) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{label}: decode failed: {e}"));
                continue;
            }
        };
        if kind(&msg.body) != vec["kind"].as_str().unwrap() {
            failures.push(format!("{label}: decoded as {} not {}", kind(&msg.body), vec["kind"]));
        }
        if let Some(diff) = first_difference(&vec["expect"], &describe(&msg), "") {
            failures.push(format!("{label}: {diff}"));
        }
        if msg.to_vec() != raw {
            failures.push(format!("{label}: re-encoding differs\n  want {}\n  got  {}", vec["hex"], common::describe::hex(&msg.to_vec())));
        }
    }
    (vectors.len(), failures)
}

#[test]
fn osken_of10_vectors() {
    assert!(check_file("of10", include_str!("vectors/osken_of10.json")) >= 60);
}

#[test]
fn osken_of13_vectors() {
    assert!(check_file("of13", include_str!("vectors/osken_of13.json")) >= 150);
}

#[test]
fn every_message_kind_is_covered() {
    let mut kinds = std::collections::BTreeSet::new();
    for text in [include_str!("vectors/osken_of10.json"), include_str!("vectors/osken_of13.json")] {
        let doc: Value = serde_json::from_str(text).unwrap();
        for v in doc["vectors"].as_array().unwrap() {
            kinds.insert(format!("{}/{}", doc["version"], v["kind"].as_str().unwrap()));
        }
    }
    let both = [
        "hello",
        "error",
        "echo_request",
        "echo_reply",
        "experimenter",
        "features_request",
        "features_reply",
        "get_config_request",
        "get_config_reply",
        "set_config",
        "packet_in",
        "flow_removed",
        "port_status",
        "packet_out",
        "flow_mod",
        "port_mod",
        "stats_request_desc",
        "stats_request_flow",
        "stats_request_aggregate",
        "stats_request_table",
        "stats_request_port",
        "stats_request_queue",
        "stats_reply_desc",
        "stats_reply_flow",
        "stats_reply_aggregate",
        "stats_reply_table",
        "stats_reply_port",
        "stats_reply_queue",
        "barrier_request",
        "barrier_reply",
    ];
    let only13 = [
        "group_mod",
        "meter_mod",
        "stats_request_port_desc",
        "stats_reply_port_desc",
        "role_request",
        "role_reply",
        "get_async_request",
        "get_async_reply",
        "set_async",
    ];
    let mut missing = Vec::new();
    for k in both {
        for v in [1, 4] {
            if !kinds.contains(&format!("{v}/{k}")) {
                missing.push(format!("{v}/{k}"));
            }
        }
    }
    for k in only13 {
        if !kinds.contains(&format!("4/{k}")) {
            missing.push(format!("4/{k}"));
        }
    }
    assert!(missing.is_empty(), "kinds without a vector: {missing:?}");
}

#[test]
fn a_wrong_expectation_or_byte_is_caught() {
    let mut doc: Value = serde_json::from_str(include_str!("vectors/osken_of13.json")).unwrap();
    let v = doc["vectors"].as_array_mut().unwrap().iter_mut().find(|v| v["name"] == "flow_mod_add_rich").unwrap();
    v["expect"]["instructions"][1]["actions"][4]["value"] = serde_json::json!(63);
    let (_, f) = failures("mutated", &doc.to_string());
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].contains(".instructions[1].actions[4].value"), "{f:?}");
    let mut doc: Value = serde_json::from_str(include_str!("vectors/osken_of10.json")).unwrap();
    let v = &mut doc["vectors"][0];
    let mut h = v["hex"].as_str().unwrap().to_string();
    h.replace_range(14..16, "ee");
    v["hex"] = serde_json::json!(h);
    let (_, f) = failures("mutated", &doc.to_string());
    assert!(f.len() == 1 && f[0].contains(".xid"), "{f:?}");
}

#[test]
fn osken_lldp_frames() {
    use ofwire::frame::{self, lldp::Lldp, Payload};
    let doc: Value = serde_json::from_str(include_str!("vectors/osken_lldp.json")).unwrap();
    let frames = doc["frames"].as_array().unwrap();
    assert!(frames.len() >= 3);
    for f in frames {
        let raw = unhex(f["hex"].as_str().unwrap());
        let parsed = frame::parse(&raw).unwrap();
        let Payload::Lldp(l) = &parsed.payload else { panic!("not LLDP: {parsed:?}") };
        assert_eq!(l.dpid(), f["dpid"].as_u64());
        assert_eq!(l.port_no().map(u64::from), f["port_no"].as_u64());
        assert_eq!(u64::from(l.ttl), f["ttl"].as_u64().unwrap());
        assert_eq!(common::describe::hex(&parsed.src), f["src_mac"].as_str().unwrap());
        // Our builder makes the same bytes os-ken does.
        let mut mine = Lldp::for_port(l.dpid().unwrap(), l.port_no().unwrap());
        mine.ttl = l.ttl;
        assert_eq!(frame::lldp_frame(parsed.src, &mine), raw);
    }
}
