//! Packet-in latency (a frame into a data port -> its PACKET_IN at the controller) and
//! packet-out latency (PACKET_OUT written -> the frame out of a data port).
//!
//! Workload: `reps` single probes, one at a time (the next after the previous arrived or timed
//! out). Packet-in: the table holds only a table-miss-to-controller entry; latency = time the
//! whole PACKET_IN was read - userspace tx time of the probe. Packet-out: a PACKET_OUT carrying
//! the probe to the destination port; latency = kernel receive time on that port - time the
//! PACKET_OUT was written.

use std::time::Duration;

use ofcontroller::build::{self, FlowSpec, Next};
use ofcontroller::Event;
use serde_json::json;

use super::{Bench, TestOut, HARNESS_FLOW};
use crate::clock::ms;
use crate::dataplane::{next_seq, send_probe, Capture};
use crate::probe::Probe;

const WAIT: Duration = Duration::from_secs(1);

pub fn packet_in(b: &mut Bench) -> Result<Vec<TestOut>, String> {
    b.reset()?;
    b.install(&[FlowSpec::miss(0, Next::Controller)])?;
    let reps = b.opts.reps;
    let mut lat = Vec::new();
    let mut lost = 0;
    for _ in 0..reps {
        let (flow, seq) = (HARNESS_FLOW + 0x100, next_seq());
        let tx = send_probe(b.src(), flow, seq)?;
        let at = b.s.wait_for(WAIT, |e| match e {
            Event::PacketIn { at, packet_in, .. } => Probe::parse(&packet_in.data).filter(|p| p.flow == flow && p.seq == seq).map(|_| *at),
            _ => None,
        })?;
        match at {
            Some(at) => lat.push(ms(tx, at)),
            None => lost += 1,
        }
        b.s.clear_backlog();
    }
    let mut out = TestOut::new("packet-in", json!({"reps": reps}));
    out.series("packet_in_latency", "ms", lat, json!({}));
    out.count("sent", reps);
    out.count("lost", lost);
    Ok(vec![out])
}

pub fn packet_out(b: &mut Bench) -> Result<Vec<TestOut>, String> {
    b.reset()?;
    b.install(&[FlowSpec::miss(0, Next::Drop)])?;
    let cap = Capture::start(b.dst().sock.clone(), true, None, 0);
    let (reps, v, port, tag, size) = (b.opts.reps, b.v(), b.dst().port_no, b.src().tag, b.src().frame_size);
    let mut lat = Vec::new();
    let mut lost = 0;
    for _ in 0..reps {
        let seq = next_seq();
        let frame = Probe { flow: HARNESS_FLOW + 0x200, seq, tx: 0, prev_tx: 0 }.to_vec(tag, size);
        let (_, sent) = b.s.send(build::packet_out(v, port, &frame))?;
        match cap.wait_seq(seq, WAIT) {
            Some(r) => lat.push(ms(sent, r.at)),
            None => lost += 1,
        }
        b.s.pump(Duration::ZERO)?;
    }
    cap.stop()?;
    let errors = b.s.backlog.iter().filter(|e| matches!(e, Event::Error { .. })).count();
    let mut out = TestOut::new("packet-out", json!({"reps": reps}));
    out.series("packet_out_latency", "ms", lat, json!({}));
    out.count("sent", reps);
    out.count("lost", lost);
    out.count("errors", errors);
    Ok(vec![out])
}
