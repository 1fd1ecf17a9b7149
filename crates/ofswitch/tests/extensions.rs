//! What controllers send Open vSwitch on connect, and what the switch refuses instead of
//! ignoring: os-ken's own encodings (byte vectors from os-ken's `ofproto_v1_3_parser` and
//! `ofproto_v1_0_parser`) of a select group-mod, a pps drop meter-mod, the switch test tool's
//! delete-all group and meter mods, and a Nicira role request at 1.0; table features; the
//! refusals of what the switch does not run.

mod common;
use common::*;
use ofswitch::frames;
use ofswitch::Async;
use ofwire::config::role;
use ofwire::table_features::{prop, TableFeatures};
use ofwire::{Action, Body, Instruction, Oxm, OxmField, OxmMatch, StatsReplyBody, StatsRequest, StatsRequestBody};

/// os-ken: OFPGroupMod(ADD, SELECT, group 0, buckets weight 1 output:2, weight 2 output:3),
/// the group of the switch test tool's 01_SELECT_Weight patterns.
const OSKEN_GROUP_MOD: [u8; 80] = [
    0x04, 0x0f, 0x00, 0x50, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x01, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x02, 0xff, 0xe5, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x02, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x10, 0x00, 0x00, 0x00, 0x03, 0xff, 0xe5, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
];
/// os-ken: OFPMeterMod(ADD, PKTPS, meter 1, OFPMeterBandDrop(rate=100)).
const OSKEN_METER_MOD: [u8; 32] = [
    0x04, 0x1d, 0x00, 0x20, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x10, 0x00, 0x00,
    0x00, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
];
/// os-ken: the switch test tool's `del_groups` and `del_meters`.
const OSKEN_DEL_GROUPS: [u8; 16] = [0x04, 0x0f, 0x00, 0x10, 0x00, 0x00, 0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0xff, 0xff, 0xff, 0xfc];
const OSKEN_DEL_METERS: [u8; 16] = [0x04, 0x1d, 0x00, 0x10, 0x00, 0x00, 0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff];
/// os-ken: NXTRoleRequest(role=NX_ROLE_MASTER) at 1.0.
const OSKEN_NX_ROLE_MASTER: [u8; 20] =
    [0x01, 0x04, 0x00, 0x14, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x23, 0x20, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x01];
/// os-ken: OFPTableFeaturesStatsRequest() (empty: asks for the tables).
const OSKEN_TABLE_FEATURES: [u8; 16] = [0x04, 0x12, 0x00, 0x10, 0x00, 0x00, 0x00, 0x01, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00];

#[test]
fn osken_group_and_meter_mods_are_applied_and_deleted() {
    let (mut s, mut outs) = switch(V13, 1, 4, |_| {});
    assert_eq!(send(&mut s, &mut outs, &OSKEN_GROUP_MOD), vec![]);
    let g = &s.groups.map[&0];
    assert_eq!((g.typ, g.buckets.len(), g.buckets[1].weight), (1, 2, 2));
    assert_eq!(send(&mut s, &mut outs, &OSKEN_METER_MOD), vec![]);
    assert_eq!(s.meters.map[&1].bands[0].rate, 100);
    assert_eq!(send(&mut s, &mut outs, &OSKEN_DEL_GROUPS), vec![]);
    assert_eq!(send(&mut s, &mut outs, &OSKEN_DEL_METERS), vec![]);
    assert!(s.groups.map.is_empty() && s.meters.map.is_empty());
    // with nothing there, the tool's delete-alls are still no error (it sends them before each test)
    assert_eq!(send(&mut s, &mut outs, &OSKEN_DEL_GROUPS), vec![]);
    assert_eq!(send(&mut s, &mut outs, &OSKEN_DEL_METERS), vec![]);
}

/// 1.0: the Nicira role request gets a Nicira role reply (it used to get BAD_VENDOR); a
/// slave gets no packet-in; an unknown Nicira subtype gets BAD_SUBTYPE, another vendor
/// BAD_VENDOR.
#[test]
fn nicira_role_request_at_1_0() {
    let (mut s, mut outs) = switch(V10, 2, 4, |_| {});
    assert_eq!(send(&mut s, &mut outs, &OSKEN_NX_ROLE_MASTER), vec![]);
    let reply = &outs[0];
    assert_eq!(
        reply[..],
        [0x01, 0x04, 0x00, 0x14, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x23, 0x20, 0x00, 0x00, 0x00, 0x0b, 0x00, 0x00, 0x00, 0x01]
    );
    // channel 1 becomes master: channel 0 is demoted to slave and gets no packet-ins
    let mut req = OSKEN_NX_ROLE_MASTER.to_vec();
    req[7] = 2;
    s.on_message_from(0, 1, &req, &mut outs).unwrap();
    assert_eq!(s.channels[0].role, role::SLAVE);
    assert!(!s.channels[0].wants(Async::PacketIn(0)) && s.channels[1].wants(Async::PacketIn(0)));
    for o in outs.iter_mut() {
        o.clear();
    }
    s.receive_frame(1, 1, &frames::udp_frame(0, 10, 1, 2, 0, 64), &mut outs);
    assert!(packet_ins(&outs[0]).is_empty() && packet_ins(&outs[1]).len() == 1, "only the master gets the table miss");
    // a role NX does not define: EPERM; an unknown subtype: BAD_SUBTYPE; another vendor: BAD_VENDOR
    let mut bad = OSKEN_NX_ROLE_MASTER.to_vec();
    bad[19] = 7;
    assert_eq!(send(&mut s, &mut outs, &bad), vec![(1, 5)]);
    bad[15] = 99;
    assert_eq!(send(&mut s, &mut outs, &bad), vec![(1, 4)]);
    bad[11] = 0x21;
    assert_eq!(send(&mut s, &mut outs, &bad), vec![(1, 3)]);
    // set flow format: OpenFlow 1.0 taken, NXM refused with EPERM
    let mut ff = OSKEN_NX_ROLE_MASTER.to_vec();
    ff[15] = 12;
    ff[19] = 0;
    assert_eq!(send(&mut s, &mut outs, &ff), vec![]);
    ff[19] = 2;
    assert_eq!(send(&mut s, &mut outs, &ff), vec![(1, 5)]);
}

/// Table features: one record per table, split over parts flagged REPLY_MORE (Open vSwitch's,
/// `tests/ovs_tables.rs` compares them byte for byte): no goto from the last table; meter; group.
#[test]
fn table_features_describe_the_tables() {
    let (mut s, mut outs) = switch(V13, 1, 4, |c| c.n_tables = 254);
    assert_eq!(send(&mut s, &mut outs, &OSKEN_TABLE_FEATURES), vec![]);
    let parts: Vec<(u16, Vec<u8>)> = decode(&outs[0])
        .into_iter()
        .map(|m| match m.body {
            Body::StatsReply(r) => match r.body {
                StatsReplyBody::Unknown { typ: 12, data } => (r.flags, data),
                b => panic!("{b:?}"),
            },
            b => panic!("{b:?}"),
        })
        .collect();
    assert!(parts.len() > 1, "254 tables do not fit one message");
    assert!(parts[..parts.len() - 1].iter().all(|p| p.0 == 1) && parts.last().unwrap().0 == 0);
    let tables: Vec<TableFeatures> =
        parts.iter().flat_map(|p| ofwire::group_stats::parse_list(&p.1, TableFeatures::parse).unwrap()).collect();
    assert_eq!(tables.len(), 254);
    assert!(tables.iter().enumerate().all(|(i, t)| t.table_id as usize == i));
    let ids = |t: &TableFeatures, p: u16| -> Vec<u16> {
        let d = &t.props.iter().find(|x| x.typ == p).unwrap().data;
        d.chunks(4).map(|c| u16::from_be_bytes([c[0], c[1]])).collect()
    };
    assert_eq!(ids(&tables[0], prop::INSTRUCTIONS), vec![1, 2, 3, 4, 5, 6]);
    assert_eq!(ids(&tables[253], prop::INSTRUCTIONS), vec![2, 3, 4, 5, 6], "no goto-table from the last table");
    assert!(tables.iter().all(|t| t.metadata_match == u64::MAX && t.metadata_write == u64::MAX));
    assert!(ids(&tables[0], prop::APPLY_ACTIONS).contains(&22), "group");
    let next = &tables[252].props.iter().find(|x| x.typ == prop::NEXT_TABLES).unwrap().data;
    assert_eq!(next, &vec![253]);
    // a request that would reconfigure the tables: TABLE_FEATURES_FAILED / EPERM
    let set =
        message(V13, 3, Body::StatsRequest(StatsRequest { flags: 0, body: StatsRequestBody::Unknown { typ: 12, data: vec![0; 64] } }));
    assert_eq!(send(&mut s, &mut outs, &set), vec![(13, 5)]);
}

/// What the switch does not run is refused, never accepted and ignored.
#[test]
fn what_the_switch_does_not_run_is_refused() {
    let (mut s, mut outs) = switch(V13, 1, 4, |_| {});
    let m = || OxmMatch::new(vec![Oxm::in_port(1)]);
    let cases: Vec<(Vec<Instruction>, (u16, u16), &str)> = vec![
        (vec![Instruction::GotoTable(0)], (3, 2), "goto an earlier table: BAD_TABLE_ID"),
        (vec![Instruction::GotoTable(9)], (3, 2), "goto a table beyond n_tables"),
        (vec![Instruction::ApplyActions(vec![Action::SetQueue(1)])], (2, 0), "set-queue"),
        (
            vec![Instruction::WriteActions(vec![Action::SetField(Oxm::basic(OxmField::InPhyPort, &[0, 0, 0, 1]))])],
            (2, 13),
            "set-field of in_phy_port: BAD_SET_TYPE",
        ),
        (vec![Instruction::ApplyActions(vec![Action::Group(3)])], (2, 9), "a group that does not exist: BAD_OUT_GROUP"),
        (vec![Instruction::Meter(3)], (12, 3), "a meter that does not exist: UNKNOWN_METER"),
    ];
    for (ins, err, what) in cases {
        assert_eq!(send(&mut s, &mut outs, &flow_mod(V13, add13(0, 10, m(), ins))), vec![err], "{what}");
    }
    assert_eq!(s.flows.len(), 0);
    // a table-mod naming a table the switch has is taken (its 1.3 config bits are deprecated,
    // as Open vSwitch takes them); another table: TABLE_MOD_FAILED / BAD_TABLE
    let table_mod = |t: u8| {
        let mut b = vec![0x04, 17, 0, 16, 0, 0, 0, 9, t, 0, 0, 0, 0, 0, 0, 3];
        b[3] = b.len() as u8;
        b
    };
    assert_eq!(send(&mut s, &mut outs, &table_mod(1)), vec![]);
    assert_eq!(send(&mut s, &mut outs, &table_mod(0xff)), vec![]);
    assert_eq!(send(&mut s, &mut outs, &table_mod(9)), vec![(8, 0)]);
}
