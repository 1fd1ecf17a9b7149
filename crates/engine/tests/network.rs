//! The emulated network end to end: the engine binary runs ring,4 over two worker processes
//! against a scripted OpenFlow 1.0 controller (std threads, bytes written by hand) that sends an
//! LLDP-typed packet-out on every port every 50 ms, and records the packet-ins and port-status
//! messages it gets. A link goes down at 1.5 s.
//!
//! Known answers: every link carries the probes both ways (the controller sees all 8 link
//! directions, the engine counts all 4 links both ways); the down link's two ends send
//! PORT_STATUS; after it the controller's probes to the down port are refused and counted by the
//! switch; the frame counters balance; the event's instant is recorded.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Default)]
struct Seen {
    /// (sender dpid, sender port, receiver dpid, receiver in_port) → count
    lldp: BTreeMap<(u64, u16, u64, u16), u64>,
    /// (dpid, port, link down)
    port_status: BTreeSet<(u64, u16, bool)>,
}

fn msg(t: u8, xid: u32, body: &[u8]) -> Vec<u8> {
    let mut m = vec![1, t];
    m.extend_from_slice(&((8 + body.len()) as u16).to_be_bytes());
    m.extend_from_slice(&xid.to_be_bytes());
    m.extend_from_slice(body);
    m
}

/// An LLDP-typed frame carrying (dpid, port) right after the ethertype (the engine reads only
/// the ethertype).
fn probe(dpid: u64, port: u16) -> Vec<u8> {
    let mut f = vec![0x01, 0x80, 0xc2, 0, 0, 0x0e, 2, 0, 0, 0, 0, 1, 0x88, 0xcc];
    f.extend_from_slice(&dpid.to_be_bytes());
    f.extend_from_slice(&port.to_be_bytes());
    f.resize(60, 0);
    f
}

fn packet_out(port: u16, frame: &[u8]) -> Vec<u8> {
    let mut b = vec![0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 8];
    b.extend_from_slice(&[0, 0, 0, 8]);
    b.extend_from_slice(&port.to_be_bytes());
    b.extend_from_slice(&[0, 0]);
    b.extend_from_slice(frame);
    msg(13, 99, &b)
}

fn serve(mut s: TcpStream, seen: Arc<Mutex<Seen>>) {
    s.set_nodelay(true).unwrap();
    s.set_read_timeout(Some(Duration::from_millis(10))).unwrap();
    let _ = s.write_all(&[msg(0, 1, &[]), msg(5, 2, &[])].concat());
    let (mut buf, mut chunk) = (Vec::new(), [0u8; 65536]);
    let (mut dpid, mut ports) = (None::<u64>, Vec::<u16>::new());
    let mut next_probe = Instant::now();
    loop {
        if dpid.is_some() && Instant::now() >= next_probe {
            let d = dpid.unwrap();
            let out: Vec<u8> = ports.iter().flat_map(|&p| packet_out(p, &probe(d, p))).collect();
            if s.write_all(&out).is_err() {
                return;
            }
            next_probe += Duration::from_millis(50);
        }
        match s.read(&mut chunk) {
            Ok(0) => return,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => continue,
            Err(_) => return,
        }
        while buf.len() >= 8 {
            let len = u16::from_be_bytes([buf[2], buf[3]]) as usize;
            if buf.len() < len {
                break;
            }
            let m: Vec<u8> = buf.drain(..len).collect();
            match m[1] {
                2 => drop(s.write_all(&msg(3, u32::from_be_bytes([m[4], m[5], m[6], m[7]]), &m[8..]))),
                6 => {
                    dpid = Some(u64::from_be_bytes(m[8..16].try_into().unwrap()));
                    ports = m[32..].chunks(48).map(|p| u16::from_be_bytes([p[0], p[1]])).filter(|&p| p < 0xff00).collect();
                }
                10 if m.len() >= 18 + 24 && m[30..32] == [0x88, 0xcc] => {
                    let in_port = u16::from_be_bytes([m[14], m[15]]);
                    let from = u64::from_be_bytes(m[32..40].try_into().unwrap());
                    let from_port = u16::from_be_bytes([m[40], m[41]]);
                    *seen.lock().unwrap().lldp.entry((from, from_port, dpid.unwrap_or(0), in_port)).or_default() += 1;
                }
                12 => {
                    // reason(1) pad(7), then ofp_phy_port: port_no at 0, config at 24, state at 28
                    let p = &m[16..];
                    let down = u32::from_be_bytes([p[28], p[29], p[30], p[31]]) & 1 != 0;
                    seen.lock().unwrap().port_status.insert((dpid.unwrap_or(0), u16::from_be_bytes([p[0], p[1]]), down));
                }
                _ => {}
            }
        }
    }
}

fn ring4_with_a_link_down(dir: &std::path::Path) -> std::path::PathBuf {
    let n = 4u64;
    let net = serde_json::json!({
        "spec": "ring,4",
        "switches": (1..=n).map(|d| serde_json::json!({"dpid": d, "ports": 3})).collect::<Vec<_>>(),
        "links": (1..=n).map(|d| [d, 2, d % n + 1, 1]).collect::<Vec<_>>(),
        "hosts": (1..=n).map(|d| serde_json::json!({"dpid": d, "port": 3, "mac": format!("02:00:00:00:00:{d:02x}"), "ip": format!("10.0.0.{d}")})).collect::<Vec<_>>(),
        "events": [{"at_ms": 1500, "link": [1, 2, 2, 1], "state": "down"}],
    });
    let p = dir.join("ring4.json");
    std::fs::write(&p, net.to_string()).unwrap();
    p
}

#[test]
fn ring_over_two_workers_probes_every_link_and_a_link_goes_down() {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let s2 = seen.clone();
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            let seen = s2.clone();
            std::thread::spawn(move || serve(s, seen));
        }
    });
    let dir = std::env::temp_dir().join(format!("sdnbench-net-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = ring4_with_a_link_down(&dir);
    let out = dir.join("result.json");
    let st = Command::new(env!("CARGO_BIN_EXE_sdnbench-engine"))
        .args(["--mode", "network", "--network", net.to_str().unwrap(), "--controller", &format!("127.0.0.1:{port}")])
        .args(["--workers", "2", "--loops", "3", "--loop-ms", "1000", "--warmup", "0", "--settle-ms", "0", "--quiet"])
        .args(["--json", out.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(st.success(), "engine exit {st:?}");
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let n = &r["network"];
    assert_eq!(n["invariant"], "ok", "{n}");
    assert_eq!(n["links"], 4);
    assert_eq!(n["links_probed_both_ways"], 4, "{n}");
    assert!(n["frames_to_other_workers"].as_u64().unwrap() > 0, "links 1-2 and 3-4... cross workers: {n}");
    let seen = seen.lock().unwrap();
    let dirs: BTreeSet<_> = seen.lldp.keys().map(|&(a, pa, b, pb)| (a, pa, b, pb)).collect();
    let want: BTreeSet<_> = (1..=4u64).flat_map(|d| [(d, 2, d % 4 + 1, 1), (d % 4 + 1, 1, d, 2)]).collect();
    assert_eq!(dirs, want, "the controller saw every link direction, and nothing else");
    // the down link: PORT_STATUS from both ends, probes refused by the switch, fewer crossings
    assert!(seen.port_status.contains(&(1, 2, true)) && seen.port_status.contains(&(2, 1, true)), "{:?}", seen.port_status);
    let c = &n["counters"];
    assert!(c["switch_dropped_out_port_down"].as_u64().unwrap() > 0, "{c}");
    let per_link: Vec<u64> = n["lldp_per_link"].as_array().unwrap().iter().map(|d| d[0].as_u64().unwrap() + d[1].as_u64().unwrap()).collect();
    let others = per_link[1..].iter().min().unwrap();
    assert!(per_link[0] * 4 < others * 3, "the down link carried about half as much: {per_link:?}");
    // the event's instant, from each worker that owns an end (both ends are in worker 0 here)
    let ev = n["events"].as_array().unwrap();
    assert!(!ev.is_empty());
    for e in ev {
        let t = e["actual_ms"].as_f64().unwrap();
        assert!((1500.0..2500.0).contains(&t), "{e}");
        assert_eq!(e["state"], "down");
    }
}
