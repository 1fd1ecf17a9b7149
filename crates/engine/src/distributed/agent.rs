//! `sdnbench-engine agent`: one machine's part of a multi-machine run (docs/scale-out.md).
//!
//! To the coordinator an agent is a worker: the same JSON-lines protocol on stdin/stdout
//! (`protocol.rs`), one Ready, one Interval per loop, one report. Inside it is a coordinator of
//! its own (`coordinator::run_part`) for its slice of the switches: it plans for THIS machine
//! (raises its own open-file limit and splits the slice over as many local worker processes as
//! that limit needs; picks its source addresses: those of the interface that routes to the
//! controller, e.g. its namespace's veth), starts them, and merges them (`agent_merge.rs`).
//!
//! Between Ready and the go it answers the coordinator's `ping` with its CLOCK_REALTIME and
//! waits for `go_at` (a start time in its own clock). For tests only, the environment variable
//! `SDNBENCH_TEST_CLOCK_OFFSET_MS` adds a fake offset to every clock reading the agent makes
//! (CLOCK_REALTIME is one clock per machine: a namespace cannot have its own): `MS` for every
//! agent that inherits it, `MS@I` for agent number I (0-based) only.

use crate::config::Config;
use crate::coordinator::clock::realtime_ns;
use crate::coordinator::{run_part, LoopTotal};
use crate::switch::protocol::{encode, Cmd, Pong, Ready, WorkerEvent};
use std::io::{BufRead, Write};
use std::net::{IpAddr, UdpSocket};
use std::sync::mpsc;
use std::time::Duration;

const FAKE_OFFSET_ENV: &str = "SDNBENCH_TEST_CLOCK_OFFSET_MS";

fn emit(e: &WorkerEvent) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{}", encode(e));
    let _ = out.flush();
}

/// The test offset (ms) of agent `me` from `MS` or `MS@I`.
fn fake_offset_ms(value: Option<&str>, me: u32) -> f64 {
    let Some(v) = value else { return 0.0 };
    let (ms, only) = match v.split_once('@') {
        Some((ms, i)) => (ms, i.parse::<u32>().ok()),
        None => (v, None),
    };
    match only {
        Some(i) if i != me => 0.0,
        _ => ms.parse().unwrap_or(0.0),
    }
}

/// Agent `me`'s clock: CLOCK_REALTIME plus the test offset, if any.
fn clock_ns(me: u32) -> u64 {
    let fake_ms = fake_offset_ms(std::env::var(FAKE_OFFSET_ENV).ok().as_deref(), me);
    (realtime_ns() as i64 + (fake_ms * 1e6) as i64) as u64
}

/// Run the agent to the end. Exit 0 after its report; 1 when it cannot run (one `fatal` line).
pub fn main() -> i32 {
    // the coordinator decides when to stop (it sends "stop", or its end of the stream closes);
    // SIGTERM stops the run as its stop does, so nothing outlives it (`children.rs`)
    let stop = crate::coordinator::install_signal_handlers();
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_IGN);
    }
    let mut first = String::new();
    if std::io::stdin().lock().read_line(&mut first).unwrap_or(0) == 0 {
        return 1;
    }
    let (cfg, slice) = match serde_json::from_str::<Cmd>(&first) {
        Ok(Cmd::Start { config, slice }) => (*config, slice),
        _ => {
            emit(&WorkerEvent::Fatal("first line must be a start command".into()));
            return 1;
        }
    };
    let (tx, rx) = mpsc::channel();
    let stop2 = stop.clone();
    std::thread::spawn(move || read_commands(tx, &stop2));
    let cfg = match join_mesh(cfg, slice.worker, &rx) {
        Ok(c) => c,
        Err(e) => {
            emit(&WorkerEvent::Fatal(e));
            return 1;
        }
    };
    let mut rx = Some(rx);
    let mut on_ready = |rs: &[Ready]| {
        let mut r = crate::distributed::agent_merge::ready(slice.worker, rs);
        r.clock_ns = clock_ns(slice.worker);
        emit(&WorkerEvent::Ready(r));
        if let Some(rx) = rx.take() {
            wait_for_start(slice.worker, &rx);
        }
    };
    let mut on_loop = |l: &LoopTotal| emit(&WorkerEvent::Interval(crate::distributed::agent_merge::interval(slice.worker, l)));
    match run_part(cfg, slice, stop, &source_addrs, &mut on_ready, &mut on_loop) {
        Ok(o) => match crate::distributed::agent_merge::report(slice.worker, &o) {
            Ok(r) => emit(&WorkerEvent::Done(Box::new(r))),
            Err(e) => emit(&WorkerEvent::Fatal(e)),
        },
        Err(e) => {
            emit(&WorkerEvent::Fatal(e));
            return 1;
        }
    }
    0
}

/// The coordinator's commands; "stop" (or the end of the stream) stops the run (`stop`) at once.
fn read_commands(tx: mpsc::Sender<Cmd>, stop: &crate::coordinator::Stop) {
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let Ok(c) = serde_json::from_str::<Cmd>(&line) else { continue };
        if matches!(c, Cmd::Stop) {
            stop.request();
        }
        let _ = tx.send(c);
    }
    stop.request();
    let _ = tx.send(Cmd::Stop);
}

/// Network mode over several agents: listen for the other agents' frames on this agent's address,
/// announce it, and wait for every agent's (`transport::start_tcp` connects them at the start).
fn join_mesh(mut cfg: Config, worker: u32, rx: &mpsc::Receiver<Cmd>) -> Result<Config, String> {
    if cfg.network.is_none() || cfg.workers.unwrap_or(1) <= 1 {
        return Ok(cfg);
    }
    let ip = source_addrs(&cfg, 0).into_iter().next().unwrap_or_else(|| "127.0.0.1".into());
    let addr = crate::network::transport::listen_tcp(&ip)?;
    emit(&WorkerEvent::Listening(crate::switch::protocol::Listening { worker, addr }));
    loop {
        match rx.recv() {
            Ok(Cmd::Peers { addrs }) => {
                cfg.net_peers = addrs;
                return Ok(cfg);
            }
            Ok(Cmd::Stop) | Err(_) => return Err("stopped before the agents' addresses came".into()),
            Ok(_) => {}
        }
    }
}

/// Answer pings until the start time comes, then return (the local workers get their go).
fn wait_for_start(worker: u32, rx: &mpsc::Receiver<Cmd>) {
    let mut start: Option<u64> = None;
    loop {
        let wait = match start {
            Some(t) => Duration::from_nanos(t.saturating_sub(clock_ns(worker))),
            None => Duration::from_secs(3600),
        };
        if start.is_some() && wait.is_zero() {
            return;
        }
        match rx.recv_timeout(wait) {
            Ok(Cmd::Ping) => emit(&WorkerEvent::Pong(Pong { worker, clock_ns: clock_ns(worker) })),
            Ok(Cmd::GoAt { unix_ns }) => start = Some(unix_ns),
            Ok(Cmd::Go) => return,
            Ok(Cmd::Stop) | Err(mpsc::RecvTimeoutError::Disconnected) => return,
            Ok(Cmd::Start { .. }) | Ok(Cmd::Peers { .. }) => {}
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
    }
}

/// The agent's own source addresses when the config gives none: on loopback none (the plan picks
/// 127/8 addresses); otherwise every address of the controller's family on the interface the
/// kernel routes the controller through (a namespace's veth, a machine's NIC).
pub(crate) fn source_addrs(cfg: &Config, _sessions: u32) -> Vec<String> {
    let Ok(target) = crate::config::limits::resolve(cfg.controller()) else { return vec![] };
    if target.ip().is_loopback() {
        return vec![];
    }
    let bind = if target.is_ipv4() { "0.0.0.0:0" } else { "[::]:0" };
    let Some(preferred) = UdpSocket::bind(bind).and_then(|s| s.connect(target).and_then(|_| s.local_addr())).ok().map(|a| a.ip()) else {
        return vec![];
    };
    let ifaces = interface_addrs();
    let Some((ifname, _)) = ifaces.iter().find(|(_, ip)| *ip == preferred) else { return vec![preferred.to_string()] };
    ifaces.iter().filter(|(n, ip)| n == ifname && ip.is_ipv4() == target.is_ipv4()).map(|(_, ip)| ip.to_string()).collect()
}

/// (interface, address) of every IPv4/IPv6 address of this machine (namespace).
fn interface_addrs() -> Vec<(String, IpAddr)> {
    let mut out = Vec::new();
    unsafe {
        let mut head: *mut libc::ifaddrs = std::ptr::null_mut();
        if libc::getifaddrs(&mut head) != 0 {
            return out;
        }
        let mut p = head;
        while !p.is_null() {
            let ifa = &*p;
            if !ifa.ifa_addr.is_null() {
                let name = std::ffi::CStr::from_ptr(ifa.ifa_name).to_string_lossy().into_owned();
                match i32::from((*ifa.ifa_addr).sa_family) {
                    libc::AF_INET => {
                        let a = &*(ifa.ifa_addr as *const libc::sockaddr_in);
                        out.push((name, IpAddr::from(u32::from_be(a.sin_addr.s_addr).to_be_bytes())));
                    }
                    libc::AF_INET6 => {
                        let a = &*(ifa.ifa_addr as *const libc::sockaddr_in6);
                        out.push((name, IpAddr::from(a.sin6_addr.s6_addr)));
                    }
                    _ => {}
                }
            }
            p = ifa.ifa_next;
        }
        libc::freeifaddrs(head);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_offset_applies_to_every_agent_or_to_one() {
        assert_eq!(fake_offset_ms(None, 0), 0.0);
        assert_eq!(fake_offset_ms(Some("300"), 2), 300.0);
        assert_eq!(fake_offset_ms(Some("-80@1"), 1), -80.0);
        assert_eq!(fake_offset_ms(Some("-80@1"), 0), 0.0);
    }

    #[test]
    fn loopback_has_an_interface_address() {
        assert!(interface_addrs().iter().any(|(_, ip)| ip.is_loopback()));
        let cfg = Config { controllers: vec!["127.0.0.1:6653".into()], ..Config::default() };
        assert!(source_addrs(&cfg, 10).is_empty(), "on loopback the plan chooses");
    }
}
