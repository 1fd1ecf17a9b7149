//! What the engine's integration tests share: the engine binary run to its JSON result, and
//! the pieces of a scripted OpenFlow 1.3 controller (std threads, blocking sockets). Every
//! message is built and read with `ofwire`, never as hand-written bytes, so a test's peer
//! speaks the same OpenFlow as the codec's vectors (which come from real implementations).
//!
//! Each test file uses part of this module, hence `dead_code` allowed.
#![allow(dead_code)]

use ofwire::{header::Header, packet_in, Body, FlowMod, Hello, Message, MsgType, Version};
use serde_json::Value;
use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Command, Output};

/// The engine binary Cargo built for this test run.
pub fn engine_command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sdnbench-engine"))
}

/// What one engine run left: its exit code, its JSON result (`--json`), stderr.
pub struct Run {
    pub code: Option<i32>,
    pub json: Value,
    pub stderr: String,
}

/// Runs the engine with `args` plus `--json FILE --quiet`, and reads the result. A run that
/// wrote no result panics with the engine's stderr (what a failing test must show).
pub fn run_engine(tag: &str, args: &[&str]) -> Run {
    let path = result_path(tag);
    let o: Output = engine_command().args(args).args(["--json", path.to_str().unwrap(), "--quiet"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("no result (exit {:?}): {stderr}", o.status.code()));
    let _ = std::fs::remove_file(&path);
    Run { code: o.status.code(), json: serde_json::from_str(&text).unwrap(), stderr }
}

/// A result file no other test (or concurrent test process) writes.
fn result_path(tag: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("sdnbench-test-{tag}-{}-{n}.json", std::process::id()))
}

/// A listener on 127.0.0.1 (port chosen by the kernel) whose every connection is served by
/// `serve(stream, nth)` in its own thread; returns the port.
pub fn controller<F>(serve: F) -> u16
where
    F: Fn(TcpStream, usize) + Send + Sync + Clone + 'static,
{
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for (i, s) in l.incoming().enumerate() {
            let Ok(s) = s else { break };
            let serve = serve.clone();
            std::thread::spawn(move || serve(s, i));
        }
    });
    port
}

/// The controller's greeting: HELLO offering 1.0 and 1.3 (xid 1), FEATURES_REQUEST (xid 2).
pub fn greeting13() -> Vec<u8> {
    let mut out = Message::new(Version::V13, 1, Body::Hello(Hello::with_versions(&[1, 4]))).to_vec();
    Message::new(Version::V13, 2, Body::FeaturesRequest).emit_append(&mut out);
    out
}

/// Writes the greeting; false when the switch has already gone.
pub fn greet13(s: &mut TcpStream) -> bool {
    s.set_nodelay(true).unwrap();
    s.write_all(&greeting13()).is_ok()
}

/// The complete messages at the front of `buf`, split off it (a partial one stays for the next
/// read). A length under the header's 8 bytes counts as 8, so a lying length cannot stall it.
pub fn take_messages(buf: &mut Vec<u8>) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut at = 0;
    while buf.len() - at >= ofwire::HEADER_LEN {
        let n = (Header::new_unchecked(&buf[at..]).length() as usize).max(ofwire::HEADER_LEN);
        if buf.len() - at < n {
            break;
        }
        out.push(buf[at..at + n].to_vec());
        at += n;
    }
    buf.drain(..at);
    out
}

/// One read from `s`: the complete messages now at the front of `buf` (`take_messages`), or
/// None when the connection ended or failed. A read that timed out (`set_read_timeout`) gives
/// no messages, so a peer's loop can do timed work between reads.
pub fn read_messages(s: &mut TcpStream, buf: &mut Vec<u8>) -> Option<Vec<Vec<u8>>> {
    let mut chunk = [0u8; 65536];
    match s.read(&mut chunk) {
        Ok(0) => None,
        Ok(n) => {
            buf.extend_from_slice(&chunk[..n]);
            Some(take_messages(buf))
        }
        Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => Some(Vec::new()),
        Err(_) => None,
    }
}

/// The message's type, read by its version's numbering (total, as `MsgType::from_wire` is).
pub fn msg_type(m: &[u8]) -> MsgType {
    let h = Header::new_unchecked(m);
    MsgType::from_wire(h.version(), h.msg_type())
}

/// A plain controller's answer to `m`, appended to `out`: an echo reply to an echo request;
/// to a packet-in, a flow-mod (xid 9, table 0, empty match, no instructions) naming its
/// buffer id, which the engine counts as the answer. Anything else is not answered.
pub fn answer13(m: &[u8], out: &mut Vec<u8>) {
    let Ok(msg) = Message::parse(m) else { return };
    match msg.body {
        Body::EchoRequest(data) => Message::new(Version::V13, msg.xid, Body::EchoReply(data)).emit_append(out),
        Body::PacketIn(_) => flow_mod_for(m, out),
        _ => {}
    }
}

/// The flow-mod that answers the packet-in `m` (its buffer id).
pub fn flow_mod_for(m: &[u8], out: &mut Vec<u8>) {
    let buffer_id = packet_in::Packet::new_checked(m).map(|p| p.buffer_id()).unwrap_or(u32::MAX);
    let fm = FlowMod { buffer_id, ..FlowMod::default() };
    Message::new(Version::V13, 9, Body::FlowMod(fm)).emit_append(out);
}

/// The named unsigned counter of a JSON object, or a panic naming what is missing.
pub fn u(v: &Value, k: &str) -> u64 {
    v[k].as_u64().unwrap_or_else(|| panic!("{k} missing in {v}"))
}
