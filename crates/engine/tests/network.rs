//! The emulated network end to end: the engine binary runs ring,4 over two worker processes
//! against a scripted OpenFlow 1.0 controller (std threads; messages from ofwire, `tests/common`) that
//! sends an LLDP packet-out on every port every 50 ms, and records the packet-ins and port-status
//! messages it gets. A link goes down at 1.5 s.
//!
//! Known answers: every link carries the probes both ways (the controller sees all 8 link
//! directions, the engine counts all 4 links both ways); the down link's two ends send
//! PORT_STATUS; after it the controller's probes to the down port are refused and counted by the
//! switch; the frame counters balance; the event's instant is recorded.

mod common;

use ofwire::config::role;
use ofwire::frame::{lldp_frame, Lldp};
use ofwire::port::ports::{ANY13, CONTROLLER13, MAX10, NONE10};
use ofwire::{Action, Body, FlowMod, Hello, Instruction, Message, MsgType, PacketOut, Role, Version};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::net::TcpStream;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Default)]
struct Seen {
    /// (sender dpid, sender port, receiver dpid, receiver in_port) → count
    lldp: BTreeMap<(u64, u16, u64, u16), u64>,
    /// (dpid, port, link down)
    port_status: BTreeSet<(u64, u16, bool)>,
}

/// A real LLDP frame for (dpid, port), as os-ken's switches app sends it.
fn probe(dpid: u64, port: u16) -> Vec<u8> {
    lldp_frame([2, 0, 0, 0, 0, 1], &Lldp::for_port(dpid, port as u32))
}

/// The (dpid, port) an LLDP frame was sent for.
fn probed(frame: &[u8]) -> Option<(u64, u16)> {
    if frame.len() < 14 || frame[12..14] != [0x88, 0xcc] {
        return None;
    }
    let l = Lldp::parse(&frame[14..]).ok()?;
    Some((l.dpid()?, l.port_no()? as u16))
}

/// OF1.0 packet-out of `frame` through `port` (no buffer, in_port NONE).
fn packet_out(port: u16, frame: &[u8]) -> Vec<u8> {
    let po = PacketOut {
        buffer_id: u32::MAX,
        in_port: NONE10 as u32,
        actions: vec![Action::Output { port: port as u32, max_len: 0 }],
        data: frame.to_vec(),
    };
    Message::new(Version::V10, 99, Body::PacketOut(po)).to_vec()
}

fn serve(s: TcpStream, seen: Arc<Mutex<Seen>>) {
    serve_with(s, seen, Duration::ZERO, None)
}

/// `serve`, probing only from `delay` after the features reply, and never out of `skip`
/// (dpid, port).
fn serve_with(mut s: TcpStream, seen: Arc<Mutex<Seen>>, delay: Duration, skip: Option<(u64, u16)>) {
    s.set_nodelay(true).unwrap();
    s.set_read_timeout(Some(Duration::from_millis(10))).unwrap();
    let mut hello = Message::new(Version::V10, 1, Body::Hello(Hello::default())).to_vec();
    Message::new(Version::V10, 2, Body::FeaturesRequest).emit_append(&mut hello);
    let _ = s.write_all(&hello);
    let mut buf = Vec::new();
    let (mut dpid, mut ports) = (None::<u64>, Vec::<u16>::new());
    let mut next_probe = Instant::now();
    loop {
        if let Some(d) = dpid.filter(|_| Instant::now() >= next_probe) {
            let out: Vec<u8> = ports.iter().filter(|&&p| skip != Some((d, p))).flat_map(|&p| packet_out(p, &probe(d, p))).collect();
            if s.write_all(&out).is_err() {
                return;
            }
            next_probe += Duration::from_millis(50);
        }
        let Some(messages) = common::read_messages(&mut s, &mut buf) else { return };
        for m in messages {
            let Ok(msg) = Message::parse(&m) else { continue };
            match msg.body {
                Body::EchoRequest(data) => drop(s.write_all(&Message::new(Version::V10, msg.xid, Body::EchoReply(data)).to_vec())),
                Body::FeaturesReply(f) => {
                    dpid = Some(f.datapath_id);
                    ports = f.ports.iter().map(|p| p.port_no as u16).filter(|&p| p < MAX10).collect();
                    next_probe = Instant::now() + delay;
                }
                Body::PacketIn(pi) => {
                    if let Some((from, from_port)) = probed(&pi.data) {
                        *seen.lock().unwrap().lldp.entry((from, from_port, dpid.unwrap_or(0), pi.in_port)).or_default() += 1;
                    }
                }
                Body::PortStatus(ps) => {
                    let down = ps.port.state & 1 != 0; // OFPPS_LINK_DOWN
                    seen.lock().unwrap().port_status.insert((dpid.unwrap_or(0), ps.port.port_no as u16, down));
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
    let seen = Arc::new(Mutex::new(Seen::default()));
    let s2 = seen.clone();
    let port = common::controller(move |s, _| serve(s, s2.clone()));
    let dir = std::env::temp_dir().join(format!("sdnbench-net-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = ring4_with_a_link_down(&dir);
    let out = dir.join("result.json");
    let st = common::engine_command()
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
    let per_link: Vec<u64> =
        n["lldp_per_link"].as_array().unwrap().iter().map(|d| d[0].as_u64().unwrap() + d[1].as_u64().unwrap()).collect();
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
    let port = common::controller(move |s, _| serve_with(s, Arc::new(Mutex::new(Seen::default())), delay, skip));
    let dir = std::env::temp_dir().join(format!("sdnbench-disc-test-{}-{}", std::process::id(), delay.as_millis()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = ring4_with_a_link_down(&dir);
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&net).unwrap()).unwrap();
    doc["events"] = serde_json::json!([]);
    std::fs::write(&net, doc.to_string()).unwrap();
    let out = dir.join("result.json");
    let st = common::engine_command()
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

fn role_request(role: u32, generation: u64) -> Vec<u8> {
    Message::new(Version::V13, 7, Body::RoleRequest(Role { role, generation_id: generation })).to_vec()
}

/// Table-miss entry: priority 0, match all, apply-actions output:CONTROLLER (no buffer).
fn table_miss() -> Vec<u8> {
    let fm = FlowMod {
        buffer_id: u32::MAX,
        out_port: ANY13,
        out_group: ANY13,
        instructions: vec![Instruction::ApplyActions(vec![Action::Output { port: CONTROLLER13, max_len: 0xffff }])],
        ..FlowMod::default()
    };
    Message::new(Version::V13, 8, Body::FlowMod(fm)).to_vec()
}

fn packet_out13(port: u32, frame: &[u8]) -> Vec<u8> {
    let po = PacketOut {
        buffer_id: u32::MAX,
        in_port: CONTROLLER13,
        actions: vec![Action::Output { port, max_len: 0xffff }],
        data: frame.to_vec(),
    };
    Message::new(Version::V13, 9, Body::PacketOut(po)).to_vec()
}

/// One OF1.3 controller: `roles` is a list of (after, role, generation) requests sent on each
/// connection; it probes dpid 1's port 2 every 20 ms and records when packet-ins arrive.
fn serve13(mut s: TcpStream, t0: Instant, roles: Vec<(Duration, u32, u64)>, packet_ins: Arc<Mutex<Vec<Duration>>>) {
    s.set_nodelay(true).unwrap();
    s.set_read_timeout(Some(Duration::from_millis(5))).unwrap();
    let _ = s.write_all(&common::greeting13());
    let mut buf = Vec::new();
    let mut dpid = None::<u64>;
    let mut pending = roles;
    let mut next_probe = Instant::now();
    loop {
        if let Some(d) = dpid {
            while pending.first().is_some_and(|r| t0.elapsed() >= r.0) {
                let (_, role, generation) = pending.remove(0);
                let _ = s.write_all(&role_request(role, generation));
                if role == role::MASTER {
                    let _ = s.write_all(&table_miss());
                }
            }
            if d == 1 && Instant::now() >= next_probe {
                let _ = s.write_all(&packet_out13(2, &probe(1, 2)));
                next_probe += Duration::from_millis(20);
            }
        }
        let Some(messages) = common::read_messages(&mut s, &mut buf) else { return };
        for m in messages {
            match common::msg_type(&m) {
                MsgType::FeaturesReply => {
                    if let Ok(Message { body: Body::FeaturesReply(f), .. }) = Message::parse(&m) {
                        dpid = Some(f.datapath_id);
                    }
                }
                MsgType::PacketIn => packet_ins.lock().unwrap().push(t0.elapsed()),
                _ => {
                    let mut out = Vec::new();
                    common::answer13(&m, &mut out);
                    let _ = s.write_all(&out);
                }
            }
        }
    }
}

fn controller13(t0: Instant, roles: Vec<(Duration, u32, u64)>) -> (u16, Arc<Mutex<Vec<Duration>>>) {
    let got = Arc::new(Mutex::new(Vec::new()));
    let g = got.clone();
    (common::controller(move |s, _| serve13(s, t0, roles.clone(), g.clone())), got)
}

/// linear,2 with two controllers: A is master from the start, B slave; at 1.5 s B asks to be
/// master (higher generation), which makes A a slave. Packet-ins (the probes crossing the link
/// into dpid 2) go only to the master: to A before the change, to B after it.
#[test]
fn two_controllers_packet_ins_go_to_the_master_and_follow_a_role_change() {
    let t0 = Instant::now();
    const MASTER: u32 = role::MASTER;
    const SLAVE: u32 = role::SLAVE;
    let change = Duration::from_millis(1500);
    let (pa, got_a) = controller13(t0, vec![(Duration::ZERO, MASTER, 1)]);
    let (pb, got_b) = controller13(t0, vec![(Duration::ZERO, SLAVE, 1), (change, MASTER, 2)]);
    let dir = std::env::temp_dir().join(format!("sdnbench-net-roles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = serde_json::json!({"switches": [{"dpid": 1, "ports": 2}, {"dpid": 2, "ports": 2}], "links": [[1, 2, 2, 1]]});
    let f = dir.join("net.json");
    std::fs::write(&f, net.to_string()).unwrap();
    let out = dir.join("result.json");
    let st = common::engine_command()
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
    assert!(
        a.iter().filter(|t| **t < change).count() > 10,
        "A, master, gets packet-ins: {} {} {}",
        a.len(),
        r["network"]["counters"],
        r["switches"]
    );
    // until B's SLAVE request is processed B is EQUAL (the OF1.3 default) and may get the first
    // probe or two: only what comes after its first 200 ms counts
    let settled = Duration::from_millis(200);
    assert!(b.iter().all(|t| *t < settled || *t >= change), "B, slave, gets none before its change: {b:?}");
    assert!(b.iter().filter(|t| **t > change + margin).count() > 10, "B, master now, gets them: {}", b.len());
    assert!(
        a.iter().all(|t| *t < change + margin),
        "A, slave now, gets none: {:?}",
        a.iter().filter(|t| **t >= change).collect::<Vec<_>>()
    );
    assert_eq!(r["network"]["invariant"], "ok");
    // the role record (network.roles): each switch saw A (channel 0) become MASTER and B
    // (channel 1) SLAVE at the start, then B MASTER and A SLAVE (demoted) about 1.5 s later
    for dpid in [1, 2] {
        let seen: Vec<(u64, u64, u64)> = r["network"]["roles"]
            .as_array()
            .unwrap()
            .iter()
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
