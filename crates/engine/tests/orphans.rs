//! The kill-the-parent known answer (issue 49): nothing the engine starts outlives it. The engine
//! runs 8 switches over 4 worker processes against a scripted controller, in a process group of
//! its own (so its whole tree is found by that group, never by a name). Its coordinator, the
//! parent, is ended in each phase of the run: while it starts its workers, while they handshake,
//! in the load, and at the end (the workers done, the result not yet written), by SIGKILL,
//! SIGTERM, SIGINT or a panic (`SDNBENCH_TEST_FAULT`, `coordinator/fault.rs`). Within a bound,
//! no process of its group is left and the controller holds no session.
//!
//! Known answer, per phase: 0 processes and 0 sessions left for each of the four ends. Before
//! the fix, a coordinator killed in the handshake or the load left its 4 workers (and their 8
//! sessions) running.

mod common;

use std::io::Write;
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::process::Child;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const SWITCHES: usize = 8;
const WORKERS: usize = 4;

/// How the parent ends.
#[derive(Clone, Copy, Debug)]
enum End {
    Signal(i32),
    Panic,
}

const ENDS: [End; 4] = [End::Signal(libc::SIGKILL), End::Signal(libc::SIGTERM), End::Signal(libc::SIGINT), End::Panic];

/// How long the tree may take to be gone: a killed parent's children die with it at once; a
/// signalled one first stops its workers and collects their reports (bounded, `handle.rs`).
fn bound(end: End) -> Duration {
    match end {
        End::Signal(libc::SIGKILL) | End::Panic => Duration::from_secs(3),
        End::Signal(_) => Duration::from_secs(20),
    }
}

/// The scripted controller: the sessions open now, the packet-ins seen. `greet`: send HELLO and
/// FEATURES_REQUEST and answer (else say nothing: the switches stay in their handshake).
struct Controller {
    port: u16,
    open: Arc<AtomicUsize>,
    packet_ins: Arc<AtomicUsize>,
}

fn controller(greet: bool) -> Controller {
    let (open, packet_ins) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let (o, p) = (open.clone(), packet_ins.clone());
    let port = common::controller(move |s, _| {
        o.fetch_add(1, Ordering::SeqCst);
        serve(s, greet, &p);
        o.fetch_sub(1, Ordering::SeqCst);
    });
    Controller { port, open, packet_ins }
}

/// Serve one session until the switch closes it.
fn serve(mut s: TcpStream, greet: bool, packet_ins: &AtomicUsize) {
    s.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
    if greet && !common::greet13(&mut s) {
        return;
    }
    let mut buf = Vec::new();
    while let Some(messages) = common::read_messages(&mut s, &mut buf) {
        let mut out = Vec::new();
        for m in messages.iter().filter(|_| greet) {
            if common::msg_type(m) == ofwire::MsgType::PacketIn {
                packet_ins.fetch_add(1, Ordering::SeqCst);
            }
            common::answer13(m, &mut out);
        }
        if s.write_all(&out).is_err() {
            return;
        }
    }
}

/// The live (not zombie) processes whose process group is `pgid`, and those whose parent is `ppid`.
fn members(pgid: u32, ppid: u32) -> (Vec<u32>, Vec<u32>) {
    let (mut group, mut children) = (vec![], vec![]);
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        // after the command's ")": state, ppid, pgrp
        let f: Vec<&str> = stat.rsplit_once(')').map(|(_, r)| r.split_whitespace().take(3).collect()).unwrap_or_default();
        if f.len() < 3 || f[0] == "Z" {
            continue;
        }
        if f[2].parse() == Ok(pgid) {
            group.push(pid);
        }
        if f[1].parse() == Ok(ppid) {
            children.push(pid);
        }
    }
    (group, children)
}

fn wait_for(what: &str, within: Duration, mut cond: impl FnMut() -> bool) {
    let t = Instant::now();
    while !cond() {
        assert!(t.elapsed() < within, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The engine against `ctl` for `loops` loops of 100 ms, in a process group of its own, `fault`
/// injected.
fn engine(ctl: &Controller, loops: u32, fault: Option<String>, json: &std::path::Path) -> Child {
    let mut cmd = common::engine_command();
    let (port, sw, w) = (ctl.port.to_string(), SWITCHES.to_string(), WORKERS.to_string());
    cmd.args(["--controller", &format!("127.0.0.1:{port}"), "--switches", &sw, "--workers", &w]);
    cmd.args(["--loops", &loops.to_string(), "--loop-ms", "100", "--warmup", "0", "--quiet", "--json", json.to_str().unwrap()]);
    cmd.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
    cmd.env_remove("SDNBENCH_TEST_FAULT");
    if let Some(f) = fault {
        cmd.env("SDNBENCH_TEST_FAULT", f);
    }
    cmd.process_group(0).spawn().unwrap()
}

/// What was left once the tree was gone or the bound passed.
struct Left {
    /// Worker processes when the parent was ended (None: it ended itself, by the injected panic).
    workers: Option<usize>,
    /// How the parent exited.
    exit: std::process::ExitStatus,
    processes: usize,
    sessions: usize,
    /// Seconds from the end of the parent to the last of its tree.
    gone_s: f64,
}

/// Run the engine to `phase` (reached by `reach`), end its coordinator by `end`, and count what
/// is left of its tree once every process is gone or the bound passed.
fn end_in(phase: &str, greet: bool, end: End, reach: impl Fn(&Controller, &mut Child) -> usize) -> Left {
    let ctl = controller(greet);
    let json = std::env::temp_dir().join(format!("sdnbench-orphans-{}-{phase}-{end:?}.json", std::process::id()));
    let hook = match end {
        End::Panic => Some(format!("{}:panic", fault_point(phase))),
        End::Signal(_) if matches!(phase, "spawn" | "end") => Some(format!("{phase}:hold")),
        End::Signal(_) => None,
    };
    let loops = if phase == "end" { 10 } else { 600 };
    let mut child = engine(&ctl, loops, hook, &json);
    let pid = child.id();
    let workers = match end {
        End::Panic => None,
        End::Signal(sig) => {
            let n = reach(&ctl, &mut child);
            unsafe { libc::kill(pid as i32, sig) };
            Some(n)
        }
    };
    let t = Instant::now();
    let (mut processes, mut sessions) = (usize::MAX, usize::MAX);
    while t.elapsed() < bound(end) {
        let _ = child.try_wait();
        (processes, sessions) = (members(pid, pid).0.len(), ctl.open.load(Ordering::SeqCst));
        if processes == 0 && sessions == 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // whatever is left is ended here, by its group, so one failure does not spill into the next
    let gone_s = t.elapsed().as_secs_f64();
    unsafe { libc::kill(-(pid as i32), libc::SIGKILL) };
    let exit = child.wait().unwrap();
    let _ = std::fs::remove_file(&json);
    Left { workers, exit, processes, sessions, gone_s }
}

/// The injection point that panics in `phase` (`coordinator/fault.rs`).
fn fault_point(phase: &str) -> &str {
    match phase {
        "handshake" => "started",
        "load" => "loop",
        p => p,
    }
}

/// Every way of ending the parent in `phase`: a row of the table, and its check.
fn table_row(phase: &str, greet: bool, reach: impl Fn(&Controller, &mut Child) -> usize) {
    let (mut row, mut bad) = (vec![], vec![]);
    for end in ENDS {
        let left = end_in(phase, greet, end, &reach);
        let seen = left.workers.map_or("-".into(), |n| n.to_string());
        let (p, s) = (left.processes, left.sessions);
        row.push(format!("{end:?}: {p} processes, {s} sessions left after {:.1} s ({seen} workers; {})", left.gone_s, left.exit));
        // a panic must be the injected one: the engine's exit for a bug
        let panicked = !matches!(end, End::Panic) || left.exit.code() == Some(3);
        if left.processes != 0 || left.sessions != 0 || !panicked {
            bad.push(row.last().unwrap().clone());
        }
    }
    // the whole row first, so a failure shows every end of its phase
    eprintln!("{phase:>9} | {}", row.join(" | "));
    assert!(bad.is_empty(), "{phase}: {}", bad.join("; "));
}

/// Wait until the coordinator has `n` worker processes; returns how many it has.
fn workers_up(child: &Child, n: usize) -> usize {
    wait_for("the workers", Duration::from_secs(20), || members(child.id(), child.id()).1.len() >= n);
    members(child.id(), child.id()).1.len()
}

#[test]
fn killed_while_starting_its_workers_leaves_nothing() {
    // held after its first worker started (`spawn:hold`): the other three are not started
    table_row("spawn", true, |_, child| {
        let n = workers_up(child, 1);
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(members(child.id(), child.id()).1.len(), 1, "held after the first worker");
        n
    });
}

#[test]
fn killed_in_the_handshake_leaves_nothing() {
    // a controller that never says HELLO: every session waits in its handshake
    table_row("handshake", false, |ctl, child| {
        wait_for("every session", Duration::from_secs(20), || ctl.open.load(Ordering::SeqCst) >= SWITCHES);
        workers_up(child, WORKERS)
    });
}

#[test]
fn killed_in_the_load_leaves_nothing() {
    table_row("load", true, |ctl, child| {
        wait_for("packet-ins", Duration::from_secs(20), || ctl.packet_ins.load(Ordering::SeqCst) > 100);
        workers_up(child, WORKERS)
    });
}

#[test]
fn killed_while_writing_its_result_leaves_nothing() {
    // held once the workers ended (`end:hold`), before the result is written
    table_row("end", true, |ctl, child| {
        let n = workers_up(child, WORKERS);
        wait_for("packet-ins", Duration::from_secs(20), || ctl.packet_ins.load(Ordering::SeqCst) > 0);
        wait_for("the workers' end", Duration::from_secs(30), || members(child.id(), child.id()).1.is_empty());
        assert!(child.try_wait().unwrap().is_none(), "the engine ended before its hold");
        n
    });
}

#[test]
fn a_worker_ends_at_sigterm() {
    // the workers ignored SIGTERM: only SIGKILL ended them
    let ctl = controller(true);
    let json = std::env::temp_dir().join(format!("sdnbench-orphans-{}-worker-term.json", std::process::id()));
    let mut child = engine(&ctl, 600, None, &json);
    wait_for("packet-ins", Duration::from_secs(20), || ctl.packet_ins.load(Ordering::SeqCst) > 100);
    workers_up(&child, WORKERS);
    let worker = members(child.id(), child.id()).1[0];
    unsafe { libc::kill(worker as i32, libc::SIGTERM) };
    let t = Instant::now();
    while members(child.id(), child.id()).0.contains(&worker) && t.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let (alive, took) = (members(child.id(), child.id()).0.contains(&worker), t.elapsed().as_secs_f64());
    unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
    let _ = child.wait();
    let _ = std::fs::remove_file(&json);
    assert!(!alive, "worker {worker} still runs 5 s after SIGTERM");
    eprintln!("a worker's SIGTERM: ended after {took:.1} s");
}
