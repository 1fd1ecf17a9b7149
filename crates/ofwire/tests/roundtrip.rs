//! Property: for generated messages of every type, in both versions,
//! `parse(emit(x)) == x`, `emit` writes exactly `buffer_len()` bytes, and the zero-copy
//! views agree with the values.

mod strategies;

use ofwire::{flow_mod, packet_in, packet_out, Body, Header, Message, PacketInRef, Version};
use proptest::prelude::*;
use strategies::{body, version};

fn config() -> ProptestConfig {
    // Modest by default: `make test` runs this on a shared 2-core machine. PROPTEST_CASES
    // raises it for a longer run.
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(3000);
    ProptestConfig { cases, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn parse_emit_round_trip((v, b) in version().prop_flat_map(|v| (Just(v), body(v))), xid in any::<u32>()) {
        let msg = Message::new(v, xid, b);
        let n = msg.buffer_len();
        prop_assume!(n <= u16::MAX as usize);
        let mut buf = vec![0xa5u8; n + 4];
        prop_assert_eq!(msg.emit(&mut buf), n);
        prop_assert_eq!(&buf[n..], &[0xa5u8; 4][..]);
        let h = Header::new_checked(&buf[..n]).unwrap();
        prop_assert_eq!((h.version(), h.length() as usize, h.xid()), (v.wire(), n, xid));
        let back = Message::parse(&buf[..n]);
        prop_assert_eq!(back.as_ref(), Ok(&msg));
        match &msg.body {
            Body::FlowMod(f) => {
                let p = flow_mod::Packet::new_checked(&buf[..n]).unwrap();
                prop_assert_eq!((p.buffer_id(), p.priority(), p.xid()), (f.buffer_id, f.priority, xid));
            }
            Body::PacketIn(pi) => {
                let p = packet_in::Packet::new_checked(&buf[..n]).unwrap();
                prop_assert_eq!((p.buffer_id(), p.total_len(), p.data()), (pi.buffer_id, pi.total_len, &pi.data[..]));
                let plain_in_port_first = matches!(pi.match_.fields.first(), Some(ofwire::Oxm::Basic { field: ofwire::OxmField::InPort, mask: None, .. }));
                if v == Version::V10 || plain_in_port_first {
                    prop_assert_eq!(p.in_port(), pi.port(v));
                }
            }
            Body::PacketOut(po) => {
                let p = packet_out::Packet::new_checked(&buf[..n]).unwrap();
                prop_assert_eq!((p.buffer_id(), p.in_port(), p.data()), (po.buffer_id, po.in_port, &po.data[..]));
            }
            _ => {}
        }
    }

    #[test]
    fn every_truncation_is_an_error((v, b) in version().prop_flat_map(|v| (Just(v), body(v))), cut in any::<prop::sample::Index>()) {
        let bytes = Message::new(v, 1, b).to_vec();
        let at = cut.index(bytes.len());
        // A prefix with the header's length left as is never decodes ...
        prop_assert!(Message::parse(&bytes[..at]).is_err());
        // ... nor does a prefix whose length was patched to match.
        if at >= 8 {
            let mut short = bytes[..at].to_vec();
            short[2..4].copy_from_slice(&(at as u16).to_be_bytes());
            if let Ok(m) = Message::parse(&short) {
                // Only bodies that end in free-form bytes (data, echo, unknown) may still decode.
                prop_assert!(ends_in_opaque_bytes(&m.body), "{:?}", m.body);
            }
        }
    }

    #[test]
    fn packet_in_ref_equals_value(v in version(), in_port in any::<u16>(), buffer_id in any::<u32>(), data in prop::collection::vec(any::<u8>(), 0..300), xid in any::<u32>()) {
        let pi = PacketInRef { buffer_id, total_len: data.len() as u16, reason: 1, in_port: in_port as u32, table_id: 0, cookie: 0, data: &data };
        let mut fast = Vec::new();
        pi.emit_append(v, xid, &mut fast);
        let msg = Message::new(v, xid, Body::PacketIn(pi.to_owned(v)));
        prop_assert_eq!(&fast, &msg.to_vec());
        prop_assert_eq!(Message::parse(&fast).unwrap(), msg);
    }
}

fn ends_in_opaque_bytes(b: &Body) -> bool {
    matches!(
        b,
        Body::PacketIn(_)
            | Body::PacketOut(_)
            | Body::EchoRequest(_)
            | Body::EchoReply(_)
            | Body::Error(_)
            | Body::Experimenter(_)
            | Body::Unknown { .. }
            | Body::Hello(_)
            | Body::FeaturesReply(_)
            | Body::StatsReply(_)
            | Body::StatsRequest(_)
            | Body::FlowMod(_)
            | Body::GroupMod(_)
            | Body::MeterMod(_)
    )
}

#[test]
fn both_versions_are_generated() {
    // Guards the strategy itself: a silently narrowed generator would make the property weak.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut kinds = std::collections::BTreeSet::new();
    for v in [Version::V10, Version::V13] {
        let s = body(v);
        for _ in 0..2000 {
            let b = s.new_tree(&mut runner).unwrap().current();
            kinds.insert(format!("{v:?}/{:?}", b.msg_type()));
        }
    }
    assert!(kinds.len() >= 2 * 20 + 7, "{} kinds: {kinds:?}", kinds.len());
}
