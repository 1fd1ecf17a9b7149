//! The switch as a network element: frames in, pipeline, frames out on ports or to the
//! controller; packet-out; ports going down and up; table capacity; flow timeouts.

mod common;
use common::*;
use ofswitch::frames;
use ofswitch::{Received, SwitchError};
use ofwire::match10::wildcards as w;
use ofwire::{Action, Body, Instruction, Match10, Oxm, OxmField, OxmMatch, PacketOut};

const S: u64 = 1_000_000_000;

fn udp(src: u32, dst: u32) -> Vec<u8> {
    frames::udp_frame(0, 10, src, dst, 0, 64)
}

#[test]
fn of10_forwarding_and_miss() {
    let (mut s, mut outs) = switch(V10, 1, 4, |_| {});
    // dl_dst of host 2 -> port 3; everything else misses
    let m = Match10 { wildcards: w::ALL & !w::DL_DST, dl_dst: frames::host_mac(0, 2), ..Default::default() };
    s.on_message(0, &flow_mod(V10, add10(10, m, vec![output(3)])), &mut outs[0]).unwrap();
    assert!(outs[0].is_empty(), "no error");
    assert_eq!(s.receive_frame(1, 1, &udp(1, 2), &mut outs), Received::Matched);
    assert_eq!(s.tx, vec![(3, udp(1, 2))]);
    assert_eq!(s.receive_frame(2, 1, &udp(1, 3), &mut outs), Received::Miss { to_controller: true });
    let pis = packet_ins(&outs[0]);
    assert_eq!(pis, vec![(1, 0, udp(1, 3))], "1.0 miss: packet-in NO_MATCH of the whole frame");
    let c = &s.counters;
    assert_eq!((c.frames_in, c.looked_up, c.missed, c.frames_out, c.packet_ins), (2, 2, 1, 1, 1));
    let t = s.flows.counters(0);
    assert_eq!((t.lookups, t.matched, t.active), (2, 1, 1));
    let e = s.flows.entries().next().unwrap();
    assert_eq!((e.packets, e.bytes), (1, 64));
    assert_eq!(s.ports.get(3).unwrap().counters.tx_packets, 1);
    assert_eq!(s.ports.get(1).unwrap().counters.rx_packets, 2);
}

#[test]
fn flood_all_in_port_controller_and_bad_ports() {
    let (mut s, mut outs) = switch(V10, 1, 4, |_| {});
    let all = Match10::all();
    // 0xfffb FLOOD, 0xfff8 IN_PORT, 0xfffd CONTROLLER, port 9 does not exist, 0xfffe LOCAL
    let acts = vec![output(0xfffb), output(0xfff8), output(0xfffd), output(9), output(0xfffe)];
    s.on_message(0, &flow_mod(V10, add10(1, all, acts)), &mut outs[0]).unwrap();
    s.set_port_state(0, 4, false, &mut outs);
    outs[0].clear();
    s.receive_frame(1, 2, &udp(1, 2), &mut outs);
    let ports: Vec<u32> = s.tx.iter().map(|x| x.0).collect();
    assert_eq!(ports, vec![1, 3, 2], "flood: up ports but the in port; then in_port");
    assert_eq!(packet_ins(&outs[0]), vec![(2, 1, udp(1, 2))], "output:CONTROLLER is reason ACTION");
    assert_eq!((s.counters.dropped_out_no_port, s.counters.dropped_out_unsupported), (1, 1));
    // a frame on a down port or a port that does not exist: dropped, counted, no panic
    assert_eq!(s.receive_frame(2, 4, &udp(1, 2), &mut outs), Received::Dropped);
    assert_eq!(s.receive_frame(2, 77, &udp(1, 2), &mut outs), Received::Dropped);
    assert_eq!(s.counters.dropped_in, 2);
    assert_eq!(s.ports.get(4).unwrap().counters.rx_dropped, 1);
    assert_eq!(s.counters.frames_in, s.counters.dropped_in + s.counters.looked_up);
}

#[test]
fn of13_table_miss_goto_and_write_actions() {
    let (mut s, mut outs) = switch(V13, 1, 4, |_| {});
    // no table-miss entry: a miss is dropped
    assert_eq!(s.receive_frame(0, 1, &udp(1, 2), &mut outs), Received::Miss { to_controller: false });
    assert!(outs[0].is_empty());
    assert_eq!(s.counters.dropped_miss, 1);
    // table 0: table-miss -> controller; udp -> goto 2 writing output 3
    let ctrl = Instruction::ApplyActions(vec![output(0xffff_fffd)]);
    s.on_message(0, &flow_mod(V13, add13(0, 0, OxmMatch::default(), vec![ctrl])), &mut outs[0]).unwrap();
    let udp_m = OxmMatch::new(vec![Oxm::eth_type(0x0800), Oxm::basic(OxmField::IpProto, &[17])]);
    let ins = vec![Instruction::GotoTable(2), Instruction::WriteActions(vec![output(3)])];
    s.on_message(0, &flow_mod(V13, add13(0, 100, udp_m, ins)), &mut outs[0]).unwrap();
    // table 2: host 2 gets its destination MAC rewritten (apply) and output 4 (overrides 3)
    let dst2 = OxmMatch::new(vec![Oxm::eth_dst(frames::host_mac(0, 2))]);
    let set = Action::SetField(Oxm::eth_dst([2, 0, 0, 0, 0, 0x22]));
    let ins = vec![Instruction::WriteActions(vec![output(4)]), Instruction::ApplyActions(vec![set])];
    s.on_message(0, &flow_mod(V13, add13(2, 5, dst2, ins)), &mut outs[0]).unwrap();
    assert!(outs[0].is_empty(), "no errors: {:?}", decode(&outs[0]));
    s.receive_frame(1, 1, &udp(1, 2), &mut outs);
    assert_eq!(s.tx.len(), 1);
    assert_eq!(s.tx[0].0, 4);
    assert_eq!(&s.tx[0].1[..6], &[2, 0, 0, 0, 0, 0x22]);
    // host 3 misses table 2: no entry there, dropped (1.3)
    s.receive_frame(2, 1, &udp(1, 3), &mut outs);
    assert_eq!(s.tx.len(), 1);
    // ARP misses the udp entry and hits the table-miss entry: packet-in NO_MATCH
    s.receive_frame(3, 1, &frames::gratuitous_arp(0, 10, 1), &mut outs);
    let pis = packet_ins(&outs[0]);
    assert_eq!(pis.len(), 1);
    assert_eq!((pis[0].0, pis[0].1), (1, 0));
    assert_eq!((s.flows.counters(2).lookups, s.flows.counters(2).matched), (2, 1));
}

#[test]
fn packet_out_any_frame_table_and_bad_ports() {
    let (mut s, mut outs) = switch(V13, 1, 3, |_| {});
    let po = |actions: Vec<Action>, in_port: u32| {
        message(V13, 9, Body::PacketOut(PacketOut { buffer_id: 0xffff_ffff, in_port, actions, data: udp(1, 2) }))
    };
    s.on_message(0, &po(vec![output(0xffff_fffb)], 2), &mut outs[0]).unwrap();
    assert_eq!(s.tx.iter().map(|x| x.0).collect::<Vec<_>>(), vec![1, 3], "flood but in_port");
    s.tx.clear();
    // OFPP_TABLE runs the pipeline: a flow sends it to port 2
    let m = OxmMatch::new(vec![Oxm::in_port(1)]);
    s.on_message(0, &flow_mod(V13, add13(0, 1, m, vec![Instruction::ApplyActions(vec![output(2)])])), &mut outs[0]).unwrap();
    s.on_message(0, &po(vec![output(0xffff_fff9)], 1), &mut outs[0]).unwrap();
    assert_eq!(s.tx, vec![(2, udp(1, 2))]);
    s.tx.clear();
    // a port that does not exist, and a down port: counted, never a panic or an error
    s.set_port_state(0, 3, false, &mut outs);
    s.on_message(0, &po(vec![output(40), output(3)], 1), &mut outs[0]).unwrap();
    assert!(s.tx.is_empty());
    assert_eq!((s.counters.dropped_out_no_port, s.counters.dropped_out_down), (1, 1));
    assert_eq!(s.ports.get(3).unwrap().counters.tx_dropped, 1);
}

#[test]
fn port_down_sends_port_status_and_port_desc_shows_it() {
    let (mut s, mut outs) = switch(V13, 1, 2, |_| {});
    assert!(s.set_port_state(5, 2, false, &mut outs));
    assert!(!s.set_port_state(5, 9, false, &mut outs), "no such port");
    let msgs = decode(&outs[0]);
    assert_eq!(msgs.len(), 1);
    let Body::PortStatus(ps) = &msgs[0].body else { panic!("{msgs:?}") };
    assert_eq!((ps.reason, ps.port.port_no, ps.port.state & 1), (2, 2, 1), "MODIFY, LINK_DOWN");
    outs[0].clear();
    assert!(s.set_port_state(6, 2, false, &mut outs));
    assert!(outs[0].is_empty(), "no change, no message");
    let req = message(V13, 4, Body::StatsRequest(ofwire::StatsRequest { flags: 0, body: ofwire::StatsRequestBody::PortDesc }));
    s.on_message(0, &req, &mut outs[0]).unwrap();
    let Body::StatsReply(r) = &decode(&outs[0])[0].body else { panic!() };
    let ofwire::StatsReplyBody::PortDesc(ports) = &r.body else { panic!() };
    // LOCAL first, down, as Open vSwitch lists it (ports.rs), then ports 1 and 2
    assert_eq!(ports.iter().map(|p| (p.port_no, p.state & 1)).collect::<Vec<_>>(), vec![(0xffff_fffe, 1), (1, 0), (2, 1)]);
    outs[0].clear();
    s.set_port_state(7, 2, true, &mut outs);
    let Body::PortStatus(ps) = &decode(&outs[0])[0].body else { panic!() };
    assert_eq!(ps.port.state & 1, 0, "link up again");
}

#[test]
fn table_full_answers_with_the_versions_error() {
    for (v, ty, code) in [(V10, 3u16, 0u16), (V13, 5, 1)] {
        let (mut s, mut outs) = switch(v, 1, 2, |c| c.max_flows = 2);
        for p in 1..=3u16 {
            let fm = if v == V10 {
                add10(1, Match10 { wildcards: w::ALL & !w::IN_PORT, in_port: p, ..Default::default() }, vec![])
            } else {
                add13(0, 1, OxmMatch::new(vec![Oxm::in_port(p as u32)]), vec![])
            };
            s.on_message(0, &flow_mod(v, fm), &mut outs[0]).unwrap();
        }
        assert_eq!(s.flows.len(), 2);
        let msgs = decode(&outs[0]);
        let Body::Error(e) = &msgs[0].body else { panic!("{msgs:?}") };
        assert_eq!((e.typ, e.code, msgs.len()), (ty, code, 1), "version {v}");
    }
}

#[test]
fn timeouts_send_flow_removed_when_asked() {
    let (mut s, mut outs) = switch(V13, 1, 2, |_| {});
    let mut idle = add13(0, 1, OxmMatch::new(vec![Oxm::in_port(1)]), vec![]);
    idle.idle_timeout = 2;
    idle.flags = 1; // SEND_FLOW_REM
    let mut hard = add13(0, 1, OxmMatch::new(vec![Oxm::in_port(2)]), vec![]);
    hard.hard_timeout = 3;
    hard.flags = 1;
    let mut quiet = add13(0, 0, OxmMatch::default(), vec![]);
    quiet.hard_timeout = 1; // no flag: removed silently
    for fm in [idle, hard, quiet] {
        s.on_message(0, &flow_mod(V13, fm), &mut outs[0]).unwrap();
    }
    // port 1's entry used at 1.5 s: idle until 3.5 s
    s.receive_frame(3 * S / 2, 1, &udp(1, 2), &mut outs);
    let next = s.poll(2 * S, &mut outs[0]).unwrap();
    assert_eq!(s.flows.len(), 2, "quiet entry expired at 1 s");
    assert!(outs[0].is_empty());
    assert_eq!(next, 3 * S, "the hard timeout is next");
    s.poll(3 * S, &mut outs[0]).unwrap();
    s.poll(4 * S, &mut outs[0]).unwrap();
    let reasons: Vec<(u8, u64)> = decode(&outs[0])
        .into_iter()
        .filter_map(|m| match m.body {
            Body::FlowRemoved(f) => Some((f.reason, f.packet_count)),
            _ => None,
        })
        .collect();
    assert_eq!(reasons, vec![(1, 0), (0, 1)], "hard at 3 s, idle at 3.5 s with its packet");
    assert!(s.flows.is_empty());
    s.flows.check().unwrap();
}

#[test]
fn unsupported_match_field_is_refused_not_fatal() {
    let (mut s, mut outs) = switch(V13, 1, 2, |_| {});
    let m = OxmMatch::new(vec![Oxm::basic(OxmField::InPhyPort, &[0; 4])]);
    let r = s.on_message(0, &flow_mod(V13, add13(0, 1, m, vec![])), &mut outs[0]);
    assert!(matches!(r, Ok(ofswitch::Event::Refused { ty: 4, code: 6, .. })), "{r:?}");
    assert!(s.flows.is_empty());
    let _: Option<SwitchError> = None;
}

/// Regression (issue 12 item 7): a flow entry whose stats record is bigger than one soft-sized
/// part (64,984 bytes) used to loop forever emitting empty parts. It goes alone in its part.
#[test]
fn flow_stats_of_a_huge_entry_terminate() {
    let (mut s, mut outs) = switch(V13, 1, 2, |_| {});
    let huge = vec![Instruction::ApplyActions(vec![output(1); 4_070])];
    s.on_message(0, &flow_mod(V13, add13(0, 1, OxmMatch::default(), huge)), &mut outs[0]).unwrap();
    s.on_message(0, &flow_mod(V13, add13(0, 2, OxmMatch::new(vec![Oxm::in_port(1)]), vec![])), &mut outs[0]).unwrap();
    assert!(outs[0].is_empty() && s.flows.len() == 2);
    let req = ofwire::FlowStatsRequest { table_id: 0xff, out_port: 0xffff_ffff, out_group: 0xffff_ffff, ..Default::default() };
    let body = ofwire::StatsRequestBody::Flow(req);
    s.on_message(0, &message(V13, 8, Body::StatsRequest(ofwire::StatsRequest { flags: 0, body })), &mut outs[0]).unwrap();
    let parts: Vec<(u16, usize)> = decode(&outs[0])
        .into_iter()
        .map(|m| match m.body {
            Body::StatsReply(r) => match r.body {
                ofwire::StatsReplyBody::Flow(f) => (r.flags, f.len()),
                b => panic!("{b:?}"),
            },
            b => panic!("{b:?}"),
        })
        .collect();
    assert!(outs[0].len() > 65_000);
    assert_eq!(parts.iter().map(|p| p.1).sum::<usize>(), 2);
    assert!(parts.iter().all(|p| p.1 > 0), "no empty parts: {parts:?}");
    assert_eq!(parts.last().unwrap().0, 0, "the last part ends the reply");
    assert!(parts[..parts.len() - 1].iter().all(|p| p.0 == 1), "the others say MORE");
}

/// What the engine does with `tx` for a link: two switches, port 2 of A cabled to port 1 of B.
/// The controller's LLDP packet-out on A arrives at B's controller as a packet-in from port 1
/// (discovery), and host traffic crosses the link through both flow tables.
#[test]
fn two_switches_over_a_link_as_the_engine_wires_them() {
    let (mut a, mut outs_a) = switch(V10, 1, 2, |c| c.dpid = 1);
    let (mut b, mut outs_b) = switch(V10, 1, 2, |c| c.dpid = 2);
    let carry = |from: &mut ofswitch::Switch, to: &mut ofswitch::Switch, outs: &mut Vec<Vec<u8>>| {
        for (port, frame) in std::mem::take(&mut from.tx) {
            if port == 2 {
                to.receive_frame(0, 1, &frame, outs);
            }
        }
    };
    let lldp = ofwire::frame::lldp_frame([2, 0, 0, 0, 0, 1], &ofwire::frame::Lldp::for_port(1, 2));
    let po = message(
        V10,
        3,
        Body::PacketOut(PacketOut { buffer_id: 0xffff_ffff, in_port: 0xffff, actions: vec![output(2)], data: lldp.clone() }),
    );
    a.on_message(0, &po, &mut outs_a[0]).unwrap();
    carry(&mut a, &mut b, &mut outs_b);
    assert_eq!(packet_ins(&outs_b[0]), vec![(1, 0, lldp)], "B's controller sees A's LLDP on B:1");
    // h1 behind A:1 -> h2 behind B:2
    let to_b = Match10 { wildcards: w::ALL & !w::DL_DST, dl_dst: frames::host_mac(0, 2), ..Default::default() };
    a.on_message(0, &flow_mod(V10, add10(5, to_b, vec![output(2)])), &mut outs_a[0]).unwrap();
    b.on_message(0, &flow_mod(V10, add10(5, to_b, vec![output(2)])), &mut outs_b[0]).unwrap();
    outs_b[0].clear();
    a.receive_frame(0, 1, &udp(1, 2), &mut outs_a);
    carry(&mut a, &mut b, &mut outs_b);
    assert_eq!(b.tx, vec![(2, udp(1, 2))], "delivered to the host port of B");
    assert!(outs_a[0].is_empty() && outs_b[0].is_empty(), "no packet-ins on the way");
}

/// Flow, aggregate, table and port stats read the counters the data plane keeps.
#[test]
fn stats_read_the_data_plane_counters() {
    use ofwire::{FlowStatsRequest, StatsReplyBody as R, StatsRequest, StatsRequestBody as Q};
    let (mut s, mut outs) = switch(V13, 1, 3, |_| {});
    let to3 = OxmMatch::new(vec![Oxm::eth_dst(frames::host_mac(0, 2))]);
    s.on_message(0, &flow_mod(V13, add13(0, 7, to3, vec![Instruction::ApplyActions(vec![output(3)])])), &mut outs[0]).unwrap();
    for _ in 0..3 {
        s.receive_frame(0, 1, &udp(1, 2), &mut outs);
    }
    s.receive_frame(0, 1, &udp(1, 4), &mut outs); // a miss, dropped (1.3, no table-miss entry)
    let ask = |s: &mut ofswitch::Switch, body: Q| {
        let mut out = Vec::new();
        s.on_message(0, &message(V13, 5, Body::StatsRequest(StatsRequest { flags: 0, body })), &mut out).unwrap();
        match decode(&out).remove(0).body {
            Body::StatsReply(r) => r.body,
            b => panic!("{b:?}"),
        }
    };
    let all = FlowStatsRequest { table_id: 0xff, out_port: 0xffff_ffff, out_group: 0xffff_ffff, ..Default::default() };
    let R::Aggregate(a) = ask(&mut s, Q::Aggregate(all.clone())) else { panic!() };
    assert_eq!((a.packet_count, a.byte_count, a.flow_count), (3, 192, 1));
    let R::Flow(f) = ask(&mut s, Q::Flow(all.clone())) else { panic!() };
    assert_eq!((f[0].packet_count, f[0].priority), (3, 7));
    // the out_port filter: nothing outputs to port 2
    let R::Flow(f) = ask(&mut s, Q::Flow(FlowStatsRequest { out_port: 2, ..all })) else { panic!() };
    assert!(f.is_empty());
    let R::Table(t) = ask(&mut s, Q::Table) else { panic!() };
    assert_eq!((t[0].lookup_count, t[0].matched_count, t[0].active_count), (4, 3, 1));
    let R::Port(p) = ask(&mut s, Q::Port { port_no: 0xffff_ffff }) else { panic!() };
    let rx_tx: Vec<(u64, u64)> = p.iter().map(|p| (p.counters[0], p.counters[1])).collect();
    assert_eq!(rx_tx, vec![(4, 0), (0, 0), (0, 3)], "rx on port 1, tx on port 3");
}
