//! The session's phases under paused time (`start_paused`): one real `Session` over a loopback
//! socket, against a scripted controller written with `ofwire`, in the test's own runtime. Time
//! moves only when every task waits, straight to the next timer, so a rate, a keep-alive period,
//! a loss timeout and a backoff give exact known answers in virtual time, in milliseconds of
//! real time. The test plays the driver (`driver/requests.rs`): it waits for the session to come
//! up, gives the go, and waits for it to finish.
//!
//! Each test checks the written invariants of the counters it touches (`accounting.rs`:
//! `sent = answered + late + lost + discarded + in_flight_at_stop`, `sessions_lost = reconnects +
//! down_at_stop`, `attempts = reconnects + failures`; `keepalive.rs`: `sent = answered + lost +
//! in_flight_at_stop`).

use super::socket::open;
use super::Session;
use crate::config::{Config, Mode};
use crate::switch::accounting::{SessionState, SwitchStats};
use crate::switch::shared::Shared;
use ofwire::header::Header;
use ofwire::{Body, FlowMod, Hello, Message, Version};
use std::cell::RefCell;
use std::rc::Rc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::{spawn_local, JoinHandle, LocalSet};
use tokio::time::{sleep, Duration, Instant};

const MS: Duration = Duration::from_millis(1);

/// `at` is `due` or at most one timer tick (1 ms) after it (see `Rig::go`).
fn on_tick_after(at: Duration, due: Duration) -> bool {
    at >= due && at <= due + MS
}

/// The controller's end of one connection: whole messages in, messages out.
struct Peer {
    s: TcpStream,
    buf: Vec<u8>,
}

impl Peer {
    /// The next whole message, or None when the switch closed the connection.
    async fn next(&mut self) -> Option<Message> {
        loop {
            if self.buf.len() >= ofwire::HEADER_LEN {
                let n = (Header::new_unchecked(&self.buf).length() as usize).max(ofwire::HEADER_LEN);
                if self.buf.len() >= n {
                    let m: Vec<u8> = self.buf.drain(..n).collect();
                    return Some(Message::parse(&m).expect("the switch sends what ofwire reads"));
                }
            }
            let mut chunk = [0u8; 65536];
            match self.s.read(&mut chunk).await {
                Ok(0) | Err(_) => return None,
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
            }
        }
    }

    async fn send(&mut self, m: Message) {
        self.s.write_all(&m.to_vec()).await.expect("the switch is there");
    }

    /// The handshake from the controller's side: the switch's HELLO, `delay`, our `hello` and a
    /// FEATURES_REQUEST (xid 2) at `hello`'s version, the switch's FEATURES_REPLY. Returns both.
    async fn greet(&mut self, hello: Message, delay: Duration) -> (Message, Message) {
        let theirs = self.next().await.expect("the switch's HELLO");
        sleep(delay).await;
        let v = if hello.version == 1 { Version::V10 } else { Version::V13 };
        self.send(hello).await;
        self.send(Message::new(v, 2, Body::FeaturesRequest)).await;
        let features = self.next().await.expect("the switch's FEATURES_REPLY");
        (theirs, features)
    }

    /// Answer a packet-in as a controller does: a flow-mod naming its buffer id.
    async fn answer(&mut self, m: &Message) {
        let Body::PacketIn(p) = &m.body else { return };
        let fm = FlowMod { buffer_id: p.buffer_id, ..FlowMod::default() };
        self.send(Message::new(Version::V13, 9, Body::FlowMod(fm))).await;
    }
}

/// The 1.3 controller's HELLO (offering 1.0 and 1.3).
fn hello13() -> Message {
    Message::new(Version::V13, 1, Body::Hello(Hello::with_versions(&[1, 4])))
}

/// One switch's session, started against a listener of the test's.
struct Rig {
    sh: Rc<Shared>,
    stats: Rc<RefCell<SwitchStats>>,
    listener: TcpListener,
}

impl Rig {
    /// Switch 0 of 1 under `cfg`, connecting to a fresh loopback listener.
    async fn start(cfg: Config) -> Rig {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let cfg = Config { controllers: vec![addr.to_string()], switches: 1, ..cfg };
        let sh = Rc::new(Shared::new(cfg, 1));
        let stats = Rc::new(RefCell::new(SwitchStats::new(0, sh.cfg.first_dpid, false)));
        let (sh2, st2) = (sh.clone(), stats.clone());
        spawn_local(async move {
            let s = open(&sh2, addr, 0, sh2.cfg.connect_timeout_ms * 1_000_000).await;
            Session::new(sh2, st2, 0, 0).run(s, addr).await;
        });
        Rig { sh, stats, listener }
    }

    async fn accept(&self) -> Peer {
        let (s, _) = self.listener.accept().await.unwrap();
        s.set_nodelay(true).unwrap();
        Peer { s, buf: Vec::new() }
    }

    async fn up(&self) {
        let sh = &self.sh;
        assert!(sh.wait_until(|| sh.up_count() == 1, Some(Instant::now() + Duration::from_secs(60))).await, "the session came up");
    }

    /// The go (a fixed-rate run's groups released as the driver does); returns its instant.
    ///
    /// tokio's timers fire on whole milliseconds (a deadline is rounded up to the next one), and
    /// the engine's clock counts from 1 ns (`Shared::now_ns`), so a deadline computed on a whole
    /// millisecond of paused time falls 1 ns past it and fires a millisecond later: a scheduled
    /// send leaves on its due tick or the next (a 1 ms rate goes out in pairs every 2 ms here;
    /// in real time the go falls between ticks). The tests allow exactly that one tick.
    async fn go(&self) -> Instant {
        self.sh.go(0);
        let sh = self.sh.clone();
        spawn_local(async move { sh.release_staggered().await });
        Instant::now()
    }

    /// Wait until the session's drain is over as its worker sees it: it ended, or it is settled
    /// (nothing left in flight: it keeps its connection, `drain.rs`); the instant it was.
    async fn settled(&self) -> Instant {
        let sh = &self.sh;
        sh.wait_until(|| sh.all_settled(1), None).await;
        Instant::now()
    }

    /// `settled`, then the worker's stop (as the driver does) and the session's end; the
    /// instant its drain was over.
    async fn finished(&self) -> Instant {
        let at = self.settled().await;
        let sh = &self.sh;
        if sh.finished_count() < 1 {
            sh.stop_all();
            sh.wait_until(|| sh.finished_count() == 1, None).await;
        }
        at
    }

    /// `accounting.rs`'s request invariant.
    fn check_request_invariant(&self) {
        let s = self.stats.borrow();
        assert_eq!(
            s.requests.sent,
            s.requests.answered + s.requests.late + s.requests.lost + s.requests.discarded + s.requests.in_flight_at_stop,
            "request invariant: {s:?}"
        );
    }
}

/// A fixed-rate run of one switch: `rate` requests/s for one loop of `loop_ms`, no warm-up,
/// no settling, no learning, a fixed loss timeout of `timeout_ms`.
fn fixed_rate(rate: f64, loop_ms: u64, timeout_ms: u64) -> Config {
    Config {
        mode: Mode::FixedRate,
        rate,
        loops: 1,
        warmup: 0,
        loop_ms,
        settle_ms: 0,
        learn: false,
        adaptive_timeout: false,
        timeout_ms,
        ..Config::default()
    }
}

async fn local<F: std::future::Future<Output = ()>>(f: F) {
    LocalSet::new().run_until(f).await;
}

/// HELLO and version negotiation: the switch offers 1.0 and 1.3 (header 1.3, bitmap {1, 4});
/// a 1.3 controller gets 1.3, a 1.0-only one (no bitmap) 1.0; FEATURES_REPLY names dpid 1 at the
/// agreed version; the OpenFlow handshake took exactly the controller's 30 ms delay.
#[tokio::test(start_paused = true)]
async fn handshake_negotiates_the_version_and_times_the_controllers_delay() {
    let only10 = Message::new(Version::V10, 1, Body::Hello(Hello::default()));
    for (offer, want) in [(hello13(), 4u8), (only10, 1u8)] {
        local(async {
            let rig = Rig::start(Config::default()).await;
            let mut ctl = rig.accept().await;
            let (hello, features) = ctl.greet(offer, 30 * MS).await;
            assert_eq!(hello.version, 4, "the switch's HELLO is a 1.3 header");
            let Body::Hello(h) = &hello.body else { panic!("first message: {:?}", hello.body) };
            assert_eq!(h.version_bitmap(), Some(&[(1u32 << 1) | (1 << 4)][..]), "bitmap offers 1.0 and 1.3");
            let Body::FeaturesReply(f) = &features.body else { panic!("not a features reply: {:?}", features.body) };
            assert_eq!((features.version, features.xid, f.datapath_id), (want, 2, 1));
            rig.up().await;
            {
                let s = rig.stats.borrow();
                assert_eq!((s.state, s.version), (SessionState::Up, want));
                assert_eq!(s.of_handshake_ns, Some(30_000_000), "HELLO sent to up: the controller's delay");
            }
            rig.sh.stop_all();
            rig.finished().await;
            assert!(rig.stats.borrow().disconnect.is_none(), "a stop is no disconnect");
        })
        .await;
    }
}

/// The steady load: 1,000 requests/s for 1 s, answered at once. Exactly 1,000 packet-ins reach
/// the controller, 1 ms apart, the first at the go and the last 999 ms after it; every one is
/// answered; the session's drain is over when the measured phase ends (nothing in flight), and
/// it keeps its connection until its worker stops it.
#[tokio::test(start_paused = true)]
async fn a_fixed_rate_sends_exactly_its_schedule_in_virtual_time() {
    local(async {
        let rig = Rig::start(fixed_rate(1000.0, 1000, 2000)).await;
        let mut ctl = rig.accept().await;
        ctl.greet(hello13(), Duration::ZERO).await;
        let controller: JoinHandle<Vec<Instant>> = spawn_local(async move {
            let mut seen = Vec::new();
            while let Some(m) = ctl.next().await {
                if matches!(m.body, Body::PacketIn(_)) {
                    seen.push(Instant::now());
                    ctl.answer(&m).await;
                }
            }
            seen
        });
        rig.up().await;
        let go = rig.go().await;
        let end = rig.settled().await;
        assert!(!controller.is_finished(), "settled, the session keeps its connection until the worker stops it");
        rig.finished().await;
        let seen = controller.await.unwrap();
        assert_eq!(seen.len(), 1000, "rate × duration");
        for (k, t) in seen.iter().enumerate() {
            assert!(on_tick_after(*t - go, k as u32 * MS), "request {k} due at {k} ms, sent {:?} after the go", *t - go);
        }
        assert!(on_tick_after(end - go, 1000 * MS), "ends with the measured phase: {:?}", end - go);
        let s = rig.stats.borrow();
        assert_eq!(
            (s.requests.sent, s.requests.answered, s.requests.lost, s.requests.late, s.requests.in_flight_at_stop),
            (1000, 1000, 0, 0, 0)
        );
        drop(s);
        rig.check_request_invariant();
    })
    .await;
}

/// The keep-alive under load: an echo every 100 ms over a 1 s phase is 10 echoes, at the go and
/// 100 ms apart; a controller that answers each 7 ms later gives 10 answered, round trips of 7 ms.
#[tokio::test(start_paused = true)]
async fn the_keepalive_echoes_on_its_period_and_times_the_round_trip() {
    local(async {
        let cfg = Config { echo_every_ms: 100, ..fixed_rate(1.0, 1000, 2000) };
        let rig = Rig::start(cfg).await;
        let mut ctl = rig.accept().await;
        ctl.greet(hello13(), Duration::ZERO).await;
        let controller: JoinHandle<Vec<(Instant, u32)>> = spawn_local(async move {
            let mut echoes = Vec::new();
            while let Some(m) = ctl.next().await {
                match &m.body {
                    Body::EchoRequest(data) => {
                        echoes.push((Instant::now(), m.xid));
                        sleep(7 * MS).await;
                        ctl.send(Message::new(Version::V13, m.xid, Body::EchoReply(data.clone()))).await;
                    }
                    Body::PacketIn(_) => ctl.answer(&m).await,
                    _ => {}
                }
            }
            echoes
        });
        rig.up().await;
        let go = rig.go().await;
        rig.finished().await;
        let echoes = controller.await.unwrap();
        let at: Vec<Duration> = echoes.iter().map(|(t, _)| *t - go).collect();
        assert_eq!(at.len(), 10, "one echo per period: {at:?}");
        assert!(at.iter().enumerate().all(|(k, t)| on_tick_after(*t, k as u32 * 100 * MS)), "one echo per period from the go: {at:?}");
        assert!(echoes.iter().all(|(_, xid)| xid & 0xffff_0000 == crate::switch::keepalive::ECHO_XID), "keep-alive xids");
        let ka = rig.stats.borrow().ka.clone();
        assert_eq!((ka.sent, ka.answered, ka.lost, ka.late, ka.in_flight_at_stop), (10, 10, 0, 0, 0));
        assert_eq!(ka.sent, ka.answered + ka.lost + ka.in_flight_at_stop, "keep-alive invariant");
        let rtt = rig.sh.echo_hist.borrow().summary();
        assert_eq!(rtt.count, 10);
        assert!((rtt.min_us - 7000.0).abs() <= 7.0 && (rtt.max_us - 7000.0).abs() <= 7.0, "7 ms round trips: {rtt:?}");
    })
    .await;
}

/// A controller that stops answering: 100 requests/s for 1 s, the first 50 answered, then
/// silence. With a fixed 10,455 ms loss timeout the drain lasts min(timeout, `DRAIN_MAX_MS`) =
/// 10 s: the requests sent at 500..540 ms time out before it ends (at 10,955..10,995 ms), 5
/// lost; the 45 sent from 550 ms on would time out after it (11,005 ms on): in flight at the
/// stop. (With a timeout under the bound the drain lasts the whole timeout and nothing due
/// before the end is left in flight: `tests/drain.rs`.)
#[tokio::test(start_paused = true)]
async fn a_silent_controller_leaves_requests_lost_or_in_flight_as_the_timeout_says() {
    local(async {
        // Open vSwitch's inactivity probe would end a session silent for 10 s: off here.
        let rig = Rig::start(Config { echo_interval_ms: 0, ..fixed_rate(100.0, 1000, 10455) }).await;
        let mut ctl = rig.accept().await;
        ctl.greet(hello13(), Duration::ZERO).await;
        let controller: JoinHandle<u64> = spawn_local(async move {
            let mut n = 0;
            while let Some(m) = ctl.next().await {
                if matches!(m.body, Body::PacketIn(_)) {
                    n += 1;
                    if n <= 50 {
                        ctl.answer(&m).await;
                    }
                }
            }
            n
        });
        rig.up().await;
        let go = rig.go().await;
        let end = rig.finished().await;
        assert_eq!(controller.await.unwrap(), 100);
        assert!(on_tick_after(end - go, 11_000 * MS), "the drain ends 10 s after the measured phase: {:?}", end - go);
        let s = rig.stats.borrow();
        assert_eq!(
            (s.requests.sent, s.requests.answered, s.requests.lost, s.requests.late, s.requests.in_flight_at_stop),
            (100, 50, 5, 0, 45)
        );
        assert!(s.disconnect.is_none(), "silence alone does not drop the session");
        drop(s);
        rig.check_request_invariant();
    })
    .await;
}

/// Reconnection: 100 requests/s for 2 s; the controller answers 30 requests, reads the 31st and
/// closes. The switch waits OVS's first backoff (1 s, `reconnect_backoff_ms`) and connects again;
/// the new session is up at once. One session lost, one attempt, one reconnect, 1 s without a
/// session; the 31st request is lost with its connection; every request of the schedule (200)
/// is either sent or counted as not sent while disconnected.
#[tokio::test(start_paused = true)]
async fn a_closed_session_reconnects_after_the_backoff() {
    local(async {
        let rig = Rig::start(fixed_rate(100.0, 2000, 2000)).await;
        let mut first = rig.accept().await;
        first.greet(hello13(), Duration::ZERO).await;
        let closer: JoinHandle<Instant> = spawn_local(async move {
            let mut n = 0;
            while let Some(m) = first.next().await {
                if matches!(m.body, Body::PacketIn(_)) {
                    n += 1;
                    if n == 31 {
                        break;
                    }
                    first.answer(&m).await;
                }
            }
            drop(first);
            Instant::now()
        });
        rig.up().await;
        let go = rig.go().await;
        let mut second = rig.accept().await;
        let back_at = Instant::now();
        let closed_at = closer.await.unwrap();
        assert!(on_tick_after(closed_at - go, 300 * MS), "the 31st request, 10 ms apart: {:?}", closed_at - go);
        assert!(on_tick_after(back_at - closed_at, 1000 * MS), "OVS's first backoff: {:?}", back_at - closed_at);
        second.greet(hello13(), Duration::ZERO).await;
        spawn_local(async move {
            while let Some(m) = second.next().await {
                second.answer(&m).await;
            }
        });
        rig.finished().await;
        let s = rig.stats.borrow();
        let r = &s.reconnect;
        assert_eq!((r.sessions_lost, r.attempts, r.reconnects, r.failures, r.down_at_stop), (1, 1, 1, 0, false));
        assert_eq!(r.sessions_lost, r.reconnects + r.down_at_stop as u64, "sessions invariant");
        assert_eq!(r.attempts, r.reconnects + r.failures, "attempts invariant");
        assert!(on_tick_after(Duration::from_nanos(r.disconnected_ns), 1000 * MS), "down from the loss to the re-establishment");
        assert_eq!(s.requests.sent + r.not_sent_disconnected, 200, "the schedule: rate × duration, sent or not sent");
        assert_eq!((s.requests.lost, s.requests.answered, s.requests.in_flight_at_stop), (1, s.requests.sent - 1, 0));
        assert_eq!(s.disconnect.as_ref().map(|d| d.kind.as_str()), Some("closed"));
        drop(s);
        rig.check_request_invariant();
    })
    .await;
}
