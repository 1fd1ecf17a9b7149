//! Strategies for the TLV lists (OXM, actions, instructions), ports and stats entries.

use super::{bytes, fixed_string, match10};
use ofwire::stats_reply::*;
use ofwire::*;
use proptest::collection::vec;
use proptest::prelude::*;

pub fn oxm() -> impl Strategy<Value = Oxm> {
    prop_oneof![
        6 => (0u8..40, any::<bool>(), bytes(16), bytes(16)).prop_map(|(code, masked, v, m)| {
            let field = OxmField::from_code(code);
            let n = field.value_len().unwrap();
            let pad = |b: Vec<u8>| { let mut b = b; b.resize(n, 0x5a); b };
            Oxm::Basic { field, value: pad(v), mask: masked.then(|| pad(m)) }
        }),
        1 => (40u8..128, any::<bool>(), bytes(8)).prop_map(|(code, masked, v)| {
            Oxm::Basic { field: OxmField::Unknown(code), mask: masked.then(|| v.clone()), value: v }
        }),
        1 => (0u16..0x8000, 0u8..128, any::<bool>(), bytes(12)).prop_map(|(class, field, hasmask, payload)| Oxm::Other { class, field, hasmask, payload }),
    ]
}

pub fn oxm_match() -> impl Strategy<Value = OxmMatch> {
    vec(oxm(), 0..5).prop_map(OxmMatch::new)
}

/// Raw bytes of a length ≡ `rem` (mod 8), for experimenter/unknown TLV payloads.
fn padded_bytes(rem: usize) -> impl Strategy<Value = Vec<u8>> {
    (0usize..3, bytes(24)).prop_map(move |(k, mut b)| {
        b.resize(8 * k + rem, 0x33);
        b
    })
}

pub fn action(v: Version) -> BoxedStrategy<Action> {
    use Action::*;
    let exp = (any::<u32>(), padded_bytes(0)).prop_map(|(experimenter, data)| Experimenter { experimenter, data });
    match v {
        Version::V10 => prop_oneof![
            any::<(u16, u16)>().prop_map(|(p, max_len)| Output { port: p as u32, max_len }),
            any::<(u16, u32)>().prop_map(|(port, queue_id)| Enqueue { port, queue_id }),
            any::<u16>().prop_map(SetVlanVid),
            any::<u8>().prop_map(SetVlanPcp),
            Just(StripVlan),
            any::<[u8; 6]>().prop_map(SetDlSrc),
            any::<[u8; 6]>().prop_map(SetDlDst),
            any::<u32>().prop_map(SetNwSrc),
            any::<u32>().prop_map(SetNwDst),
            any::<u8>().prop_map(SetNwTos),
            any::<u16>().prop_map(SetTpSrc),
            any::<u16>().prop_map(SetTpDst),
            exp,
            (12u16..0xffff, padded_bytes(4)).prop_map(|(typ, data)| Unknown { typ, data }),
        ]
        .boxed(),
        Version::V13 => prop_oneof![
            any::<(u32, u16)>().prop_map(|(port, max_len)| Output { port, max_len }),
            Just(CopyTtlOut),
            Just(CopyTtlIn),
            any::<u8>().prop_map(SetMplsTtl),
            Just(DecMplsTtl),
            any::<u16>().prop_map(PushVlan),
            Just(PopVlan),
            any::<u16>().prop_map(PushMpls),
            any::<u16>().prop_map(PopMpls),
            any::<u32>().prop_map(SetQueue),
            any::<u32>().prop_map(Group),
            any::<u8>().prop_map(SetNwTtl),
            Just(DecNwTtl),
            oxm().prop_map(SetField),
            any::<u16>().prop_map(PushPbb),
            Just(PopPbb),
            exp,
            (prop_oneof![1u16..11, 13u16..15, 28u16..0xffff], padded_bytes(4)).prop_map(|(typ, data)| Unknown { typ, data }),
        ]
        .boxed(),
    }
}

pub fn actions(v: Version) -> impl Strategy<Value = Vec<Action>> {
    vec(action(v), 0..4)
}

pub fn instructions() -> impl Strategy<Value = Vec<Instruction>> {
    let i = prop_oneof![
        any::<u8>().prop_map(Instruction::GotoTable),
        any::<(u64, u64)>().prop_map(|(metadata, mask)| Instruction::WriteMetadata { metadata, mask }),
        actions(Version::V13).prop_map(Instruction::WriteActions),
        actions(Version::V13).prop_map(Instruction::ApplyActions),
        Just(Instruction::ClearActions),
        any::<u32>().prop_map(Instruction::Meter),
        (any::<u32>(), padded_bytes(0)).prop_map(|(experimenter, data)| Instruction::Experimenter { experimenter, data }),
        (prop_oneof![Just(0u16), 7u16..0xffff], padded_bytes(4)).prop_map(|(typ, data)| Instruction::Unknown { typ, data }),
    ];
    vec(i, 0..4)
}

pub fn port(v: Version) -> impl Strategy<Value = Port> {
    (any::<(u32, [u8; 6], u32, u32, u32, u32, u32, u32, u32, u32)>(), fixed_string(16)).prop_map(move |(t, name)| {
        let mut p = Port {
            port_no: t.0,
            hw_addr: t.1,
            name,
            config: t.2,
            state: t.3,
            curr: t.4,
            advertised: t.5,
            supported: t.6,
            peer: t.7,
            curr_speed: t.8,
            max_speed: t.9,
        };
        if v == Version::V10 {
            p.port_no &= 0xffff;
            p.curr_speed = 0;
            p.max_speed = 0;
        }
        p
    })
}

fn flow_stats(v: Version) -> impl Strategy<Value = FlowStats> {
    (any::<(u8, u32, u32, u16, u16, u16, u16, u64, u64, u64)>(), match10(), oxm_match(), actions(v), instructions()).prop_map(
        move |(t, m10, m13, acts, ins)| {
            let mut f = FlowStats {
                table_id: t.0,
                duration_sec: t.1,
                duration_nsec: t.2,
                priority: t.3,
                idle_timeout: t.4,
                hard_timeout: t.5,
                cookie: t.7,
                packet_count: t.8,
                byte_count: t.9,
                ..Default::default()
            };
            match v {
                Version::V10 => {
                    f.match10 = m10;
                    f.actions = acts;
                }
                Version::V13 => {
                    f.flags = t.6;
                    f.match_ = m13;
                    f.instructions = ins;
                }
            }
            f
        },
    )
}

pub fn stats_reply_body(v: Version) -> BoxedStrategy<StatsReplyBody> {
    let v13 = v == Version::V13;
    let desc = (fixed_string(256), fixed_string(256), fixed_string(256), fixed_string(32), fixed_string(256)).prop_map(
        |(mfr_desc, hw_desc, sw_desc, serial_num, dp_desc)| {
            StatsReplyBody::Desc(DescStats { mfr_desc, hw_desc, sw_desc, serial_num, dp_desc })
        },
    );
    let table = (any::<(u8, u32, u32, u32, u64, u64)>(), fixed_string(32)).prop_map(move |(t, name)| {
        let mut s = TableStats { table_id: t.0, active_count: t.3, lookup_count: t.4, matched_count: t.5, ..Default::default() };
        if !v13 {
            s.name = name;
            s.wildcards = t.1;
            s.max_entries = t.2;
        }
        s
    });
    let port_stats = (any::<(u32, [u64; 12], u32, u32)>()).prop_map(move |(p, counters, ds, dn)| PortStats {
        port_no: if v13 { p } else { p & 0xffff },
        counters,
        duration_sec: if v13 { ds } else { 0 },
        duration_nsec: if v13 { dn } else { 0 },
    });
    let queue = any::<(u32, u32, u64, u64, u64, u32, u32)>().prop_map(move |t| QueueStats {
        port_no: if v13 { t.0 } else { t.0 & 0xffff },
        queue_id: t.1,
        tx_bytes: t.2,
        tx_packets: t.3,
        tx_errors: t.4,
        duration_sec: if v13 { t.5 } else { 0 },
        duration_nsec: if v13 { t.6 } else { 0 },
    });
    let mut all = vec![
        desc.boxed(),
        vec(flow_stats(v), 0..3).prop_map(StatsReplyBody::Flow).boxed(),
        any::<(u64, u64, u32)>()
            .prop_map(|(packet_count, byte_count, flow_count)| {
                StatsReplyBody::Aggregate(AggregateStats { packet_count, byte_count, flow_count })
            })
            .boxed(),
        vec(table, 0..3).prop_map(StatsReplyBody::Table).boxed(),
        vec(port_stats, 0..3).prop_map(StatsReplyBody::Port).boxed(),
        vec(queue, 0..3).prop_map(StatsReplyBody::Queue).boxed(),
        (prop_oneof![6u16..13, 14u16..=0xffff], bytes(16)).prop_map(|(typ, data)| StatsReplyBody::Unknown { typ, data }).boxed(),
    ];
    if v13 {
        all.push(vec(port(v), 0..3).prop_map(StatsReplyBody::PortDesc).boxed());
    }
    proptest::strategy::Union::new(all).boxed()
}
