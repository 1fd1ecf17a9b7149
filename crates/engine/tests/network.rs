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

fn serve(s: TcpStream, seen: Arc<Mutex<Seen>>) {
    serve_with(s, seen, Duration::ZERO, None)
}

/// `serve`, probing only from `delay` after the features reply, and never out of `skip`
/// (dpid, port).
fn serve_with(mut s: TcpStream, seen: Arc<Mutex<Seen>>, delay: Duration, skip: Option<(u64, u16)>) {
    s.set_nodelay(true).unwrap();
    s.set_read_timeout(Some(Duration::from_millis(10))).unwrap();
    let _ = s.write_all(&[msg(0, 1, &[]), msg(5, 2, &[])].concat());
    let (mut buf, mut chunk) = (Vec::new(), [0u8; 65536]);
    let (mut dpid, mut ports) = (None::<u64>, Vec::<u16>::new());
    let mut next_probe = Instant::now();
    loop {
        if dpid.is_some() && Instant::now() >= next_probe {
            let d = dpid.unwrap();
            let out: Vec<u8> = ports.iter().filter(|&&p| skip != Some((d, p))).flat_map(|&p| packet_out(p, &probe(d, p))).collect();
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
                    next_probe = Instant::now() + delay;
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
    // southbound discovery: every link direction carried probes; the down link's last probe came
    // before it went down (1.5 s after go), the others' near the end of the 3 s run
    let d = &n["discovery"];
    assert_eq!(d["switches_connected"], 4, "{d}");
    assert!(d["complete_ms"].as_f64().unwrap() < 1000.0, "{d}");
    let last = |l: usize, dir: usize| d["probes_ms"][l][dir][1].as_f64().unwrap();
    assert!(last(0, 0) < 2000.0 && last(0, 1) < 2000.0, "{d}");
    assert!((1..4).all(|l| last(l, 0) > 2500.0 && last(l, 1) > 2500.0), "{d}");
}

/// Run ring,4 (no events) for `loops` s against `serve_with(delay, skip)`; the result's network
/// and the live lines (stderr).
fn ring4_against(delay: Duration, skip: Option<(u64, u16)>, loops: u32) -> (Value, String) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            std::thread::spawn(move || serve_with(s, Arc::new(Mutex::new(Seen::default())), delay, skip));
        }
    });
    let dir = std::env::temp_dir().join(format!("sdnbench-disc-test-{}-{}", std::process::id(), delay.as_millis()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = ring4_with_a_link_down(&dir);
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&net).unwrap()).unwrap();
    doc["events"] = serde_json::json!([]);
    std::fs::write(&net, doc.to_string()).unwrap();
    let out = dir.join("result.json");
    let st = Command::new(env!("CARGO_BIN_EXE_sdnbench-engine"))
        .args(["--mode", "network", "--network", net.to_str().unwrap(), "--controller", &format!("127.0.0.1:{port}")])
        .args(["--workers", "2", "--loops", &loops.to_string(), "--loop-ms", "1000", "--warmup", "0", "--settle-ms", "0"])
        .args(["--json", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(st.status.success(), "engine exit {st:?}");
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    (r["network"].clone(), String::from_utf8_lossy(&st.stderr).into_owned())
}

/// Known answer: a controller that starts probing 700 ms after each switch's features reply is
/// read as complete at 700 ms plus the handshake (under 200 ms here), never before.
#[test]
fn southbound_discovery_time_is_the_controllers_probe_delay() {
    let (n, live) = ring4_against(Duration::from_millis(700), None, 2);
    assert!(live.contains("connected 4/4  link directions probed 8/8"), "the live line shows progress: {live}");
    let d = &n["discovery"];
    let t = d["complete_ms"].as_f64().unwrap();
    assert!((700.0..900.0).contains(&t), "{d}");
    for l in 0..4 {
        for dir in 0..2 {
            let first = d["probes_ms"][l][dir][0].as_f64().unwrap();
            assert!(first >= 700.0 && first <= t, "{d}");
        }
    }
}

/// Known answer: a controller that never probes out of switch 1's port 2 leaves link 1-2 in
/// direction a→b without probes: discovery is not complete, and the probes say which.
#[test]
fn a_link_never_probed_leaves_southbound_discovery_incomplete() {
    let (n, live) = ring4_against(Duration::ZERO, Some((1, 2)), 1);
    assert!(live.contains("link directions probed 7/8"), "{live}");
    let d = &n["discovery"];
    assert!(d["complete_ms"].is_null(), "{d}");
    assert!(d["probes_ms"][0][0][0].is_null() && d["probes_ms"][0][1][0].is_number(), "{d}");
    assert_eq!(n["links_probed_both_ways"], 3);
}

// ---- two controllers with OpenFlow 1.3 roles ----

/// OFPCR_ROLE_MASTER (OF1.3 §7.3.9: NOCHANGE 0, EQUAL 1, MASTER 2, SLAVE 3).
const OFPCR_ROLE_MASTER: u32 = 2;

fn msg13(t: u8, xid: u32, body: &[u8]) -> Vec<u8> {
    let mut m = msg(t, xid, body);
    m[0] = 4;
    m
}

fn role_request(role: u32, generation: u64) -> Vec<u8> {
    let mut b = role.to_be_bytes().to_vec();
    b.extend_from_slice(&[0; 4]);
    b.extend_from_slice(&generation.to_be_bytes());
    msg13(24, 7, &b)
}

/// Table-miss entry: priority 0, match all, apply-actions output:CONTROLLER (no buffer).
fn table_miss() -> Vec<u8> {
    let mut b = vec![0u8; 40];
    b[17] = 0; // table 0, command ADD
    b[24..28].copy_from_slice(&0xffff_ffffu32.to_be_bytes()); // buffer_id
    b[28..32].copy_from_slice(&0xffff_ffffu32.to_be_bytes()); // out_port
    b[32..36].copy_from_slice(&0xffff_ffffu32.to_be_bytes()); // out_group
    b.extend_from_slice(&[0, 1, 0, 4, 0, 0, 0, 0]); // OXM match, empty
    b.extend_from_slice(&[0, 4, 0, 24, 0, 0, 0, 0]); // APPLY_ACTIONS
    b.extend_from_slice(&[0, 0, 0, 16, 0xff, 0xff, 0xff, 0xfd, 0xff, 0xff, 0, 0, 0, 0, 0, 0]);
    msg13(14, 8, &b)
}

fn packet_out13(port: u32, frame: &[u8]) -> Vec<u8> {
    let mut b = vec![0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfd, 0, 16, 0, 0, 0, 0, 0, 0];
    b.extend_from_slice(&[0, 0, 0, 16]);
    b.extend_from_slice(&port.to_be_bytes());
    b.extend_from_slice(&[0xff, 0xff, 0, 0, 0, 0, 0, 0]);
    b.extend_from_slice(frame);
    msg13(13, 9, &b)
}

/// One OF1.3 controller: `roles` is a list of (after, role, generation) requests sent on each
/// connection; it probes dpid 1's port 2 every 20 ms and records when packet-ins arrive.
fn serve13(mut s: TcpStream, t0: Instant, roles: Vec<(Duration, u32, u64)>, packet_ins: Arc<Mutex<Vec<Duration>>>) {
    s.set_nodelay(true).unwrap();
    s.set_read_timeout(Some(Duration::from_millis(5))).unwrap();
    let _ = s.write_all(&[msg13(0, 1, &[]), msg13(5, 2, &[])].concat());
    let (mut buf, mut chunk) = (Vec::new(), [0u8; 65536]);
    let mut dpid = None::<u64>;
    let mut pending = roles;
    let mut next_probe = Instant::now();
    loop {
        if let Some(d) = dpid {
            while pending.first().is_some_and(|r| t0.elapsed() >= r.0) {
                let (_, role, generation) = pending.remove(0);
                let _ = s.write_all(&role_request(role, generation));
                if role == OFPCR_ROLE_MASTER {
                    let _ = s.write_all(&table_miss());
                }
            }
            if d == 1 && Instant::now() >= next_probe {
                let _ = s.write_all(&packet_out13(2, &probe(1, 2)));
                next_probe += Duration::from_millis(20);
            }
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
                2 => drop(s.write_all(&msg13(3, u32::from_be_bytes([m[4], m[5], m[6], m[7]]), &m[8..]))),
                6 => dpid = Some(u64::from_be_bytes(m[8..16].try_into().unwrap())),
                10 => packet_ins.lock().unwrap().push(t0.elapsed()),
                _ => {}
            }
        }
    }
}

fn controller13(t0: Instant, roles: Vec<(Duration, u32, u64)>) -> (u16, Arc<Mutex<Vec<Duration>>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let got = Arc::new(Mutex::new(Vec::new()));
    let g = got.clone();
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            let (g, r) = (g.clone(), roles.clone());
            std::thread::spawn(move || serve13(s, t0, r, g));
        }
    });
    (port, got)
}

/// linear,2 with two controllers: A is master from the start, B slave; at 1.5 s B asks to be
/// master (higher generation), which makes A a slave. Packet-ins (the probes crossing the link
/// into dpid 2) go only to the master: to A before the change, to B after it.
#[test]
fn two_controllers_packet_ins_go_to_the_master_and_follow_a_role_change() {
    let t0 = Instant::now();
    const MASTER: u32 = OFPCR_ROLE_MASTER;
    const SLAVE: u32 = 3; // OFPCR_ROLE_SLAVE
    let change = Duration::from_millis(1500);
    let (pa, got_a) = controller13(t0, vec![(Duration::ZERO, MASTER, 1)]);
    let (pb, got_b) = controller13(t0, vec![(Duration::ZERO, SLAVE, 1), (change, MASTER, 2)]);
    let dir = std::env::temp_dir().join(format!("sdnbench-net-roles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = serde_json::json!({"switches": [{"dpid": 1, "ports": 2}, {"dpid": 2, "ports": 2}], "links": [[1, 2, 2, 1]]});
    let f = dir.join("net.json");
    std::fs::write(&f, net.to_string()).unwrap();
    let out = dir.join("result.json");
    let st = Command::new(env!("CARGO_BIN_EXE_sdnbench-engine"))
        .args(["--mode", "network", "--network", f.to_str().unwrap(), "--of", "1.3"])
        .args(["--controller", &format!("127.0.0.1:{pa},127.0.0.1:{pb}")])
        .args(["--workers", "1", "--loops", "3", "--loop-ms", "1000", "--warmup", "0", "--settle-ms", "0", "--quiet"])
        .args(["--json", out.to_str().unwrap()])
        .status()
        .unwrap();
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(st.success(), "engine exit {st:?}: {}", r["error"]);
    let (a, b) = (got_a.lock().unwrap().clone(), got_b.lock().unwrap().clone());
    let margin = Duration::from_millis(200);
    assert!(a.iter().filter(|t| **t < change).count() > 10, "A, master, gets packet-ins: {} {} {}", a.len(), r["network"]["counters"], r["switches"]);
    // until B's SLAVE request is processed B is EQUAL (the OF1.3 default) and may get the first
    // probe or two: only what comes after its first 200 ms counts
    let settled = Duration::from_millis(200);
    assert!(b.iter().all(|t| *t < settled || *t >= change), "B, slave, gets none before its change: {b:?}");
    assert!(b.iter().filter(|t| **t > change + margin).count() > 10, "B, master now, gets them: {}", b.len());
    assert!(a.iter().all(|t| *t < change + margin), "A, slave now, gets none: {:?}", a.iter().filter(|t| **t >= change).collect::<Vec<_>>());
    assert_eq!(r["network"]["invariant"], "ok");
    // the role record (network.roles): each switch saw A (channel 0) become MASTER and B
    // (channel 1) SLAVE at the start, then B MASTER and A SLAVE (demoted) about 1.5 s later
    for dpid in [1, 2] {
        let seen: Vec<(u64, u64, u64)> = r["network"]["roles"].as_array().unwrap().iter()
            .filter(|x| x["dpid"] == dpid)
            .map(|x| (x["mono_ns"].as_u64().unwrap(), x["channel"].as_u64().unwrap(), x["role"].as_u64().unwrap()))
            .collect();
        let at = |ch: u64, role: u64| seen.iter().filter(|x| (x.1, x.2) == (ch, role)).map(|x| x.0).collect::<Vec<_>>();
        let (a_master, b_slave, b_master, a_slave) = (at(0, 2), at(1, 3), at(1, 2), at(0, 3));
        assert!(a_master.len() == 1 && b_slave.len() == 1 && b_master.len() == 1 && a_slave.len() == 1, "dpid {dpid}: {seen:?}");
        let took = b_master[0] - a_master[0];
        assert!(took > 1_200_000_000 && took < 1_800_000_000, "dpid {dpid}: B master {took} ns after A");
        assert!(a_slave[0] == b_master[0], "A demoted when B became master");
    }
}
