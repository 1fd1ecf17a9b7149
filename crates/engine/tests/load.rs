//! Known answers of the load section (issue 42, `result/load.rs`): a controller that drops every
//! tenth echo request gives a keep-alive loss of exactly that tenth; a rate no switch can send
//! reads as offered > sent with the sender named, never as a lower rate of the controller; a
//! rate it can send reads as offered = sent. The controllers are scripted on `ofwire`
//! (`common`).

mod common;

use common::{answer13, controller, greet13, msg_type, read_messages, run_engine, u};
use ofwire::MsgType;
use serde_json::Value;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Echo requests received, dropped, and connections closed, over all connections.
#[derive(Default)]
struct Seen {
    echoes: AtomicU64,
    dropped: AtomicU64,
    closed: AtomicU64,
}

/// A controller answering as `answer13`, except the K-th, 2K-th, ... echo request over all its
/// connections (no reply at all; 0: none dropped).
fn dropping_echoes(k: u64) -> (u16, Arc<Seen>) {
    let seen = Arc::new(Seen::default());
    let s2 = seen.clone();
    let port = controller(move |mut s, _| {
        if !greet13(&mut s) {
            return;
        }
        let mut buf = Vec::new();
        while let Some(msgs) = read_messages(&mut s, &mut buf) {
            let mut out = Vec::new();
            for m in msgs {
                if msg_type(&m) == MsgType::EchoRequest {
                    let n = s2.echoes.fetch_add(1, Ordering::SeqCst) + 1;
                    if k > 0 && n % k == 0 {
                        s2.dropped.fetch_add(1, Ordering::SeqCst);
                        continue;
                    }
                }
                answer13(&m, &mut out);
            }
            if s.write_all(&out).is_err() {
                break;
            }
        }
        s2.closed.fetch_add(1, Ordering::SeqCst);
    });
    (port, seen)
}

fn args(port: u16, extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = ["--controller", &format!("127.0.0.1:{port}"), "--of", "1.3", "--mode", "fixed-rate", "--no-learn"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

fn run(tag: &str, port: u16, extra: &[&str]) -> Value {
    let a = args(port, extra);
    let r = run_engine(tag, &a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    r.json
}

#[test]
fn a_controller_dropping_every_tenth_echo_is_a_tenth_of_keepalive_lost() {
    let (port, seen) = dropping_echoes(10);
    let j = run(
        "echo-drop",
        port,
        &[
            "--switches",
            "4",
            "--rate",
            "40",
            "--echo-every-ms",
            "20",
            "--timeout-ms",
            "300",
            "--loops",
            "2",
            "--loop-ms",
            "500",
            "--warmup",
            "0",
        ],
    );
    let until = Instant::now() + Duration::from_secs(5);
    while seen.closed.load(Ordering::SeqCst) < 4 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    let (echoes, dropped) = (seen.echoes.load(Ordering::SeqCst), seen.dropped.load(Ordering::SeqCst));
    let k = &j["load"]["keepalive"];
    assert!(echoes >= 150, "4 switches x 50/s x 1 s: {echoes}");
    assert_eq!(dropped, echoes / 10, "the peer's own rule");
    assert_eq!(u(k, "sent"), echoes, "every echo sent reached the controller: {k}");
    assert_eq!(u(k, "lost"), dropped, "each dropped echo is lost, none other: {k}");
    assert_eq!(u(k, "answered"), echoes - dropped, "{k}");
    assert_eq!((u(k, "late"), u(k, "in_flight_at_stop")), (0, 0), "{k}");
    let ratio = k["loss_ratio"].as_f64().unwrap();
    assert!((ratio - 0.1).abs() <= 1.0 / echoes as f64, "{ratio}");
    let per_loop: u64 = j["load"]["loops"]["echo_sent"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).sum();
    assert!(per_loop <= echoes && per_loop + 4 >= echoes, "the loops hold the echoes sent in them: {per_loop} of {echoes}");
    assert!(k["p50_us"].as_f64().unwrap() > 0.0);
    // the switches' own counters add up to the section's
    let sw: u64 = j["switches"].as_array().unwrap().iter().map(|s| u(&s["keepalive"], "lost")).sum();
    assert_eq!(sw, dropped);
}

#[test]
fn a_rate_no_switch_can_send_reads_as_offered_above_sent() {
    let (port, _) = dropping_echoes(0);
    let j = run("behind", port, &["--switches", "1", "--rate", "100000000", "--loops", "2", "--loop-ms", "300", "--warmup", "0"]);
    let l = &j["load"];
    let (offered, sent) = (u(l, "offered"), u(l, "sent"));
    assert!((59_000_000..=60_000_001).contains(&offered), "100 M/s over 0.6 s: {offered}");
    assert!(sent < offered / 10, "{sent} of {offered}");
    assert_eq!(sent, u(&j["totals"], "requests_sent"), "{l}");
    assert_eq!(l["sender_kept_up"], false);
    assert!(l["loops"]["backlog"][1].as_u64().unwrap() > 1_000_000, "{l}");
    let w: Vec<&str> = j["warnings"].as_array().unwrap().iter().filter_map(|w| w.as_str()).collect();
    assert!(w.iter().any(|w| w.contains("fell behind") && w.contains(&offered.to_string())), "{w:?}");
}

#[test]
fn a_rate_the_switches_can_send_is_offered_equal_sent_per_loop() {
    let (port, _) = dropping_echoes(0);
    let j = run("kept-up", port, &["--switches", "4", "--rate", "200", "--loops", "3", "--loop-ms", "500", "--warmup", "1"]);
    let l = &j["load"];
    assert_eq!(l["sender_kept_up"], true, "{l}");
    let col = |k: &str| -> Vec<u64> { l["loops"][k].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect() };
    assert_eq!(col("offered").iter().sum::<u64>(), 400, "200/s over 4 loops of 0.5 s: {l}");
    assert_eq!(u(l, "offered"), 300, "the measured loops only");
    for (o, s) in col("offered").iter().zip(col("sent")) {
        assert!(o.abs_diff(s) <= 4, "one per switch at a loop's edge: {o} vs {s}");
    }
    assert_eq!(col("lost").iter().sum::<u64>(), 0);
    assert!(l["loops"]["p99_us"][1].as_f64().unwrap() > 0.0, "{l}");
    assert_eq!(u(&l["keepalive"], "sent"), 0, "no periodic keep-alive asked");
}

/// Packet-ins received, dropped (never answered) and answered only after `DELAY_MS`.
#[derive(Default)]
struct Requests {
    seen: AtomicU64,
    dropped: AtomicU64,
    delayed: AtomicU64,
}

const DELAY_MS: u64 = 450;

/// A controller answering as `answer13`, except the packet-ins numbered 10, 20, ... over all its
/// connections (never answered) and 5, 15, ... (answered `DELAY_MS` later, by another thread).
fn dropping_and_delaying() -> (u16, Arc<Requests>) {
    let seen = Arc::new(Requests::default());
    let s2 = seen.clone();
    let port = controller(move |mut s, _| {
        if !greet13(&mut s) {
            return;
        }
        let w = Arc::new(std::sync::Mutex::new(s.try_clone().unwrap()));
        let mut buf = Vec::new();
        while let Some(msgs) = read_messages(&mut s, &mut buf) {
            let mut out = Vec::new();
            for m in msgs {
                if msg_type(&m) == MsgType::PacketIn {
                    let n = s2.seen.fetch_add(1, Ordering::SeqCst) + 1;
                    if n % 10 == 0 {
                        s2.dropped.fetch_add(1, Ordering::SeqCst);
                        continue;
                    }
                    if n % 10 == 5 {
                        s2.delayed.fetch_add(1, Ordering::SeqCst);
                        let w = w.clone();
                        std::thread::spawn(move || {
                            std::thread::sleep(Duration::from_millis(DELAY_MS));
                            let mut late = Vec::new();
                            answer13(&m, &mut late);
                            let _ = w.lock().unwrap().write_all(&late);
                        });
                        continue;
                    }
                }
                answer13(&m, &mut out);
            }
            if w.lock().unwrap().write_all(&out).is_err() {
                break;
            }
        }
    });
    (port, seen)
}

#[test]
fn the_loops_and_what_came_after_them_close_against_a_controller_that_drops_and_delays() {
    let (port, peer) = dropping_and_delaying();
    let j = run(
        "drop-delay",
        port,
        &["--switches", "4", "--rate", "100", "--timeout-ms", "200", "--loops", "3", "--loop-ms", "500", "--warmup", "0"],
    );
    let (l, a) = (&j["load"], &j["load"]["after_loops"]);
    let sum = |k: &str| -> u64 { l["loops"][k].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).sum() };
    let (seen, dropped, delayed) =
        (peer.seen.load(Ordering::SeqCst), peer.dropped.load(Ordering::SeqCst), peer.delayed.load(Ordering::SeqCst));
    assert!(seen >= 140 && dropped == seen / 10 && delayed >= 14, "100/s over 1.5 s: {seen} {dropped} {delayed}");
    let sent = sum("sent") + u(a, "sent");
    assert_eq!(sent, seen, "every request reached the controller: {l}");
    assert_eq!(sent, u(&j["totals"], "requests_sent"));
    // every request is answered in time, or lost (timed out; some of those answered late), or
    // still within its timeout at the stop: the loops and the drain add up to what was sent
    let answered = sum("answered") + u(a, "answered");
    let lost = sum("lost") + u(a, "lost");
    assert_eq!(sent, answered + lost + u(a, "in_flight_at_stop"), "{l}");
    assert_eq!(answered, seen - dropped - delayed, "the peer answered the rest at once: {l}");
    assert_eq!(lost + u(a, "in_flight_at_stop"), dropped + delayed, "{l}");
    // a loop's `lost` is every request that timed out in it, answered late afterwards or not:
    // after the loops only those of the last 200 ms time out (were it net of the late answers,
    // as it once was, the drain's `lost` would carry every late answer of the loops)
    assert!(u(a, "lost") * 3 <= dropped + delayed, "{a} of {dropped} + {delayed}");
    let late = sum("late") + u(a, "late");
    assert!(late >= 1 && late <= delayed && late <= lost, "a late answer is of a lost request: {late} {l}");
    assert_eq!(late, u(&j["totals"], "late_replies"), "{l}");
}
