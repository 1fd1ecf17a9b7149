//! Known answer: what a controller has already sent a switch is applied before a frame a link
//! delivers to that switch in the same instant, as on Open vSwitch: all its bridges run in one
//! thread, each turn of its main loop (`bridge_run__`) polls the datapath's ports first and then
//! reads every bridge's connection, so a frame one bridge sends is received in the next turn,
//! after the peer's pending flow-mod (docs/conformance.md, "#8 on Ryu at 1.0").
//!
//! linear,2 over one worker against a scripted OpenFlow 1.3 controller. Each round the engine
//! is stopped (SIGSTOP), the controller writes to s1 a packet-out of an LLDP probe out of its
//! link port and to s2 a flow-mod (priority 100, match all, output CONTROLLER), and the engine
//! goes on (SIGCONT): both are waiting when it wakes, as they were for Ryu's first probe when
//! the engine was descheduled. s2 raises the probe: reason ACTION (its entry) when it read the
//! flow-mod first, NO_MATCH (its table-miss entry) when it ran the frame first. Then the entry
//! is deleted (with a barrier). Every round must read ACTION; before the fix (the frame run
//! first whenever `select!` picked the inbox's wake), about half the rounds read NO_MATCH.

mod common;

use ofwire::frame::{lldp_frame, Lldp};
use ofwire::port::ports::{ANY13, CONTROLLER13};
use ofwire::{Action, Body, FlowMod, Instruction, Message, MsgType, PacketOut, Version};
use std::io::Write;
use std::net::TcpStream;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const ROUNDS: usize = 40;

fn flow_mod(command: u16, priority: u16, xid: u32) -> Vec<u8> {
    let fm = FlowMod {
        command,
        priority,
        buffer_id: u32::MAX,
        out_port: ANY13,
        out_group: ANY13,
        instructions: vec![Instruction::ApplyActions(vec![Action::Output { port: CONTROLLER13, max_len: 0xffff }])],
        ..FlowMod::default()
    };
    Message::new(Version::V13, xid, Body::FlowMod(fm)).to_vec()
}

fn probe_out(port: u32) -> Vec<u8> {
    let frame = lldp_frame([2, 0, 0, 0, 0, 1], &Lldp::for_port(1, port));
    let po = PacketOut { buffer_id: u32::MAX, in_port: CONTROLLER13, actions: vec![Action::Output { port, max_len: 0xffff }], data: frame };
    Message::new(Version::V13, 9, Body::PacketOut(po)).to_vec()
}

/// What the two connections share: each switch's stream by dpid, s2's packet-in reasons and
/// barrier replies, and the engine's process id (for the stops).
#[derive(Clone)]
struct Ctl {
    streams: Arc<Mutex<[Option<TcpStream>; 2]>>,
    events: Arc<Mutex<Sender<Option<u8>>>>,
    rounds: Arc<Mutex<Option<Receiver<Option<u8>>>>>,
    reasons: Arc<Mutex<Vec<u8>>>,
    pid: Arc<Mutex<Option<i32>>>,
}

fn serve(mut s: TcpStream, c: Ctl) {
    s.set_read_timeout(Some(Duration::from_millis(5))).unwrap();
    if !common::greet13(&mut s) {
        return;
    }
    let mut buf = Vec::new();
    loop {
        let Some(messages) = common::read_messages(&mut s, &mut buf) else { return };
        for m in messages {
            let Ok(msg) = Message::parse(&m) else { continue };
            match msg.body {
                Body::FeaturesReply(f) => {
                    let _ = s.write_all(&flow_mod(0, 0, 3)); // table-miss entry: NO_MATCH
                    c.streams.lock().unwrap()[f.datapath_id as usize - 1] = Some(s.try_clone().unwrap());
                    if c.streams.lock().unwrap().iter().all(Option::is_some) {
                        if let Some(rx) = c.rounds.lock().unwrap().take() {
                            let c = c.clone();
                            std::thread::spawn(move || drive(c, rx));
                        }
                    }
                }
                Body::PacketIn(pi) => drop(c.events.lock().unwrap().send(Some(pi.reason))), // s2's: only s2 gets frames
                _ if common::msg_type(&m) == MsgType::BarrierReply => drop(c.events.lock().unwrap().send(None)),
                _ => {
                    let mut out = Vec::new();
                    common::answer13(&m, &mut out);
                    let _ = s.write_all(&out);
                }
            }
        }
    }
}

fn signal(pid: i32, sig: i32) {
    // SAFETY: kill(2) on the engine child this test spawned
    assert_eq!(unsafe { libc::kill(pid, sig) }, 0, "kill({pid}, {sig})");
}

/// Until every thread of `pid` is stopped (state `T` in /proc): kill(2) returns before the
/// signal has stopped a thread running on another CPU, which could still read the packet-out.
fn wait_stopped(pid: i32) {
    let stopped = |stat: String| stat.rsplit(") ").next().is_some_and(|rest| rest.starts_with('T'));
    loop {
        let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).unwrap();
        if tasks.flatten().all(|t| std::fs::read_to_string(t.path().join("stat")).map(stopped).unwrap_or(true)) {
            return;
        }
        std::thread::sleep(Duration::from_micros(100));
    }
}

/// The rounds: with the engine stopped, the probe out of s1's port 1 (linked to s2's port 1),
/// then the flow-mod to s2; then the engine goes on.
fn drive(c: Ctl, rx: Receiver<Option<u8>>) {
    let (mut s1, mut s2) = {
        let st = c.streams.lock().unwrap();
        (st[0].as_ref().unwrap().try_clone().unwrap(), st[1].as_ref().unwrap().try_clone().unwrap())
    };
    std::thread::sleep(Duration::from_millis(100)); // the table-miss entries are in
    let pid = c.pid.lock().unwrap().expect("the engine's pid");
    for _ in 0..ROUNDS {
        signal(pid, libc::SIGSTOP);
        wait_stopped(pid);
        s1.write_all(&probe_out(1)).unwrap();
        s2.write_all(&flow_mod(0, 100, 4)).unwrap();
        std::thread::sleep(Duration::from_millis(2)); // both on loopback, in the engine's sockets
        signal(pid, libc::SIGCONT);
        let Ok(Some(reason)) = rx.recv_timeout(Duration::from_secs(2)) else { return };
        c.reasons.lock().unwrap().push(reason);
        let mut del = flow_mod(4, 100, 5); // DELETE_STRICT
        Message::new(Version::V13, 6, Body::BarrierRequest).emit_append(&mut del);
        s2.write_all(&del).unwrap();
        while let Ok(Some(_)) = rx.recv_timeout(Duration::from_secs(2)) {} // up to the barrier reply
    }
}

#[test]
fn a_flow_mod_waiting_in_the_socket_comes_before_a_frame_from_the_link() {
    let (tx, rx) = channel();
    let c = Ctl {
        streams: Arc::new(Mutex::new([None, None])),
        events: Arc::new(Mutex::new(tx)),
        rounds: Arc::new(Mutex::new(Some(rx))),
        reasons: Arc::new(Mutex::new(Vec::new())),
        pid: Arc::new(Mutex::new(None)),
    };
    let (reasons, pid) = (c.reasons.clone(), c.pid.clone());
    let port = common::controller(move |s, _| serve(s, c.clone()));
    let dir = std::env::temp_dir().join(format!("sdnbench-link-order-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = serde_json::json!({
        "spec": "linear,2",
        "switches": [{"dpid": 1, "ports": 2}, {"dpid": 2, "ports": 2}],
        "links": [[1, 1, 2, 1]],
        "hosts": [],
    });
    let path = dir.join("linear2.json");
    std::fs::write(&path, net.to_string()).unwrap();
    let child = common::engine_command()
        .args(["--mode", "network", "--network", path.to_str().unwrap(), "--controller", &format!("127.0.0.1:{port}")])
        .args(["--of", "1.3", "--workers", "1", "--loops", "4", "--loop-ms", "1000", "--warmup", "0", "--settle-ms", "0", "--quiet"])
        .args(["--json", dir.join("r.json").to_str().unwrap()])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    *pid.lock().unwrap() = Some(child.id() as i32);
    let out = child.wait_with_output().unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(out.status.success(), "engine: {}", String::from_utf8_lossy(&out.stderr));
    let r = reasons.lock().unwrap();
    let no_match = r.iter().filter(|&&x| x == 0).count();
    eprintln!("rounds {} NO_MATCH {} ACTION {}", r.len(), no_match, r.iter().filter(|&&x| x == 1).count());
    assert_eq!(r.len(), ROUNDS, "every round's probe came back");
    assert_eq!(no_match, 0, "the frame ran before the flow-mod waiting in the socket in {no_match} of {} rounds", r.len());
}
