//! First-packet versus next-packet service time: the table-miss path through the controller
//! against the installed-flow path (the OVS vs CPqD study's first-packet question, measured at
//! the switch instead of estimated from the hosts).
//!
//! Workload, `reps` times with a fresh destination MAC each: send probe 1; on its PACKET_IN,
//! sdnbench answers at once with a FLOW_MOD (that MAC -> destination port) and a PACKET_OUT
//! releasing the frame; when probe 1 is out, send probe 2, which should hit the new flow (if
//! the switch has not applied the flow yet and sends it to the controller again, it is counted
//! and another next packet is sent).
//! Figures: first_packet = rx(1) - tx(1); next_packet = rx(2) - tx(2); packet_in = PACKET_IN
//! read - tx(1); controller = our own reaction (PACKET_IN read -> replies written), to subtract.

use std::time::{Duration, Instant};

use ofcontroller::build::{self, FlowSpec, Next, NO_BUFFER};
use ofcontroller::Event;
use serde_json::json;

use super::{Bench, TestOut, PRIORITY};
use crate::clock::{ms, now_ns};
use crate::dataplane::{next_seq, send_probe, Capture, Rx};
use crate::probe::{flow_mac, Probe};

const WAIT: Duration = Duration::from_secs(1);
const MAX_NEXT_TRIES: u32 = 20;

pub fn run(b: &mut Bench) -> Result<Vec<TestOut>, String> {
    b.reset()?;
    b.install(&[FlowSpec::miss(0, Next::Controller)])?;
    let cap = Capture::start(b.dst().sock.clone(), true, None, 0);
    let (v, out_port, reps) = (b.v(), b.dst().port_no, b.opts.reps);
    let (mut first, mut next, mut pin, mut ctl) = (vec![], vec![], vec![], vec![]);
    let (mut lost, mut to_controller) = (0, 0);
    for k in 0..reps {
        let flow = 0x10_0000 + k;
        let s1 = next_seq();
        let t1 = send_probe(b.src(), flow, s1)?;
        let got = b.s.wait_for(WAIT, |e| match e {
            Event::PacketIn { at, packet_in, .. } => {
                Probe::parse(&packet_in.data).filter(|p| p.seq == s1 && p.flow == flow).map(|_| (*at, packet_in.clone()))
            }
            _ => None,
        })?;
        let Some((t_pi, pkt)) = got else {
            lost += 1;
            continue;
        };
        let in_port = pkt.port(v).unwrap_or(build::PORT_CONTROLLER);
        let fm = b.flow(&FlowSpec::to_dst(0, PRIORITY, flow_mac(flow), Next::Output(out_port)))?;
        let buffer = if pkt.buffer_id == NO_BUFFER { NO_BUFFER } else { pkt.buffer_id };
        let po = build::packet_out_of(v, buffer, in_port, out_port, &pkt.data);
        b.s.send_many([fm, po])?;
        let reacted = now_ns();
        let Some(r1) = cap.wait_seq(s1, WAIT) else {
            lost += 1;
            continue;
        };
        let Some((t2, r2, missed)) = next_forwarded(b, &cap, flow)? else {
            lost += 1;
            continue;
        };
        to_controller += missed;
        first.push(ms(t1, r1.at));
        next.push(ms(t2, r2.at));
        pin.push(ms(t1, t_pi));
        ctl.push(ms(t_pi, reacted));
        b.s.clear_backlog();
    }
    cap.stop()?;
    let mut out = TestOut::new("first-packet", json!({"reps": reps}));
    out.series("first_packet", "ms", first, json!({}));
    out.series("next_packet", "ms", next, json!({}));
    out.series("packet_in_latency", "ms", pin, json!({}));
    out.series("controller_reaction", "ms", ctl, json!({}));
    out.count("rounds", reps);
    out.count("lost", lost);
    out.count("next_packets_to_controller", to_controller);
    if to_controller > 0 {
        out.notes.push(format!(
            "{to_controller} next packets still went to the controller after the flow-mod (the switch had not \
             applied it yet); next_packet is timed on the first one forwarded"
        ));
    }
    Ok(vec![out])
}

/// Sends next packets of `flow` until one is forwarded by the new flow (not sent to the
/// controller again); returns its tx and rx and how many went to the controller first.
fn next_forwarded(b: &mut Bench, cap: &Capture, flow: u32) -> Result<Option<(u64, Rx, u32)>, String> {
    let mut missed = 0;
    for _ in 0..MAX_NEXT_TRIES {
        let seq = next_seq();
        let tx = send_probe(b.src(), flow, seq)?;
        let deadline = Instant::now() + WAIT;
        while Instant::now() < deadline {
            if let Some(r) = cap.wait_seq(seq, Duration::from_millis(5)) {
                return Ok(Some((tx, r, missed)));
            }
            let again = b.s.wait_for(Duration::ZERO, |e| match e {
                Event::PacketIn { packet_in, .. } => Probe::parse(&packet_in.data).filter(|p| p.seq == seq).map(|_| ()),
                _ => None,
            })?;
            if again.is_some() {
                missed += 1;
                break;
            }
            b.s.pump(Duration::from_millis(1))?;
        }
    }
    Ok(None)
}
