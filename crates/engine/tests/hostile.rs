//! The engine under a hostile controller (issue 16, item 5): a scripted controller that, after
//! the handshake, sends each switch but the first one malformed message (built with `ofmutate`'s
//! byte mutations). Every emulated switch must survive: either it goes on, or its session ends
//! with a named reason; the engine never panics, writes its result, and the well-treated switch
//! is answered in every loop.

use ofmutate::bytes::{emit, garbage, set_length, set_type, set_version};
use ofwire::Body;
use serde_json::Value;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;

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
    s.set_nodelay(true).unwrap();
    let _ = s.write_all(&[4, 0, 0, 16, 0, 0, 0, 1, 0, 1, 0, 8, 0, 0, 0, 0x12]);
    let _ = s.write_all(&[4, 5, 0, 8, 0, 0, 0, 2]);
    let (mut buf, mut chunk, mut poisoned) = (Vec::new(), [0u8; 65536], false);
    loop {
        match s.read(&mut chunk) {
            Ok(0) | Err(_) => return,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
        let (mut out, mut at) = (Vec::new(), 0);
        while buf.len() - at >= 8 {
            let n = (u16::from_be_bytes([buf[at + 2], buf[at + 3]]) as usize).max(8);
            if buf.len() - at < n {
                break;
            }
            let m = &buf[at..at + n];
            match m[1] {
                6 if !poisoned => {
                    poisoned = true;
                    out.extend_from_slice(&poison(i));
                }
                2 => {
                    out.extend_from_slice(m);
                    let l = out.len();
                    out[l - n + 1] = 3;
                }
                10 => {
                    let mut fm = vec![4, 14, 0, 56, 0, 0, 0, 9];
                    fm.resize(56, 0);
                    fm[32..36].copy_from_slice(&m[8..12]);
                    fm[48..52].copy_from_slice(&[0, 1, 0, 4]);
                    out.extend_from_slice(&fm);
                }
                _ => {}
            }
            at += n;
        }
        buf.drain(..at);
        if s.write_all(&out).is_err() {
            return;
        }
    }
}

#[test]
fn every_switch_survives_a_hostile_controller_and_the_others_go_on() {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for (i, s) in l.incoming().enumerate() {
            let Ok(s) = s else { break };
            std::thread::spawn(move || serve(s, i));
        }
    });
    let out = std::env::temp_dir().join(format!("sdnbench-hostile-{}.json", std::process::id()));
    // connect_parallel 1: connections are accepted in switch order, so switch i gets poison(i)
    let o = Command::new(env!("CARGO_BIN_EXE_sdnbench-engine"))
        .args(["--controller", &format!("127.0.0.1:{port}"), "--of", "1.3", "--switches", "9", "--loops", "3", "--loop-ms", "300",
               "--warmup", "0", "--traffic", "cbench", "--window", "8", "--connect-parallel", "1", "--json", out.to_str().unwrap(), "--quiet"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(matches!(o.status.code(), Some(0) | Some(2)), "exit {:?}: {err}", o.status.code());
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let _ = std::fs::remove_file(&out);
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
