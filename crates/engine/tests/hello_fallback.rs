//! Known answer: a controller that speaks OpenFlow 1.0 only and closes the connection on a HELLO
//! that is not a plain 1.0 one (a 1.3 header, or a version bitmap element), as a C++ learning
//! switch built on a public OpenFlow library does. Offering both versions, the engine retries
//! each such session with a plain 1.0 HELLO, measures at 1.0 and says so
//! (`handshake.hello_fallbacks`, `switches[].hello_fallback`, a warning); forced to 1.3 it
//! names `--of 1.0`; forced to 1.0 it needs no retry.

mod common;

use common::{controller, read_messages, run_engine, u};
use ofwire::{packet_in, Body, FlowMod, Hello, Message, Version};
use std::io::Write;
use std::net::TcpStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The picky 1.0 controller: its own plain 1.0 HELLO on connect; the switch's HELLO must be
/// version 1.0 with no element (8 bytes), or the connection is closed; after it a
/// FEATURES_REQUEST (the handshake goes on only once the HELLOs agree), then each packet-in is answered with a 1.0 flow-mod naming its buffer id, each echo request
/// with its reply. Counts the connections it closed.
fn picky10(closed: Arc<AtomicUsize>) -> u16 {
    controller(move |mut s: TcpStream, _| {
        s.set_nodelay(true).unwrap();
        if s.write_all(&Message::new(Version::V10, 1, Body::Hello(Hello::default())).to_vec()).is_err() {
            return;
        }
        let mut buf = Vec::new();
        let mut greeted = false;
        while let Some(msgs) = read_messages(&mut s, &mut buf) {
            let mut out = Vec::new();
            for m in msgs {
                if !greeted {
                    if m[0] != 1 || m.len() != ofwire::HEADER_LEN {
                        closed.fetch_add(1, Ordering::SeqCst);
                        return; // "failed version negotiation": the connection is dropped
                    }
                    greeted = true;
                    Message::new(Version::V10, 2, Body::FeaturesRequest).emit_append(&mut out);
                    continue;
                }
                let Ok(msg) = Message::parse(&m) else { continue };
                match msg.body {
                    Body::EchoRequest(d) => Message::new(Version::V10, msg.xid, Body::EchoReply(d)).emit_append(&mut out),
                    Body::PacketIn(_) => {
                        let buffer_id = packet_in::Packet::new_checked(&m[..]).map(|p| p.buffer_id()).unwrap_or(u32::MAX);
                        Message::new(Version::V10, 9, Body::FlowMod(FlowMod { buffer_id, ..FlowMod::default() })).emit_append(&mut out);
                    }
                    _ => {}
                }
            }
            if !out.is_empty() && s.write_all(&out).is_err() {
                return;
            }
        }
    })
}

const RUN: [&str; 10] = ["--switches", "3", "--loops", "2", "--loop-ms", "200", "--warmup", "0", "--connect-timeout-ms", "3000"];

#[test]
fn a_controller_that_closes_on_a_bitmap_hello_is_measured_at_1_0_and_the_result_says_so() {
    let closed = Arc::new(AtomicUsize::new(0));
    let port = picky10(closed.clone());
    let addr = format!("127.0.0.1:{port}");
    let r = run_engine("fallback", &[&["--controller", addr.as_str()][..], &RUN].concat());
    assert_eq!(r.code, Some(0), "measured: {}", r.stderr);
    let j = &r.json;
    assert_eq!(u(&j["handshake"], "sessions_up"), 3, "{}", j["handshake"]);
    assert_eq!(u(&j["handshake"], "hello_fallbacks"), 3, "every switch retried once");
    assert_eq!(closed.load(Ordering::SeqCst), 3, "one closed connection per switch, no more");
    for s in j["switches"].as_array().unwrap() {
        assert_eq!((s["of_version"].as_str(), s["hello_fallback"].as_bool()), (Some("1.0"), Some(true)), "{s}");
    }
    assert!(u(&j["totals"], "requests_answered") > 0);
    let w = j["warnings"].to_string();
    assert!(w.contains("retried offering OpenFlow 1.0 alone") && w.contains("--of 1.0"), "{w}");
}

#[test]
fn forced_to_1_3_the_failure_names_of_1_0_and_forced_to_1_0_no_retry_is_needed() {
    let closed = Arc::new(AtomicUsize::new(0));
    let port = picky10(closed.clone());
    let addr = format!("127.0.0.1:{port}");
    let r = run_engine("forced13", &[&["--controller", addr.as_str(), "--of", "1.3"][..], &RUN].concat());
    assert_eq!(r.code, Some(2), "the controller failed the run: {}", r.stderr);
    assert!(r.json["error"].as_str().unwrap().contains("--of 1.0"), "{}", r.json["error"]);
    assert!(r.json["handshake"].get("hello_fallbacks").is_none(), "no retry when forced");
    let before = closed.load(Ordering::SeqCst);
    let r = run_engine("forced10", &[&["--controller", addr.as_str(), "--of", "1.0"][..], &RUN].concat());
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(closed.load(Ordering::SeqCst), before, "a plain 1.0 HELLO from the start");
    assert!(r.json["switches"].as_array().unwrap().iter().all(|s| s.get("hello_fallback").is_none()));
}
