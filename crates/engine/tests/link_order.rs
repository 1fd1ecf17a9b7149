//! Known answer: a controller's messages already waiting in a switch's socket are applied before
//! a frame a link delivers to that switch, as on Open vSwitch (all bridges in one main loop:
//! `bridge_run` reads each bridge's connection before the next turn polls the ports; see
//! docs/conformance.md, #8).
//!
//! linear,2 over one worker against a scripted OpenFlow 1.3 controller. Each round it writes to
//! s2 a flow-mod (priority 100, match all, output CONTROLLER) and only then, to s1, a packet-out
//! of an LLDP probe out of s1's link port; s2 raises the probe as a packet-in: reason ACTION
//! (its entry) when the flow-mod came first, NO_MATCH (its table-miss entry) when the frame
//! did. Then it deletes the entry (with a barrier) and goes again. Every round must read ACTION.

mod common;

use ofwire::frame::{lldp_frame, Lldp};
use ofwire::port::ports::{ANY13, CONTROLLER13};
use ofwire::{Action, Body, FlowMod, Instruction, Message, MsgType, PacketOut, Version};
use std::io::Write;
use std::net::TcpStream;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const ROUNDS: usize = 150;

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

/// What the two connections share: each switch's stream by dpid, and s2's packet-in reasons and
/// barrier replies.
#[derive(Clone)]
struct Ctl {
    streams: Arc<Mutex<[Option<TcpStream>; 2]>>,
    events: Arc<Mutex<Sender<Option<u8>>>>,
    rounds: Arc<Mutex<Option<Receiver<Option<u8>>>>>,
    reasons: Arc<Mutex<Vec<u8>>>,
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
                    let both = c.streams.lock().unwrap().iter().all(Option::is_some);
                    if both {
                        if let Some(rx) = c.rounds.lock().unwrap().take() {
                            let c = c.clone();
                            std::thread::spawn(move || drive(c, rx));
                        }
                    }
                }
                Body::PacketIn(pi) => drop(c.events.lock().unwrap().send(Some(pi.reason))),
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

/// The rounds: flow-mod to s2, then the probe out of s1's port 1 (linked to s2's port 1).
fn drive(c: Ctl, rx: Receiver<Option<u8>>) {
    let (mut s1, mut s2) = {
        let st = c.streams.lock().unwrap();
        (st[0].as_ref().unwrap().try_clone().unwrap(), st[1].as_ref().unwrap().try_clone().unwrap())
    };
    std::thread::sleep(Duration::from_millis(100)); // the table-miss entries are in
    for _ in 0..ROUNDS {
        s2.write_all(&flow_mod(0, 100, 4)).unwrap();
        s1.write_all(&probe_out(1)).unwrap();
        let Ok(Some(reason)) = rx.recv_timeout(Duration::from_secs(2)) else { return };
        c.reasons.lock().unwrap().push(reason);
        let mut del = flow_mod(4, 100, 5); // DELETE_STRICT
        Message::new(Version::V13, 6, Body::BarrierRequest).emit_append(&mut del);
        s2.write_all(&del).unwrap();
        while let Ok(Some(_)) = rx.recv_timeout(Duration::from_secs(2)) {} // up to the barrier reply
    }
}

#[test]
fn flow_mods_waiting_in_the_socket_come_before_a_frame_from_the_link() {
    let (tx, rx) = channel();
    let c = Ctl {
        streams: Arc::new(Mutex::new([None, None])),
        events: Arc::new(Mutex::new(tx)),
        rounds: Arc::new(Mutex::new(Some(rx))),
        reasons: Arc::new(Mutex::new(Vec::new())),
    };
    let reasons = c.reasons.clone();
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
    let st = common::engine_command()
        .args(["--mode", "network", "--network", path.to_str().unwrap(), "--controller", &format!("127.0.0.1:{port}")])
        .args(["--of", "1.3", "--workers", "1", "--loops", "3", "--loop-ms", "1000", "--warmup", "0", "--settle-ms", "0", "--quiet"])
        .args(["--json", dir.join("r.json").to_str().unwrap()])
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(st.status.success(), "engine: {}", String::from_utf8_lossy(&st.stderr));
    let r = reasons.lock().unwrap();
    let no_match = r.iter().filter(|&&x| x == 0).count();
    eprintln!("rounds {} NO_MATCH {} ACTION {}", r.len(), no_match, r.iter().filter(|&&x| x == 1).count());
    assert_eq!(r.len(), ROUNDS, "every round's probe came back");
    assert_eq!(no_match, 0, "the flow-mod written before the packet-out came after the frame in {no_match} of {} rounds", r.len());
}
