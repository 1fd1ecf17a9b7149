//! The engine under a hostile controller (issue 16, item 5): a scripted controller that, after
//! the handshake, sends each switch but the first one malformed message (built with `ofmutate`'s
//! byte mutations). Every emulated switch must survive: either it goes on, or its session ends
//! with a named reason; the engine never panics, writes its result, and the well-treated switch
//! is answered in every loop.

use ofmutate::bytes::{emit, garbage, set_length, set_type, set_version};
mod common;

use ofwire::{Body, MsgType};
use std::io::Write;
use std::net::TcpStream;

/// What connection i gets after its features reply (index 0: nothing bad).
fn poison(i: usize) -> Vec<u8> {
    let echo = emit(4, 0x77, Body::EchoRequest(vec![1, 2, 3, 4]));
    match i {
        1 => set_length(echo, 0),
        2 => set_length(echo, 4),
        3 => set_type(echo, 0xee),
        4 => set_version(echo, 0x09),
        5 => garbage(5, 4096),
        6 => emit(4, 0x78, Body::EchoRequest(vec![0x5a; 65535 - 8])),
        7 => echo[..5].to_vec(), // truncated, then silence from this controller's side of it
        8 => set_length(emit(4, 0x79, Body::BarrierRequest), 200),
        _ => Vec::new(),
    }
}

fn serve(mut s: TcpStream, i: usize) {
    if !common::greet13(&mut s) {
        return;
    }
    let (mut buf, mut poisoned) = (Vec::new(), false);
    while let Some(messages) = common::read_messages(&mut s, &mut buf) {
        let mut out = Vec::new();
        for m in messages {
            if common::msg_type(&m) == MsgType::FeaturesReply && !poisoned {
                poisoned = true;
                out.extend_from_slice(&poison(i));
            }
            common::answer13(&m, &mut out);
        }
        if s.write_all(&out).is_err() {
            return;
        }
    }
}

#[test]
fn every_switch_survives_a_hostile_controller_and_the_others_go_on() {
    let port = common::controller(serve);
    // connect_parallel 1: connections are accepted in switch order, so switch i gets poison(i)
    let r = common::run_engine(
        "hostile",
        &[
            "--controller",
            &format!("127.0.0.1:{port}"),
            "--of",
            "1.3",
            "--switches",
            "9",
            "--loops",
            "3",
            "--loop-ms",
            "300",
            "--warmup",
            "0",
            "--traffic",
            "cbench",
            "--window",
            "8",
            "--connect-parallel",
            "1",
        ],
    );
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert!(matches!(r.code, Some(0) | Some(2)), "exit {:?}: {}", r.code, r.stderr);
    let v = r.json;
    let sw = v["switches"].as_array().unwrap();
    assert_eq!(sw.len(), 9);
    let disc = v["disconnects"].as_array().unwrap();
    for d in disc {
        assert!(!d["reason"].as_str().unwrap().is_empty(), "{d}");
    }
    // at least the length-0 / length-4 / bad-version switches must have been cut off, with a reason
    assert!(disc.len() >= 3, "{}", serde_json::to_string_pretty(disc).unwrap());
    // and at least one switch was answered in every loop (the well-treated ones go on)
    let every_loop = sw.iter().filter(|s| {
        let p = s["answered_per_loop"].as_array().unwrap();
        !p.is_empty() && p.iter().all(|x| x.as_u64().unwrap() > 0)
    });
    assert!(every_loop.count() >= 1, "{}", serde_json::to_string(&v["switches"]).unwrap());
}
