//! Decoder fuzz target: any bytes, split as a TCP stream would be, through every decoder.
//!
//! Checks beyond "no panic": whatever decodes must re-encode to bytes that decode to the
//! same value (re-encoding may differ from the input only in pad bytes and padding), and
//! `emit` must write exactly `buffer_len()` bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ofwire::{flow_mod, frame, frame_len, packet_in, packet_out, Body, Header, Message};

fuzz_target!(|data: &[u8]| {
    let mut rest = data;
    while let Ok(Some(len)) = frame_len(rest) {
        if len > rest.len() {
            break;
        }
        let (one, next) = rest.split_at(len);
        check_one(one);
        rest = next;
    }
    let _ = frame::parse(data);
    let _ = frame::lldp::Lldp::parse(data);
});

fn check_one(bytes: &[u8]) {
    let h = Header::new_checked(bytes).expect("frame_len saw 8 bytes");
    let _ = (h.version(), h.msg_type(), h.xid(), h.check_len());
    if let Ok(p) = flow_mod::Packet::new_checked(bytes) {
        let _ = (p.buffer_id(), p.command(), p.priority(), p.xid());
    }
    if let Ok(p) = packet_out::Packet::new_checked(bytes) {
        let _ = (p.buffer_id(), p.in_port(), p.actions(), p.data());
    }
    let pin = packet_in::Packet::new_checked(bytes).ok();
    if let Some(p) = &pin {
        let _ = (p.buffer_id(), p.total_len(), p.reason(), p.in_port(), p.data());
    }
    if let Ok(msg) = Message::parse(bytes) {
        if let (Body::PacketIn(owned), Some(p)) = (&msg.body, &pin) {
            assert_eq!(p.data(), &owned.data[..], "packet-in view and value disagree on the frame");
        }
        let n = msg.buffer_len();
        let mut out = vec![0xa5u8; n + 8];
        assert_eq!(msg.emit(&mut out), n);
        assert_eq!(&out[n..], &[0xa5; 8], "emit wrote past buffer_len");
        let again = Message::parse(&out[..n]).expect("re-encoded message decodes");
        assert_eq!(again, msg, "decode(encode(x)) != x");
    }
}
