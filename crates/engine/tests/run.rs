//! End-to-end runs of the engine binary against a scripted controller written here (std threads;
//! its messages from ofwire, `tests/common`): the JSON output matches the checked-in schema, and the accounting rules hold.

mod common;

use ofmutate::bytes::{emit, set_length};
use ofwire::frame::build::lldp_frame;
use ofwire::frame::lldp::Lldp;
use ofwire::port::ports::CONTROLLER13;
use ofwire::{Action, Body, Message, MsgType, PacketOut, Version};
use serde_json::Value;
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Clone, Copy)]
struct Script {
    /// Also send a packet-out naming the same buffer id (os-ken OF1.0 style): one extra reply.
    packet_out_too: bool,
    /// Close the connection accepted in this position after `close_after`.
    close_nth: Option<usize>,
    close_after: Duration,
    /// After the features reply, send an LLDP packet-out out of port 2.
    lldp: bool,
    /// The connection (by accept order) that gets a malformed message after its handshake.
    garbage_nth: Option<usize>,
}

static LLDP_PACKET_INS: AtomicUsize = AtomicUsize::new(0);

fn controller(script: Script) -> (u16, Arc<AtomicUsize>) {
    let accepted = Arc::new(AtomicUsize::new(0));
    let acc = accepted.clone();
    let port = common::controller(move |s, i| {
        acc.fetch_add(1, Ordering::SeqCst);
        serve(s, i, script)
    });
    (port, accepted)
}

fn serve(mut s: TcpStream, nth: usize, script: Script) {
    let close_at = (script.close_nth == Some(nth)).then(|| Instant::now() + script.close_after);
    s.set_read_timeout(Some(Duration::from_millis(20))).unwrap();
    if !common::greet13(&mut s) {
        return;
    }
    let mut buf = Vec::new();
    loop {
        if close_at.is_some_and(|t| Instant::now() >= t) {
            return; // dropping the stream closes it
        }
        let Some(messages) = common::read_messages(&mut s, &mut buf) else { return };
        let mut out = Vec::new();
        for m in messages {
            answer(&m, nth, script, &mut out);
        }
        if s.write_all(&out).is_err() {
            return;
        }
    }
}

/// What the scripted controller sends for message `m` on connection `nth`.
fn answer(m: &[u8], nth: usize, script: Script, out: &mut Vec<u8>) {
    match common::msg_type(m) {
        MsgType::FeaturesReply if script.garbage_nth == Some(nth) => {
            // an echo request whose length (4) is shorter than the header itself
            out.extend_from_slice(&set_length(emit(4, 66, Body::EchoRequest(Vec::new())), 4));
        }
        MsgType::FeaturesReply if script.lldp => {
            // NO_BUFFER, in_port CONTROLLER, output:2, an LLDP frame for (dpid 1, port 2)
            let frame = lldp_frame([2, 0, 0, 0, 0, 1], &Lldp::for_port(1, 2));
            let po = PacketOut {
                buffer_id: u32::MAX,
                in_port: CONTROLLER13,
                actions: vec![Action::Output { port: 2, max_len: 0xffff }],
                data: frame,
            };
            Message::new(Version::V13, 7, Body::PacketOut(po)).emit_append(out);
        }
        MsgType::PacketIn if is_lldp(m) => {
            LLDP_PACKET_INS.fetch_add(1, Ordering::SeqCst);
        }
        MsgType::PacketIn => {
            common::flow_mod_for(m, out);
            if script.packet_out_too {
                let buffer_id = ofwire::packet_in::Packet::new_checked(m).unwrap().buffer_id();
                let po = PacketOut { buffer_id, in_port: CONTROLLER13, actions: Vec::new(), data: Vec::new() };
                Message::new(Version::V13, 9, Body::PacketOut(po)).emit_append(out);
            }
        }
        _ => common::answer13(m, out),
    }
}

fn is_lldp(m: &[u8]) -> bool {
    let Ok(Message { body: Body::PacketIn(pi), .. }) = Message::parse(m) else { return false };
    pi.data.len() >= 14 && pi.data[12..14] == [0x88, 0xcc]
}

fn engine(port: u16, extra: &[&str], json: &std::path::Path) -> std::process::Output {
    let mut args = vec![
        "--controller".to_string(),
        format!("127.0.0.1:{port}"),
        "--of".into(),
        "1.3".into(),
        "--json".into(),
        json.display().to_string(),
        "--quiet".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    common::engine_command().args(&args).output().unwrap()
}

fn tmp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("sdnbench-engine-test-{}-{name}.json", std::process::id()))
}

/// The subset of JSON Schema (2020-12) that the generated schema uses: `$ref` into `$defs`,
/// type (or list), enum, const, anyOf, oneOf, required, properties, additionalProperties,
/// items, prefixItems, minimum/maximum. Formats and lengths are left out.
fn validate(v: &Value, s: &Value, root: &Value, path: &str) -> Result<(), String> {
    if let Some(r) = s.get("$ref").and_then(|r| r.as_str()) {
        let def = r.strip_prefix("#/$defs/").and_then(|n| root["$defs"].get(n)).ok_or_else(|| format!("{path}: unknown $ref {r}"))?;
        validate(v, def, root, path)?;
    }
    if let Some(t) = s.get("type") {
        let types: Vec<&str> = match t {
            Value::String(x) => vec![x.as_str()],
            Value::Array(a) => a.iter().filter_map(|x| x.as_str()).collect(),
            _ => vec![],
        };
        let ok = types.iter().any(|t| match *t {
            "object" => v.is_object(),
            "array" => v.is_array(),
            "string" => v.is_string(),
            "integer" => v.is_u64() || v.is_i64(),
            "number" => v.is_number(),
            "null" => v.is_null(),
            "boolean" => v.is_boolean(),
            _ => false,
        });
        if !ok {
            return Err(format!("{path}: {v} is not {types:?}"));
        }
    }
    if let Some(e) = s.get("enum").and_then(|e| e.as_array()) {
        if !e.contains(v) {
            return Err(format!("{path}: {v} not in {e:?}"));
        }
    }
    if let Some(c) = s.get("const") {
        if c != v {
            return Err(format!("{path}: {v} is not {c}"));
        }
    }
    if let (Some(min), Some(x)) = (s.get("minimum").and_then(|m| m.as_f64()), v.as_f64()) {
        if x < min {
            return Err(format!("{path}: {v} < {min}"));
        }
    }
    if let (Some(max), Some(x)) = (s.get("maximum").and_then(|m| m.as_f64()), v.as_f64()) {
        if x > max {
            return Err(format!("{path}: {v} > {max}"));
        }
    }
    if let Some(any) = s.get("anyOf").and_then(|a| a.as_array()) {
        if !any.iter().any(|x| validate(v, x, root, path).is_ok()) {
            return Err(format!("{path}: {v} matches none of anyOf"));
        }
    }
    if let Some(one) = s.get("oneOf").and_then(|a| a.as_array()) {
        let n = one.iter().filter(|x| validate(v, x, root, path).is_ok()).count();
        if n != 1 {
            return Err(format!("{path}: {v} matches {n} of oneOf, not 1"));
        }
    }
    if let Some(o) = v.as_object() {
        for k in s.get("required").and_then(|r| r.as_array()).into_iter().flatten() {
            let k = k.as_str().unwrap();
            if !o.contains_key(k) {
                return Err(format!("{path}: missing {k}"));
            }
        }
        let props = s.get("properties").and_then(|p| p.as_object());
        for (k, x) in o {
            match (props.and_then(|p| p.get(k)), s.get("additionalProperties")) {
                (Some(sub), _) => validate(x, sub, root, &format!("{path}.{k}"))?,
                (None, Some(Value::Bool(false))) => return Err(format!("{path}: unknown field {k}")),
                (None, Some(sub)) if sub.is_object() => validate(x, sub, root, &format!("{path}.{k}"))?,
                _ => {}
            }
        }
    }
    if let Some(a) = v.as_array() {
        let prefix = s.get("prefixItems").and_then(|p| p.as_array()).map_or(&[][..], |p| p.as_slice());
        for (i, x) in a.iter().enumerate() {
            let sub = prefix.get(i).or_else(|| s.get("items").filter(|it| it.is_object()));
            if let Some(sub) = sub {
                validate(x, sub, root, &format!("{path}[{i}]"))?;
            } else if s.get("items") == Some(&Value::Bool(false)) {
                return Err(format!("{path}: more than {} items", prefix.len()));
            }
        }
    }
    Ok(())
}

/// A document against the checked-in schema (generated from `src/result/`).
fn check_schema(v: &Value) -> Result<(), String> {
    let s = schema();
    validate(v, &s, &s, "$")
}

fn schema() -> Value {
    let p = concat!(env!("CARGO_MANIFEST_DIR"), "/schema/engine-result.schema.json");
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn read(p: &std::path::Path) -> Value {
    let v = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    let _ = std::fs::remove_file(p);
    v
}

#[test]
fn flow_mod_plus_packet_out_counts_once_and_output_matches_schema() {
    let (port, _) =
        controller(Script { packet_out_too: true, close_nth: None, close_after: Duration::ZERO, lldp: false, garbage_nth: None });
    let p = tmp("multi");
    let o = engine(port, &["--switches", "3", "--loops", "2", "--loop-ms", "200", "--warmup", "1", "--macs", "4", "--window", "16"], &p);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j = read(&p);
    check_schema(&j).unwrap();
    let t = &j["totals"];
    let answered = t["requests_answered"].as_u64().unwrap();
    assert!(answered > 0);
    let fm = t["replies_by_type"]["flow_mod"].as_u64().unwrap();
    let po = t["replies_by_type"]["packet_out"].as_u64().unwrap();
    // every answered request got a flow-mod and a packet-out: two messages, one answer, one extra
    assert_eq!(fm, answered);
    assert_eq!(po, answered);
    assert_eq!(t["extra_replies"].as_u64().unwrap(), answered);
    assert_eq!(t["requests_lost"].as_u64().unwrap(), t["requests_sent"].as_u64().unwrap() - answered);
    assert_eq!(j["switches"].as_array().unwrap().len(), 3);
    assert_eq!(j["loops"]["answered"].as_array().unwrap().len(), 3);
    assert!(j["latency"]["count"].as_u64().unwrap() > 0);
}

#[test]
fn a_closed_session_ends_only_itself_and_is_named() {
    let (port, _) = controller(Script {
        packet_out_too: false,
        close_nth: Some(2),
        close_after: Duration::from_millis(300),
        lldp: false,
        garbage_nth: None,
    });
    let p = tmp("close");
    let o = engine(
        port,
        &["--switches", "4", "--loops", "3", "--loop-ms", "200", "--warmup", "0", "--macs", "4", "--connect-parallel", "1"],
        &p,
    );
    // some sessions lost: status partial (exit 2), naming the lost one
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
    let j = read(&p);
    check_schema(&j).unwrap();
    assert_eq!(j["status"], "partial");
    assert!(j["error"].as_str().unwrap().contains("1 session(s) lost: switch "), "{}", j["error"]);
    let d = j["disconnects"].as_array().unwrap();
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0]["kind"] == "closed" || d[0]["kind"] == "reset", "{d:?}");
    let lost = d[0]["index"].as_u64().unwrap() as usize;
    for (i, s) in j["switches"].as_array().unwrap().iter().enumerate() {
        let last = s["answered_per_loop"].as_array().unwrap().last().unwrap();
        if i == lost {
            assert!(s["disconnect"].is_object());
        } else {
            assert!(last.as_u64().unwrap() > 0, "switch {i} kept working");
            assert!(s["disconnect"].is_null());
        }
    }
}

#[test]
fn strict_mode_ends_the_run_on_a_lost_session() {
    let (port, _) = controller(Script {
        packet_out_too: false,
        close_nth: Some(0),
        close_after: Duration::from_millis(800),
        lldp: false,
        garbage_nth: None,
    });
    // closed at 800 ms: after the handshake, learning (from 200 ms) and settle (200 ms), in the loops
    let p = tmp("strict");
    let o = engine(port, &["--switches", "2", "--loops", "5", "--loop-ms", "200", "--warmup", "0", "--macs", "2", "--strict"], &p);
    assert_eq!(o.status.code(), Some(2));
    let j = read(&p);
    assert_eq!(j["status"], "failed");
    let e = j["error"].as_str().unwrap();
    assert!(e.contains("closed") || e.contains("reset"), "{e}");
    assert!(j["loops"]["k"].as_array().unwrap().len() < 5);
}

#[test]
fn nothing_listening_is_refused_before_the_run_naming_the_address() {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    drop(l);
    let p = tmp("refused");
    let o = engine(port, &["--switches", "2", "--loops", "1", "--loop-ms", "100"], &p);
    assert_eq!(o.status.code(), Some(1), "the user's address: refused before anything starts");
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(e.trim().lines().count(), 1, "{e}");
    assert!(e.contains(&format!("--controller 127.0.0.1:{port}: nothing listens there")), "{e}");
    assert!(!p.exists(), "no run, no result");
}

#[test]
fn bad_arguments_exit_1_with_one_line() {
    let o = common::engine_command().args(["--switches", "lots"]).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(e.trim().lines().count(), 1, "{e}");
}

#[test]
fn ctrl_c_writes_partial_results() {
    let (port, _) =
        controller(Script { packet_out_too: false, close_nth: None, close_after: Duration::ZERO, lldp: false, garbage_nth: None });
    let p = tmp("sigint");
    let mut child = common::engine_command()
        .args([
            "--controller",
            &format!("127.0.0.1:{port}"),
            "--switches",
            "2",
            "--loops",
            "100",
            "--loop-ms",
            "100",
            "--warmup",
            "0",
            "--macs",
            "2",
            "--quiet",
            "--json",
            p.to_str().unwrap(),
        ])
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(800));
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2));
    let j = read(&p);
    check_schema(&j).unwrap();
    assert_eq!(j["status"], "interrupted");
    let k = j["loops"]["k"].as_array().unwrap().len();
    assert!(k > 0 && k < 100, "{k} loops");
    assert!(j["totals"]["requests_answered"].as_u64().unwrap() > 0);
}

#[test]
fn lldp_out_of_a_linked_port_comes_back_from_the_neighbour() {
    let (port, _) =
        controller(Script { packet_out_too: false, close_nth: None, close_after: Duration::ZERO, lldp: true, garbage_nth: None });
    let p = tmp("lldp");
    let o = engine(
        port,
        &["--switches", "3", "--links", "linear", "--loops", "1", "--loop-ms", "300", "--warmup", "0", "--macs", "2", "--no-learn"],
        &p,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j = read(&p);
    let sw = j["switches"].as_array().unwrap();
    let outs: Vec<u64> = sw.iter().map(|s| s["lldp_packet_outs"].as_u64().unwrap()).collect();
    let ins: Vec<u64> = sw.iter().map(|s| s["lldp_packet_ins"].as_u64().unwrap()).collect();
    // linear: 1:2 - 2:2 and 2:3 - 3:2; each switch's LLDP goes out of its port 2: 1 -> 2, 2 -> 1, 3 -> 2
    assert_eq!(outs, vec![1, 1, 1]);
    assert_eq!(ins, vec![1, 2, 0]);
    assert_eq!(LLDP_PACKET_INS.load(Ordering::SeqCst), 3, "the controller saw all three");
}

#[test]
fn a_malformed_message_ends_only_its_session() {
    let (port, _) =
        controller(Script { packet_out_too: false, close_nth: None, close_after: Duration::ZERO, lldp: false, garbage_nth: Some(1) });
    let p = tmp("malformed");
    let o = engine(
        port,
        &["--switches", "3", "--loops", "2", "--loop-ms", "200", "--warmup", "0", "--macs", "2", "--connect-parallel", "1"],
        &p,
    );
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
    let j = read(&p);
    assert_eq!(j["status"], "partial", "a broken length field is never \"ok\"");
    let d = j["disconnects"].as_array().unwrap();
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["kind"], "malformed");
    assert!(d[0]["reason"].as_str().unwrap().contains("length"), "{}", d[0]["reason"]);
    let up = j["switches"].as_array().unwrap().iter().filter(|s| s["disconnect"].is_null() && s["answered"].as_u64().unwrap() > 0).count();
    assert_eq!(up, 2);
}

/// The validator and the schema are not vacuous: every golden result (written at 825aa58)
/// passes, and a document with a section missing, a status not in the list, an unknown
/// parameter or a float where an integer belongs fails.
#[test]
fn the_schema_accepts_the_golden_results_and_refuses_broken_ones() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "json") {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            check_schema(&v).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            n += 1;
        }
    }
    assert!(n >= 10);
    let good: Value = serde_json::from_str(&std::fs::read_to_string(format!("{dir}/throughput.json")).unwrap()).unwrap();
    let broken = |f: &dyn Fn(&mut Value)| {
        let mut v = good.clone();
        f(&mut v);
        check_schema(&v).unwrap_err()
    };
    assert_eq!(broken(&|v| drop(v.as_object_mut().unwrap().remove("totals"))), "$: missing totals");
    assert!(broken(&|v| v["status"] = "fine".into()).contains("$.status"));
    assert!(broken(&|v| v["params"]["bogus"] = 1.into()).contains("unknown field bogus"));
    assert!(broken(&|v| v["totals"]["requests_sent"] = 1.5.into()).contains("$.totals.requests_sent"));
    assert!(broken(&|v| v["network"] = serde_json::json!({"links": 1})).contains("$.network"));
}

/// `sdnbench-engine schema` prints the checked-in schema exactly (the command the stale-schema
/// test names to regenerate it).
#[test]
fn the_schema_command_prints_the_checked_in_schema() {
    let o = common::engine_command().arg("schema").output().unwrap();
    assert!(o.status.success());
    let file = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/schema/engine-result.schema.json")).unwrap();
    assert!(String::from_utf8(o.stdout).unwrap() == file, "sdnbench-engine schema differs from schema/engine-result.schema.json");
}
