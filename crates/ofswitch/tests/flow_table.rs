//! The indexed flow table against a linear reference model: same lookups, same flow-mod
//! results, invariants after every step (seeded pseudo-random operations, no dependency).

use ofswitch::flow_match::FlowMatch;
use ofswitch::flow_table::{Applied, Entry, FlowModReq, FlowTable};
use ofswitch::key::{at, Key};
use ofwire::flow_removed::reason as removed;

/// xorshift64*: deterministic, seeded.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A small universe so that matches collide: in_port 1..=3, eth_dst byte 0..=3, ip_dst /0, /8,
/// /16 or /32 over 10.{0,1}.x.y.
fn key(r: &mut Rng) -> Key {
    let mut k = Key::default();
    k.set(at::IN_PORT, &(1 + r.below(3) as u32).to_be_bytes());
    k.set(at::ETH_DST, &[0, 0, 0, 0, 0, r.below(4) as u8]);
    k.set(at::ETH_TYPE, &[8, 0]);
    k.set(at::IP_DST, &[10, r.below(2) as u8, r.below(2) as u8, r.below(3) as u8]);
    k
}

fn flow_match(r: &mut Rng) -> FlowMatch {
    let k = key(r);
    let mut mask = Key::default();
    if r.below(2) == 0 {
        mask.set(at::IN_PORT, &[0xff; 4]);
    }
    if r.below(2) == 0 {
        mask.set(at::ETH_DST, &[0xff; 6]);
    }
    let prefix = [0u32, 8, 16, 32][r.below(4) as usize];
    mask.set(at::IP_DST, &(if prefix == 0 { 0 } else { u32::MAX << (32 - prefix) }).to_be_bytes());
    if r.below(8) == 0 {
        mask = Key::FULL;
    }
    FlowMatch { value: k.and(&mask), mask }
}

fn req(r: &mut Rng, command: u16) -> FlowModReq {
    let entry = Entry { priority: r.below(4) as u16, cookie: r.below(3), m: flow_match(r), flags: 1, ..Default::default() };
    FlowModReq { command, table: 0, cookie_mask: if r.below(2) == 0 { 0 } else { u64::MAX }, out_port: None, v10: false, entry }
}

/// The reference: a list, scanned.
#[derive(Default)]
struct Model {
    entries: Vec<(u16, FlowMatch, u64)>,
}

impl Model {
    fn lookup(&self, k: &Key) -> Option<u16> {
        self.entries.iter().filter(|e| e.1.matches(k)).map(|e| e.0).max()
    }
    fn apply(&mut self, q: &FlowModReq, max: usize) -> Applied {
        let e = &q.entry;
        let sel = |x: &(u16, FlowMatch, u64), strict: bool| {
            (if strict { x.1 == e.m && x.0 == e.priority } else { e.m.covers(&x.1) }) && (x.2 & q.cookie_mask) == (e.cookie & q.cookie_mask)
        };
        match q.command {
            0 => {
                if let Some(x) = self.entries.iter_mut().find(|x| x.1 == e.m && x.0 == e.priority) {
                    x.2 = e.cookie;
                    return Applied::Replaced;
                }
                if self.entries.len() >= max {
                    return Applied::TableFull;
                }
                self.entries.push((e.priority, e.m, e.cookie));
                Applied::Added
            }
            1 | 2 => Applied::Modified(self.entries.iter().filter(|x| sel(x, q.command == 2)).count()),
            _ => {
                let before = self.entries.len();
                self.entries.retain(|x| !sel(x, q.command == 4));
                Applied::Deleted(before - self.entries.len())
            }
        }
    }
}

#[test]
fn indexed_table_agrees_with_a_linear_scan() {
    for seed in 1..=20u64 {
        let mut r = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let max = 40;
        let mut t = FlowTable::new(1, max);
        let mut m = Model::default();
        for step in 0..400 {
            let command = [0, 0, 0, 0, 1, 2, 3, 4][r.below(8) as usize];
            let q = req(&mut r, command);
            let mut removed = Vec::new();
            let got = t.apply(q.clone(), step, &mut removed);
            let want = m.apply(&q, max);
            assert_eq!(got, want, "seed {seed} step {step} {q:?}");
            if let Applied::Deleted(n) = got {
                assert_eq!(removed.len(), n, "every deleted entry had SEND_FLOW_REM");
                assert!(removed.iter().all(|x| x.1 == removed::DELETE));
            }
            t.check().unwrap_or_else(|e| panic!("seed {seed} step {step}: {e}"));
            assert_eq!(t.len(), m.entries.len());
            for _ in 0..5 {
                let k = key(&mut r);
                let hit = t.lookup(0, &k, step, 60).map(|s| t.get(s).priority);
                assert_eq!(hit, m.lookup(&k), "seed {seed} step {step}");
            }
        }
        let c = t.counters(0);
        assert_eq!(c.lookups, 2000);
        let hits: u64 = t.entries().map(|e| e.packets).sum();
        assert!(hits <= c.matched, "removed entries took some of the hits with them");
    }
}

#[test]
fn out_port_filter_and_all_tables() {
    use ofwire::{Action, Instruction};
    let mut t = FlowTable::new(3, 0);
    let mut removed = Vec::new();
    for (table, port) in [(0u8, 1u32), (1, 2), (2, 1)] {
        let entry = Entry {
            table,
            priority: 1,
            instructions: vec![Instruction::ApplyActions(vec![Action::Output { port, max_len: 0 }])],
            ..Default::default()
        };
        let q = FlowModReq { command: 0, table, entry, ..Default::default() };
        assert_eq!(t.apply(q, 0, &mut removed), Applied::Added);
    }
    let del = FlowModReq { command: 3, table: 0xff, out_port: Some(1), ..Default::default() };
    assert_eq!(t.apply(del, 0, &mut removed), Applied::Deleted(2));
    assert_eq!(t.counters(1).active, 1);
    let bad = FlowModReq { command: 0, table: 7, ..Default::default() };
    assert_eq!(t.apply(bad, 0, &mut removed), Applied::BadTable);
    t.check().unwrap();
}
