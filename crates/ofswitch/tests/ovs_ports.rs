//! Ports as Open vSwitch describes them, and a link going down and up as Mininet takes it, against
//! `testdata/ovs31_ports.txt`: ovs-vswitchd 3.1.0's messages (userspace datapath, Mininet's
//! linear,2, captured by a scripted controller). Every field is compared but the name and the
//! hardware address (Mininet's veths have random MACs and prefixed names).

mod common;
use common::*;
use ofswitch::LinkEnd;
use ofwire::{Body, Message, Port, StatsReplyBody};

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

/// The captured messages under `key` at wire version `v`, parsed.
fn ovs(key: &str, v: u8) -> Vec<Message> {
    include_str!("../testdata/ovs31_ports.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            (f[0] == key && f[1] == v.to_string()).then(|| Message::parse(&hex(f[2])).unwrap())
        })
        .collect()
}

type Fields = (u32, u32, u32, u32, u32, u32, u32, u32, u32);

fn fields(p: &Port) -> Fields {
    (p.port_no, p.config, p.state, p.curr, p.advertised, p.supported, p.peer, p.curr_speed, p.max_speed)
}

fn ports(m: &Message) -> Vec<Fields> {
    match &m.body {
        Body::FeaturesReply(f) => f.ports.iter().map(fields).collect(),
        Body::StatsReply(r) => match &r.body {
            StatsReplyBody::PortDesc(p) => p.iter().map(fields).collect(),
            b => panic!("{b:?}"),
        },
        Body::PortStatus(ps) => vec![(ps.reason as u32, 0, 0, 0, 0, 0, 0, 0, 0), fields(&ps.port)],
        b => panic!("{b:?}"),
    }
}

fn all(ms: &[Message]) -> Vec<Vec<Fields>> {
    ms.iter().map(ports).collect()
}

#[test]
fn ports_are_described_as_open_vswitch_describes_mininet_veths() {
    // 1.0: the features reply lists LOCAL first, then the ports
    let (mut s, mut outs) = switch(V10, 1, 2, |c| c.n_tables = 254);
    outs[0].clear();
    let hello = message(V10, 1, Body::FeaturesRequest);
    s.on_message_from(0, 0, &hello, &mut outs).unwrap();
    let ours = decode(&outs[0]);
    let theirs = ovs("s1_features", 1);
    assert_eq!(all(&ours), all(&theirs));
    match (&ours[0].body, &theirs[0].body) {
        (Body::FeaturesReply(a), Body::FeaturesReply(b)) => {
            assert_eq!((a.n_buffers, a.n_tables, a.actions), (b.n_buffers, b.n_tables, b.actions))
        }
        x => panic!("{x:?}"),
    }
    // 1.3: the port description, with speeds
    let (mut s, mut outs) = switch(V13, 1, 2, |_| {});
    let req = message(V13, 10, Body::StatsRequest(ofwire::StatsRequest { flags: 0, body: ofwire::StatsRequestBody::PortDesc }));
    s.on_message_from(0, 0, &req, &mut outs).unwrap();
    assert_eq!(all(&decode(&outs[0])), all(&ovs("s1_port_desc", 4)));
}

#[test]
fn a_link_down_and_up_is_reported_as_open_vswitch_reports_mininets() {
    for v in [V10, V13] {
        for (sw, end) in [("s1", LinkEnd::First), ("s2", LinkEnd::Second)] {
            let (mut s, mut outs) = switch(v, 1, 2, |_| {});
            for (what, up) in [("down", false), ("up", true)] {
                outs[0].clear();
                assert!(s.set_link_end(0, 2, up, end, &mut outs));
                let want = all(&ovs(&format!("{sw}_{what}"), v));
                assert!(!want.is_empty());
                assert_eq!(all(&decode(&outs[0])), want, "{sw} {what} at version {v}");
                assert_eq!(s.ports.get(2).unwrap().is_up(), up, "frames pass only while up");
            }
            outs[0].clear();
            assert!(s.set_link_end(0, 2, true, end, &mut outs));
            assert!(outs[0].is_empty(), "no change, no message");
        }
    }
}

/// LLDP, BDDP, the other reserved multicast addresses and a broadcast arriving on a link port
/// with nothing installed (1.0) or a table-miss entry to the controller (1.3) are raised as
/// packet-ins, as Open vSwitch raised each of them: the same bytes but the xid.
#[test]
fn reserved_multicast_and_bddp_on_a_link_port_come_up_as_open_vswitchs_packet_ins() {
    for v in [V10, V13] {
        let (mut s, mut outs) = switch(v, 1, 2, |_| {});
        if v == V13 {
            let miss = add13(0, 0, ofwire::OxmMatch::new(vec![]), vec![ofwire::Instruction::ApplyActions(vec![output(0xffff_fffd)])]);
            assert_eq!(send(&mut s, &mut outs, &flow_mod(v, miss)), vec![]);
        }
        let theirs: Vec<Vec<u8>> = include_str!("../testdata/ovs31_ports.txt")
            .lines()
            .filter_map(|l| l.strip_prefix(&format!("packet_in {v} ")).map(hex))
            .collect();
        assert_eq!(theirs.len(), 9);
        for want in theirs {
            let frame = &want[want.len() - 60..];
            outs[0].clear();
            s.receive_frame(0, 2, frame, &mut outs);
            let mut ours = outs[0].clone();
            assert!(ours.len() >= 8, "a packet-in at version {v} for {:02x?}", &frame[..14]);
            ours[4..8].copy_from_slice(&want[4..8]);
            assert_eq!(ours, want, "version {v}, frame {:02x?}", &frame[..14]);
        }
    }
}
