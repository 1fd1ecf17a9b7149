//! Flow-table capacity: add flows in batches, each closed by a barrier, until the switch
//! refuses one (OFPET_FLOW_MOD_FAILED, e.g. TABLE_FULL) or --max-flows is reached; then ask
//! how many flows the table holds (aggregate stats) and probe a sample of the accepted flows on
//! the data plane. A switch that accepts flows it does not hold or forward fails silently.
//!
//! Figures: `accepted` (flow-mods before the first refusal), `table_flows` (aggregate
//! flow_count), `sample_forwarded`/`sample_size`, the verdict, and per batch the time from its
//! first flow-mod written to its barrier reply.

use std::collections::HashMap;
use std::time::Duration;

use ofcontroller::build::{self, FlowSpec, Next, StatsKind};
use ofcontroller::Event;
use ofwire::{Body, StatsReplyBody};
use serde_json::json;

use super::{Bench, TestOut, PRIORITY};
use crate::clock::ms;
use crate::dataplane::{next_seq, send_probe, Capture};
use crate::probe::flow_mac;

const SAMPLE: u32 = 64;
const SAMPLE_ROUNDS: u32 = 3;

pub fn run(b: &mut Bench) -> Result<Vec<TestOut>, String> {
    b.reset()?;
    let (max, batch, v) = (b.opts.max_flows, b.opts.batch.max(1), b.v());
    let out_port = b.dst().port_no;
    let mut accepted = 0u32;
    let mut batch_ms = Vec::new();
    let mut refusal = None;
    while accepted < max && refusal.is_none() {
        let k = batch.min(max - accepted);
        let specs: Vec<_> = (accepted..accepted + k).map(|i| FlowSpec::to_dst(0, PRIORITY, flow_mac(i), Next::Output(out_port))).collect();
        let bodies = specs.iter().map(|s| b.flow(s)).collect::<Result<Vec<_>, _>>()?;
        let xs = b.s.send_many(bodies)?;
        let (_, replied) = b.s.barrier(b.opts.timeout)?;
        batch_ms.push(ms(xs[0].1, replied));
        let pos: HashMap<u32, u32> = xs.iter().enumerate().map(|(i, (x, _))| (*x, i as u32)).collect();
        let first_bad =
            b.s.take_flow_mod_errors()
                .into_iter()
                .filter_map(|e| match e {
                    Event::Error { xid, error, .. } => pos.get(&xid).map(|p| (*p, error)),
                    _ => None,
                })
                .min_by_key(|(p, _)| *p);
        match first_bad {
            Some((p, error)) => {
                accepted += p;
                let (t, c) = error.names(v);
                refusal = Some(format!("{t}/{c}"));
            }
            None => accepted += k,
        }
    }
    let table_flows = aggregate_count(b)?;
    let (size, forwarded) = sample(b, accepted)?;
    let verdict = match (&refusal, table_flows >= accepted as u64 && forwarded == size) {
        (_, false) => "silent-failure",
        (Some(_), true) => "refused-when-full",
        (None, true) => "max-reached",
    };
    let mut out = TestOut::new("capacity", json!({"max_flows": max, "batch": batch}));
    out.series("capacity_batch", "ms", batch_ms, json!({"batch": batch}));
    out.series("capacity_flows", "flows", vec![accepted as f64], json!({}));
    out.count("accepted", accepted);
    out.count("table_flows", table_flows);
    out.count("refusal", refusal.map(serde_json::Value::from).unwrap_or(serde_json::Value::Null));
    out.count("sample_size", size);
    out.count("sample_forwarded", forwarded);
    out.count("verdict", verdict);
    b.reset()?;
    Ok(vec![out])
}

fn aggregate_count(b: &mut Bench) -> Result<u64, String> {
    let (xid, _) = b.s.send(build::stats(b.v(), StatsKind::Aggregate))?;
    match b.s.reply(xid, b.opts.timeout)? {
        Event::Reply { parts, .. } => Ok(parts
            .iter()
            .map(|p| match p {
                Body::StatsReply(r) => match &r.body {
                    StatsReplyBody::Aggregate(a) => a.flow_count as u64,
                    _ => 0,
                },
                _ => 0,
            })
            .sum()),
        e => Err(format!("aggregate stats failed: {e:?}")),
    }
}

/// Probes up to SAMPLE accepted flows spread over 0..accepted (always the last one).
fn sample(b: &mut Bench, accepted: u32) -> Result<(u32, u32), String> {
    if accepted == 0 {
        return Ok((0, 0));
    }
    let step = (accepted / SAMPLE).max(1);
    let mut flows: Vec<u32> = (0..accepted).step_by(step as usize).take(SAMPLE as usize).collect();
    if *flows.last().unwrap() != accepted - 1 {
        flows.push(accepted - 1);
    }
    let cap = Capture::start(b.dst().sock.clone(), true, None, 0);
    let mut missing = flows.clone();
    // A probe can meet a datapath cache the switch has not revalidated yet: a flow only counts
    // as missing after it failed every round.
    for round in 0..SAMPLE_ROUNDS {
        if round > 0 {
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut sent = HashMap::new();
        for &f in &missing {
            let seq = next_seq();
            send_probe(b.src(), f, seq)?;
            sent.insert(seq, f);
        }
        let got = cap.collect(&sent.keys().copied().collect(), Duration::from_millis(300));
        let still: Vec<u32> = sent.iter().filter(|(s, _)| !got.contains(s)).map(|(_, f)| *f).collect();
        missing = still;
        if missing.is_empty() {
            break;
        }
    }
    let forwarded = flows.len() as u32 - missing.len() as u32;
    cap.stop()?;
    b.s.clear_backlog();
    Ok((flows.len() as u32, forwarded))
}
