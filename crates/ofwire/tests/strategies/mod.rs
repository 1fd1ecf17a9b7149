//! proptest strategies for every message body, per version. Fields a version does not
//! have are left at their defaults, as `parse` leaves them.
#![allow(dead_code)]

mod lists;

pub use lists::{actions, instructions, oxm_match, port};

use ofwire::stats_reply::StatsReplyBody;
use ofwire::*;
use proptest::collection::vec;
use proptest::prelude::*;

pub fn version() -> impl Strategy<Value = Version> {
    prop_oneof![Just(Version::V10), Just(Version::V13)]
}

pub fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 0..max)
}

/// Any name a NUL-padded field of `n` bytes can carry (Latin-1 without NUL).
pub fn fixed_string(n: usize) -> impl Strategy<Value = String> {
    proptest::string::string_regex(&format!("[\\x01-\\u{{ff}}]{{0,{n}}}")).unwrap()
}

pub fn match10() -> impl Strategy<Value = Match10> {
    (any::<(u32, u16, [u8; 6], [u8; 6], u16, u8, u16)>(), any::<(u8, u8, u32, u32, u16, u16)>()).prop_map(
        |((wildcards, in_port, dl_src, dl_dst, dl_vlan, dl_vlan_pcp, dl_type), (nw_tos, nw_proto, nw_src, nw_dst, tp_src, tp_dst))| {
            Match10 { wildcards, in_port, dl_src, dl_dst, dl_vlan, dl_vlan_pcp, dl_type, nw_tos, nw_proto, nw_src, nw_dst, tp_src, tp_dst }
        },
    )
}

fn hello() -> impl Strategy<Value = Hello> {
    let elem = prop_oneof![
        vec(any::<u32>(), 0..4).prop_map(HelloElem::VersionBitmap),
        (2u16..=u16::MAX, bytes(12)).prop_map(|(typ, data)| HelloElem::Unknown { typ, data }),
    ];
    vec(elem, 0..3).prop_map(|elements| Hello { elements })
}

fn features(v: Version) -> impl Strategy<Value = FeaturesReply> {
    (any::<(u64, u32, u8, u8, u32, u32, u32)>(), vec(port(v), 0..3)).prop_map(
        move |((dpid, nb, nt, aux, caps, actions, reserved), ports)| {
            let mut f = FeaturesReply { datapath_id: dpid, n_buffers: nb, n_tables: nt, capabilities: caps, ..Default::default() };
            match v {
                Version::V10 => {
                    f.actions = actions;
                    f.ports = ports;
                }
                Version::V13 => {
                    f.auxiliary_id = aux;
                    f.reserved = reserved;
                }
            }
            f
        },
    )
}

fn packet_in(v: Version) -> impl Strategy<Value = PacketIn> {
    (any::<(u32, u16, u8, u16, u8, u64)>(), oxm_match(), bytes(100)).prop_map(move |((b, t, r, p, tid, c), m, data)| match v {
        Version::V10 => PacketIn { buffer_id: b, total_len: t, reason: r, in_port: p, data, ..Default::default() },
        Version::V13 => PacketIn { buffer_id: b, total_len: t, reason: r, table_id: tid, cookie: c, match_: m, data, ..Default::default() },
    })
}

fn flow_removed(v: Version) -> impl Strategy<Value = FlowRemoved> {
    (any::<(u64, u16, u8, u8, u32, u32, u16, u16, u64, u64)>(), match10(), oxm_match()).prop_map(move |(t, m10, m13)| {
        let mut f = FlowRemoved {
            cookie: t.0,
            priority: t.1,
            reason: t.2,
            duration_sec: t.4,
            duration_nsec: t.5,
            idle_timeout: t.6,
            packet_count: t.8,
            byte_count: t.9,
            ..Default::default()
        };
        match v {
            Version::V10 => f.match10 = m10,
            Version::V13 => {
                f.table_id = t.3;
                f.hard_timeout = t.7;
                f.match_ = m13;
            }
        }
        f
    })
}

fn port_no(v: Version) -> BoxedStrategy<u32> {
    match v {
        Version::V10 => any::<u16>().prop_map(u32::from).boxed(),
        Version::V13 => any::<u32>().boxed(),
    }
}

fn packet_out(v: Version) -> impl Strategy<Value = PacketOut> {
    (any::<u32>(), port_no(v), actions(v), bytes(100)).prop_map(|(buffer_id, in_port, actions, data)| PacketOut {
        buffer_id,
        in_port,
        actions,
        data,
    })
}

fn flow_mod(v: Version) -> impl Strategy<Value = FlowMod> {
    (any::<(u64, u64, u8, u8, u16, u16, u16, u32, u32, u16)>(), port_no(v), match10(), oxm_match(), actions(v), instructions()).prop_map(
        move |(t, out_port, m10, m13, acts, ins)| {
            let mut f = FlowMod {
                cookie: t.0,
                idle_timeout: t.4,
                hard_timeout: t.5,
                priority: t.6,
                buffer_id: t.7,
                out_port,
                flags: t.9,
                ..Default::default()
            };
            match v {
                Version::V10 => {
                    f.command = t.8 as u16;
                    f.match10 = m10;
                    f.actions = acts;
                }
                Version::V13 => {
                    f.cookie_mask = t.1;
                    f.table_id = t.2;
                    f.command = t.3 as u16;
                    f.out_group = t.8;
                    f.match_ = m13;
                    f.instructions = ins;
                }
            }
            f
        },
    )
}

fn group_mod() -> impl Strategy<Value = GroupMod> {
    let bucket = (any::<(u16, u32, u32)>(), actions(Version::V13)).prop_map(|((weight, watch_port, watch_group), actions)| Bucket {
        weight,
        watch_port,
        watch_group,
        actions,
    });
    (any::<(u16, u8, u32)>(), vec(bucket, 0..3)).prop_map(|((command, group_type, group_id), buckets)| GroupMod {
        command,
        group_type,
        group_id,
        buckets,
    })
}

fn meter_mod() -> impl Strategy<Value = MeterMod> {
    let band = prop_oneof![
        any::<(u32, u32)>().prop_map(|(rate, burst_size)| MeterBand::Drop { rate, burst_size }),
        any::<(u32, u32, u8)>().prop_map(|(rate, burst_size, prec_level)| MeterBand::DscpRemark { rate, burst_size, prec_level }),
        (any::<(u32, u32, u32)>(), bytes(8)).prop_map(|((rate, burst_size, experimenter), data)| MeterBand::Experimenter {
            rate,
            burst_size,
            experimenter,
            data
        }),
        (3u16..0xffff, any::<(u32, u32)>(), bytes(8)).prop_map(|(typ, (rate, burst_size), data)| MeterBand::Unknown {
            typ,
            rate,
            burst_size,
            data
        }),
    ];
    (any::<(u16, u16, u32)>(), vec(band, 0..4)).prop_map(|((command, flags, meter_id), bands)| MeterMod { command, flags, meter_id, bands })
}

fn flow_stats_request(v: Version) -> impl Strategy<Value = FlowStatsRequest> {
    (any::<(u8, u32, u64, u64)>(), port_no(v), match10(), oxm_match()).prop_map(
        move |((table_id, out_group, cookie, cookie_mask), out_port, m10, m13)| match v {
            Version::V10 => FlowStatsRequest { table_id, out_port, match10: m10, ..Default::default() },
            Version::V13 => FlowStatsRequest { table_id, out_port, out_group, cookie, cookie_mask, match_: m13, ..Default::default() },
        },
    )
}

fn stats_request(v: Version) -> impl Strategy<Value = StatsRequest> {
    let mut kinds = vec![
        Just(StatsRequestBody::Desc).boxed(),
        flow_stats_request(v).prop_map(StatsRequestBody::Flow).boxed(),
        flow_stats_request(v).prop_map(StatsRequestBody::Aggregate).boxed(),
        Just(StatsRequestBody::Table).boxed(),
        port_no(v).prop_map(|port_no| StatsRequestBody::Port { port_no }).boxed(),
        (port_no(v), any::<u32>()).prop_map(|(port_no, queue_id)| StatsRequestBody::Queue { port_no, queue_id }).boxed(),
        (prop_oneof![6u16..13, 14u16..=0xffff], bytes(16)).prop_map(|(typ, data)| StatsRequestBody::Unknown { typ, data }).boxed(),
    ];
    if v == Version::V13 {
        kinds.push(Just(StatsRequestBody::PortDesc).boxed());
    }
    (any::<u16>(), proptest::strategy::Union::new(kinds)).prop_map(|(flags, body)| StatsRequest { flags, body })
}

fn stats_reply(v: Version) -> impl Strategy<Value = StatsReply> {
    (any::<u16>(), lists::stats_reply_body(v)).prop_map(|(flags, body): (u16, StatsReplyBody)| StatsReply { flags, body })
}

/// Any body valid in version `v`.
pub fn body(v: Version) -> BoxedStrategy<Body> {
    let mut all: Vec<BoxedStrategy<Body>> = vec![
        hello().prop_map(Body::Hello).boxed(),
        (any::<(u16, u16)>(), bytes(64)).prop_map(|((typ, code), data)| Body::Error(ErrorMsg { typ, code, data })).boxed(),
        bytes(64).prop_map(Body::EchoRequest).boxed(),
        bytes(64).prop_map(Body::EchoReply).boxed(),
        (any::<(u32, u32)>(), bytes(32))
            .prop_map(move |((experimenter, t), data)| {
                Body::Experimenter(Experimenter { experimenter, exp_type: if v == Version::V13 { t } else { 0 }, data })
            })
            .boxed(),
        Just(Body::FeaturesRequest).boxed(),
        features(v).prop_map(Body::FeaturesReply).boxed(),
        Just(Body::GetConfigRequest).boxed(),
        any::<(u16, u16)>().prop_map(|(flags, miss_send_len)| Body::GetConfigReply(SwitchConfig { flags, miss_send_len })).boxed(),
        any::<(u16, u16)>().prop_map(|(flags, miss_send_len)| Body::SetConfig(SwitchConfig { flags, miss_send_len })).boxed(),
        packet_in(v).prop_map(Body::PacketIn).boxed(),
        flow_removed(v).prop_map(Body::FlowRemoved).boxed(),
        (any::<u8>(), port(v)).prop_map(|(reason, port)| Body::PortStatus(PortStatus { reason, port })).boxed(),
        packet_out(v).prop_map(Body::PacketOut).boxed(),
        flow_mod(v).prop_map(Body::FlowMod).boxed(),
        (port_no(v), any::<([u8; 6], u32, u32, u32)>())
            .prop_map(|(port_no, (hw_addr, config, mask, advertise))| Body::PortMod(PortMod { port_no, hw_addr, config, mask, advertise }))
            .boxed(),
        stats_request(v).prop_map(Body::StatsRequest).boxed(),
        stats_reply(v).prop_map(Body::StatsReply).boxed(),
        Just(Body::BarrierRequest).boxed(),
        Just(Body::BarrierReply).boxed(),
        (unknown_type(v), bytes(64)).prop_map(|(msg_type, data)| Body::Unknown { msg_type, data }).boxed(),
    ];
    if v == Version::V13 {
        let role = any::<(u32, u64)>().prop_map(|(role, generation_id)| Role { role, generation_id });
        let asyn = any::<([u32; 2], [u32; 2], [u32; 2])>().prop_map(|(a, b, c)| AsyncConfig {
            packet_in_mask: a,
            port_status_mask: b,
            flow_removed_mask: c,
        });
        all.extend([
            group_mod().prop_map(Body::GroupMod).boxed(),
            meter_mod().prop_map(Body::MeterMod).boxed(),
            role.clone().prop_map(Body::RoleRequest).boxed(),
            role.prop_map(Body::RoleReply).boxed(),
            Just(Body::GetAsyncRequest).boxed(),
            asyn.clone().prop_map(Body::GetAsyncReply).boxed(),
            asyn.prop_map(Body::SetAsync).boxed(),
        ]);
    }
    proptest::strategy::Union::new(all).boxed()
}

/// Message type codes the version leaves undecoded.
fn unknown_type(v: Version) -> impl Strategy<Value = u8> {
    any::<u8>().prop_filter("a decoded type", move |&t| MsgType::from_code(v, t).is_none())
}
