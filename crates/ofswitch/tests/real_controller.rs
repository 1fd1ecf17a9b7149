//! The switch core against a real controller: Ryu's `simple_switch_13` (OF1.3) and
//! `simple_switch` (OF1.0), installed by `make setup`, over TCP on loopback. The test drives
//! the pure state machine with blocking socket I/O: handshake (1.3: the controller's
//! table-miss entry), then frames between two hosts: an unknown destination is flooded by the
//! controller, the answer makes it install a flow, and the next frame is forwarded by that flow
//! without asking the controller.

use ofswitch::{frame_len, frames, Received, Switch, SwitchConfig};
use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const RYU: &str = "/var/lib/sdnbench/venvs/ryu/bin/ryu-manager";

/// The two tests each start a Ryu on a port the kernel had free a moment before; run at the
/// same time, both could be given the same one, one Ryu fail to bind, and both switches meet
/// the other's app (a CI run saw the 1.0 app reset the 1.3 switch). One at a time.
static ONE_RYU: Mutex<()> = Mutex::new(());

/// The controller process, killed (and reaped) and its files removed when the test ends,
/// however it ends; if the test panics, Ryu's own output is printed first.
struct Controller(Child, PathBuf, PathBuf);

impl Drop for Controller {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
        if std::thread::panicking() {
            let log = std::fs::read_to_string(&self.2).unwrap_or_default();
            eprintln!("--- ryu-manager's output ---\n{log}---");
        }
        let _ = std::fs::remove_file(&self.1);
        let _ = std::fs::remove_file(&self.2);
    }
}

impl Controller {
    /// Panics if Ryu has exited (it could not listen, or failed to start its app).
    fn assert_running(&mut self) {
        if let Some(status) = self.0.try_wait().unwrap() {
            panic!("ryu-manager exited ({status}) while the test ran");
        }
    }
}

fn start_ryu(app: &str) -> (Controller, u16) {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let tmp = |ext: &str| std::env::temp_dir().join(format!("ofswitch-ryu-{}-{port}.{ext}", std::process::id()));
    let (conf, log) = (tmp("conf"), tmp("log"));
    std::fs::write(&conf, "").unwrap();
    let out = std::fs::File::create(&log).unwrap();
    let child = Command::new(RYU)
        .args(["--config-file", conf.to_str().unwrap(), "--ofp-listen-host", "127.0.0.1", "--ofp-tcp-listen-port", &port.to_string(), app])
        .stdout(Stdio::from(out.try_clone().unwrap()))
        .stderr(Stdio::from(out))
        .spawn()
        .unwrap_or_else(|e| panic!("{RYU} (installed by make setup): {e}"));
    (Controller(child, conf, log), port)
}

fn connect(port: u16) -> TcpStream {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match TcpStream::connect(("127.0.0.1", port)) {
            Ok(s) => return s,
            Err(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(100)),
            Err(e) => panic!("ryu did not listen on {port}: {e}"),
        }
    }
}

/// One emulated switch on one controller connection.
struct Link {
    sock: TcpStream,
    sw: Switch,
    inbuf: Vec<u8>,
    outs: Vec<Vec<u8>>,
    t0: Instant,
}

impl Link {
    fn now(&self) -> u64 {
        self.t0.elapsed().as_nanos() as u64
    }

    fn flush(&mut self) {
        let out = std::mem::take(&mut self.outs[0]);
        self.sock.write_all(&out).unwrap();
    }

    /// Read and handle messages until `done(switch)` or the deadline.
    fn pump_until(&mut self, what: &str, done: impl Fn(&Switch) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut buf = [0u8; 65536];
        while !done(&self.sw) {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            match self.sock.read(&mut buf) {
                Ok(0) => panic!("controller closed the connection"),
                Ok(n) => self.inbuf.extend_from_slice(&buf[..n]),
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => continue,
                Err(e) => panic!("{e}"),
            }
            while let Some(n) = frame_len(&self.inbuf) {
                let n = n.unwrap();
                if self.inbuf.len() < n {
                    break;
                }
                let msg: Vec<u8> = self.inbuf.drain(..n).collect();
                let now = self.now();
                self.sw.on_message_from(now, 0, &msg, &mut self.outs).unwrap();
            }
            self.flush();
        }
    }

    fn send_frame(&mut self, port: u32, frame: &[u8]) -> Received {
        let now = self.now();
        let r = self.sw.receive_frame(now, port, frame, &mut self.outs);
        self.flush();
        r
    }
}

/// Connect an emulated switch speaking only `version` to a Ryu app and run the two-host
/// learning exchange; `table_miss` is whether the app installs a table-miss entry (1.3).
fn learning_exchange(app: &str, version: u8, table_miss: bool) {
    let _one = ONE_RYU.lock().unwrap_or_else(|e| e.into_inner());
    let (mut ryu, port) = start_ryu(app);
    let sock = connect(port);
    sock.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
    let mut cfg = SwitchConfig::new(0x42);
    cfg.ports = 3;
    cfg.versions = ofwire::Versions::of(&[version]);
    cfg.keep_flows = true;
    cfg.forward = true;
    cfg.n_tables = 254;
    let mut l = Link { sock, sw: Switch::new(cfg), inbuf: Vec::new(), outs: vec![Vec::new()], t0: Instant::now() };
    let now = l.now();
    l.sw.start(now, &mut l.outs[0]);
    l.flush();
    let base = usize::from(table_miss);
    l.pump_until("the handshake (and table-miss entry)", |s| s.is_up() && s.flows.len() == base);
    assert_eq!(l.sw.version, version);

    let (h1, h2) = (frames::udp_frame(0, 10, 1, 2, 1, 64), frames::udp_frame(0, 10, 2, 1, 2, 64));
    // h1 (port 1) -> h2: unknown destination, the controller floods it (packet-out FLOOD)
    let want = if table_miss { Received::Matched } else { Received::Miss { to_controller: true } };
    assert_eq!(l.send_frame(1, &h1), want, "to the controller");
    l.pump_until("the flooded packet-out", |s| s.tx.len() == 2);
    assert_eq!(l.sw.tx.iter().map(|x| x.0).collect::<Vec<_>>(), vec![2, 3]);
    l.sw.tx.clear();
    // h2 (port 2) -> h1: known destination, a flow for it and the frame out of port 1
    l.send_frame(2, &h2);
    l.pump_until("the flow and the packet-out", |s| s.flows.len() == base + 1 && s.tx.len() == 1);
    assert_eq!(l.sw.tx[0], (1, h2.clone()));
    l.sw.tx.clear();
    // the same again: forwarded by the installed flow, no packet-in
    let before = l.sw.counters.packet_ins;
    assert_eq!(l.send_frame(2, &h2), Received::Matched);
    assert_eq!(l.sw.tx, vec![(1, h2)]);
    assert_eq!(l.sw.counters.packet_ins, before, "the flow, not the controller, forwarded it");
    let learned = l.sw.flows.entries().find(|e| e.priority > 0).expect("the learned flow");
    assert_eq!((learned.packets, learned.bytes), (1, 64));
    ryu.assert_running();
}

#[test]
fn ryu_simple_switch_13_learns_and_the_switch_forwards() {
    learning_exchange("ryu.app.simple_switch_13", 4, true);
}

#[test]
fn ryu_simple_switch_of10_learns_and_the_switch_forwards() {
    learning_exchange("ryu.app.simple_switch", 1, false);
}
