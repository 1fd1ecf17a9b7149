//! `sdnbench-pingpong`: the raw latency baseline. One blocking TCP connection to the responder,
//! one packet-in out, wait for its 80-byte flow-mod, repeat; no runtime, no event loop, no
//! accounting. The engine's latency mode is compared with this (same responder, same run).
//!
//! usage: sdnbench-pingpong [--connect 127.0.0.1:6653] [--of 1.0|1.3] [--seconds S] (`cli.rs`)
//! prints one JSON line: count, p50_us, p90_us, p99_us, cpu_s, wall_s.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use ofwire::{PacketInRef, Version};
use sdnbench_responder::cli::{self, Pingpong};

const FLOW_MOD: u8 = 14;

fn cpu_s() -> f64 {
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    t(ru.ru_utime) + t(ru.ru_stime)
}

/// A buffered packet-in with a 128-byte frame, like the engine's default, written by ofwire
/// (1.3 needs a valid OXM match: a hand-made one with a zero match was refused by the responder,
/// which then never answered and the 1.3 default blocked forever).
fn packet_in(version: u8, seq: u32) -> Vec<u8> {
    let v = if version == 1 { Version::V10 } else { Version::V13 };
    let frame = [0u8; 128];
    let pi = PacketInRef { buffer_id: seq, ..PacketInRef::miss(1, &frame) };
    let mut m = Vec::with_capacity(pi.message_len(v));
    pi.emit_append(v, seq, &mut m);
    m
}

/// Read one whole OpenFlow message (header, then the rest by its length) into `buf`.
fn read_message(s: &mut TcpStream, buf: &mut Vec<u8>) -> std::io::Result<u8> {
    buf.resize(8, 0);
    s.read_exact(&mut buf[..8])?;
    let len = (u16::from_be_bytes([buf[2], buf[3]]) as usize).max(8);
    buf.resize(len, 0);
    s.read_exact(&mut buf[8..])?;
    Ok(buf[1])
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
    let version: u8 = if o.of == "1.0" { 1 } else { 4 };
    let mut s = TcpStream::connect(addr).unwrap_or_else(|e| {
        eprintln!("sdnbench-pingpong: cannot connect to {addr}: {e}");
        std::process::exit(1);
    });
    s.set_nodelay(true).unwrap();
    // hello from us; the responder's hello and features request are read and ignored
    let hello: &[u8] = if version == 1 { &[1, 0, 0, 8, 0, 0, 0, 1] } else { &[4, 0, 0, 16, 0, 0, 0, 1, 0, 1, 0, 8, 0, 0, 0, 0x12] };
    s.write_all(hello).unwrap();
    // the responder's hello, then its features request (answered with a minimal reply)
    let mut msg = Vec::new();
    for _ in 0..2 {
        read_message(&mut s, &mut msg).unwrap_or_else(|e| die("reading the handshake", e));
    }
    let mut reply = vec![version, 6, 0, 32, 0, 0, 0, 2];
    reply.resize(32, 0);
    s.write_all(&reply).unwrap_or_else(|e| die("writing the features reply", e));
    let mut rtts = Vec::new();
    let (t0, c0) = (Instant::now(), cpu_s());
    let mut seq = 1u32;
    while t0.elapsed() < Duration::from_secs_f64(seconds) {
        let out = packet_in(version, seq);
        let t = Instant::now();
        s.write_all(&out).unwrap_or_else(|e| die("writing a packet-in", e));
        // skip anything else (an echo request) until the flow-mod arrives
        while read_message(&mut s, &mut msg).unwrap_or_else(|e| die("reading the answer", e)) != FLOW_MOD {}
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
