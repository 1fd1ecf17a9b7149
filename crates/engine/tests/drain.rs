//! Known answer of the drain after the last loop (issue 50, `Shared::drain_end_ns`): it lasts
//! the loss timeout, so a request of the last loop has its whole timeout before the run ends.
//! Against a scripted controller that answers every packet-in `DELAY_MS` after it came, with a
//! fixed timeout above the delay, every request is answered, none late, none lost, none left in
//! flight. When the drain stopped at 1 s, the requests of the last `DELAY_MS` − 1 s (about 20
//! here) were still in flight at the stop, not yet shown lost, and `bench.py held` read the run
//! as not held.

mod common;

use common::{answer13, controller, flow_mod_for, greet13, msg_type, read_messages, run_engine, u};
use ofwire::MsgType;
use std::io::Write;
use std::net::TcpStream;
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

const DELAY_MS: u64 = 1200;

/// When a connection's events happened: its last delayed answer's write began; it closed.
#[derive(Default)]
struct Times {
    last_delayed: Option<Instant>,
    closed: Vec<(usize, Instant)>,
}

/// A controller answering every packet-in `DELAY_MS` after it read it on the connections
/// `delays(nth)` names (one writer thread per connection, in order), at once on the others, and
/// everything else at once; what happened when, in `times`.
fn delaying(delays: fn(usize) -> bool, times: Arc<Mutex<Times>>) -> u16 {
    controller(move |mut s: TcpStream, nth| {
        if !greet13(&mut s) {
            return;
        }
        let (tx, rx) = mpsc::channel::<(Instant, Vec<u8>)>();
        let mut w = s.try_clone().unwrap();
        let t = times.clone();
        std::thread::spawn(move || {
            for (due, bytes) in rx {
                std::thread::sleep(due.saturating_duration_since(Instant::now()));
                t.lock().unwrap().last_delayed = Some(Instant::now());
                if w.write_all(&bytes).is_err() {
                    return;
                }
            }
        });
        let mut now_w = s.try_clone().unwrap();
        let mut buf = Vec::new();
        while let Some(msgs) = read_messages(&mut s, &mut buf) {
            for m in msgs {
                let mut out = Vec::new();
                if msg_type(&m) == MsgType::PacketIn && delays(nth) {
                    flow_mod_for(&m, &mut out);
                    let _ = tx.send((Instant::now() + Duration::from_millis(DELAY_MS), out));
                } else {
                    answer13(&m, &mut out);
                    if now_w.write_all(&out).is_err() {
                        return;
                    }
                }
            }
        }
        times.lock().unwrap().closed.push((nth, Instant::now()));
    })
}

/// Every request of the run answered, none late, lost or in flight at the stop.
fn all_answered(r: &common::Run) {
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let (l, a, t) = (&r.json["load"], &r.json["load"]["after_loops"], &r.json["totals"]);
    let sum = |k: &str| -> u64 { l["loops"][k].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).sum() };
    assert_eq!((u(a, "in_flight_at_stop"), sum("lost") + u(a, "lost"), sum("late") + u(a, "late")), (0, 0, 0), "{l}");
    assert_eq!(sum("answered") + u(a, "answered"), u(t, "requests_sent"), "{l}");
}

#[test]
fn a_request_of_the_last_loop_has_its_whole_timeout_in_the_drain() {
    let port = delaying(|_| true, Default::default());
    let controller = format!("127.0.0.1:{port}");
    let mut args = vec!["--controller", &controller, "--of", "1.3", "--mode", "fixed-rate", "--no-learn"];
    args.extend("--switches 4 --rate 100 --fixed-timeout --timeout-ms 1500 --loops 3 --loop-ms 500 --warmup 0".split(' '));
    let r = run_engine("drain", &args);
    let sent = u(&r.json["totals"], "requests_sent");
    assert!(sent >= 140, "100/s over 1.5 s: {sent}");
    // the answers of the last 1.2 s come in the drain, after the loops
    assert!(u(&r.json["load"]["after_loops"], "answered") >= 100, "{}", r.json["load"]);
    all_answered(&r);
}

/// One switch's answers come `DELAY_MS` late, the other three's at once: the three keep their
/// connections until the slow one's last answer has come (its write began before any of them
/// closed), and the run does not wait for the drain's bound once all are settled.
#[test]
fn a_settled_session_keeps_its_connection_until_its_workers_drain_is_over() {
    let times = Arc::new(Mutex::new(Times::default()));
    let port = delaying(|nth| nth == 0, times.clone());
    let controller = format!("127.0.0.1:{port}");
    let mut args = vec!["--controller", &controller, "--of", "1.3", "--mode", "fixed-rate", "--no-learn", "--workers", "1"];
    args.extend("--switches 4 --rate 100 --fixed-timeout --timeout-ms 3000 --loops 3 --loop-ms 500 --warmup 0".split(' '));
    let r = run_engine("drain-settled", &args);
    all_answered(&r);
    let t = times.lock().unwrap();
    let last = t.last_delayed.expect("the slow switch was answered");
    assert_eq!(t.closed.len(), 4, "every connection closed");
    for &(nth, at) in t.closed.iter().filter(|c| c.0 != 0) {
        assert!(at >= last, "connection {nth} closed {:?} before the slow switch's last answer", last - at);
    }
    // stopped once all were settled, not at the drain's bound (3 s after the loops)
    let spread = t.closed.iter().map(|c| c.1).max().unwrap() - last;
    assert!(spread < Duration::from_millis(1000), "the last close came {spread:?} after the last answer");
}
