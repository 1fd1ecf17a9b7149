//! `--connect-parallel` bounds the handshakes in progress, TCP connect and OpenFlow handshake
//! together (issue 32): a worker opens no new connection while its slots are held by sessions
//! still waiting for their controller's FEATURES_REQUEST.

mod common;

use std::io::{ErrorKind, Read};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc;

/// Whether the switch has closed `s` (its FIN or, with its HELLO unread here, its RST is in).
fn closed_by_switch(s: &mut TcpStream) -> bool {
    s.set_nonblocking(true).unwrap();
    let mut buf = [0u8; 256];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue, // the switch's HELLO
            Err(e) if e.kind() == ErrorKind::WouldBlock => return false,
            Err(_) => return true, // reset
        }
    }
}

#[test]
fn one_slot_means_one_handshake_at_a_time() {
    // A controller that accepts and never answers: every handshake times out. With one slot,
    // each connection must be over before the next one opens.
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut prev: Option<TcpStream> = None;
        for s in l.incoming().take(3) {
            let Ok(s) = s else { break };
            // the previous connection's end reached us before this SYN did (loopback, in order)
            let _ = tx.send(prev.as_mut().map(closed_by_switch));
            prev = Some(s);
        }
    });
    let args = format!(
        "--controller 127.0.0.1:{port} --switches 3 --connect-parallel 1 --connect-timeout-ms 300 --reconnect off \
         --loops 1 --loop-ms 100 --warmup 0 --no-learn --workers 1"
    );
    let r = common::run_engine("connect-parallel", &args.split_whitespace().collect::<Vec<_>>());
    let seen: Vec<Option<bool>> = rx.try_iter().collect();
    assert_eq!(seen, vec![None, Some(true), Some(true)], "exit {:?}: {}", r.code, r.stderr);
    assert_eq!(r.json["handshake"]["sessions_failed"], 3, "{}", r.json["handshake"]);
}
