//! `sdnbench-pingpong`: the raw latency baseline. One blocking TCP connection to the responder,
//! one packet-in out, wait for its 80-byte flow-mod, repeat; no runtime, no event loop, no
//! accounting. The engine's latency mode is compared with this (same responder, same run).
//!
//! usage: sdnbench-pingpong --connect 127.0.0.1:6653 [--of 1.0|1.3] [--seconds S]
//! prints one JSON line: count, p50_us, p90_us, p99_us, cpu_s, wall_s.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

fn cpu_s() -> f64 {
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    t(ru.ru_utime) + t(ru.ru_stime)
}

/// A buffered packet-in with a 128-byte frame, like the engine's default.
fn packet_in(version: u8, seq: u32) -> Vec<u8> {
    let head = if version == 1 { 18 } else { 42 };
    let len = head + 128;
    let mut m = vec![version, 10];
    m.extend_from_slice(&(len as u16).to_be_bytes());
    m.extend_from_slice(&seq.to_be_bytes());
    m.extend_from_slice(&seq.to_be_bytes());
    m.extend_from_slice(&128u16.to_be_bytes());
    m.resize(len, 0);
    m
}

fn main() {
    let mut addr = "127.0.0.1:6653".to_string();
    let (mut version, mut seconds) = (4u8, 2.0f64);
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let v = it.next().unwrap_or_default();
        match a.as_str() {
            "--connect" => addr = v,
            "--of" => version = if v == "1.0" { 1 } else { 4 },
            "--seconds" => seconds = v.parse().unwrap_or(2.0),
            _ => {
                eprintln!("sdnbench-pingpong: unknown option {a:?}");
                std::process::exit(1);
            }
        }
    }
    let mut s = TcpStream::connect(&addr).unwrap_or_else(|e| {
        eprintln!("sdnbench-pingpong: cannot connect to {addr}: {e}");
        std::process::exit(1);
    });
    s.set_nodelay(true).unwrap();
    // hello from us; the responder's hello and features request are read and ignored
    let hello: &[u8] = if version == 1 { &[1, 0, 0, 8, 0, 0, 0, 1] } else { &[4, 0, 0, 16, 0, 0, 0, 1, 0, 1, 0, 8, 0, 0, 0, 0x12] };
    s.write_all(hello).unwrap();
    let mut junk = [0u8; 64];
    let want = if version == 1 { 16 } else { 24 };
    let mut got = 0;
    while got < want {
        got += s.read(&mut junk[got..want]).unwrap();
    }
    s.write_all(&[version, 6, 0, 32, 0, 0, 0, 2]).ok(); // short features reply: ignored
    s.write_all(&[0; 24]).ok();
    let mut rtts = Vec::new();
    let mut reply = [0u8; 80];
    let (t0, c0) = (Instant::now(), cpu_s());
    let mut seq = 1u32;
    while t0.elapsed() < Duration::from_secs_f64(seconds) {
        let msg = packet_in(version, seq);
        let t = Instant::now();
        s.write_all(&msg).unwrap();
        s.read_exact(&mut reply).unwrap();
        rtts.push(t.elapsed().as_nanos() as u64);
        seq += 1;
    }
    let (wall, cpu) = (t0.elapsed().as_secs_f64(), cpu_s() - c0);
    rtts.sort_unstable();
    let q = |p: f64| rtts[((rtts.len() as f64 * p) as usize).min(rtts.len() - 1)] as f64 / 1000.0;
    println!(
        "{{\"count\": {}, \"p50_us\": {:.2}, \"p90_us\": {:.2}, \"p99_us\": {:.2}, \"cpu_s\": {:.3}, \"wall_s\": {:.3}}}",
        rtts.len(), q(0.5), q(0.9), q(0.99), cpu, wall
    );
}
