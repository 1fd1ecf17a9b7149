//! The robustness attacker against a scripted controller whose reactions are known: it answers
//! an unknown message type with OFPET_BAD_REQUEST/OFPBRC_BAD_TYPE (1, 1), closes a session that
//! sends a bad version byte, and answers every packet-in with a flow-mod. The background
//! switches must keep being answered, and the attacker's observation must say exactly that.

mod common;

use ofwire::{Body, ErrorMsg, Message, MsgType, Version, OFP13};
use serde_json::Value;
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicU64, Ordering};

static BAD_VERSION_SEEN: AtomicU64 = AtomicU64::new(0);

fn controller() -> u16 {
    controller_with(true)
}

/// `close_bad`: close a session that sends a bad version (else count such messages and go on).
fn controller_with(close_bad: bool) -> u16 {
    common::controller(move |s, _| serve(s, close_bad))
}

fn serve(mut s: TcpStream, close_bad: bool) {
    if !common::greet13(&mut s) {
        return;
    }
    let mut buf = Vec::new();
    while let Some(messages) = common::read_messages(&mut s, &mut buf) {
        let mut out = Vec::new();
        for m in messages {
            if m[0] != OFP13 {
                if close_bad {
                    return; // a bad version closes the session
                }
                BAD_VERSION_SEEN.fetch_add(1, Ordering::SeqCst);
                continue;
            }
            answer(&m, &mut out);
        }
        if s.write_all(&out).is_err() {
            return;
        }
    }
}

/// What the scripted controller answers to one well-formed 1.3 message: BAD_TYPE to type 0xee,
/// and otherwise what `common::answer13` answers (echo; a flow-mod naming a packet-in's buffer).
fn answer(m: &[u8], out: &mut Vec<u8>) {
    if m[1] == 0xee {
        let xid = u32::from_be_bytes([m[4], m[5], m[6], m[7]]);
        let e = ErrorMsg { typ: 1, code: 1, data: Vec::new() }; // OFPET_BAD_REQUEST, OFPBRC_BAD_TYPE
        Message::new(Version::V13, xid, Body::Error(e)).emit_append(out);
    } else {
        common::answer13(m, out);
    }
}

/// A controller that answers like `serve` but holds every answer `delay` after its request
/// was read (a writer thread keeps the schedule), so every latency is `delay` plus a little.
fn delayed_controller(delay: std::time::Duration) -> u16 {
    common::controller(move |s, _| serve_delayed(s, delay))
}

fn serve_delayed(mut s: TcpStream, delay: std::time::Duration) {
    s.set_nodelay(true).unwrap();
    let mut w = s.try_clone().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<(std::time::Instant, Vec<u8>)>();
    std::thread::spawn(move || {
        for (due, bytes) in rx {
            std::thread::sleep(due.saturating_duration_since(std::time::Instant::now()));
            if w.write_all(&bytes).is_err() {
                return;
            }
        }
    });
    let _ = tx.send((std::time::Instant::now(), common::greeting13()));
    let mut buf = Vec::new();
    while let Some(messages) = common::read_messages(&mut s, &mut buf) {
        let now = std::time::Instant::now();
        for m in messages {
            let mut out = Vec::new();
            answer(&m, &mut out);
            let due = if common::msg_type(&m) == MsgType::PacketIn { now + delay } else { now };
            if !out.is_empty() && tx.send((due, out)).is_err() {
                return;
            }
        }
    }
}

fn run(case: &str) -> (i32, Value, String) {
    run_against(controller(), case)
}

fn background_answered_every_loop(v: &Value) {
    let a: Vec<u64> = v["loops"]["answered"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
    assert_eq!(a.len(), 5, "{a:?}");
    assert!(a.iter().all(|&x| x > 0), "a loop without answers: {a:?}");
}

#[test]
fn unknown_type_is_answered_with_bad_type_and_the_session_kept() {
    let (code, v, err) = run("unknown-type");
    assert_eq!(code, 0, "{err}");
    let r = &v["robustness"];
    assert_eq!(r["errors"][0]["typ"], 1, "{r}");
    assert_eq!(r["errors"][0]["code"], 1, "{r}");
    assert_eq!(r["errors"][0]["name"], "OFPET_BAD_REQUEST/OFPBRC_BAD_TYPE");
    assert!(r["closed_by_controller"].is_null(), "{r}");
    assert_eq!(r["probe_answered"], true, "{r}");
    let t = r["started_s"].as_f64().unwrap();
    assert!((0.75..1.2).contains(&t), "started at {t}");
    background_answered_every_loop(&v);
}

#[test]
fn bad_version_closes_only_the_attackers_session() {
    let (code, v, err) = run("bad-version");
    assert_eq!(code, 0, "{err}");
    let r = &v["robustness"];
    assert_eq!(r["closed_by_controller"][0], "eof", "{r}");
    assert!(r["handshake_ms"].as_f64().is_some(), "{r}");
    assert!(r["probe_answered"].is_null(), "{r}");
    assert_eq!(v["disconnects"].as_array().unwrap().len(), 0);
    background_answered_every_loop(&v);
}

#[test]
fn a_flood_is_counted_and_answered() {
    let (code, v, err) = run("packet-in-flood");
    assert_eq!(code, 0, "{err}");
    let r = &v["robustness"];
    let sent = r["flood_sent"].as_u64().unwrap();
    let fm = r["received"]["flow_mod"].as_u64().unwrap_or(0);
    assert!(sent > 100 && fm > 0 && fm <= sent, "sent {sent} flow-mods {fm}");
    background_answered_every_loop(&v);
}

/// A controller that serves its first `served` connections, then accepts `take` more and holds
/// them without a byte, then accepts nothing: its listen backlog (`backlog`) fills, and the
/// kernel answers no further SYN.
fn limited_controller(served: u32, take: u32, backlog: i32) -> u16 {
    use std::os::fd::AsRawFd;
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    // SAFETY: listen() again on a listening socket only sets its backlog (Linux)
    assert_eq!(unsafe { libc::listen(l.as_raw_fd(), backlog) }, 0);
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = vec![];
        for (i, s) in l.incoming().enumerate() {
            let Ok(s) = s else { break };
            if (i as u32) < served {
                std::thread::spawn(move || serve(s, true));
            } else {
                held.push(s);
                if held.len() as u32 == take {
                    break;
                }
            }
        }
        // hold the listener and the connections until the test process ends
        std::thread::sleep(std::time::Duration::from_secs(3600));
        drop((l, held));
    });
    port
}

fn run_against(port: u16, case: &str) -> (i32, Value, String) {
    run_window(port, case, 4, 600)
}

/// `loops` measured loops of 400 ms after one warm-up loop; the case starts at 800 ms and is
/// watched for `observe_ms`.
fn run_window(port: u16, case: &str, loops: u32, observe_ms: u64) -> (i32, Value, String) {
    let dir = std::env::temp_dir();
    let cfg = dir.join(format!("sdnbench-robust-{}-{case}-{port}.cfg.json", std::process::id()));
    let out = dir.join(format!("sdnbench-robust-{}-{case}-{port}.json", std::process::id()));
    let c = serde_json::json!({"controllers": [format!("127.0.0.1:{port}")], "versions": 16, "switches": 2, "loops": loops,
        "loop_ms": 400, "warmup": 1, "traffic": "cbench", "window": 16,
        "robustness": {"case": case, "at_ms": 800, "observe_ms": observe_ms}});
    std::fs::write(&cfg, c.to_string()).unwrap();
    let o =
        common::engine_command().args(["--config", cfg.to_str().unwrap(), "--json", out.to_str().unwrap(), "--quiet"]).output().unwrap();
    let v = std::fs::read_to_string(&out).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or(Value::Null);
    let _ = std::fs::remove_file(&cfg);
    let _ = std::fs::remove_file(&out);
    (o.status.code().unwrap_or(-1), v, String::from_utf8_lossy(&o.stderr).into())
}

#[test]
fn the_connection_flood_grows_until_the_controller_takes_no_more() {
    // 2 background switches and the attacker's own connection are served; 40 more are
    // accepted and held; then the accept queue takes backlog + 1 = 3 (Linux: full when it holds
    // more than the backlog), and the next SYN goes unanswered: refused after 1 s
    let (code, v, err) = run_against(limited_controller(3, 40, 2), "connection-flood");
    assert_eq!(code, 0, "{err}");
    let idle = &v["robustness"]["idle"];
    assert_eq!(idle["stopped_by"], "refused", "{idle}");
    assert_eq!(idle["opened"], 1 + 40 + 3, "{idle}");
    assert_eq!(idle["refused"], 1, "{idle}");
    assert_eq!(idle["refusal"], "connection 45 not accepted within 1 s (its accept queue was full)", "{idle}");
    assert_eq!(idle["limit"], 16_384, "{idle}");
    assert!(idle["files_room"].as_u64().unwrap() >= 16_384, "{idle}");
    assert_eq!(idle["closed_by_controller"], 0, "{idle}");
    background_answered_every_loop(&v);
}

#[test]
fn no_hello_opens_its_one_connection() {
    let (code, v, err) = run("no-hello");
    assert_eq!(code, 0, "{err}");
    let idle = &v["robustness"]["idle"];
    assert_eq!((idle["opened"].as_u64(), idle["refused"].as_u64()), (Some(1), Some(0)), "{idle}");
    assert_eq!((idle["limit"].as_u64(), idle["stopped_by"].as_str()), (Some(1), Some("count")), "{idle}");
}

#[test]
fn an_unknown_case_lists_the_known_ones() {
    let (code, _, err) = run("no-such-case");
    assert_eq!(code, 1);
    assert!(err.contains("unknown case") && err.contains("length-zero"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn one_percent_invalid_packet_ins_are_sent_exactly_and_not_requests() {
    let port = controller_with(false);
    let dir = std::env::temp_dir();
    let cfg = dir.join(format!("sdnbench-robust-{}-exc.cfg.json", std::process::id()));
    let out = dir.join(format!("sdnbench-robust-{}-exc.json", std::process::id()));
    let c = serde_json::json!({"controllers": [format!("127.0.0.1:{port}")], "versions": 16, "switches": 2, "loops": 2,
        "loop_ms": 300, "warmup": 0, "traffic": "cbench", "mode": "fixed-rate", "rate": 2000.0, "invalid_every": 99});
    std::fs::write(&cfg, c.to_string()).unwrap();
    let o =
        common::engine_command().args(["--config", cfg.to_str().unwrap(), "--json", out.to_str().unwrap(), "--quiet"]).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let t = &v["totals"];
    let invalid = t["invalid_packet_ins_sent"].as_u64().unwrap();
    let sent = t["requests_sent"].as_u64().unwrap();
    // each switch sends ⌊sent_i / 99⌋; with two switches that is within 1 of ⌊sent / 99⌋
    assert!(invalid + 1 >= sent / 99 && invalid <= sent / 99, "invalid {invalid} of {sent}");
    assert!(invalid >= 10, "{invalid}");
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert_eq!(BAD_VERSION_SEEN.load(Ordering::SeqCst), invalid, "the controller saw a different count");
    // the invariant of requests is untouched by them
    let a = |k: &str| t[k].as_u64().unwrap();
    assert_eq!(sent, a("requests_answered") + a("late_replies") + a("requests_lost") + a("requests_in_flight_at_stop"));
    let _ = std::fs::remove_file(&cfg);
    let _ = std::fs::remove_file(&out);
}

#[test]
fn a_dribbled_packet_in_is_answered_and_the_session_probed() {
    // about 100 bytes 5 ms apart: half a second when every sleep is on time; a window of 3 s
    // so that a busy machine's late wake-ups cannot cut the packet-in short (the case then
    // reads "our stream is inside a message", not a verdict on the controller)
    let (code, v, err) = run_window(controller(), "dribble", 10, 3000);
    assert_eq!(code, 0, "{err}");
    let r = &v["robustness"];
    assert_eq!(r["received"]["flow_mod"], 1, "{r}");
    assert_eq!(r["probe_answered"], true, "{r}");
}

/// Per-loop latency samples (robustness runs): a controller that holds every flow-mod 30 ms
/// gives loops whose every sample is at least 30 ms and whose median is within a few ms of it;
/// each loop has exactly one sample per request it answered.
#[test]
fn per_loop_latency_samples_show_the_controllers_delay() {
    let port = delayed_controller(std::time::Duration::from_millis(30));
    let dir = std::env::temp_dir();
    let (cfg, out) = (
        dir.join(format!("sdnbench-robust-lat-{}.cfg.json", std::process::id())),
        dir.join(format!("sdnbench-robust-lat-{}.json", std::process::id())),
    );
    let c = serde_json::json!({"controllers": [format!("127.0.0.1:{port}")], "versions": 16, "switches": 2, "loops": 4,
        "loop_ms": 400, "warmup": 1, "traffic": "cbench", "mode": "fixed-rate", "rate": 200.0,
        "robustness": {"case": "unknown-type", "at_ms": 800, "observe_ms": 600}});
    std::fs::write(&cfg, c.to_string()).unwrap();
    let o =
        common::engine_command().args(["--config", cfg.to_str().unwrap(), "--json", out.to_str().unwrap(), "--quiet"]).output().unwrap();
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let _ = (std::fs::remove_file(&cfg), std::fs::remove_file(&out));
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let lat = v["loops"]["latency_us"].as_array().expect("latency_us in a robustness run");
    let answered = v["loops"]["answered"].as_array().unwrap();
    assert_eq!(lat.len(), 5);
    for (k, (l, a)) in lat.iter().zip(answered).enumerate().skip(1) {
        let mut s: Vec<u64> = l.as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
        assert_eq!(s.len() as u64, a.as_u64().unwrap(), "loop {k}: one sample per answered request");
        assert!(s.len() > 20, "loop {k}: {} samples", s.len());
        s.sort_unstable();
        let p50 = s[s.len() / 2];
        assert!(s[0] >= 30_000 && (30_000..36_000).contains(&p50), "loop {k}: min {} p50 {p50} µs", s[0]);
    }
}
