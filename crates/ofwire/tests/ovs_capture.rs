//! Real traffic: Open vSwitch (userspace datapath) talking to ovs-testcontroller and to
//! os-ken's learning app, in OpenFlow 1.0 and 1.3, captured with tcpdump on loopback by
//! tools/ofvectors/capture_ovs.py. Every message must decode and re-encode byte for byte.

mod common;

use common::describe::kind;
use common::pcap::tcp_streams;
use ofwire::{frame_len, Message};
use std::collections::BTreeMap;

/// Decodes every message of every stream; returns message counts by kind.
fn check(name: &str, file: &[u8], version: u8) -> BTreeMap<String, usize> {
    let streams = tcp_streams(file);
    assert!(streams.len() >= 2, "{name}: expected both directions of a connection, got {}", streams.len());
    let mut kinds = BTreeMap::new();
    for (key, stream) in &streams {
        let mut rest = &stream[..];
        while !rest.is_empty() {
            let len = frame_len(rest).unwrap().unwrap_or_else(|| panic!("{name} {key:?}: stream ends inside a header"));
            assert!(len <= rest.len(), "{name} {key:?}: stream ends inside a message");
            let (one, next) = rest.split_at(len);
            let msg = Message::parse(one).unwrap_or_else(|e| panic!("{name} {key:?}: {e} decoding {}", common::describe::hex(one)));
            assert_eq!(msg.to_vec(), one, "{name} {key:?}: re-encoding of {msg:?} differs");
            if kind(&msg.body) != "hello" {
                assert_eq!(msg.version, version, "{name}: {msg}");
            }
            *kinds.entry(kind(&msg.body)).or_insert(0) += 1;
            rest = next;
        }
    }
    eprintln!("{name}: {kinds:?}");
    kinds
}

fn assert_has(name: &str, kinds: &BTreeMap<String, usize>, want: &[&str]) {
    for k in want {
        assert!(kinds.contains_key(*k), "{name}: no {k} in capture; saw {kinds:?}");
    }
}

const HANDSHAKE: &[&str] = &["hello", "features_request", "features_reply", "packet_in"];

#[test]
fn ovs_testcontroller_openflow10() {
    let k = check("ovs_testcontroller_of10", include_bytes!("pcap/ovs_testcontroller_of10.pcap"), 1);
    assert_has("ovs_testcontroller_of10", &k, HANDSHAKE);
    assert_has("ovs_testcontroller_of10", &k, &["flow_mod", "port_status"]);
}

#[test]
fn ovs_testcontroller_openflow13() {
    let k = check("ovs_testcontroller_of13", include_bytes!("pcap/ovs_testcontroller_of13.pcap"), 4);
    assert_has("ovs_testcontroller_of13", &k, HANDSHAKE);
    assert_has("ovs_testcontroller_of13", &k, &["flow_mod", "port_status"]);
}

#[test]
fn osken_openflow10() {
    let k = check("osken_of10", include_bytes!("pcap/osken_of10.pcap"), 1);
    assert_has("osken_of10", &k, HANDSHAKE);
    assert_has("osken_of10", &k, &["flow_mod", "packet_out", "port_status", "echo_request", "echo_reply"]);
}

#[test]
fn osken_openflow13() {
    let k = check("osken_of13", include_bytes!("pcap/osken_of13.pcap"), 4);
    assert_has("osken_of13", &k, HANDSHAKE);
    assert_has(
        "osken_of13",
        &k,
        &["flow_mod", "packet_out", "port_status", "echo_request", "echo_reply", "stats_request_port_desc", "stats_reply_port_desc"],
    );
}

#[test]
fn ovs_ofctl_openflow10() {
    let k = check("ovs_ofctl_of10", include_bytes!("pcap/ovs_ofctl_of10.pcap"), 1);
    assert_has("ovs_ofctl_of10", &k, &["hello", "features_request", "features_reply", "get_config_request", "get_config_reply"]);
    assert_has("ovs_ofctl_of10", &k, &["stats_request_desc", "stats_reply_desc", "stats_request_flow", "stats_reply_flow"]);
    assert_has("ovs_ofctl_of10", &k, &["stats_request_aggregate", "stats_reply_aggregate", "stats_request_table", "stats_reply_table"]);
    assert_has("ovs_ofctl_of10", &k, &["stats_request_port", "stats_reply_port", "stats_request_queue", "stats_reply_queue"]);
    assert_has("ovs_ofctl_of10", &k, &["flow_mod", "port_mod", "packet_out", "barrier_request", "barrier_reply"]);
}

#[test]
fn ovs_ofctl_openflow13() {
    let k = check("ovs_ofctl_of13", include_bytes!("pcap/ovs_ofctl_of13.pcap"), 4);
    assert_has("ovs_ofctl_of13", &k, &["hello", "features_request", "features_reply", "stats_request_port_desc", "stats_reply_port_desc"]);
    assert_has("ovs_ofctl_of13", &k, &["stats_request_desc", "stats_reply_desc", "stats_request_flow", "stats_reply_flow"]);
    assert_has("ovs_ofctl_of13", &k, &["stats_request_aggregate", "stats_reply_aggregate", "stats_request_port", "stats_reply_port"]);
    assert_has("ovs_ofctl_of13", &k, &["stats_request_queue", "stats_reply_queue", "stats_request_unknown", "stats_reply_unknown"]);
    assert_has("ovs_ofctl_of13", &k, &["flow_mod", "group_mod", "meter_mod", "port_mod", "packet_out", "error"]);
    assert_has("ovs_ofctl_of13", &k, &["barrier_request", "barrier_reply"]);
}
