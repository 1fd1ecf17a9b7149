//! Flow-table insert and lookup rates at 1k, 100k and 1M entries:
//! `cargo bench -p ofswitch --bench flow_table`.
//!
//! Each benchmark handles one entry (insert) or one frame key (lookup) per iteration, so the
//! throughput line reads as operations per second. Cases:
//! - `exact`: every field matched (OF1.0 `wildcards = 0`, as a reactive controller installs
//!   from a packet-in): one subtable, one hash probe per lookup. Lookup cost should be flat in
//!   table size (up to cache effects).
//! - `l2`: `in_port + eth_dst` entries (an OF1.3 learning switch): also one subtable.
//! - `prefix32`: entries spread over 32 masks (exact ip_src, ip_dst /1 ... /32, priority = prefix
//!   length, like longest-prefix routes per source): a lookup probes subtables until no higher priority is left, so it
//!   pays per distinct mask, still not per entry.
//!
//! Inserts are measured into a table already holding N entries (each timed batch is removed
//! again, untimed, so N stays N). `lookup` cycles through 65,536 keys of present entries, drawn
//! across the whole table (so a big table is measured out of cache: memory latency, not the
//! algorithm, is what grows); `lookup_hot` cycles through 256 of them (in cache: the
//! algorithm's cost alone, which is what must stay flat).

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ofswitch::flow_match::FlowMatch;
use ofswitch::flow_table::{Entry, FlowModReq, FlowTable};
use ofswitch::key::{at, Key};
use std::time::{Duration, Instant};

const SIZES: [usize; 3] = [1_000, 100_000, 1_000_000];

#[derive(Clone, Copy, PartialEq)]
enum Case {
    Exact,
    L2,
    Prefix32,
}

impl Case {
    fn name(self) -> &'static str {
        match self {
            Case::Exact => "exact",
            Case::L2 => "l2",
            Case::Prefix32 => "prefix32",
        }
    }
}

/// The key of frame number `i`: distinct in every field the cases match on.
fn frame_key(i: u64) -> Key {
    let mut k = Key::default();
    let b = i.to_be_bytes();
    k.set(at::IN_PORT, &(1 + (i % 48) as u32).to_be_bytes());
    k.set(at::ETH_DST, &[0x02, b[3], b[4], b[5], b[6], b[7]]);
    k.set(at::ETH_SRC, &[0x02, 0xee, b[4], b[5], b[6], b[7]]);
    k.set(at::ETH_TYPE, &[0x08, 0x00]);
    k.0[at::IP_PROTO] = 17;
    k.set(at::IP_SRC, &[10, b[5], b[6], b[7]]);
    // spread ip_dst over the 32-bit space (prefix case): a multiplicative hash of i
    k.set(at::IP_DST, &((i as u32).wrapping_mul(0x9e37_79b1)).to_be_bytes());
    k.set(at::TP_SRC, &[0x30, 0x39]);
    k.set(at::TP_DST, &[b[6], b[7]]);
    k
}

fn entry(case: Case, i: u64) -> Entry {
    let k = frame_key(i);
    let (mask, priority) = match case {
        Case::Exact => (Key::FULL, 100),
        Case::L2 => {
            let mut m = Key::default();
            m.set(at::IN_PORT, &[0xff; 4]);
            m.set(at::ETH_DST, &[0xff; 6]);
            (m, 100)
        }
        Case::Prefix32 => {
            let len = 1 + (i % 32) as u32;
            let mut m = Key::default();
            m.set(at::ETH_TYPE, &[0xff; 2]);
            m.set(at::IP_SRC, &[0xff; 4]);
            m.set(at::IP_DST, &(u32::MAX << (32 - len)).to_be_bytes());
            (m, len as u16)
        }
    };
    Entry { priority, m: FlowMatch { value: k.and(&mask), mask }, ..Default::default() }
}

fn add(t: &mut FlowTable, e: Entry) {
    let mut removed = Vec::new();
    t.apply(FlowModReq { command: 0, table: 0, entry: e, ..Default::default() }, 0, &mut removed);
}

fn delete_strict(t: &mut FlowTable, e: Entry) {
    let mut removed = Vec::new();
    t.apply(FlowModReq { command: 4, table: 0, entry: e, ..Default::default() }, 0, &mut removed);
}

fn table(case: Case, n: usize) -> FlowTable {
    let mut t = FlowTable::new(1, 0);
    for i in 0..n as u64 {
        add(&mut t, entry(case, i));
    }
    t
}

/// Resident set size of this process (Linux), for the memory cost per entry.
fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm.split_whitespace().nth(1).and_then(|x| x.parse().ok()).unwrap_or(0);
    pages * 4096
}

fn benches(c: &mut Criterion) {
    for case in [Case::Exact, Case::L2, Case::Prefix32] {
        let mut g = c.benchmark_group(format!("flow_table/{}", case.name()));
        g.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
        g.throughput(Throughput::Elements(1));
        for n in SIZES {
            let before = rss_bytes();
            let mut t = table(case, n);
            if n == 1_000_000 {
                let per = (rss_bytes().saturating_sub(before)) as f64 / n as f64;
                eprintln!("flow_table/{}: {n} entries, {per:.0} bytes of RSS per entry", case.name());
            }
            let mut next = n as u64;
            g.bench_with_input(BenchmarkId::new("insert", n), &n, |b, _| {
                b.iter_custom(|iters| {
                    // batches of at most 1,000 entries, removed again untimed: the table stays
                    // at n (+ < 1,000) entries however many iterations criterion asks for
                    let mut took = Duration::ZERO;
                    let mut left = iters;
                    while left > 0 {
                        let k = left.min(1_000);
                        let fresh: Vec<Entry> = (0..k).map(|j| entry(case, next + j)).collect();
                        let start = Instant::now();
                        for e in fresh.iter().cloned() {
                            add(&mut t, e);
                        }
                        took += start.elapsed();
                        for e in fresh {
                            delete_strict(&mut t, e);
                        }
                        next += k;
                        left -= k;
                    }
                    took
                })
            });
            assert_eq!(t.len(), n);
            let keys: Vec<Key> = (0..65_536u64).map(|j| frame_key(j.wrapping_mul(2_654_435_761) % n as u64)).collect();
            let mut j = 0usize;
            g.bench_with_input(BenchmarkId::new("lookup", n), &n, |b, _| {
                b.iter(|| {
                    j = (j + 1) & 0xffff;
                    black_box(t.lookup(0, &keys[j], 0, 64))
                })
            });
            // the same lookups over 256 keys that stay in cache: the algorithm's cost alone
            let hot: Vec<Key> = keys[..256].to_vec();
            g.bench_with_input(BenchmarkId::new("lookup_hot", n), &n, |b, _| {
                b.iter(|| {
                    j = (j + 1) & 0xff;
                    black_box(t.lookup(0, &hot[j], 0, 64))
                })
            });
            let c = t.counters(0);
            assert_eq!(c.lookups, c.matched, "{}: every key is present, every lookup hits", case.name());
        }
        g.finish();
    }
}

criterion_group!(flow_table_benches, benches);
criterion_main!(flow_table_benches);
