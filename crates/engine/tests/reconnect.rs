//! Reconnection as Open vSwitch does it (`src/switch/reconnect.rs`), against a scripted controller
//! written here (std threads; its messages from ofwire, `tests/common`) that closes the first N sessions as soon as they are up,
//! goes silent, or stops listening for a while. It records when each connection was accepted:
//! the gaps are the backoff, a known answer (OVS: 1 s doubling to `max_backoff`; here the first
//! wait is 100 ms, so a test takes about a second).

mod common;

use common::u;
use ofwire::MsgType;
use serde_json::Value;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the controller does with the connection accepted in position `nth`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Conn {
    /// Answer every packet-in with a flow-mod naming its buffer id; answer echoes.
    Serve,
    /// Close as soon as the switch's features reply arrives (the session is up).
    CloseWhenUp,
    /// This many ms after the handshake, read everything and answer nothing, echo included.
    Silent(u64),
    /// Accept the connection and never answer, not even HELLO (a controller whose accept queue
    /// is served but whose process hangs).
    Mute,
}

struct Peer {
    port: u16,
    /// When each connection was accepted.
    accepts: Arc<Mutex<Vec<Instant>>>,
}

/// Connections `0..script.len()` follow `script`; later ones `Serve`. With `down_for`, the
/// listener is closed after the first connection ends and opened again that much later (the
/// controller killed and restarted): attempts in between are refused.
fn peer(script: Vec<Conn>, down_for: Option<Duration>) -> Peer {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let accepts = Arc::new(Mutex::new(Vec::new()));
    let acc = accepts.clone();
    std::thread::spawn(move || {
        let mut l = Some(l);
        let mut nth = 0;
        loop {
            let Ok((s, _)) = l.as_ref().unwrap().accept() else { return };
            acc.lock().unwrap().push(Instant::now());
            let what = script.get(nth).copied().unwrap_or(Conn::Serve);
            nth += 1;
            match down_for {
                Some(d) if nth == 1 => {
                    serve(s, what);
                    drop(l.take()); // killed: refused from now on
                    std::thread::sleep(d);
                    l = Some(TcpListener::bind(("127.0.0.1", port)).unwrap());
                }
                _ => {
                    std::thread::spawn(move || serve(s, what));
                }
            }
        }
    });
    Peer { port, accepts }
}

fn serve(mut s: TcpStream, what: Conn) {
    if what == Conn::Mute {
        let mut sink = [0u8; 4096];
        while matches!(s.read(&mut sink), Ok(n) if n > 0) {}
        return;
    }
    s.set_read_timeout(Some(Duration::from_millis(20))).unwrap();
    if !common::greet13(&mut s) {
        return;
    }
    let (mut buf, mut up) = (Vec::new(), None::<Instant>);
    while let Some(messages) = common::read_messages(&mut s, &mut buf) {
        let mut out = Vec::new();
        for m in messages {
            if common::msg_type(&m) == MsgType::FeaturesReply {
                up = Some(Instant::now());
                if what == Conn::CloseWhenUp {
                    return; // dropping the stream closes it
                }
            }
            if let (Conn::Silent(ms), Some(t)) = (what, up) {
                if t.elapsed() >= Duration::from_millis(ms) {
                    continue;
                }
            }
            common::answer13(&m, &mut out);
        }
        if s.write_all(&out).is_err() {
            return;
        }
    }
}

fn engine(port: u16, extra: &[&str]) -> (Option<i32>, Value) {
    let controller = format!("127.0.0.1:{port}");
    let mut args = vec!["--controller", &controller, "--of", "1.3", "--no-learn", "--macs", "4"];
    args.extend_from_slice(extra);
    let r = common::run_engine("reconnect", &args);
    (r.code, r.json)
}

/// One switch, `loops` loops of 300 ms without warm-up, and `extra`.
fn one_switch(port: u16, loops: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let mut args = vec!["--switches", "1", "--loops", loops, "--loop-ms", "300", "--warmup", "0"];
    args.extend_from_slice(extra);
    engine(port, &args)
}

/// The written invariants (SCHEMA.md), per switch and in total.
fn invariants(j: &Value) {
    let t = &j["totals"];
    assert_eq!(
        u(t, "requests_sent"),
        u(t, "requests_answered") + u(t, "late_replies") + u(t, "requests_lost") + u(t, "requests_in_flight_at_stop"),
        "{t}"
    );
    assert_eq!(u(t, "sessions_lost"), u(t, "reconnects") + u(t, "switches_down_at_stop"), "{t}");
    assert_eq!(u(t, "reconnect_attempts"), u(t, "reconnects") + u(t, "reconnect_failures"), "{t}");
    assert_eq!(t["disconnected_ms"].as_f64().unwrap() > 0.0, u(t, "sessions_lost") > 0, "{t}");
    for s in j["switches"].as_array().unwrap() {
        let r = &s["reconnect"];
        assert_eq!(u(r, "sessions_lost"), u(r, "reconnects") + r["down_at_stop"].as_bool().unwrap() as u64, "{r}");
        assert_eq!(u(r, "attempts"), u(r, "reconnects") + u(r, "failures"), "{r}");
    }
    if j["params"]["mode"] != "fixed-rate" {
        assert_eq!(u(t, "requests_not_sent_disconnected"), 0, "a closed loop has nothing due while down");
    }
}

/// Gaps between accepts, in ms.
fn gaps(p: &Peer) -> Vec<f64> {
    let a = p.accepts.lock().unwrap();
    a.windows(2).map(|w| (w[1] - w[0]).as_secs_f64() * 1e3).collect()
}

/// Each gap between accepts is at least its wait (exact: nothing reconnects early) and less than
/// the next one: a backoff that did not double, or doubled twice, fails; a machine that wakes the
/// engine late by less than the step does not.
fn doubling(g: &[f64], want: &[f64]) {
    for (k, (gap, w)) in g.iter().zip(want).enumerate() {
        let next = want.get(k + 1).copied().unwrap_or(2.0 * w);
        assert!(*gap >= *w && *gap < next, "gap {gap:.0} ms, want {w} ms (before {next} ms): {g:?}");
    }
}

#[test]
fn a_controller_closing_each_session_is_retried_with_a_doubling_backoff() {
    // 3 sessions closed as soon as they are up: waits 100, 200, 400 ms (max 400), then it stays
    let p = peer(vec![Conn::CloseWhenUp; 3], None);
    let (code, j) = one_switch(p.port, "4", &["--reconnect-backoff-ms", "100", "--max-backoff-ms", "400"]);
    invariants(&j);
    let g = gaps(&p);
    assert_eq!(g.len(), 3, "{g:?}");
    doubling(&g, &[100.0, 200.0, 400.0]);
    let t = &j["totals"];
    assert_eq!((u(t, "sessions_lost"), u(t, "reconnects"), u(t, "reconnect_attempts"), u(t, "switches_down_at_stop")), (3, 3, 3, 0), "{t}");
    // down for the backoffs at least, and less than if each had been the next step (as doubling())
    let down = t["disconnected_ms"].as_f64().unwrap();
    assert!((700.0..1400.0).contains(&down), "disconnected {down} ms; backoff 700 ms; gaps {g:?}");
    assert!(j["switches"][0]["answered_per_loop"][3].as_u64().unwrap() > 0, "answered again in the last loop");
    // lost sessions make the run partial, even when they came back: its figure carries the cost
    assert_eq!(j["status"], "partial", "{}", j["error"]);
    assert!(j["error"].as_str().unwrap().contains("1 session(s) lost (1 of them re-established by the end)"), "{}", j["error"]);
    assert_eq!(code, Some(2));
    assert!(j["warnings"].as_array().unwrap().iter().any(|w| w.as_str().unwrap().contains("3 reconnects")), "{}", j["warnings"]);
}

#[test]
fn a_reconnection_whose_handshake_never_comes_is_given_up_as_ovs_does() {
    // session 0 closed when up; attempts 1 and 2 are accepted but never answered: each is given
    // up after MAX(first, backoff) (OVS timeout_CONNECTING), not after connect_timeout_ms
    // (10 s), and counts as failed, so the backoff doubles (OVS: backoff_deadline = TIME_MAX):
    // accepts 100 ms apart (the backoff), then 100 + 200, then 200 + 400; attempt 3 serves
    let p = peer(vec![Conn::CloseWhenUp, Conn::Mute, Conn::Mute], None);
    let (_, j) = one_switch(p.port, "6", &["--reconnect-backoff-ms", "100", "--max-backoff-ms", "400"]);
    invariants(&j);
    let g = gaps(&p);
    assert_eq!(g.len(), 3, "{g:?}");
    doubling(&g, &[100.0, 300.0, 600.0]);
    let t = &j["totals"];
    assert_eq!((u(t, "reconnect_attempts"), u(t, "reconnects"), u(t, "reconnect_failures")), (3, 1, 2), "{t}");
}

#[test]
fn reconnect_off_keeps_a_lost_session_lost() {
    let p = peer(vec![Conn::CloseWhenUp; 3], None);
    let (code, j) = one_switch(p.port, "3", &["--reconnect", "off"]);
    invariants(&j);
    assert_eq!(p.accepts.lock().unwrap().len(), 1);
    let t = &j["totals"];
    assert_eq!((u(t, "sessions_lost"), u(t, "reconnects"), u(t, "reconnect_attempts"), u(t, "switches_down_at_stop")), (1, 0, 0, 1), "{t}");
    assert_eq!(j["reconnect"]["on"], false);
    assert_eq!(j["status"], "failed");
    assert_eq!(code, Some(2));
}

#[test]
fn an_echo_silent_controller_is_dropped_after_two_probe_intervals_and_retried() {
    // OVS's inactivity probe: idle 100 ms -> echo; no answer for 100 ms more -> disconnect;
    // then the first backoff (100 ms): the second connection comes about 300 ms after the first
    let p = peer(vec![Conn::Silent(0)], None);
    let (_, j) = one_switch(p.port, "3", &["--echo-interval-ms", "100", "--reconnect-backoff-ms", "100"]);
    invariants(&j);
    let g = gaps(&p);
    assert_eq!(g.len(), 1, "{g:?}");
    assert!(g[0] >= 300.0 && g[0] < 400.0, "{g:?}");
    assert_eq!(j["disconnects"][0]["kind"], "timeout", "{}", j["disconnects"]);
    let t = &j["totals"];
    assert_eq!((u(t, "sessions_lost"), u(t, "reconnects")), (1, 1), "{t}");
    assert_eq!(j["status"], "partial", "{}", j["error"]);
}

#[test]
fn a_controller_killed_and_restarted_is_found_again_after_refused_attempts() {
    // down for 500 ms after the first session: attempts at +100 (refused), +300 (refused,
    // waited 200), +700 (waited 400: up) -> 2 failures, 1 reconnect
    let p = peer(vec![Conn::CloseWhenUp], Some(Duration::from_millis(500)));
    let (_, j) = one_switch(p.port, "4", &["--reconnect-backoff-ms", "100", "--max-backoff-ms", "800"]);
    invariants(&j);
    let t = &j["totals"];
    assert_eq!((u(t, "reconnect_attempts"), u(t, "reconnect_failures"), u(t, "reconnects")), (3, 2, 1), "{t}");
    let g = gaps(&p);
    assert_eq!(g.len(), 1);
    assert!(g[0] >= 700.0 && g[0] < 800.0, "{g:?}");
}

#[test]
fn fixed_rate_requests_due_while_down_are_counted_not_sent() {
    // 1,000/s on one switch; the controller answers for 400 ms after the handshake (the load
    // starts about 200 ms in), then goes silent: probe at +100 ms, lost at +200 ms (those
    // requests were sent, and are lost), retried 300 ms later: what was due meanwhile is not sent
    let p = peer(vec![Conn::Silent(400)], None);
    let (_, j) =
        one_switch(p.port, "4", &["--mode", "fixed-rate", "--rate", "1000", "--echo-interval-ms", "100", "--reconnect-backoff-ms", "300"]);
    invariants(&j);
    let t = &j["totals"];
    let not_sent = u(t, "requests_not_sent_disconnected");
    // down from the probe timeout (≈ 200 ms after the last message) to the reconnect 300 ms
    // later, plus the new handshake: 300-340 requests at 1/ms
    assert!((295..360).contains(&not_sent), "{not_sent} not sent; {t}");
    // sent + not sent = the schedule: 1,000/s over the 1.2 s of loops
    let due = u(t, "requests_sent") + not_sent;
    assert!((1195..=1205).contains(&due), "{due} due; {t}");
}

/// Network mode, linear 2 with a host on each switch sending to the other every 20 ms; the
/// controller installs nothing and closes every session as soon as it is up, so the switches
/// are disconnected all run long. Fail mode `secure`: a 1.3 miss is dropped, nothing is
/// delivered. `standalone`: 3 × the probe interval (100 ms) after the loss the switches fail
/// open and forward as L2 learning switches (OVS `fail-open.c`): the hosts' frames arrive.
fn fail_mode_run(mode: &str) -> Value {
    let p = peer(vec![Conn::CloseWhenUp; 1000], None);
    let net = serde_json::json!({
        "spec": "linear,2",
        "switches": [{"dpid": 1, "ports": 2}, {"dpid": 2, "ports": 2}],
        "links": [[1, 2, 2, 1]],
        "hosts": [{"dpid": 1, "port": 1, "mac": "02:00:00:00:00:01", "ip": "10.0.0.1"},
                  {"dpid": 2, "port": 2, "mac": "02:00:00:00:00:02", "ip": "10.0.0.2"}],
        "host_traffic_ms": 20,
    });
    let f = std::env::temp_dir().join(format!("sdnbench-reconnect-net-{}-{mode}.json", std::process::id()));
    std::fs::write(&f, net.to_string()).unwrap();
    let (_, j) = engine(
        p.port,
        &[
            "--mode",
            "network",
            "--network",
            f.to_str().unwrap(),
            "--loops",
            "2",
            "--loop-ms",
            "500",
            "--warmup",
            "0",
            "--settle-ms",
            "0",
            "--echo-interval-ms",
            "100",
            "--fail-mode",
            mode,
            "--reconnect-backoff-ms",
            "5000",
        ],
    );
    let _ = std::fs::remove_file(&f);
    j
}

#[test]
fn disconnected_secure_switches_drop_and_standalone_ones_fail_open() {
    let secure = fail_mode_run("secure");
    let standalone = fail_mode_run("standalone");
    invariants(&secure);
    invariants(&standalone);
    let delivered = |j: &Value| j["network"]["hosts"]["delivered"].as_u64().unwrap();
    let injected = |j: &Value| j["network"]["hosts"]["injected"].as_u64().unwrap();
    assert!(injected(&secure) > 20 && injected(&standalone) > 20, "{} {}", secure["network"]["hosts"], standalone["network"]["hosts"]);
    assert_eq!(delivered(&secure), 0, "secure: no controller, no flows, misses dropped: {}", secure["network"]["hosts"]);
    // fail-open from about 300 ms after the loss of a 1 s run: most frames after it arrive
    assert!(delivered(&standalone) * 2 > injected(&standalone), "standalone: {}", standalone["network"]["hosts"]);
    assert_eq!(standalone["reconnect"]["fail_mode"], "standalone");
}
