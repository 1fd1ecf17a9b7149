//! Groups on the emulated switch: group-mods applied or refused with Open vSwitch's errors,
//! all / select / indirect / fast-failover on the data path, group stats, description and
//! features. Known answers: a group-mod to a switch without groups gets OUT_OF_GROUPS; select
//! shares over many flows follow the weights; fast failover moves to the next live bucket
//! when a port goes down.

mod common;
use common::*;
use ofswitch::frames;
use ofswitch::group::*;
use ofwire::error_names::{error_type, group_mod_failed};
use ofwire::group_stats::*;
use ofwire::{Action, Body, Bucket, GroupMod, Instruction, Message, Oxm, OxmMatch, StatsReplyBody, StatsRequest, StatsRequestBody};

const ANY: u32 = 0xffff_ffff;
const S: u64 = 1_000_000_000;

fn bucket(weight: u16, watch_port: u32, port: u32) -> Bucket {
    Bucket { weight, watch_port, watch_group: ANY, actions: vec![output(port)] }
}

fn group_mod(command: u16, group_type: u8, group_id: u32, buckets: Vec<Bucket>) -> Vec<u8> {
    message(V13, 40, Body::GroupMod(GroupMod { command, group_type, group_id, buckets }))
}

/// in_port=1 → group `g` (apply-actions).
fn to_group(g: u32) -> Vec<u8> {
    let m = OxmMatch::new(vec![Oxm::in_port(1)]);
    flow_mod(V13, add13(0, 10, m, vec![Instruction::ApplyActions(vec![Action::Group(g)])]))
}

fn multipart(typ: u16, data: Vec<u8>) -> Vec<u8> {
    message(V13, 50, Body::StatsRequest(StatsRequest { flags: 0, body: StatsRequestBody::Unknown { typ, data } }))
}

/// The bodies of the multipart replies in `buf`: (flags, bytes).
fn reply_bodies(buf: &[u8]) -> Vec<(u16, Vec<u8>)> {
    decode(buf)
        .into_iter()
        .filter_map(|m: Message| match m.body {
            Body::StatsReply(r) => match r.body {
                StatsReplyBody::Unknown { data, .. } => Some((r.flags, data)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn udp(src: u32, dst: u32) -> Vec<u8> {
    frames::udp_frame(0, 10, src, dst, 0, 64)
}

#[test]
fn a_switch_without_groups_refuses_a_group_mod() {
    let (mut s, mut outs) = switch(V13, 1, 4, |c| c.groups = false);
    let e = send(&mut s, &mut outs, &group_mod(GC_ADD, GT_ALL, 1, vec![bucket(0, ANY, 2)]));
    assert_eq!(e, vec![(error_type::v13::GROUP_MOD_FAILED, group_mod_failed::OUT_OF_GROUPS)]);
    // and a flow naming a group is refused: there is none
    assert_eq!(send(&mut s, &mut outs, &to_group(1)), vec![(2, 9)], "BAD_ACTION / BAD_OUT_GROUP");
    // its group features say so
    outs[0].clear();
    s.on_message(0, &multipart(MP_GROUP_FEATURES, vec![]), &mut outs[0]).unwrap();
    let f = GroupFeatures::parse(&reply_bodies(&outs[0])[0].1).unwrap();
    assert_eq!(f, GroupFeatures::default());
}

#[test]
fn group_mod_errors_are_open_vswitchs() {
    let (mut s, mut outs) = switch(V13, 1, 4, |_| {});
    let ok = send(&mut s, &mut outs, &group_mod(GC_ADD, GT_ALL, 1, vec![bucket(0, ANY, 2), bucket(0, ANY, 3)]));
    assert_eq!(ok, vec![]);
    let cases: Vec<(Vec<u8>, u16, &str)> = vec![
        (group_mod(GC_ADD, GT_ALL, 1, vec![]), group_mod_failed::GROUP_EXISTS, "add twice"),
        (group_mod(GC_MODIFY, GT_ALL, 9, vec![]), group_mod_failed::UNKNOWN_GROUP, "modify a missing group"),
        (
            group_mod(GC_ADD, GT_INDIRECT, 2, vec![bucket(0, ANY, 2), bucket(0, ANY, 3)]),
            group_mod_failed::INVALID_GROUP,
            "indirect with 2 buckets",
        ),
        (group_mod(GC_ADD, GT_FF, 2, vec![bucket(0, ANY, 2)]), group_mod_failed::INVALID_GROUP, "fast failover without a watch"),
        (group_mod(GC_ADD, GT_ALL, 2, vec![bucket(1, ANY, 2)]), group_mod_failed::INVALID_GROUP, "a weight outside select"),
        (group_mod(GC_ADD, GT_ALL, 2, vec![bucket(0, 2, 2)]), group_mod_failed::WATCH_UNSUPPORTED, "a watch in an all group"),
        (group_mod(GC_ADD, 7, 2, vec![]), group_mod_failed::BAD_TYPE, "type 7"),
        (group_mod(5, GT_ALL, 2, vec![]), group_mod_failed::BAD_COMMAND, "command 5"),
        (group_mod(GC_ADD, GT_FF, 2, vec![bucket(0, 0xff10, 2)]), group_mod_failed::BAD_WATCH, "a watch port that is no port"),
        (group_mod(GC_ADD, GT_ALL, G_ALL, vec![]), group_mod_failed::INVALID_GROUP, "add OFPG_ALL"),
        (group_mod(GC_DELETE, GT_ALL, 1, vec![bucket(0, ANY, 2)]), group_mod_failed::INVALID_GROUP, "delete with buckets"),
    ];
    for (msg, code, what) in cases {
        assert_eq!(send(&mut s, &mut outs, &msg), vec![(error_type::v13::GROUP_MOD_FAILED, code)], "{what}");
    }
    // a truncated bucket: BAD_BUCKET, and the session goes on
    let mut bad = group_mod(GC_ADD, GT_ALL, 3, vec![bucket(0, ANY, 2)]);
    bad[17] = 8;
    assert_eq!(send(&mut s, &mut outs, &bad), vec![(error_type::v13::GROUP_MOD_FAILED, group_mod_failed::BAD_BUCKET)]);
    // deleting a group that does not exist is no error; OFPG_ALL empties the table
    assert_eq!(send(&mut s, &mut outs, &group_mod(GC_DELETE, GT_ALL, 77, vec![])), vec![]);
    send(&mut s, &mut outs, &group_mod(GC_ADD, GT_INDIRECT, 2, vec![bucket(0, ANY, 2)]));
    assert_eq!(s.groups.map.len(), 2);
    assert_eq!(send(&mut s, &mut outs, &group_mod(GC_DELETE, GT_ALL, G_ALL, vec![])), vec![]);
    assert!(s.groups.map.is_empty());
}

#[test]
fn all_group_copies_to_every_bucket_and_counts() {
    let (mut s, mut outs) = switch(V13, 1, 4, |_| {});
    let buckets = vec![bucket(0, ANY, 2), bucket(0, ANY, 3)];
    assert_eq!(send(&mut s, &mut outs, &group_mod(GC_ADD, GT_ALL, 5, buckets.clone())), vec![]);
    assert_eq!(send(&mut s, &mut outs, &to_group(5)), vec![]);
    for i in 0..3 {
        s.receive_frame(S + i, 1, &udp(1, 2), &mut outs);
    }
    let ports: Vec<u32> = s.tx.iter().map(|x| x.0).collect();
    assert_eq!(ports, vec![2, 3, 2, 3, 2, 3]);
    // group stats: 3 packets of 64 bytes, each bucket too; one flow refers to it
    outs[0].clear();
    s.on_message(2 * S, &multipart(MP_GROUP, G_ALL.to_be_bytes().to_vec()), &mut outs[0]).unwrap();
    let st = parse_list(&reply_bodies(&outs[0])[0].1, GroupStats::parse).unwrap();
    assert_eq!(st.len(), 1);
    assert_eq!((st[0].group_id, st[0].ref_count, st[0].packet_count, st[0].byte_count), (5, 1, 3, 192));
    assert_eq!(st[0].buckets, vec![(3, 192), (3, 192)]);
    assert_eq!(st[0].duration_sec, 2);
    // group desc: what was sent
    outs[0].clear();
    s.on_message(0, &multipart(MP_GROUP_DESC, vec![]), &mut outs[0]).unwrap();
    let d = parse_list(&reply_bodies(&outs[0])[0].1, GroupDesc::parse).unwrap();
    assert_eq!(d, vec![GroupDesc { group_type: GT_ALL, group_id: 5, buckets }]);
    // features: every type, weights, liveness, chaining
    outs[0].clear();
    s.on_message(0, &multipart(MP_GROUP_FEATURES, vec![]), &mut outs[0]).unwrap();
    let f = GroupFeatures::parse(&reply_bodies(&outs[0])[0].1).unwrap();
    assert_eq!((f.types, f.capabilities, f.max_groups[1]), (0xf, 0b111, G_MAX));
}

#[test]
fn indirect_group_in_an_action_set_beats_an_output() {
    let (mut s, mut outs) = switch(V13, 1, 4, |_| {});
    send(&mut s, &mut outs, &group_mod(GC_ADD, GT_INDIRECT, 1, vec![bucket(0, ANY, 3)]));
    let m = OxmMatch::new(vec![Oxm::in_port(1)]);
    let set = Instruction::WriteActions(vec![output(2), Action::Group(1)]);
    assert_eq!(send(&mut s, &mut outs, &flow_mod(V13, add13(0, 10, m, vec![set]))), vec![]);
    s.receive_frame(S, 1, &udp(1, 2), &mut outs);
    assert_eq!(s.tx.iter().map(|x| x.0).collect::<Vec<_>>(), vec![3], "the group, not output:2 (OF1.3 §5.10)");
}

/// Weights 1:3 over 6,400 distinct flows: shares 25% and 75% within 2 points; one flow
/// always takes the same bucket.
#[test]
fn select_shares_follow_the_weights_and_a_flow_sticks() {
    let (mut s, mut outs) = switch(V13, 1, 4, |_| {});
    send(&mut s, &mut outs, &group_mod(GC_ADD, GT_SELECT, 1, vec![bucket(1, ANY, 2), bucket(3, ANY, 3)]));
    send(&mut s, &mut outs, &to_group(1));
    // distinct flows as the os-ken tester makes them: random IPv4 addresses (a symmetric
    // hash, as Open vSwitch's, sees src ^ dst: flows between few hosts make few hashes)
    let n = 6_400;
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut f = udp(1, 2);
        f[26..34].copy_from_slice(&x.to_be_bytes());
        s.receive_frame(S, 1, &f, &mut outs);
    }
    let to3 = s.tx.iter().filter(|x| x.0 == 3).count();
    assert_eq!(s.tx.len(), n, "one bucket per frame");
    let share = to3 as f64 / n as f64;
    assert!((share - 0.75).abs() < 0.02, "share of the weight-3 bucket: {share}");
    // the same flow again and again: one port
    s.tx.clear();
    for _ in 0..20 {
        s.receive_frame(S, 1, &udp(7, 9), &mut outs);
    }
    let first = s.tx[0].0;
    assert!(s.tx.iter().all(|x| x.0 == first));
    // a bucket whose watch port is down is skipped
    send(&mut s, &mut outs, &group_mod(GC_MODIFY, GT_SELECT, 1, vec![bucket(1, 2, 2), bucket(3, 3, 3)]));
    s.set_port_state(S, 3, false, &mut outs);
    s.tx.clear();
    for src in 1..=20 {
        s.receive_frame(S, 1, &udp(src, 1), &mut outs);
    }
    assert!(s.tx.len() == 20 && s.tx.iter().all(|x| x.0 == 2));
}

#[test]
fn fast_failover_takes_the_next_live_bucket() {
    let (mut s, mut outs) = switch(V13, 1, 4, |_| {});
    let e = send(&mut s, &mut outs, &group_mod(GC_ADD, GT_FF, 1, vec![bucket(0, 2, 2), bucket(0, 3, 3), bucket(0, 4, 4)]));
    assert_eq!(e, vec![]);
    send(&mut s, &mut outs, &to_group(1));
    let hop = |s: &mut ofswitch::Switch, outs: &mut Vec<Vec<u8>>| {
        s.tx.clear();
        s.receive_frame(S, 1, &udp(1, 2), outs);
        s.tx.iter().map(|x| x.0).collect::<Vec<_>>()
    };
    assert_eq!(hop(&mut s, &mut outs), vec![2]);
    s.set_port_state(S, 2, false, &mut outs);
    assert_eq!(hop(&mut s, &mut outs), vec![3], "port 2 down: the next live bucket");
    s.set_port_state(S, 3, false, &mut outs);
    assert_eq!(hop(&mut s, &mut outs), vec![4]);
    s.set_port_state(S, 4, false, &mut outs);
    assert_eq!(hop(&mut s, &mut outs), Vec::<u32>::new(), "no live bucket: dropped");
    s.set_port_state(S, 2, true, &mut outs);
    assert_eq!(hop(&mut s, &mut outs), vec![2], "port 2 back: first bucket again");
}

#[test]
fn pick_weighted_is_proportional() {
    let live = [(0, 1), (1, 2), (2, 0), (3, 1)];
    let mut count = [0u32; 4];
    for i in 0..4096u64 {
        count[pick_weighted(&live, i << 52).unwrap()] += 1;
    }
    assert_eq!(count, [1024, 2048, 0, 1024]);
    assert_eq!(pick_weighted(&[], 5), None);
}

/// Deleting a group takes the flows that name it, as Open vSwitch: FLOW_REMOVED with reason
/// GROUP_DELETE (3) for one that asked for it.
#[test]
fn deleting_a_group_removes_its_flows() {
    let (mut s, mut outs) = switch(V13, 1, 4, |_| {});
    send(&mut s, &mut outs, &group_mod(GC_ADD, GT_INDIRECT, 1, vec![bucket(0, ANY, 3)]));
    let m = OxmMatch::new(vec![Oxm::in_port(1)]);
    let mut fm = add13(0, 10, m, vec![Instruction::ApplyActions(vec![Action::Group(1)])]);
    fm.flags = 1;
    assert_eq!(send(&mut s, &mut outs, &flow_mod(V13, fm)), vec![]);
    let other = add13(0, 5, OxmMatch::new(vec![Oxm::in_port(2)]), vec![Instruction::ApplyActions(vec![output(1)])]);
    send(&mut s, &mut outs, &flow_mod(V13, other));
    assert_eq!(s.flows.len(), 2);
    assert_eq!(send(&mut s, &mut outs, &group_mod(GC_DELETE, GT_ALL, 1, vec![])), vec![]);
    assert_eq!(s.flows.len(), 1, "only the flow naming the group");
    let reasons: Vec<u8> = decode(&outs[0])
        .into_iter()
        .filter_map(|m| match m.body {
            Body::FlowRemoved(f) => Some(f.reason),
            _ => None,
        })
        .collect();
    assert_eq!(reasons, vec![3]);
}
