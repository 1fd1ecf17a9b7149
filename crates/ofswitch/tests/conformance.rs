//! Known answers for the differences the conformance harness (`sdnbench/differential`, docs/
//! conformance.md) found between the emulated switch and Open vSwitch, one test each.

mod common;
use common::*;
use ofswitch::{Received, SwitchConfig};
use ofwire::{Body, Instruction, OxmMatch, PacketOut};

const CONTROLLER13: u32 = 0xffff_fffd;

/// An LLDP-typed frame as a controller's probe (dst 01:80:c2:00:00:0e).
fn lldp() -> Vec<u8> {
    let mut f = vec![0x01, 0x80, 0xc2, 0, 0, 0x0e, 2, 0, 0, 0, 0, 1, 0x88, 0xcc];
    f.resize(60, 0);
    f
}

/// The tables Floodlight puts its 1.3 table-miss entries in when the table features name no
/// table (`OFSwitchHandshakeHandler.addDefaultFlows`): t < min(4, n_tables - 1).
fn floodlight_miss_tables(n_tables: u8) -> Vec<u8> {
    (0..n_tables).filter(|&t| (t as i32) < 4.min(n_tables as i32 - 1)).collect()
}

/// A 1.3 switch with the default configuration (but flows kept and forwarding on, as in the
/// engine's network mode); returns it with its FEATURES_REPLY's n_tables.
fn default_switch13() -> (ofswitch::Switch, Vec<Vec<u8>>, u8) {
    let mut cfg = SwitchConfig::new(7);
    cfg.keep_flows = true;
    cfg.forward = true;
    let mut s = ofswitch::Switch::new(cfg);
    let mut outs = vec![Vec::new()];
    s.start_channel(0, 0, &mut outs[0]);
    s.on_message_from(0, 0, &message(V13, 1, Body::Hello(Default::default())), &mut outs).unwrap();
    s.on_message_from(0, 0, &message(V13, 2, Body::FeaturesRequest), &mut outs).unwrap();
    let n = decode(&outs[0]).into_iter().find_map(|m| match m.body {
        Body::FeaturesReply(f) => Some(f.n_tables),
        _ => None,
    });
    outs[0].clear();
    (s, outs, n.expect("a features reply"))
}

/// Issue 27, item 1. Open vSwitch announces 254 tables; a controller that sizes its table-miss
/// entries by that (Floodlight: tables 0..3) then gets its LLDP probes back as NO_MATCH
/// packet-ins from table 0. The emulated switch announced 1 table: Floodlight's rule gave no
/// table at all, and at 1.3 every probe was dropped on the miss.
#[test]
fn table_miss_entries_in_four_tables_raise_lldp_probes_at_13() {
    assert_eq!(floodlight_miss_tables(1), Vec::<u8>::new(), "the failure: one table announced, no entry");
    let (mut s, mut outs, n_tables) = default_switch13();
    assert_eq!(n_tables, 254, "as Open vSwitch");
    let tables = floodlight_miss_tables(n_tables);
    assert_eq!(tables, vec![0, 1, 2, 3]);
    for &t in &tables {
        let fm = add13(t, 0, OxmMatch::default(), vec![Instruction::ApplyActions(vec![output(CONTROLLER13)])]);
        s.on_message(0, &flow_mod(V13, fm), &mut outs[0]).unwrap();
    }
    assert!(outs[0].is_empty(), "no error: {:?}", decode(&outs[0]));
    assert_eq!(s.flows.len(), 4);
    // the probe goes out of port 2 (in_port CONTROLLER, unbuffered) ...
    let po = PacketOut { buffer_id: 0xffff_ffff, in_port: CONTROLLER13, actions: vec![output(2)], data: lldp() };
    s.on_message(0, &message(V13, 9, Body::PacketOut(po)), &mut outs[0]).unwrap();
    assert_eq!(s.tx, vec![(2, lldp())]);
    // ... and arriving on a switch with these entries it comes up as a table-miss packet-in
    assert_eq!(s.receive_frame(1, 2, &lldp(), &mut outs), Received::Matched);
    let pis: Vec<(u8, u8, u32)> = decode(&outs[0])
        .into_iter()
        .filter_map(|m| match m.body {
            Body::PacketIn(p) => Some((p.reason, p.table_id, p.buffer_id)),
            _ => None,
        })
        .collect();
    assert_eq!(pis, vec![(0, 0, 0xffff_ffff)], "reason NO_MATCH, table 0, unbuffered, as OVS");
}

/// The table ids a 1.3 controller may use are the ones announced: 253 is taken, 254 is not.
#[test]
fn flow_mods_reach_every_announced_table() {
    let (mut s, mut outs, n_tables) = default_switch13();
    let fm = |t| flow_mod(V13, add13(t, 0, OxmMatch::default(), vec![]));
    s.on_message(0, &fm(n_tables - 1), &mut outs[0]).unwrap();
    assert!(outs[0].is_empty());
    s.on_message(0, &fm(n_tables), &mut outs[0]).unwrap();
    assert!(matches!(decode(&outs[0])[0].body, Body::Error(_)), "table 254 (OFPTT_MAX + 1) is refused");
}

/// A forwarding switch keeps no buffers: it announces n_buffers 0, as Open vSwitch 2.7 and
/// later (the emulated network announced 256 and never buffered). A load-generating switch
/// (no forwarding) keeps cbench's 256.
#[test]
fn a_forwarding_switch_announces_no_buffers() {
    for (forward, want) in [(true, 0), (false, 256)] {
        let mut cfg = SwitchConfig::new(7);
        cfg.forward = forward;
        let mut s = ofswitch::Switch::new(cfg);
        let mut outs = vec![Vec::new()];
        s.start_channel(0, 0, &mut outs[0]);
        s.on_message_from(0, 0, &message(V13, 1, Body::Hello(Default::default())), &mut outs).unwrap();
        s.on_message_from(0, 0, &message(V13, 2, Body::FeaturesRequest), &mut outs).unwrap();
        let n = decode(&outs[0]).into_iter().find_map(|m| match m.body {
            Body::FeaturesReply(f) => Some(f.n_buffers),
            _ => None,
        });
        assert_eq!(n, Some(want), "forward={forward}");
    }
}

/// OF1.0 flow stats: a wildcarded dl_vlan reads 0, as Open vSwitch reports it (os-ken's
/// topology app installs its LLDP entry with dl_vlan wildcarded; the emulated switch answered
/// 0xffff, OFP_VLAN_NONE, which is a different match to a controller comparing entries).
#[test]
fn a_wildcarded_vlan_reads_zero_in_10_flow_stats() {
    use ofswitch::flow_match::FlowMatch;
    use ofwire::match10::wildcards as w;
    let lldp = ofwire::Match10 {
        wildcards: w::ALL & !w::DL_DST & !w::DL_TYPE,
        dl_dst: [1, 0x80, 0xc2, 0, 0, 0x0e],
        dl_type: 0x88cc,
        ..Default::default()
    };
    let back = FlowMatch::from_match10(&lldp).to_match10();
    assert_eq!((back.wildcards & w::DL_VLAN, back.dl_vlan), (w::DL_VLAN, 0));
    // matched "untagged" stays OFP_VLAN_NONE; a matched VID stays itself
    for vid in [0xffff, 5] {
        let m = ofwire::Match10 { wildcards: w::ALL & !w::DL_VLAN, dl_vlan: vid, ..Default::default() };
        assert_eq!(FlowMatch::from_match10(&m).to_match10().dl_vlan, vid);
    }
}

/// OF1.0 §3.4: an exact-match flow-mod (wildcards 0) takes the highest priority whatever it
/// says; Open vSwitch stores and reports it as 65535 (ovs-testcontroller installs exact-match
/// flows with priority 1: the emulated switch kept 1, so a wildcard entry of priority 2 beat
/// it, and flow stats said 1).
#[test]
fn an_exact_match_10_flow_has_the_highest_priority() {
    use ofswitch::frames;
    use ofwire::match10::wildcards as w;
    let (mut s, mut outs) = switch(V10, 1, 4, |_| {});
    let f = frames::udp_frame(0, 10, 1, 2, 0, 64);
    let exact = ofwire::Match10 {
        wildcards: 0,
        in_port: 1,
        dl_src: frames::host_mac(0, 1),
        dl_dst: frames::host_mac(0, 2),
        dl_vlan: 0xffff,
        dl_type: 0x0800,
        nw_proto: 17,
        nw_src: u32::from_be_bytes(frames::host_ip(0, 1, 10)),
        nw_dst: u32::from_be_bytes(frames::host_ip(0, 2, 10)),
        tp_src: 12345,
        tp_dst: 12346,
        ..Default::default()
    };
    s.on_message(0, &flow_mod(V10, add10(1, exact, vec![output(3)])), &mut outs[0]).unwrap();
    let any = ofwire::Match10 { wildcards: w::ALL, ..Default::default() };
    s.on_message(0, &flow_mod(V10, add10(2, any, vec![output(4)])), &mut outs[0]).unwrap();
    assert!(outs[0].is_empty());
    s.receive_frame(1, 1, &f, &mut outs);
    assert_eq!(s.tx.iter().map(|x| x.0).collect::<Vec<_>>(), vec![3], "the exact entry wins");
    let prios: Vec<u16> = {
        let mut v: Vec<u16> = s.flows.entries().map(|e| e.priority).collect();
        v.sort();
        v
    };
    assert_eq!(prios, vec![2, 65535]);
}

/// An output action naming the frame's own in port sends nothing (OF1.3 §7.2.5: only
/// OFPP_IN_PORT sends a frame back), as Open vSwitch does. Faucet floods with one action list
/// for every port of the VLAN and relies on it; the emulated switch sent the frame back over
/// the inter-switch link, and the other switch raised its own host's frame as a new packet-in.
#[test]
fn an_output_to_the_in_port_is_dropped_unless_it_is_in_port() {
    use ofswitch::frames;
    let (mut s, mut outs) = switch(V13, 1, 3, |_| {});
    let flood = vec![Instruction::ApplyActions(vec![output(1), output(2), output(3)])];
    s.on_message(0, &flow_mod(V13, add13(0, 1, OxmMatch::default(), flood)), &mut outs[0]).unwrap();
    let f = frames::udp_frame(0, 10, 1, 2, 0, 64);
    s.receive_frame(1, 2, &f, &mut outs);
    assert_eq!(s.tx.iter().map(|x| x.0).collect::<Vec<_>>(), vec![1, 3]);
    assert_eq!(s.counters.dropped_out_in_port, 1);
    s.tx.clear();
    let back = vec![Instruction::ApplyActions(vec![output(0xffff_fff8)])];
    s.on_message(0, &flow_mod(V13, add13(0, 2, OxmMatch::default(), back)), &mut outs[0]).unwrap();
    s.receive_frame(2, 2, &f, &mut outs);
    assert_eq!(s.tx.iter().map(|x| x.0).collect::<Vec<_>>(), vec![2], "IN_PORT does send it back");
}

/// Issue 31. A frame from an emulated link runs the receiving switch's tables, as a frame
/// arriving on an Open vSwitch port does. Faucet's stack LLDP flow (table 0, its cookie, in_port
/// the stack port, eth_dst 01:80:c2:00:00:00/ff:ff:ff:ff:ff:f0, eth_type LLDP, output:CONTROLLER)
/// makes a packet-in with reason ACTION, that cookie, table 0 and the link's port in its match:
/// what Faucet requires (`valve.py` `parse_pkt_meta`: its cookie, ACTION, `in_port`). The link
/// path raised every such frame as cookie 0, NO_MATCH, which Faucet drops, so its stack never
/// came up. The same frame on another port misses that flow: with a table-miss entry it comes
/// up as NO_MATCH with the entry's cookie and table; without one a 1.3 switch drops it (OVS:
/// an OpenFlow 1.3 controller gets no packet-in for a table miss without a table-miss entry).
/// All three checked on Open vSwitch 3.1.0 with a frame written into a port (docs/robustness.md).
#[test]
fn a_frame_from_a_link_runs_the_flow_table() {
    const FAUCET_COOKIE: u64 = 0x5adc_15c0;
    const MISS_COOKIE: u64 = 0x77;
    let pis = |buf: &[u8]| -> Vec<(u8, u8, u64, Option<u32>)> {
        decode(buf)
            .into_iter()
            .filter_map(|m| match m.body {
                Body::PacketIn(p) => Some((p.reason, p.table_id, p.cookie, p.match_.in_port())),
                _ => None,
            })
            .collect()
    };
    let mut cfg = SwitchConfig::new(2);
    cfg.ports = 6;
    cfg.keep_flows = true;
    let mut s = up(V13, cfg);
    let mut out = Vec::new();
    let faucet_lldp = OxmMatch::new(vec![
        ofwire::Oxm::in_port(5),
        ofwire::Oxm::masked(ofwire::OxmField::EthDst, &[0x01, 0x80, 0xc2, 0, 0, 0], &[0xff, 0xff, 0xff, 0xff, 0xff, 0xf0]),
        ofwire::Oxm::eth_type(0x88cc),
    ]);
    let fm = ofwire::FlowMod {
        cookie: FAUCET_COOKIE,
        ..add13(0, 0xf000, faucet_lldp, vec![Instruction::ApplyActions(vec![output(CONTROLLER13)])])
    };
    s.on_message(0, &flow_mod(V13, fm), &mut out).unwrap();
    assert!(out.is_empty(), "{:?}", decode(&out));
    assert_eq!(s.frame_from_link(1, 5, &lldp(), &mut out), Received::Matched);
    assert_eq!(pis(&out), vec![(1, 0, FAUCET_COOKIE, Some(5))], "reason ACTION, Faucet's cookie, table 0, in_port 5");
    out.clear();
    // on port 6 the flow does not match, and this 1.3 switch has no table-miss entry: dropped
    assert_eq!(s.frame_from_link(2, 6, &lldp(), &mut out), Received::Miss { to_controller: false });
    assert!(out.is_empty(), "{:?}", decode(&out));
    // with a table-miss entry in table 0 (priority 0, match all): NO_MATCH, the entry's cookie
    let miss = ofwire::FlowMod {
        cookie: MISS_COOKIE,
        ..add13(0, 0, OxmMatch::default(), vec![Instruction::ApplyActions(vec![output(CONTROLLER13)])])
    };
    s.on_message(0, &flow_mod(V13, miss), &mut out).unwrap();
    assert_eq!(s.frame_from_link(3, 6, &lldp(), &mut out), Received::Matched);
    assert_eq!(pis(&out), vec![(0, 0, MISS_COOKIE, Some(6))], "reason NO_MATCH, the table-miss entry's cookie");
    assert!(s.tx.is_empty(), "a switch that does not forward sends nothing out of its ports");
    // a switch that keeps no flows has no tables: the frame comes up as a table miss, cookie 0
    let mut bare = up(V13, SwitchConfig::new(3));
    out.clear();
    assert_eq!(bare.frame_from_link(1, 2, &lldp(), &mut out), Received::Miss { to_controller: true });
    assert_eq!(pis(&out), vec![(0, 0, 0, Some(2))]);
}

/// A switch through hello and features at `v` on channel 0.
fn up(v: u8, cfg: SwitchConfig) -> ofswitch::Switch {
    let mut s = ofswitch::Switch::new(cfg);
    let mut outs = vec![Vec::new()];
    s.start_channel(0, 0, &mut outs[0]);
    s.on_message_from(0, 0, &message(v, 1, Body::Hello(Default::default())), &mut outs).unwrap();
    s.on_message_from(0, 0, &message(v, 2, Body::FeaturesRequest), &mut outs).unwrap();
    s
}
