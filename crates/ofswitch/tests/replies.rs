//! Every message the emulated switch answers, for both versions, byte-checked at the fields a
//! controller reads.

use ofswitch::flow_table::Applied;
use ofswitch::{frames, Event, Switch, SwitchConfig, SwitchError};
use ofwire::error_names::{bad_request, error_type};
use ofwire::flow_mod::command;
use ofwire::packet_in::NO_BUFFER;
use ofwire::stats::kind;
use ofwire::MsgType as Kind;
use ofwire::Version;
use ofwire::OFP10;
use ofwire::OFP13;

fn msg(v: u8, kind: Kind, xid: u32, body: &[u8]) -> Vec<u8> {
    let mut m = vec![v, kind.code(Version::layout(v))];
    m.extend_from_slice(&((8 + body.len()) as u16).to_be_bytes());
    m.extend_from_slice(&xid.to_be_bytes());
    m.extend_from_slice(body);
    m
}

fn be16(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}
fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// The replies in `out`, split into messages.
fn split(out: &[u8]) -> Vec<Vec<u8>> {
    let mut v = vec![];
    let mut at = 0;
    while at < out.len() {
        let n = be16(out, at + 2) as usize;
        v.push(out[at..at + n].to_vec());
        at += n;
    }
    v
}

/// A switch that went through hello + features at version `v`.
fn up(v: u8, cfg: SwitchConfig) -> Switch {
    let mut s = Switch::new(cfg);
    let mut out = vec![];
    s.start(0, &mut out);
    s.on_message(0, &msg(v, Kind::Hello, 1, &[]), &mut out).unwrap();
    let e = s.on_message(0, &msg(v, Kind::FeaturesRequest, 2, &[]), &mut out).unwrap();
    assert_eq!(e, Event::Connected { version: v });
    s
}

/// Every reply must also decode with the project's codec (ofwire): two independent readings
/// of the spec have to agree on what the switch sends.
fn ofwire_accepts(msgs: &[Vec<u8>]) {
    for m in msgs {
        if let Err(e) = ofwire::Message::parse(m) {
            panic!("ofwire rejects a reply {:02x?}...: {e:?}", &m[..m.len().min(16)]);
        }
    }
}

fn ask(s: &mut Switch, m: &[u8]) -> Vec<Vec<u8>> {
    let mut out = vec![];
    s.on_message(1_000, m, &mut out).unwrap();
    let msgs = split(&out);
    ofwire_accepts(&msgs);
    msgs
}

#[test]
fn hello_negotiation() {
    // bitmap in both: highest common
    let mut s = Switch::new(SwitchConfig::new(1));
    let mut out = vec![];
    s.start(0, &mut out);
    assert_eq!(be32(&out, 12), 0x12);
    s.on_message(0, &msg(6, Kind::Hello, 1, &[0, 1, 0, 8, 0, 0, 0, 0x52]), &mut out).unwrap();
    assert_eq!(s.version, OFP13);
    // an OF1.0 controller without bitmap gets OF1.0
    let mut s = Switch::new(SwitchConfig::new(1));
    s.on_message(0, &msg(1, Kind::Hello, 1, &[]), &mut out).unwrap();
    assert_eq!(s.version, OFP10);
    // OF1.3-only switch against an OF1.0 controller: hello failed error, session error
    let mut cfg = SwitchConfig::new(1);
    cfg.versions = ofwire::Versions::OF13;
    let mut s = Switch::new(cfg);
    let mut out = vec![];
    let r = s.on_message(0, &msg(1, Kind::Hello, 9, &[]), &mut out);
    assert!(matches!(r, Err(SwitchError::NoCommonVersion { theirs: 1, .. })));
    assert_eq!(out[1], 1, "an error message went out");
    assert_eq!(be16(&out, 8), error_type::HELLO_FAILED);
}

#[test]
fn features_config_barrier_echo_both_versions() {
    for v in [OFP10, OFP13] {
        let mut cfg = SwitchConfig::new(0xabc);
        cfg.ports = 3;
        let mut s = up(v, cfg);
        let r = ask(&mut s, &msg(v, Kind::FeaturesRequest, 5, &[]));
        assert_eq!(r[0][1], Kind::FeaturesReply.code(Version::layout(v)));
        assert_eq!(be32(&r[0], 4), 5);
        assert_eq!(&r[0][8..16], &0xabcu64.to_be_bytes());
        assert_eq!(r[0].len(), if v == OFP10 { 32 + 3 * 48 } else { 32 });

        assert!(ask(&mut s, &msg(v, Kind::SetConfig, 6, &[0, 0, 0, 200])).is_empty());
        let r = ask(&mut s, &msg(v, Kind::GetConfigRequest, 7, &[]));
        assert_eq!((r[0][1], be16(&r[0], 10)), (Kind::GetConfigReply.code(Version::layout(v)), 200));

        let r = ask(&mut s, &msg(v, Kind::BarrierRequest, 8, &[]));
        assert_eq!((r[0][1], be32(&r[0], 4)), (Kind::BarrierReply.code(Version::layout(v)), 8));

        let r = ask(&mut s, &msg(v, Kind::EchoRequest, 9, b"ping"));
        assert_eq!((r[0][1], &r[0][8..]), (Kind::EchoReply.code(Version::layout(v)), &b"ping"[..]));
    }
}

fn stats(v: u8, ty: u16, body: &[u8]) -> Vec<u8> {
    let mut b = ty.to_be_bytes().to_vec();
    b.extend_from_slice(&[0, 0]);
    if v != OFP10 {
        b.extend_from_slice(&[0; 4]);
    }
    b.extend_from_slice(body);
    msg(v, Kind::StatsRequest, 11, &b)
}

#[test]
fn stats_and_multipart_replies() {
    for v in [OFP10, OFP13] {
        let mut cfg = SwitchConfig::new(2);
        cfg.ports = 2;
        let mut s = up(v, cfg);
        let head = if v == OFP10 { 12 } else { 16 };
        let r = ask(&mut s, &stats(v, kind::DESC, &[]));
        assert_eq!(r[0].len(), head + 1056);
        assert_eq!(&r[0][head..head + 8], b"sdnbench");
        let r = ask(&mut s, &stats(v, kind::TABLE, &[]));
        // one record per announced table (254 by default, as Open vSwitch answers)
        assert_eq!(r[0].len(), head + 254 * if v == OFP10 { 64 } else { 24 });
        let any: &[u8] = if v == OFP10 { &[0xff, 0xff, 0, 0, 0, 0, 0, 0] } else { &[0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0] };
        let r = ask(&mut s, &stats(v, kind::PORT, any));
        assert_eq!(r[0].len(), head + 2 * if v == OFP10 { 104 } else { 112 });
        let one: &[u8] = if v == OFP10 { &[0, 2, 0, 0, 0, 0, 0, 0] } else { &[0, 0, 0, 2, 0, 0, 0, 0] };
        let r = ask(&mut s, &stats(v, kind::PORT, one));
        assert_eq!(r[0].len(), head + if v == OFP10 { 104 } else { 112 }, "one port asked, one port answered");
        let r = ask(&mut s, &stats(v, kind::FLOW, &[0; 48]));
        assert_eq!(r[0].len(), head, "no flows kept");
        let r = ask(&mut s, &stats(v, kind::AGGREGATE, &[0; 48]));
        assert_eq!(r[0].len(), head + 24);
        let r = ask(&mut s, &stats(v, 99, &[]));
        assert_eq!((r[0][1], be16(&r[0], 8), be16(&r[0], 10)), (1, error_type::BAD_REQUEST, bad_request::BAD_STAT));
        for m in &r {
            assert_eq!(be32(m, 4), 11);
        }
    }
    let mut cfg = SwitchConfig::new(2);
    cfg.ports = 2;
    let mut s = up(OFP13, cfg);
    let r = ask(&mut s, &stats(OFP13, kind::PORT_DESC, &[]));
    assert_eq!(r[0].len(), 16 + 2 * 64);
    assert_eq!(be32(&r[0], 16), 1);
    assert_eq!(be32(&r[0], 16 + 64), 2);
}

#[test]
fn role_async_queue_and_unknown() {
    let mut s = up(OFP13, SwitchConfig::new(3));
    let mut body = 2u32.to_be_bytes().to_vec(); // MASTER
    body.extend_from_slice(&[0; 4]);
    body.extend_from_slice(&7u64.to_be_bytes());
    let r = ask(&mut s, &msg(OFP13, Kind::RoleRequest, 4, &body));
    assert_eq!((r[0][1], be32(&r[0], 8), r[0].len()), (25, 2, 24));
    let r = ask(&mut s, &msg(OFP13, Kind::GetAsyncRequest, 5, &[]));
    assert_eq!((r[0][1], r[0].len()), (27, 32));
    let r = ask(&mut s, &msg(OFP13, Kind::QueueGetConfigRequest, 6, &[0, 0, 0, 1, 0, 0, 0, 0]));
    assert_eq!(r[0][1], 23);
    let r = ask(&mut s, &msg(OFP13, Kind::Unknown(77), 6, &[]));
    assert_eq!((r[0][1], be16(&r[0], 10)), (1, bad_request::BAD_TYPE));
    // a message in another version gets BAD_VERSION and is dropped; the session goes on (as OVS)
    let mut out = vec![];
    let e = s.on_message(0, &msg(OFP10, Kind::BarrierRequest, 1, &[]), &mut out);
    assert_eq!(e, Ok(Event::Refused { kind: ofwire::MsgType::BarrierRequest, ty: 1, code: 0 }));
    assert_eq!((out[0], out[1], be16(&out, 8), be16(&out, 10)), (OFP13, 1, 1, 0), "OFPET_BAD_REQUEST/BAD_VERSION");
    // an echo or error in another known version is taken, as OVS takes it; an unknown version is not
    let r = ask(&mut s, &msg(OFP10, Kind::EchoRequest, 2, &[]));
    assert_eq!((r[0][0], r[0][1]), (OFP13, 3), "echo reply");
    let mut out = vec![];
    let mut m = msg(OFP13, Kind::EchoRequest, 3, &[]);
    m[0] = 0x09;
    assert!(matches!(s.on_message(0, &m, &mut out), Ok(Event::Refused { code: 0, .. })));
    let r = ask(&mut s, &msg(OFP13, Kind::BarrierRequest, 4, &[]));
    assert_eq!(r[0][1], 21, "the session goes on");
}

fn flow_mod13(cmd: u16, prio: u16, buffer_id: u32, in_port: u32) -> Vec<u8> {
    let mut b = vec![0; 48 - 8];
    b[16] = 0; // table
    b[17] = cmd as u8; // 8 bits in 1.3
    b[22..24].copy_from_slice(&prio.to_be_bytes());
    b[24..28].copy_from_slice(&buffer_id.to_be_bytes());
    b[28..36].fill(0xff); // out_port ANY, out_group ANY
    b.extend_from_slice(&[0, 1, 0, 12, 0x80, 0, 0, 4]);
    b.extend_from_slice(&in_port.to_be_bytes());
    b.extend_from_slice(&[0; 4]);
    msg(OFP13, Kind::FlowMod, 20, &b)
}

#[test]
fn flow_mods_fill_the_table_when_asked() {
    let mut s = up(OFP13, SwitchConfig::new(4));
    let mut out = vec![];
    let e = s.on_message(0, &flow_mod13(command::ADD, 1, 77, 1), &mut out).unwrap();
    assert_eq!(e, Event::FlowMod { buffer_id: 77, applied: None });
    assert!(out.is_empty());

    let mut cfg = SwitchConfig::new(4);
    cfg.keep_flows = true;
    let mut s = up(OFP13, cfg);
    for p in 1..=3 {
        let e = s.on_message(0, &flow_mod13(command::ADD, 5, NO_BUFFER, p), &mut out).unwrap();
        assert_eq!(e, Event::FlowMod { buffer_id: NO_BUFFER, applied: Some(Applied::Added) });
    }
    assert_eq!(s.flows.len(), 3);
    let r = ask(&mut s, &stats(OFP13, kind::FLOW, &[0; 40]));
    assert_eq!(r[0].len(), 16 + 3 * (48 + 16));
    assert_eq!(be16(&r[0], 16 + 12), 5, "priority of the first entry");
    s.on_message(0, &flow_mod13(command::DELETE_STRICT, 5, NO_BUFFER, 2), &mut out).unwrap();
    assert_eq!(s.flows.len(), 2);
}

/// A load test's switch (no flows kept, no forwarding) serves the handshake, flow-mods,
/// packet-outs and stats without making its counters, its ports' counters or a flow table
/// (`ofswitch::on_write`, issue 50); what it reports reads as zero, as before; a forwarding
/// switch makes them on its first frame.
#[test]
fn a_load_switch_makes_no_counters() {
    let mut s = up(OFP13, SwitchConfig::new(4));
    let mut out = vec![];
    s.on_message(0, &flow_mod13(command::ADD, 1, 77, 1), &mut out).unwrap();
    s.on_message(0, &packet_out(OFP13, 42, 1, &frames::udp_frame(1, 10, 1, 2, 1234, 64)), &mut out).unwrap();
    let r = ask(&mut s, &stats(OFP13, kind::PORT, &[0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]));
    assert_eq!(r[0].len(), 16 + 4 * 112, "four ports' stats");
    assert!(r[0][16..].chunks(112).all(|p| p[8..104].iter().all(|&b| b == 0)), "their counters zero");
    assert!(!s.counters.is_made(), "the switch's counters");
    assert!(s.ports.list.iter().all(|p| !p.counters.is_made()), "the ports' counters");
    assert_eq!(s.flows.counters(0), Default::default());

    let mut cfg = SwitchConfig::new(4);
    cfg.forward = true;
    let mut s = up(OFP13, cfg);
    s.on_message(0, &packet_out(OFP13, NO_BUFFER, 2, &frames::udp_frame(1, 10, 1, 2, 1234, 64)), &mut out).unwrap();
    assert_eq!((s.counters.frames_out, s.ports.get(2).unwrap().counters.tx_packets), (1, 1));
    assert!(s.counters.is_made() && !s.ports.get(1).unwrap().counters.is_made());
}

#[test]
fn many_flows_split_over_several_replies() {
    let mut cfg = SwitchConfig::new(4);
    cfg.keep_flows = true;
    let mut s = up(OFP13, cfg);
    let mut out = vec![];
    for p in 0..2000 {
        s.on_message(0, &flow_mod13(command::ADD, 1, NO_BUFFER, p), &mut out).unwrap();
    }
    let r = ask(&mut s, &stats(OFP13, kind::FLOW, &[0; 40]));
    assert!(r.len() >= 2);
    let n: usize = r.iter().map(|m| (m.len() - 16) / 64).sum();
    assert_eq!(n, 2000);
    assert_eq!(be16(&r[0], 10), 1, "REPLY_MORE on the first");
    assert_eq!(be16(r.last().unwrap(), 10), 0);
}

fn packet_out(v: u8, buffer_id: u32, out_port: u32, data: &[u8]) -> Vec<u8> {
    let mut b = buffer_id.to_be_bytes().to_vec();
    if v == OFP10 {
        b.extend_from_slice(&[0xff, 0xff, 0, 8, 0, 0, 0, 8]);
        b.extend_from_slice(&(out_port as u16).to_be_bytes());
        b.extend_from_slice(&[0, 0]);
    } else {
        b.extend_from_slice(&[0xff, 0xff, 0xff, 0xfd, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16]);
        b.extend_from_slice(&out_port.to_be_bytes());
        b.extend_from_slice(&[0; 8]);
    }
    b.extend_from_slice(data);
    msg(v, Kind::PacketOut, 30, &b)
}

#[test]
fn packet_out_buffer_marker_and_lldp_link() {
    for v in [OFP10, OFP13] {
        let mut cfg = SwitchConfig::new(1);
        cfg.links = vec![(2, 9, 3)];
        let mut s = up(v, cfg);
        let mut out = vec![];
        let e = s.on_message(0, &packet_out(v, 42, 1, &[]), &mut out).unwrap();
        assert_eq!(e, Event::PacketOut { buffer_id: 42, marker: None, lldp_sent: 0, sent: 0 });
        let f = frames::udp_frame(1, 10, 1, 2, 1234, 64);
        let e = s.on_message(0, &packet_out(v, NO_BUFFER, 1, &f), &mut out).unwrap();
        assert_eq!(e, Event::PacketOut { buffer_id: NO_BUFFER, marker: Some((1, 1234)), lldp_sent: 0, sent: 0 });
        let mut lldp = vec![0x01, 0x80, 0xc2, 0, 0, 0x0e, 2, 0, 0, 0, 0, 1, 0x88, 0xcc];
        lldp.resize(60, 0);
        let e = s.on_message(0, &packet_out(v, NO_BUFFER, 2, &lldp), &mut out).unwrap();
        assert_eq!(e, Event::PacketOut { buffer_id: NO_BUFFER, marker: None, lldp_sent: 1, sent: 0 });
        assert_eq!(s.link_out, vec![(9, 3, lldp.clone())]);
        // the neighbour turns it into a packet-in on its port 3
        let mut n = up(v, SwitchConfig::new(9));
        let mut out = vec![];
        n.packet_in_from_link(3, &lldp, &mut out);
        assert_eq!(out[1], 10);
        assert_eq!(be32(&out, 8), NO_BUFFER);
        let data_at = if v == OFP10 { 18 } else { 42 };
        assert_eq!(&out[data_at..], &lldp[..]);
        let port = if v == OFP10 { be16(&out, 14) as u32 } else { be32(&out, 32) };
        assert_eq!(port, 3);
    }
}

#[test]
fn keepalive_echo_and_timeout() {
    let mut cfg = SwitchConfig::new(1);
    cfg.echo_interval_ns = 100;
    cfg.echo_timeout_ns = 1000;
    let mut s = up(OFP13, cfg);
    let mut out = vec![];
    assert_eq!(s.poll(50, &mut out), Ok(100));
    assert!(out.is_empty());
    assert_eq!(s.poll(150, &mut out), Ok(1150));
    assert_eq!(out[1], 2, "an echo request");
    let xid = be32(&out, 4);
    let e = s.on_message(400, &msg(OFP13, Kind::EchoReply, xid, &out[8..]), &mut vec![]).unwrap();
    assert_eq!(e, Event::EchoReply { xid, rtt_ns: Some(250) });
    out.clear();
    s.poll(600, &mut out).unwrap();
    assert_eq!(out[1], 2);
    assert!(matches!(s.poll(1700, &mut out), Err(SwitchError::KeepaliveTimeout { .. })));
}

#[test]
fn any_message_after_the_probe_keeps_the_session_as_in_ovs() {
    // rconn: IDLE -> ACTIVE on any message received, not only the echo reply
    let mut cfg = SwitchConfig::new(1);
    cfg.echo_interval_ns = 100;
    cfg.echo_timeout_ns = 100;
    let mut s = up(OFP13, cfg);
    let mut out = vec![];
    assert_eq!(s.poll(150, &mut out), Ok(250), "probe sent at 150");
    s.on_message(200, &msg(OFP13, Kind::BarrierRequest, 7, &[]), &mut vec![]).unwrap();
    out.clear();
    assert_eq!(s.poll(260, &mut out), Ok(300), "alive: the next probe is due 100 after the barrier");
    assert!(out.is_empty());
    assert_eq!(s.poll(300, &mut out), Ok(400));
    assert_eq!(out[1], 2, "a new probe");
    assert!(matches!(s.poll(400, &mut out), Err(SwitchError::KeepaliveTimeout { .. })), "nothing since: disconnect");
}

#[test]
fn a_disconnected_channel_gets_no_packet_in() {
    let mut s = up(OFP13, SwitchConfig::new(1));
    s.disconnect(0);
    assert!(!s.is_up());
    assert!(s.async_channels(ofswitch::channel::Async::PacketIn(0)).next().is_none());
}

#[test]
fn truncated_messages_are_errors() {
    let mut s = up(OFP13, SwitchConfig::new(1));
    let e = s.on_message(0, &msg(OFP13, Kind::FlowMod, 1, &[0; 10]), &mut vec![]);
    assert!(matches!(e, Err(SwitchError::Truncated { kind: "flow_mod", .. })));
    assert!(matches!(ofswitch::frame_len(&[4, 0, 0, 3, 0, 0, 0, 0]), Some(Err(_))));
    assert_eq!(ofswitch::frame_len(&[4, 0, 0, 16]), None);
}

#[test]
fn controller_error_is_reported() {
    let mut s = up(OFP10, SwitchConfig::new(1));
    let e = s.on_message(0, &msg(OFP10, Kind::Error, 1, &[0, 1, 0, 2, 9, 9]), &mut vec![]).unwrap();
    assert_eq!(e, Event::Error { ty: 1, code: 2 });
}

#[test]
fn packet_ins_and_hellos_decode_with_ofwire() {
    for v in [OFP10, OFP13] {
        let mut g = ofswitch::PacketInGen::new(v, 3, 10, 4, 128);
        let mut out = vec![];
        g.emit(&mut out, 77, Some(128));
        g.emit(&mut out, 78, None);
        g.emit_arp(&mut out, 5, 2);
        let msgs = split(&out);
        ofwire_accepts(&msgs);
        match ofwire::Message::parse(&msgs[0]).unwrap().body {
            ofwire::Body::PacketIn(p) => assert_eq!(p.buffer_id, 77),
            other => panic!("not a packet-in: {other:?}"),
        }
        let mut s = Switch::new(SwitchConfig::new(1));
        let mut out = vec![];
        s.start(0, &mut out);
        ofwire_accepts(&split(&out));
    }
}

#[test]
fn messages_of_1_3_only_are_bad_type_on_a_1_0_session() {
    // OF1.0 has no type 24 (role), 26 (get-async) or 29 (meter-mod): ofwire's type table says
    // so, and the switch answers OFPBRC_BAD_TYPE (OF1.0 §5.4.4) instead of a 1.3 reply.
    let mut s = up(OFP10, SwitchConfig::new(3));
    for code in [24u8, 26, 29] {
        let r = ask(&mut s, &msg(OFP10, Kind::Unknown(code), 8, &[0; 16]));
        assert_eq!(
            (r[0][0], r[0][1], be16(&r[0], 8), be16(&r[0], 10)),
            (OFP10, 1, error_type::BAD_REQUEST, bad_request::BAD_TYPE),
            "type {code}"
        );
    }
}
