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
use std::sync::mpsc;
use std::time::{Duration, Instant};

const DELAY_MS: u64 = 1200;

/// A controller answering every packet-in `DELAY_MS` after it read it (one writer thread per
/// connection, in order), and everything else at once.
fn delaying() -> u16 {
    controller(|mut s: TcpStream, _| {
        if !greet13(&mut s) {
            return;
        }
        let (tx, rx) = mpsc::channel::<(Instant, Vec<u8>)>();
        let mut w = s.try_clone().unwrap();
        std::thread::spawn(move || {
            for (due, bytes) in rx {
                std::thread::sleep(due.saturating_duration_since(Instant::now()));
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
                if msg_type(&m) == MsgType::PacketIn {
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
    })
}

#[test]
fn a_request_of_the_last_loop_has_its_whole_timeout_in_the_drain() {
    let port = delaying();
    let controller = format!("127.0.0.1:{port}");
    let mut args = vec!["--controller", &controller, "--of", "1.3", "--mode", "fixed-rate", "--no-learn"];
    args.extend("--switches 4 --rate 100 --fixed-timeout --timeout-ms 1500 --loops 3 --loop-ms 500 --warmup 0".split(' '));
    let r = run_engine("drain", &args);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let (l, a, t) = (&r.json["load"], &r.json["load"]["after_loops"], &r.json["totals"]);
    let sum = |k: &str| -> u64 { l["loops"][k].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).sum() };
    let sent = u(t, "requests_sent");
    assert!(sent >= 140, "100/s over 1.5 s: {sent}");
    // the answers of the last 1.2 s come in the drain, after the loops
    assert!(u(a, "answered") >= 100, "{a}");
    assert_eq!((u(a, "in_flight_at_stop"), sum("lost") + u(a, "lost"), sum("late") + u(a, "late")), (0, 0, 0), "{l}");
    assert_eq!(sum("answered") + u(a, "answered"), sent, "{l}");
}
