//! Hot-path throughput of the codec: `cargo bench -p ofwire --bench codec`.
//!
//! Each benchmark handles one message per iteration, so messages/s = 1 / (time per iter).
//! Time is the thread's CPU time (see cpu_time.rs): the throughput line reads directly as
//! messages per second per core. `full_*` decode and `*_owned` encode the same messages
//! through the owned `Message` values: the baseline, in the same run, that the zero-copy
//! views and `PacketInRef` are compared with.

mod cpu_time;

use cpu_time::CpuTime;
use criterion::measurement::Measurement;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ofwire::frame::{udp_frame, UdpFrameSpec};
use ofwire::{
    flow_mod, packet_out, Action, Body, FlowMod, Header, Instruction, Match10, Message, Oxm, OxmMatch, PacketInRef, PacketOut, Version,
};

fn flow_mod_bytes(v: Version) -> Vec<u8> {
    let mut fm = FlowMod {
        command: 0,
        idle_timeout: 10,
        priority: 100,
        buffer_id: 0x1234,
        out_port: 0xffffffff,
        out_group: 0xffffffff,
        ..Default::default()
    };
    match v {
        Version::V10 => {
            fm.match10 = Match10 {
                wildcards: 0,
                in_port: 1,
                dl_src: [2, 0, 0, 0, 0, 1],
                dl_dst: [2, 0, 0, 0, 0, 2],
                dl_type: 0x0800,
                ..Default::default()
            };
            fm.actions = vec![Action::Output { port: 2, max_len: 0 }];
        }
        Version::V13 => {
            fm.match_ = OxmMatch::new(vec![Oxm::in_port(1), Oxm::eth_dst([2, 0, 0, 0, 0, 2]), Oxm::eth_src([2, 0, 0, 0, 0, 1])]);
            fm.instructions = vec![Instruction::ApplyActions(vec![Action::Output { port: 2, max_len: 0 }])];
        }
    }
    Message::new(v, 7, Body::FlowMod(fm)).to_vec()
}

fn packet_out_bytes(v: Version, frame: &[u8]) -> Vec<u8> {
    let po =
        PacketOut { buffer_id: 0xffffffff, in_port: 1, actions: vec![Action::Output { port: 0xfffb, max_len: 0 }], data: frame.to_vec() };
    Message::new(v, 8, Body::PacketOut(po)).to_vec()
}

fn frame64() -> Vec<u8> {
    udp_frame(&UdpFrameSpec {
        src_mac: [2, 0, 0, 0, 0, 1],
        dst_mac: [2, 0, 0, 0, 0, 2],
        src_ip: [10, 0, 0, 1],
        dst_ip: [10, 0, 0, 2],
        src_port: 1,
        dst_port: 2,
        frame_len: 64,
    })
}

fn decode<M: Measurement>(c: &mut Criterion<M>) {
    let frame = frame64();
    let mut g = c.benchmark_group("decode");
    g.throughput(Throughput::Elements(1));
    for (name, v) in [("1.0", Version::V10), ("1.3", Version::V13)] {
        let fm = flow_mod_bytes(v);
        g.bench_function(format!("header+flow_mod_view/{name}"), |b| {
            b.iter(|| {
                let h = Header::new_checked(black_box(&fm[..])).unwrap();
                let p = flow_mod::Packet::new_checked(black_box(&fm[..])).unwrap();
                black_box((h.msg_type(), h.xid(), p.buffer_id()))
            })
        });
        let po = packet_out_bytes(v, &frame);
        g.bench_function(format!("header+packet_out_view/{name}"), |b| {
            b.iter(|| {
                let h = Header::new_checked(black_box(&po[..])).unwrap();
                let p = packet_out::Packet::new_checked(black_box(&po[..])).unwrap();
                black_box((h.msg_type(), p.buffer_id(), p.data().len()))
            })
        });
        g.bench_function(format!("full_flow_mod/{name}"), |b| b.iter(|| black_box(Message::parse(black_box(&fm)).unwrap())));
        g.bench_function(format!("full_packet_out/{name}"), |b| b.iter(|| black_box(Message::parse(black_box(&po)).unwrap())));
    }
    g.finish();
}

fn encode<M: Measurement>(c: &mut Criterion<M>) {
    let frame = frame64();
    let mut g = c.benchmark_group("encode");
    g.throughput(Throughput::Elements(1));
    let mut buf = vec![0u8; 256];
    for (name, v) in [("1.0", Version::V10), ("1.3", Version::V13)] {
        let mut xid = 0u32;
        g.bench_function(format!("packet_in_64B/{name}"), |b| {
            b.iter(|| {
                xid = xid.wrapping_add(1);
                let pi = PacketInRef::miss(black_box(3), black_box(&frame));
                black_box(pi.emit(v, xid, &mut buf))
            })
        });
        let msg = Message::new(v, 1, Body::PacketIn(PacketInRef::miss(3, &frame).to_owned(v)));
        g.bench_function(format!("packet_in_64B_owned/{name}"), |b| b.iter(|| black_box(black_box(&msg).emit(&mut buf))));
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(CpuTime);
    targets = decode, encode
}
criterion_main!(benches);
