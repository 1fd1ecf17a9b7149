//! `sdnbench-pingpong`: the raw latency baseline. One blocking TCP connection to the responder,
//! one packet-in out, wait for its 80-byte flow-mod, repeat; no runtime, no event loop, no
//! accounting. The engine's latency mode is compared with this (same responder, same run).
//!
//! usage: sdnbench-pingpong [--connect 127.0.0.1:6653] [--of 1.0|1.3] [--seconds S] (`cli.rs`)
//! prints one JSON line: count, p50_us, p90_us, p99_us, cpu_s, wall_s.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use ofwire::{Body, FeaturesReply, Header, Hello, Message, MsgType, PacketInRef, Version, HEADER_LEN, OFP10, OFP13};
use sdnbench_responder::cli::{self, Pingpong};

fn cpu_s() -> f64 {
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    t(ru.ru_utime) + t(ru.ru_stime)
}

/// A buffered packet-in with a 128-byte frame, like the engine's default, written by ofwire
/// (1.3 needs a valid OXM match: a hand-made one with a zero match was refused by the responder,
/// which then never answered and the 1.3 default blocked forever).
fn packet_in(v: Version, seq: u32) -> Vec<u8> {
    let frame = [0u8; 128];
    let pi = PacketInRef { buffer_id: seq, ..PacketInRef::miss(1, &frame) };
    let mut m = Vec::with_capacity(pi.message_len(v));
    pi.emit_append(v, seq, &mut m);
    m
}

/// Our hello (xid 1): 1.3's carries a bitmap of 1.0 and 1.3.
fn hello(v: Version) -> Vec<u8> {
    let hello = if v == Version::V10 { Hello::default() } else { Hello::with_versions(&[OFP10, OFP13]) };
    Message::new(v, 1, Body::Hello(hello)).to_vec()
}

/// A minimal features reply (xid 2): no ports, every field zero.
fn features_reply(v: Version) -> Vec<u8> {
    Message::new(v, 2, Body::FeaturesReply(FeaturesReply::default())).to_vec()
}

/// Read one whole OpenFlow message (header, then the rest by its length) into `buf`; its kind.
fn read_message(s: &mut TcpStream, buf: &mut Vec<u8>) -> std::io::Result<MsgType> {
    buf.resize(HEADER_LEN, 0);
    s.read_exact(&mut buf[..HEADER_LEN])?;
    let h = Header::new_unchecked(&buf[..HEADER_LEN]);
    let (kind, len) = (MsgType::from_wire(h.version(), h.msg_type()), (h.length() as usize).max(HEADER_LEN));
    buf.resize(len, 0);
    s.read_exact(&mut buf[HEADER_LEN..])?;
    Ok(kind)
}

fn die(what: &str, e: std::io::Error) -> ! {
    eprintln!("sdnbench-pingpong: {what}: {e}");
    std::process::exit(1);
}

fn main() {
    let o: Pingpong = match cli::parse("sdnbench-pingpong", std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("sdnbench-pingpong: {e}");
            std::process::exit(1);
        }
    };
    let (addr, seconds) = (o.connect, o.seconds);
    let version = if o.of == "1.0" { Version::V10 } else { Version::V13 };
    let mut s = TcpStream::connect(addr).unwrap_or_else(|e| {
        eprintln!("sdnbench-pingpong: cannot connect to {addr}: {e}");
        std::process::exit(1);
    });
    s.set_nodelay(true).unwrap();
    // hello from us; the responder's hello and features request are read and ignored
    s.write_all(&hello(version)).unwrap();
    // the responder's hello, then its features request (answered with a minimal reply)
    let mut msg = Vec::new();
    for _ in 0..2 {
        read_message(&mut s, &mut msg).unwrap_or_else(|e| die("reading the handshake", e));
    }
    s.write_all(&features_reply(version)).unwrap_or_else(|e| die("writing the features reply", e));
    let mut rtts = Vec::new();
    let (t0, c0) = (Instant::now(), cpu_s());
    let mut seq = 1u32;
    while t0.elapsed() < Duration::from_secs_f64(seconds) {
        let out = packet_in(version, seq);
        let t = Instant::now();
        s.write_all(&out).unwrap_or_else(|e| die("writing a packet-in", e));
        // skip anything else (an echo request) until the flow-mod arrives
        while read_message(&mut s, &mut msg).unwrap_or_else(|e| die("reading the answer", e)) != MsgType::FlowMod {}
        rtts.push(t.elapsed().as_nanos() as u64);
        seq += 1;
    }
    let (wall, cpu) = (t0.elapsed().as_secs_f64(), cpu_s() - c0);
    rtts.sort_unstable();
    let q = |p: f64| rtts[((rtts.len() as f64 * p) as usize).min(rtts.len() - 1)] as f64 / 1000.0;
    println!(
        "{{\"count\": {}, \"p50_us\": {:.2}, \"p90_us\": {:.2}, \"p99_us\": {:.2}, \"cpu_s\": {:.3}, \"wall_s\": {:.3}}}",
        rtts.len(),
        q(0.5),
        q(0.9),
        q(0.99),
        cpu,
        wall
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The handshake bytes this baseline has always sent.
    #[test]
    fn handshake_bytes() {
        assert_eq!(hello(Version::V10), [1, 0, 0, 8, 0, 0, 0, 1]);
        assert_eq!(hello(Version::V13), [4, 0, 0, 16, 0, 0, 0, 1, 0, 1, 0, 8, 0, 0, 0, 0x12]);
        for v in [Version::V10, Version::V13] {
            let mut want = vec![v.wire(), 6, 0, 32, 0, 0, 0, 2];
            want.resize(32, 0);
            assert_eq!(features_reply(v), want);
        }
    }
}
