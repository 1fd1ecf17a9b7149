//! Known answer of a queue that must drain (issue 50): a scripted controller that stalls once,
//! for `STALL_MS`, holding every message that arrives meanwhile and answering them all at its
//! end, then answers at once again. Under a fixed-rate load with a periodic keep-alive:
//! - **the queue drains**: from the second loop after the one the stall ends in, every loop answers what
//!   it sent (within 2% + 5: the requests in flight at a boundary), nothing is late or lost (the
//!   stall is shorter than the loss timeout) and the sender kept its schedule;
//! - **a standing queue costs no extra wake-ups**: in every loop but the last (where each session
//!   wakes for the phase's end) a session's timer woke it only to send a request or an echo, or
//!   to time one out: `timer_turns ≤ sent + echo_sent + lost` (+ 2% + 10). A loss timer that
//!   ticked every timeout / 4 while a request was pending (the engine before issue 50) woke each
//!   switch about twice more per request held in the stall, and fails this.
//!
//! The same stall, **longer than the loss timeout** (500 ms): what is sent in it is lost, then
//! answered late. The queue still drains, and a lost request costs the one wake-up of its loss
//! timer, no more: `timer_turns ≤ sent + echo_sent + lost + echo_lost` (+ 2% + 10). The engine
//! before this bound took one more turn at once after every loss, to let the pacer send into the
//! freed slot, also for a fixed rate, whose schedule does not wait for slots: two wake-ups per lost
//! request, so that the engine's work per request grew as soon as answers were late (issue 50:
//! the collapse at 1,000,000 switches, where a switch has about one request in flight).
//!
//! Counts, not times: the bounds hold on a machine of any speed that can carry 500 requests/s.

mod common;

use common::{answer13, controller, greet13, msg_type, read_messages};
use ofwire::MsgType;
use serde_json::Value;
use std::io::Write;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

const STALL_AFTER_MS: u64 = 1_200;
const STALL_MS: u64 = 1_500;
/// The loss timeout of the second test: a third of the stall.
const SHORT_TIMEOUT_MS: u64 = 500;

/// A controller answering as `answer13`; messages read from `STALL_AFTER_MS` after the first
/// packet-in (over all connections) until `STALL_MS` later are answered at the stall's end.
fn stalling_once() -> u16 {
    let first: Arc<OnceLock<Instant>> = Arc::new(OnceLock::new());
    controller(move |mut s, _| {
        if !greet13(&mut s) {
            return;
        }
        let mut buf = Vec::new();
        while let Some(msgs) = read_messages(&mut s, &mut buf) {
            if !msgs.iter().any(|m| msg_type(m) == MsgType::PacketIn) && first.get().is_none() {
                let mut out = Vec::new();
                msgs.iter().for_each(|m| answer13(m, &mut out));
                if s.write_all(&out).is_err() {
                    break;
                }
                continue;
            }
            let t0 = *first.get_or_init(Instant::now);
            let (from, to) = (t0 + Duration::from_millis(STALL_AFTER_MS), t0 + Duration::from_millis(STALL_AFTER_MS + STALL_MS));
            let now = Instant::now();
            if now >= from && now < to {
                std::thread::sleep(to - now);
            }
            let mut out = Vec::new();
            msgs.iter().for_each(|m| answer13(m, &mut out));
            if s.write_all(&out).is_err() {
                break;
            }
        }
    })
}

fn col(l: &Value, path: &[&str]) -> Vec<u64> {
    let v = path.iter().fold(l, |v, k| &v[*k]);
    v.as_array().unwrap_or_else(|| panic!("{path:?} in {l}")).iter().map(|x| x.as_u64().unwrap()).collect()
}

/// The engine's load result under `stalling_once`, with a fixed loss timeout of `timeout_ms`.
fn stalled_run(timeout_ms: u64) -> Value {
    let port = stalling_once();
    let timeout = timeout_ms.to_string();
    let args = [
        "--controller",
        &format!("127.0.0.1:{port}"),
        "--of",
        "1.3",
        "--mode",
        "fixed-rate",
        "--no-learn",
        "--switches",
        "500",
        "--rate",
        "500",
        "--echo-every-ms",
        "2000",
        "--timeout-ms",
        &timeout,
        "--fixed-timeout",
        "--loops",
        "7",
        "--loop-ms",
        "1000",
        "--warmup",
        "0",
    ];
    let r = common::run_engine("stall", &args);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    r.json["load"].clone()
}

/// The stall's premise (some loop answered well under what it sent), then the queue drained
/// from the fifth loop on (the stall ends 2.7 s after the first packet-in, in the third loop).
fn assert_drained(l: &Value) {
    let loops = &l["loops"];
    let (sent, answered) = (col(loops, &["sent"]), col(loops, &["answered"]));
    assert_eq!(l["sender_kept_up"], true, "{l}");
    assert!(sent.iter().zip(&answered).any(|(s, a)| *a + s / 4 < *s), "no stall seen: sent {sent:?} answered {answered:?}");
    for k in 4..sent.len() {
        assert!(sent[k].abs_diff(answered[k]) <= sent[k] / 50 + 5, "loop {k} not drained: sent {sent:?} answered {answered:?}");
    }
}

/// In every loop but the last, timer wake-ups ≤ sends + time-outs (+ 2% + 10).
fn assert_no_extra_wake_ups(l: &Value) {
    let loops = &l["loops"];
    let (sent, echo_sent, lost, echo_lost) =
        (col(loops, &["sent"]), col(loops, &["echo_sent"]), col(loops, &["lost"]), col(loops, &["echo_lost"]));
    let timer_turns = col(loops, &["trace", "timer_turns"]);
    for k in 0..sent.len() - 1 {
        let due = sent[k] + echo_sent[k] + lost[k] + echo_lost[k];
        assert!(timer_turns[k] <= due + due / 50 + 10, "loop {k}: {} timer wake-ups for {due} sends and time-outs: {l}", timer_turns[k]);
    }
}

#[test]
fn a_queue_left_by_a_stall_drains_and_costs_no_extra_wake_ups() {
    let l = stalled_run(2_000);
    let (late, lost) = (col(&l["loops"], &["late"]), col(&l["loops"], &["lost"]));
    assert_eq!((late.iter().sum::<u64>(), lost.iter().sum::<u64>()), (0, 0), "the stall is shorter than the timeout: {l}");
    assert_eq!(l["keepalive"]["lost"].as_u64(), Some(0), "{l}");
    assert_drained(&l);
    assert_no_extra_wake_ups(&l);
}

#[test]
fn requests_lost_in_a_stall_cost_one_wake_up_each_and_the_queue_drains() {
    let l = stalled_run(SHORT_TIMEOUT_MS);
    let (late, lost) = (col(&l["loops"], &["late"]), col(&l["loops"], &["lost"]));
    // the stall holds three timeouts' worth: most of what it holds is lost, then answered late
    assert!(lost.iter().sum::<u64>() > 250 && late.iter().sum::<u64>() > 250, "no loss in the stall: {l}");
    assert!(l["keepalive"]["lost"].as_u64().unwrap() > 100, "no echo lost in the stall: {l}");
    for (k, n) in lost.iter().enumerate().skip(4) {
        assert_eq!(*n, 0, "loop {k}: lost after the stall: {l}");
    }
    assert_drained(&l);
    assert_no_extra_wake_ups(&l);
}
