//! Several controllers on one switch: OF1.3 roles (equal, master, slave, generation ids) and
//! OF1.0, where every channel is equal.

mod common;
use common::*;
use ofswitch::{frames, Async, Event};
use ofwire::config::role;
use ofwire::{AsyncConfig, Body, Instruction, OxmMatch, PacketOut, Role};

fn role(r: u32, generation_id: u64) -> Vec<u8> {
    message(V13, 40, Body::RoleRequest(Role { role: r, generation_id }))
}

/// A table-miss entry sending to the controller, installed from `ch`.
fn miss_to_controller(s: &mut ofswitch::Switch, outs: &mut [Vec<u8>], ch: usize) {
    let ins = vec![Instruction::ApplyActions(vec![output(0xffff_fffd)])];
    s.on_message_from(0, ch, &flow_mod(V13, add13(0, 0, OxmMatch::default(), ins)), outs).unwrap();
}

fn frame() -> Vec<u8> {
    frames::udp_frame(0, 10, 1, 2, 0, 64)
}

fn clear(outs: &mut [Vec<u8>]) {
    outs.iter_mut().for_each(Vec::clear);
}

#[test]
fn equal_channels_all_get_packet_ins() {
    let (mut s, mut outs) = switch(V13, 3, 2, |_| {});
    miss_to_controller(&mut s, &mut outs, 0);
    s.receive_frame(0, 1, &frame(), &mut outs);
    for (ch, out) in outs.iter().enumerate() {
        assert_eq!(packet_ins(out).len(), 1, "channel {ch}");
    }
    assert_eq!(s.async_channels(Async::PacketIn(0)).collect::<Vec<_>>(), vec![0, 1, 2]);
}

#[test]
fn master_slave_and_demotion() {
    let (mut s, mut outs) = switch(V13, 2, 2, |_| {});
    miss_to_controller(&mut s, &mut outs, 0);
    s.on_message_from(0, 0, &role(role::MASTER, 1), &mut outs).unwrap();
    s.on_message_from(0, 1, &role(role::SLAVE, 1), &mut outs).unwrap();
    let Body::RoleReply(r) = &decode(&outs[1])[0].body else { panic!() };
    assert_eq!((r.role, r.generation_id), (role::SLAVE, 1));
    clear(&mut outs);
    // only the master gets packet-ins; both get port-status
    s.receive_frame(0, 1, &frame(), &mut outs);
    assert_eq!((packet_ins(&outs[0]).len(), packet_ins(&outs[1]).len()), (1, 0));
    assert_eq!(s.async_channels(Async::PacketIn(1)).collect::<Vec<_>>(), vec![0]);
    assert_eq!(s.async_channels(Async::PortStatus(2)).collect::<Vec<_>>(), vec![0, 1]);
    clear(&mut outs);
    s.set_port_state(0, 2, false, &mut outs);
    assert!(outs.iter().all(|o| matches!(decode(o)[0].body, Body::PortStatus(_))));
    clear(&mut outs);
    // the slave becomes master: the old master is demoted
    s.on_message_from(0, 1, &role(role::MASTER, 2), &mut outs).unwrap();
    assert_eq!((s.channels[0].role, s.channels[1].role), (role::SLAVE, role::MASTER));
    clear(&mut outs);
    s.receive_frame(0, 1, &frame(), &mut outs);
    assert_eq!((packet_ins(&outs[0]).len(), packet_ins(&outs[1]).len()), (0, 1), "role change observed");
}

#[test]
fn stale_generation_id_is_refused() {
    let (mut s, mut outs) = switch(V13, 2, 2, |_| {});
    s.on_message_from(0, 0, &role(role::MASTER, 10), &mut outs).unwrap();
    clear(&mut outs);
    let e = s.on_message_from(0, 1, &role(role::MASTER, 9), &mut outs).unwrap();
    assert_eq!(e, Event::Refused { kind: ofwire::MsgType::RoleRequest, ty: 11, code: 0 });
    let Body::Error(err) = &decode(&outs[1])[0].body else { panic!() };
    assert_eq!((err.typ, err.code), (11, 0), "ROLE_REQUEST_FAILED / STALE");
    assert_eq!((s.channels[0].role, s.channels[1].role), (role::MASTER, role::EQUAL), "nothing changed");
    // equal needs no generation id; a wrapped-around newer id is accepted
    s.on_message_from(0, 1, &role(role::EQUAL, 0), &mut outs).unwrap();
    s.generation_id = Some(u64::MAX);
    s.on_message_from(0, 1, &role(role::MASTER, 1), &mut outs).unwrap();
    assert_eq!(s.channels[1].role, role::MASTER);
}

#[test]
fn slave_state_changes_are_refused() {
    let (mut s, mut outs) = switch(V13, 2, 2, |_| {});
    s.on_message_from(0, 1, &role(role::SLAVE, 0), &mut outs).unwrap();
    clear(&mut outs);
    let fm = flow_mod(V13, add13(0, 1, OxmMatch::default(), vec![]));
    let po = message(V13, 5, Body::PacketOut(PacketOut { buffer_id: 0xffff_ffff, in_port: 1, actions: vec![output(2)], data: frame() }));
    for m in [fm, po] {
        let e = s.on_message_from(0, 1, &m, &mut outs).unwrap();
        assert!(matches!(e, Event::Refused { ty: 1, code: 10, .. }), "{e:?}");
    }
    let errs: Vec<(u16, u16)> =
        decode(&outs[1]).into_iter().filter_map(|m| if let Body::Error(e) = m.body { Some((e.typ, e.code)) } else { None }).collect();
    assert_eq!(errs, vec![(1, 10), (1, 10)], "BAD_REQUEST / IS_SLAVE");
    assert!(s.flows.is_empty() && s.tx.is_empty());
}

#[test]
fn set_async_changes_what_a_channel_gets() {
    let (mut s, mut outs) = switch(V13, 2, 2, |_| {});
    s.on_message_from(0, 1, &role(role::SLAVE, 0), &mut outs).unwrap();
    let cfg = AsyncConfig { packet_in_mask: [0, 0x3], port_status_mask: [0, 0], flow_removed_mask: [0, 0] };
    s.on_message_from(0, 1, &message(V13, 6, Body::SetAsync(cfg)), &mut outs).unwrap();
    assert!(s.channels[1].wants(Async::PacketIn(0)), "a slave that asked for packet-ins");
    assert!(!s.channels[1].wants(Async::PortStatus(2)));
}

#[test]
fn of10_channels_are_all_equal() {
    let (mut s, mut outs) = switch(V10, 2, 2, |_| {});
    // a 1.0 switch has no table-miss entry: a miss goes to every channel
    s.receive_frame(0, 1, &frame(), &mut outs);
    assert_eq!((packet_ins(&outs[0]).len(), packet_ins(&outs[1]).len()), (1, 1));
    assert_eq!(s.async_channels(Async::FlowRemoved(2)).collect::<Vec<_>>(), vec![0, 1]);
}
