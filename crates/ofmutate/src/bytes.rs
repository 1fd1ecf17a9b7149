//! Mutations over emitted bytes. `ofwire::Message::emit` refuses to write a lying header, so
//! every case starts from a valid message and breaks it here, on the bytes.

use ofwire::version::Version;
use ofwire::{Body, Message, PacketIn};

/// The emitted bytes of a valid message.
pub fn emit(version: u8, xid: u32, body: Body) -> Vec<u8> {
    Message::new(version_of(version), xid, body).to_vec()
}

fn version_of(v: u8) -> Version {
    Version::from_wire(v).unwrap_or(Version::V13)
}

/// Overwrite the header's version byte.
pub fn set_version(mut m: Vec<u8>, v: u8) -> Vec<u8> {
    m[0] = v;
    m
}

/// Overwrite the header's type byte.
pub fn set_type(mut m: Vec<u8>, t: u8) -> Vec<u8> {
    m[1] = t;
    m
}

/// Overwrite the header's length field (the body is left as it is).
pub fn set_length(mut m: Vec<u8>, len: u16) -> Vec<u8> {
    m[2..4].copy_from_slice(&len.to_be_bytes());
    m
}

/// Overwrite a big-endian u16 at `at`.
pub fn set_u16(mut m: Vec<u8>, at: usize, v: u16) -> Vec<u8> {
    m[at..at + 2].copy_from_slice(&v.to_be_bytes());
    m
}

/// Overwrite a big-endian u32 at `at`.
pub fn set_u32(mut m: Vec<u8>, at: usize, v: u32) -> Vec<u8> {
    m[at..at + 4].copy_from_slice(&v.to_be_bytes());
    m
}

/// A table-miss packet-in of `frame` on `in_port`, unbuffered.
pub fn packet_in(ctx: &crate::case::Ctx, xid: u32, in_port: u32, frame: Vec<u8>) -> Vec<u8> {
    let (version, d) = (ctx.version, ctx.dress);
    let v = version_of(version);
    let frame = d.frame(frame);
    let mut pi = PacketIn {
        buffer_id: ofwire::packet_in::NO_BUFFER,
        total_len: frame.len() as u16,
        data: frame,
        reason: d.reason,
        table_id: d.table_id,
        cookie: d.cookie,
        ..Default::default()
    };
    match v {
        Version::V10 => pi.in_port = in_port as u16,
        Version::V13 => pi.match_ = ofwire::OxmMatch { fields: vec![ofwire::Oxm::in_port(in_port)] },
    }
    emit(version, xid, Body::PacketIn(pi))
}

/// Deterministic pseudo-random bytes (xorshift64*), so a "garbage" case is the same every run.
pub fn garbage(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            (x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_mutations_touch_only_their_field() {
        let m = emit(4, 7, Body::EchoRequest(vec![]));
        assert_eq!(m, [4, 2, 0, 8, 0, 0, 0, 7]);
        assert_eq!(set_version(m.clone(), 9), [9, 2, 0, 8, 0, 0, 0, 7]);
        assert_eq!(set_type(m.clone(), 0xee), [4, 0xee, 0, 8, 0, 0, 0, 7]);
        assert_eq!(set_length(m, 0), [4, 2, 0, 0, 0, 0, 0, 7]);
    }

    #[test]
    fn packet_in_is_valid_before_mutation() {
        for v in [1u8, 4] {
            let m = packet_in(&crate::Ctx { version: v, ..crate::Ctx::default() }, 1, 3, vec![0xab; 60]);
            let back = Message::parse(&m).expect("a valid packet-in");
            match back.body {
                Body::PacketIn(p) => {
                    assert_eq!(p.data.len(), 60);
                    assert_eq!(p.port(version_of(v)), Some(3));
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn garbage_is_deterministic_and_varied() {
        let a = garbage(1, 64);
        assert_eq!(a, garbage(1, 64));
        assert_ne!(a, garbage(2, 64));
        assert!(a.iter().collect::<std::collections::BTreeSet<_>>().len() > 20);
    }
}
