//! Message-level cases: one malformed message (or a message sequence out of order) from a
//! switch. Sources: hcprobe (the Haskell robustness prober behind the malformed-message
//! comparison cited in the controller study: bad version, bad length, unknown type, garbage),
//! the OpenFlow 1.3.5 specification's error codes (§7.4.4: OFPET_BAD_REQUEST with BAD_VERSION,
//! BAD_TYPE, BAD_LEN, BUFFER_UNKNOWN, BAD_PORT; OFPET_BAD_MATCH with BAD_LEN, BAD_FIELD;
//! OFPET_HELLO_FAILED) and our own (reassembly, giant messages, unsolicited replies).

use crate::bytes::{emit, garbage, packet_in, set_length, set_type, set_u16, set_u32, set_version};
use crate::case::{Applies, Case, Ctx, Step};
use ofwire::{Body, ErrorMsg, FeaturesReply, Hello, HelloElem};

fn frame() -> Vec<u8> {
    ofwire::frame::build::udp_frame(&ofwire::frame::build::UdpFrameSpec {
        src_mac: [0x02, 0xbd, 0, 0, 0, 1],
        dst_mac: [0x02, 0xbd, 0, 0, 0, 2],
        src_ip: [10, 253, 0, 1],
        dst_ip: [10, 253, 0, 2],
        src_port: 1024,
        dst_port: 9,
        frame_len: 64,
    })
}

/// A valid table-miss packet-in of our frame on port 1.
pub fn good_packet_in(ctx: &Ctx) -> Vec<u8> {
    packet_in(ctx, 0x0bad_0001, 1, frame())
}

fn up_then(ctx: &Ctx, msgs: Vec<Vec<u8>>) -> Vec<Step> {
    let mut s = vec![Step::Handshake { dpid: ctx.dpid }];
    s.extend(msgs.into_iter().map(Step::Send));
    s
}

fn features(ctx: &Ctx, dpid: u64) -> Vec<u8> {
    emit(ctx.version, 0, Body::FeaturesReply(FeaturesReply { datapath_id: dpid, n_buffers: 256, n_tables: 1, ..Default::default() }))
}

/// Offset of the OXM match length in a 1.3 packet-in, and of the first OXM header.
const MATCH_LEN_13: usize = 26;
const FIRST_OXM_13: usize = 28;

pub static CASES: &[Case] = &[
    Case {
        name: "bad-version",
        family: "message",
        applies: Applies::Both,
        what: "after the handshake, a packet-in whose header version byte is 0x09",
        source: "hcprobe (bad version); OpenFlow 1.3.5 §7.4.4 OFPET_BAD_REQUEST/OFPBRC_BAD_VERSION",
        expect: "an error BAD_REQUEST/BAD_VERSION, or the session closed; other switches unaffected",
        script: |c| up_then(c, vec![set_version(good_packet_in(c), 0x09)]),
    },
    Case {
        name: "length-short",
        family: "message",
        applies: Applies::Both,
        what: "a packet-in whose length field is 16 bytes less than what is sent (the tail looks like a new message)",
        source: "hcprobe (bad length); OpenFlow 1.3.5 OFPBRC_BAD_LEN",
        expect: "an error BAD_LEN or the session closed (the stream cannot be re-framed)",
        script: |c| {
            let m = good_packet_in(c);
            let n = m.len() as u16 - 16;
            up_then(c, vec![set_length(m, n)])
        },
    },
    Case {
        name: "length-long",
        family: "message",
        applies: Applies::Both,
        what:
            "a packet-in whose length field is 64 bytes more than its body, followed by a valid packet-in the controller reads as its tail",
        source: "hcprobe (bad length)",
        expect: "the session stalls or closes; only this session may suffer",
        script: |c| {
            let m = good_packet_in(c);
            let n = m.len() as u16 + 64;
            up_then(c, vec![set_length(m, n), good_packet_in(c)])
        },
    },
    Case {
        name: "length-zero",
        family: "message",
        applies: Applies::Both,
        what: "a header with length 0 (a parser that advances by `length` never moves)",
        source: "ours (the classic infinite-loop length); OpenFlow 1.3.5 OFPBRC_BAD_LEN",
        expect: "the session closed or an error; the controller must not spin",
        script: |c| up_then(c, vec![set_length(good_packet_in(c), 0)]),
    },
    Case {
        name: "length-below-header",
        family: "message",
        applies: Applies::Both,
        what: "an echo request whose length field is 4, less than the 8-byte header",
        source: "OpenFlow 1.3.5 §7.1 (length includes the header) and OFPBRC_BAD_LEN",
        expect: "the session closed or an error BAD_LEN",
        script: |c| up_then(c, vec![set_length(emit(c.version, 0x0bad_0002, Body::EchoRequest(vec![])), 4)]),
    },
    Case {
        name: "unknown-type",
        family: "message",
        applies: Applies::Both,
        what: "a message of type 0xee (no such type in any version), 16 bytes",
        source: "hcprobe (unknown type); OpenFlow 1.3.5 OFPET_BAD_REQUEST/OFPBRC_BAD_TYPE",
        expect: "an error BAD_REQUEST/BAD_TYPE; session kept",
        script: |c| up_then(c, vec![set_type(emit(c.version, 0x0bad_0003, Body::EchoRequest(vec![0; 8])), 0xee)]),
    },
    Case {
        name: "truncated-silence",
        family: "message",
        applies: Applies::Both,
        what: "the first 20 bytes of a packet-in, then nothing more on this session",
        source: "ours (a switch that stalls mid-message)",
        expect: "this session waits or times out; nobody else notices",
        script: |c| up_then(c, vec![good_packet_in(c)[..20].to_vec()]),
    },
    Case {
        name: "giant-packet-in",
        family: "message",
        applies: Applies::Both,
        what: "a packet-in of the largest length the header allows (65,535 bytes), a 65 KB frame",
        source: "ours (OpenFlow lengths are 16 bits: the largest legal message)",
        expect: "handled or ignored; no memory blow-up",
        script: |c| {
            let over = if c.version == 1 { 18 } else { 42 };
            let mut f = frame();
            f.resize(65535 - over, 0);
            up_then(c, vec![packet_in(c, 0x0bad_0004, 1, f)])
        },
    },
    Case {
        name: "bad-buffer-id",
        family: "message",
        applies: Applies::Both,
        what: "a packet-in claiming buffer id 0xdeadbeef and total_len 1500 with an empty frame",
        source: "hcprobe (buffer tests); OpenFlow 1.3.5 OFPBRC_BUFFER_UNKNOWN (the controller's side of it)",
        expect: "ignored, or a packet-out/flow-mod naming the buffer (which the switch would refuse)",
        script: |c| {
            let m = packet_in(c, 0x0bad_0005, 1, vec![]);
            up_then(c, vec![set_u16(set_u32(m, 8, 0xdead_beef), 12, 1500)])
        },
    },
    Case {
        name: "invalid-in-port",
        family: "message",
        applies: Applies::Both,
        what: "a packet-in whose ingress port is OFPP_ANY (1.3: 0xffffffff) / OFPP_NONE (1.0: 0xffff)",
        source: "OpenFlow 1.3.5 §7.2.1 (ANY is not a valid in_port); OFPBRC_BAD_PORT",
        expect: "ignored or refused; never a flow naming that port",
        script: |c| up_then(c, vec![packet_in(c, 0x0bad_0006, if c.version == 1 { 0xffff } else { 0xffff_ffff }, frame())]),
    },
    Case {
        name: "empty-frame",
        family: "message",
        applies: Applies::Both,
        what: "an unbuffered packet-in with total_len 0 and no frame bytes",
        source: "ours (an Ethernet parser given nothing)",
        expect: "ignored",
        script: |c| up_then(c, vec![packet_in(c, 0x0bad_0007, 1, vec![])]),
    },
    Case {
        name: "oxm-bad-length",
        family: "message",
        applies: Applies::Of13Only,
        what: "a 1.3 packet-in whose match length field says 200 bytes (past the end of the message)",
        source: "OpenFlow 1.3.5 OFPET_BAD_MATCH/OFPBMC_BAD_LEN",
        expect: "an error BAD_MATCH or BAD_LEN, or ignored",
        script: |c| up_then(c, vec![set_u16(good_packet_in(c), MATCH_LEN_13, 200)]),
    },
    Case {
        name: "oxm-truncated-tlv",
        family: "message",
        applies: Applies::Of13Only,
        what: "a 1.3 packet-in whose in_port OXM claims an 8-byte value (it has 4; the TLV runs into the padding)",
        source: "OpenFlow 1.3.5 §7.2.2.2 (OXM TLV length) and OFPBMC_BAD_LEN",
        expect: "an error BAD_MATCH or ignored",
        script: |c| {
            let mut m = good_packet_in(c);
            m[FIRST_OXM_13 + 3] = 8;
            up_then(c, vec![m])
        },
    },
    Case {
        name: "oxm-unknown-field",
        family: "message",
        applies: Applies::Of13Only,
        what: "a 1.3 packet-in whose only OXM is OpenFlow-basic field 127 (undefined) instead of in_port",
        source: "OpenFlow 1.3.5 OFPET_BAD_MATCH/OFPBMC_BAD_FIELD",
        expect: "an error BAD_MATCH/BAD_FIELD or ignored",
        script: |c| {
            let mut m = good_packet_in(c);
            m[FIRST_OXM_13 + 2] = 127 << 1;
            up_then(c, vec![m])
        },
    },
    Case {
        name: "features-reply-twice",
        family: "message",
        applies: Applies::Both,
        what: "after the handshake, an unsolicited second features reply with another datapath id",
        source: "ours (issue 16: features reply twice)",
        expect: "ignored; the switch keeps its first identity",
        script: |c| up_then(c, vec![features(c, c.dpid ^ 0xffff)]),
    },
    Case {
        name: "features-before-hello",
        family: "message",
        applies: Applies::Both,
        what: "a features reply as the first message, before HELLO; then a normal handshake",
        source: "OpenFlow 1.3.5 §6.3.1 (HELLO comes first)",
        expect: "an error HELLO_FAILED or the session closed, or ignored and the handshake completes",
        script: |c| vec![Step::Send(features(c, c.dpid)), Step::Handshake { dpid: c.dpid }],
    },
    Case {
        name: "message-after-error",
        family: "message",
        applies: Applies::Both,
        what: "an OFPT_ERROR (HELLO_FAILED/INCOMPATIBLE) from the switch, then three packet-ins as if nothing happened",
        source: "OpenFlow 1.3.5 §6.3.1 (after HELLO_FAILED the connection is terminated)",
        expect: "the session closed, or the packet-ins answered as usual",
        script: |c| {
            up_then(
                c,
                vec![
                    emit(c.version, 0x0bad_0008, Body::Error(ErrorMsg { typ: 0, code: 0, data: b"robustness".to_vec() })),
                    good_packet_in(c),
                    good_packet_in(c),
                    good_packet_in(c),
                ],
            )
        },
    },
    Case {
        name: "garbage",
        family: "message",
        applies: Applies::Both,
        what: "after the handshake, 4 KiB of seeded pseudo-random bytes",
        source: "hcprobe (random messages)",
        expect: "the session closed (or errors); nobody else notices",
        script: |c| up_then(c, vec![garbage(c.seed, 4096)]),
    },
    Case {
        name: "garbage-before-hello",
        family: "message",
        applies: Applies::Both,
        what: "4 KiB of seeded pseudo-random bytes instead of HELLO",
        source: "ours (a non-OpenFlow client on the port)",
        expect: "the session closed",
        script: |c| vec![Step::Send(garbage(c.seed ^ 0x5eed, 4096))],
    },
    Case {
        name: "dribble",
        family: "message",
        applies: Applies::Both,
        what: "a valid packet-in sent one byte at a time, 5 ms apart",
        source: "ours (TCP reassembly: a parser that assumes one read = one message)",
        expect: "answered like any packet-in",
        script: |c| vec![Step::Handshake { dpid: c.dpid }, Step::Dribble { bytes: good_packet_in(c), gap_ms: 5 }],
    },
    Case {
        name: "hello-bad-bitmap",
        family: "message",
        applies: Applies::Of13Only,
        what: "a 1.3 HELLO whose version-bitmap element has length 6 (not a whole 32-bit word), then silence",
        source: "OpenFlow 1.3.5 §7.5.1 (hello elements); OFPET_HELLO_FAILED",
        expect: "an error HELLO_FAILED or the session closed, or negotiation from the header version",
        script: |c| {
            let h = emit(c.version, 0x0bad_0009, Body::Hello(Hello { elements: vec![HelloElem::VersionBitmap(vec![1 << 4])] }));
            vec![Step::Send(set_u16(h, 10, 6))]
        },
    },
    Case {
        name: "echo-giant",
        family: "message",
        applies: Applies::Both,
        what: "an echo request with a 65,527-byte payload (the largest message)",
        source: "OpenFlow 1.3.5 §7.5.2 (an echo reply carries the request's payload)",
        expect: "echoed (an echo reply of the same size) or ignored",
        script: |c| up_then(c, vec![emit(c.version, 0x0bad_000a, Body::EchoRequest(vec![0x5a; 65535 - 8]))]),
    },
    Case {
        name: "unsolicited-reply",
        family: "message",
        applies: Applies::Both,
        what: "a barrier reply and a get-config reply nobody asked for",
        source: "ours (replies matched to no request)",
        expect: "ignored",
        script: |c| {
            up_then(
                c,
                vec![
                    emit(c.version, 0x0bad_000b, Body::BarrierReply),
                    emit(c.version, 0x0bad_000c, Body::GetConfigReply(Default::default())),
                ],
            )
        },
    },
    Case {
        name: "port-status-bad-reason",
        family: "message",
        applies: Applies::Both,
        what: "a port-status with reason 0x77 (not ADD/DELETE/MODIFY) for port 0xfff0",
        source: "OpenFlow 1.3.5 §7.4.3 (reason is one of three)",
        expect: "ignored",
        script: |c| {
            let port = ofwire::port::Port { port_no: 0xfff0, name: "bogus".into(), ..Default::default() };
            up_then(c, vec![emit(c.version, 0, Body::PortStatus(ofwire::port_status::PortStatus { reason: 0x77, port }))])
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find;

    fn sent(c: &Ctx, name: &str) -> Vec<Vec<u8>> {
        (find(name).unwrap().script)(c)
            .into_iter()
            .filter_map(|s| match s {
                Step::Send(b) => Some(b),
                Step::Dribble { bytes, .. } => Some(bytes),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn header_cases_have_the_documented_bytes() {
        let c = Ctx::default();
        let pi = good_packet_in(&c);
        let n = pi.len();
        assert_eq!(sent(&c, "bad-version")[0][0], 0x09);
        assert_eq!(&sent(&c, "length-short")[0][..4], &[4, 10, ((n - 16) >> 8) as u8, (n - 16) as u8]);
        assert_eq!(sent(&c, "length-short")[0].len(), n);
        let long = sent(&c, "length-long");
        assert_eq!(u16::from_be_bytes([long[0][2], long[0][3]]) as usize, n + 64);
        assert_eq!(long[1], pi);
        assert_eq!(&sent(&c, "length-zero")[0][2..4], &[0, 0]);
        assert_eq!(sent(&c, "length-below-header")[0], [4, 2, 0, 4, 0x0b, 0xad, 0, 2]);
        assert_eq!(&sent(&c, "unknown-type")[0][..4], &[4, 0xee, 0, 16]);
        assert_eq!(sent(&c, "truncated-silence")[0], pi[..20]);
    }

    #[test]
    fn packet_in_field_cases() {
        let c = Ctx::default();
        let g = &sent(&c, "giant-packet-in")[0];
        assert_eq!(g.len(), 65535);
        assert_eq!(&g[2..4], &[0xff, 0xff]);
        let b = &sent(&c, "bad-buffer-id")[0];
        assert_eq!(&b[8..14], &[0xde, 0xad, 0xbe, 0xef, 0x05, 0xdc]);
        let p = &sent(&c, "invalid-in-port")[0];
        assert_eq!(&p[28..36], &[0x80, 0x00, 0x00, 0x04, 0xff, 0xff, 0xff, 0xff]);
        let c10 = Ctx { version: 1, ..Ctx::default() };
        assert_eq!(&sent(&c10, "invalid-in-port")[0][14..16], &[0xff, 0xff]);
        assert_eq!(&sent(&c, "oxm-bad-length")[0][26..28], &[0, 200]);
        assert_eq!(&sent(&c, "oxm-truncated-tlv")[0][28..32], &[0x80, 0x00, 0x00, 0x08]);
        assert_eq!(&sent(&c, "oxm-unknown-field")[0][28..32], &[0x80, 0x00, 0xfe, 0x04]);
        let e = &sent(&c, "empty-frame")[0];
        assert_eq!(e.len(), 42);
    }

    #[test]
    fn what_the_codec_says_about_them() {
        // the mutations really are malformed: our own decoder refuses them
        let c = Ctx::default();
        for name in ["bad-version", "length-zero", "length-below-header", "oxm-bad-length", "oxm-truncated-tlv", "garbage-before-hello"] {
            assert!(ofwire::Message::parse(&sent(&c, name)[0]).is_err(), "{name} parsed");
        }
        // and the controls are not
        assert!(ofwire::Message::parse(&sent(&c, "dribble")[0]).is_ok());
        assert!(ofwire::Message::parse(&sent(&c, "echo-giant")[0]).is_ok());
    }

    #[test]
    fn sequences() {
        let c = Ctx::default();
        let s = (find("features-before-hello").unwrap().script)(&c);
        assert!(matches!(&s[0], Step::Send(b) if b[1] == 6));
        assert_eq!(s[1], Step::Handshake { dpid: c.dpid });
        let h = &sent(&c, "hello-bad-bitmap")[0];
        assert_eq!(&h[8..12], &[0, 1, 0, 6]);
        assert_eq!(sent(&c, "message-after-error").len(), 4);
        assert_eq!(sent(&c, "garbage")[0].len(), 4096);
    }
}
