//! The group table (OpenFlow 1.3 §5.6): all, select, indirect and fast-failover groups, their
//! group-mods checked and refused as Open vSwitch refuses them, the buckets a frame takes, and
//! the counters group stats report.
//!
//! - Group-mod errors, in Open vSwitch's order (`lib/ofp-group.c` `ofputil_decode_group_mod`,
//!   `ofputil_check_group_mod`; `ofproto/ofproto.c` `add_group_start`, `init_group`): a watch
//!   port that is no port → BAD_WATCH; a DELETE with buckets → INVALID_GROUP; an indirect group
//!   without exactly one bucket → INVALID_GROUP; a type above FF → BAD_TYPE; an unknown command
//!   → BAD_COMMAND; a weight outside a select group → INVALID_GROUP; a watch in an all or
//!   indirect group → WATCH_UNSUPPORTED; a fast-failover bucket without one → INVALID_GROUP;
//!   ADD of an existing id → GROUP_EXISTS; ADD on a switch configured without groups (its
//!   group features announce no room) → OUT_OF_GROUPS; ADD of an id above OFPG_MAX →
//!   INVALID_GROUP; MODIFY of a group that does not exist → UNKNOWN_GROUP. DELETE of a group
//!   that does not exist is no error; DELETE of OFPG_ALL empties the table.
//! - Select: weighted and hashed on the flow, so one flow always takes one bucket, and over
//!   many flows each live bucket's share is its weight over the live weights (Open vSwitch's
//!   default since 2.10, its dp_hash method: a symmetric L4 hash into weighted slots; here the
//!   hash picks a point on the cumulative weights). Buckets whose watch port or group is not
//!   live are skipped, as Open vSwitch does (SELECT_LIVENESS).
//! - Fast failover: the first bucket that is live.
//! - A bucket is live when its watch port (if any) is up and not administratively down, and
//!   its watch group (if any) exists and has a live bucket.

use crate::key::{at, Key};
use ofwire::error_names::group_mod_failed;
use ofwire::group_stats::*;
use ofwire::{Bucket, GroupMod};
use std::collections::BTreeMap;

/// The deepest chain of groups a frame follows (a group whose bucket names a group ...).
pub const MAX_CHAIN: usize = 8;

#[derive(Clone, Debug, Default)]
pub struct Group {
    pub typ: u8,
    pub buckets: Vec<Bucket>,
    pub packets: u64,
    pub bytes: u64,
    /// (packets, bytes) per bucket.
    pub bucket_counts: Vec<(u64, u64)>,
    pub created_ns: u64,
}

#[derive(Clone, Debug, Default)]
pub struct Groups {
    /// Whether the switch has a group table at all (its group features say so).
    pub enabled: bool,
    pub map: BTreeMap<u32, Group>,
}

fn has_watch(b: &Bucket) -> bool {
    b.watch_port != ofwire::port::ports::ANY13 || b.watch_group != G_ANY
}

/// A port number Open vSwitch takes as a watch port (`ofputil_port_from_ofp11`).
fn watchable(port: u32) -> bool {
    !(0xff00..0xffff_ff00).contains(&port)
}

impl Groups {
    pub fn new(enabled: bool) -> Groups {
        Groups { enabled, map: BTreeMap::new() }
    }

    /// Apply a group-mod; `Err(code)` is the OFPGMFC_* code it is refused with.
    pub fn apply(&mut self, gm: &GroupMod, now: u64) -> Result<(), u16> {
        check(gm)?;
        match gm.command {
            GC_ADD => {
                if self.map.contains_key(&gm.group_id) {
                    return Err(group_mod_failed::GROUP_EXISTS);
                }
                if !self.enabled {
                    return Err(group_mod_failed::OUT_OF_GROUPS);
                }
                if gm.group_id > G_MAX {
                    return Err(group_mod_failed::INVALID_GROUP);
                }
                self.map.insert(gm.group_id, Group::new(gm, now));
            }
            GC_MODIFY => {
                let Some(g) = self.map.get_mut(&gm.group_id) else { return Err(group_mod_failed::UNKNOWN_GROUP) };
                // counters start over with the new buckets, as Open vSwitch's new group does
                *g = Group { created_ns: g.created_ns, ..Group::new(gm, now) };
            }
            _ if gm.group_id == G_ALL => self.map.clear(),
            _ => {
                self.map.remove(&gm.group_id);
            }
        }
        Ok(())
    }

    /// Whether group `id` exists.
    pub fn exists(&self, id: u32) -> bool {
        self.map.contains_key(&id)
    }

    /// Whether a bucket is live, given which ports are.
    pub fn bucket_live(&self, b: &Bucket, port_live: &dyn Fn(u32) -> bool, depth: usize) -> bool {
        let port_ok = b.watch_port == ofwire::port::ports::ANY13 || port_live(b.watch_port);
        let group_ok = b.watch_group == G_ANY
            || (depth < MAX_CHAIN
                && self.map.get(&b.watch_group).is_some_and(|g| g.buckets.iter().any(|x| self.bucket_live(x, port_live, depth + 1))));
        port_ok && group_ok
    }

    /// The buckets (indices) group `id` sends a frame with flow hash `hash` through.
    pub fn buckets_for(&self, id: u32, hash: u64, port_live: &dyn Fn(u32) -> bool) -> Vec<usize> {
        let Some(g) = self.map.get(&id) else { return Vec::new() };
        match g.typ {
            GT_ALL => (0..g.buckets.len()).collect(),
            GT_INDIRECT => vec![0],
            GT_FF => g.buckets.iter().position(|b| self.bucket_live(b, port_live, 0)).into_iter().collect(),
            _ => {
                let live: Vec<(usize, u64)> = g
                    .buckets
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| b.weight > 0 && self.bucket_live(b, port_live, 0))
                    .map(|(i, b)| (i, b.weight as u64))
                    .collect();
                pick_weighted(&live, hash).into_iter().collect()
            }
        }
    }

    /// Count a frame of `bytes` through group `id` and the buckets it took.
    pub fn count(&mut self, id: u32, buckets: &[usize], bytes: usize) {
        if let Some(g) = self.map.get_mut(&id) {
            g.packets += 1;
            g.bytes += bytes as u64;
            for &b in buckets {
                g.bucket_counts[b].0 += 1;
                g.bucket_counts[b].1 += bytes as u64;
            }
        }
    }

    /// Group stats of `id` (OFPG_ALL: every group); `refs(id)` counts the flows naming it.
    pub fn stats(&self, id: u32, now: u64, refs: &dyn Fn(u32) -> u32) -> Vec<GroupStats> {
        self.map
            .iter()
            .filter(|(k, _)| id == G_ALL || **k == id)
            .map(|(k, g)| {
                let age = now.saturating_sub(g.created_ns);
                GroupStats {
                    group_id: *k,
                    ref_count: refs(*k),
                    packet_count: g.packets,
                    byte_count: g.bytes,
                    duration_sec: (age / 1_000_000_000) as u32,
                    duration_nsec: (age % 1_000_000_000) as u32,
                    buckets: g.bucket_counts.clone(),
                }
            })
            .collect()
    }

    pub fn desc(&self) -> Vec<GroupDesc> {
        self.map.iter().map(|(k, g)| GroupDesc { group_type: g.typ, group_id: *k, buckets: g.buckets.clone() }).collect()
    }

    /// Group features: every type, weights, liveness and chaining when enabled; no room when
    /// not. `actions` is the bitmap of OFPAT_* types the switch runs in a bucket.
    pub fn features(&self, actions: u32) -> GroupFeatures {
        if !self.enabled {
            return GroupFeatures::default();
        }
        GroupFeatures {
            types: 0xf,
            capabilities: GFC_SELECT_WEIGHT | GFC_SELECT_LIVENESS | GFC_CHAINING,
            max_groups: [G_MAX; 4],
            actions: [actions; 4],
        }
    }
}

impl Group {
    fn new(gm: &GroupMod, now: u64) -> Group {
        Group {
            typ: gm.group_type,
            buckets: gm.buckets.clone(),
            bucket_counts: vec![(0, 0); gm.buckets.len()],
            created_ns: now,
            ..Default::default()
        }
    }
}

/// Open vSwitch's checks of a decoded group-mod, in its order; `Err(code)`.
fn check(gm: &GroupMod) -> Result<(), u16> {
    if gm.buckets.iter().any(|b| !watchable(b.watch_port)) {
        return Err(group_mod_failed::BAD_WATCH);
    }
    if gm.command == GC_DELETE && !gm.buckets.is_empty() {
        return Err(group_mod_failed::INVALID_GROUP);
    }
    match gm.group_type {
        GT_INDIRECT if gm.command != GC_DELETE && gm.buckets.len() != 1 => return Err(group_mod_failed::INVALID_GROUP),
        GT_ALL | GT_SELECT | GT_INDIRECT | GT_FF => {}
        _ => return Err(group_mod_failed::BAD_TYPE),
    }
    if !matches!(gm.command, GC_ADD | GC_MODIFY | GC_DELETE) {
        return Err(group_mod_failed::BAD_COMMAND);
    }
    for b in &gm.buckets {
        if b.weight != 0 && gm.group_type != GT_SELECT {
            return Err(group_mod_failed::INVALID_GROUP);
        }
        match gm.group_type {
            GT_ALL | GT_INDIRECT if has_watch(b) => return Err(group_mod_failed::WATCH_UNSUPPORTED),
            GT_FF if !has_watch(b) => return Err(group_mod_failed::INVALID_GROUP),
            _ => {}
        }
    }
    Ok(())
}

/// The bucket a hash picks among (index, weight) pairs: a point on the cumulative weights, so
/// each bucket's share of distinct hashes is its weight over the total.
pub fn pick_weighted(live: &[(usize, u64)], hash: u64) -> Option<usize> {
    let total: u64 = live.iter().map(|x| x.1).sum();
    if total == 0 {
        return None;
    }
    // the top 32 bits of the hash, scaled onto [0, total)
    let mut point = ((hash >> 32) * total) >> 32;
    for &(i, w) in live {
        if point < w {
            return Some(i);
        }
        point -= w;
    }
    None
}

/// A symmetric hash of the flow (both directions of a connection hash alike, as Open
/// vSwitch's `flow_hash_symmetric_l4`): Ethernet addresses, ethertype, IPv4 or IPv6 addresses,
/// IP protocol and L4 ports.
pub fn flow_hash(key: &Key, frame: &[u8]) -> u64 {
    let mut h = Fnv::default();
    let xor = |a: &[u8], b: &[u8]| -> Vec<u8> { a.iter().zip(b).map(|(x, y)| x ^ y).collect() };
    h.write(&xor(&key.0[at::ETH_DST..at::ETH_DST + 6], &key.0[at::ETH_SRC..at::ETH_SRC + 6]));
    h.write(&key.0[at::ETH_TYPE..at::ETH_TYPE + 2]);
    h.write(&xor(&key.0[at::IP_SRC..at::IP_SRC + 4], &key.0[at::IP_DST..at::IP_DST + 4]));
    h.write(&[key.0[at::IP_PROTO]]);
    h.write(&xor(&key.0[at::TP_SRC..at::TP_SRC + 2], &key.0[at::TP_DST..at::TP_DST + 2]));
    if let Some(ip6) = ipv6(frame) {
        h.write(&xor(&ip6[8..24], &ip6[24..40]));
        h.write(&[ip6[6]]);
        if matches!(ip6[6], 6 | 17 | 132) && ip6.len() >= 44 {
            h.write(&xor(&ip6[40..42], &ip6[42..44]));
        }
    }
    fmix64(h.0)
}

/// The IPv6 header (and what follows) of an untagged or single-tagged frame.
fn ipv6(frame: &[u8]) -> Option<&[u8]> {
    let mut at = 12;
    if frame.get(12..14)? == [0x81, 0x00] {
        at = 16;
    }
    (frame.get(at..at + 2)? == [0x86, 0xdd] && frame.len() >= at + 2 + 40).then(|| &frame[at + 2..])
}

struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, b: &[u8]) {
        for &x in b {
            self.0 = (self.0 ^ x as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// MurmurHash3's 64-bit finalizer: every input bit moves every output bit.
fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}
