//! Frames through one emulated switch: `cargo bench -p ofswitch --bench forward`.
//!
//! A 1.3 switch holds 1,000 learned `in_port + eth_dst -> output` flows (as a learning
//! controller installs them) and a table-miss entry; each iteration is one
//! `receive_frame` that matches a flow and lands on `tx` (drained every 1,000 frames), so the
//! throughput line reads as forwarded frames per second per core.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ofswitch::{frames, Switch, SwitchConfig};
use ofwire::{Action, Body, FlowMod, Instruction, Message, Oxm, OxmMatch};
use std::time::Duration;

fn msg(body: Body) -> Vec<u8> {
    let mut out = Vec::new();
    Message { version: 4, xid: 1, body }.emit_append(&mut out);
    out
}

fn flow(priority: u16, m: OxmMatch, port: u32) -> Vec<u8> {
    let ins = vec![Instruction::ApplyActions(vec![Action::Output { port, max_len: 0xffff }])];
    msg(Body::FlowMod(FlowMod {
        priority,
        out_port: u32::MAX,
        out_group: u32::MAX,
        buffer_id: u32::MAX,
        match_: m,
        instructions: ins,
        ..Default::default()
    }))
}

fn benches(c: &mut Criterion) {
    let mut cfg = SwitchConfig::new(1);
    cfg.ports = 4;
    cfg.keep_flows = true;
    cfg.forward = true;
    let mut s = Switch::new(cfg);
    let mut outs = vec![Vec::new()];
    s.start(0, &mut outs[0]);
    s.on_message(0, &msg(Body::Hello(Default::default())), &mut outs[0]).unwrap();
    s.on_message(0, &msg(Body::FeaturesRequest), &mut outs[0]).unwrap();
    s.on_message(0, &flow(0, OxmMatch::default(), 0xffff_fffd), &mut outs[0]).unwrap();
    let hosts = 1000u32;
    for h in 1..=hosts {
        let m = OxmMatch::new(vec![Oxm::in_port(1), Oxm::eth_dst(frames::host_mac(0, h))]);
        s.on_message(0, &flow(1, m, 2 + h % 3), &mut outs[0]).unwrap();
    }
    outs[0].clear();
    let frames: Vec<Vec<u8>> = (1..=hosts).map(|h| frames::udp_frame(0, hosts, 1 + (h % hosts), h, 0, 64)).collect();
    let mut g = c.benchmark_group("forward");
    g.warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    g.throughput(Throughput::Elements(1));
    let mut i = 0usize;
    g.bench_function("receive_frame/l2_1000_flows", |b| {
        b.iter(|| {
            i = (i + 1) % frames.len();
            if s.tx.len() >= 1000 {
                s.tx.clear();
            }
            black_box(s.receive_frame(0, 1, &frames[i], &mut outs))
        })
    });
    g.finish();
    assert_eq!(s.counters.missed, 0, "every frame matched a learned flow");
    assert!(outs[0].is_empty(), "no packet-ins");
}

criterion_group!(forward_benches, benches);
criterion_main!(forward_benches);
