//! The packet-in hot path per traffic profile: `cargo bench -p ofswitch --bench packet_in`.
//!
//! One request (`PacketInGen::emit`, buffered, miss_send_len 128) per iteration into a reused
//! output buffer, as the engine's pacer calls it; the throughput line reads as requests per
//! second per core. `unique-pairs` is the engine's historical traffic: compare it with the same
//! bench run on an older checkout to see that profiles and unique addresses cost nothing.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ofswitch::{PacketInGen, Profile};
use std::time::Duration;

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("packet_in");
    g.warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    g.throughput(Throughput::Elements(1));
    for profile in Profile::ALL {
        for (vname, v) in [("of10", 1u8), ("of13", 4u8)] {
            let mut gen = PacketInGen::with_profile(profile, v, 3, 1000, 4, 128);
            let mut out: Vec<u8> = Vec::with_capacity(1 << 20);
            let mut seq = 0u32;
            g.bench_function(format!("{}/{vname}", profile.name()), |b| {
                b.iter(|| {
                    if out.len() > (1 << 20) - 512 {
                        out.clear();
                    }
                    seq = seq.wrapping_add(1);
                    gen.emit(&mut out, seq, Some(128));
                    black_box(out.len())
                })
            });
        }
    }
    g.finish();
}

criterion_group!(packet_in_benches, benches);
criterion_main!(packet_in_benches);
