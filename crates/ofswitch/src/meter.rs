//! The meter table (OpenFlow 1.3 §5.7): drop bands as Open vSwitch's userspace datapath runs them
//! (`lib/dpif-netdev.c`) and DSCP-remark bands as CPqD's ofsoftswitch13 does
//! (`udatapath/meter_entry.c`; `frame_edit::remark_dscp`), driven by the `now` the engine passes
//! in (no wall clock).
//!
//! - Each band is a token bucket. Its size is the band's burst size, or its rate when the burst
//!   size is 0. Meter config replies report the bands as installed, burst size 0 included (as
//!   CPqD; Open vSwitch reports the rate there, which os-ken's switch test tool counts as "Added
//!   incorrect meters"). It refills at the band's rate: packets per second with OFPMF_PKTPS,
//!   else kilobits per second (of the frame's bytes, as both). A packet takes 1 packet or its
//!   size in bits from every band that has them; when a band has not enough, the band of highest
//!   rate it exceeded counts it and acts: a drop band drops it, a DSCP-remark band passes it
//!   remarked.
//! - When the bucket fills is each reference's: a drop band starts full and refills with every
//!   packet (Open vSwitch: "Start with a full bucket"); a DSCP-remark band starts empty and
//!   refills once a second, by the time since its last fill, as CPqD (`meter_entry_create`:
//!   tokens 0; `dp_run` → `refill_bucket` when the second changes). Over os-ken's 30 s DSCP test
//!   at 1 Mbit/s the two differ by 1 to 2 s of the band's rate, about 5% of what is remarked.
//! - Units: tokens are kept in billionths (1e-9 packet, or 1e-6 bit), so a nanosecond at rate
//!   r adds r tokens; a bucket holds burst × 1e9.
//! - Meter-mod errors as Open vSwitch (`ofproto/ofproto.c` `handle_meter_mod`,
//!   `lib/ofp-meter.c`): an unknown command → BAD_COMMAND; KBPS and PKTPS together →
//!   BAD_FLAGS; for ADD and MODIFY: a switch configured without meters, meter 0 or an id above
//!   OFPM_MAX (except SLOWPATH and CONTROLLER) → INVALID_METER; more than `MAX_BANDS` bands →
//!   OUT_OF_BANDS; ADD of an existing id → METER_EXISTS; MODIFY of a missing one →
//!   UNKNOWN_METER; an id at or past `max_meter` → OUT_OF_METERS; flags other than KBPS,
//!   PKTPS, BURST, STATS → BAD_FLAGS; a band other than drop or DSCP remark (experimenter) →
//!   BAD_BAND; a rate of 0 → BAD_RATE. DELETE of a missing
//!   meter, or of meter 0, is no error; OFPM_ALL deletes every meter.

use ofwire::error_names::meter_mod_failed;
use ofwire::meter_stats::*;
use ofwire::{MeterBand, MeterMod};
use std::collections::BTreeMap;

/// Bands per meter, as Open vSwitch's userspace datapath.
pub const MAX_BANDS: usize = 8;
const FLAGS: u16 = MF_KBPS | MF_PKTPS | MF_BURST | MF_STATS;
const SCALE: u64 = 1_000_000_000;
const SECOND_NS: u64 = 1_000_000_000;

/// What a meter does with a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admit {
    Pass,
    Drop,
    /// Passes with its DSCP drop precedence raised by this many levels (`frame_edit::remark_dscp`).
    Remark(u8),
}

#[derive(Clone, Debug, Default)]
pub struct Band {
    pub rate: u32,
    /// As installed (0 included): what meter config replies report.
    pub burst_size: u32,
    /// None: a drop band; Some(prec_level): a DSCP-remark band.
    pub remark: Option<u8>,
    /// The bucket's size: the burst size, or the rate when it is 0.
    size: u32,
    tokens: u64,
    /// A DSCP-remark band's last fill (CPqD's `last_fill`; whole seconds of `now` after the first).
    filled_ns: u64,
    pub packets: u64,
    pub bytes: u64,
}

#[derive(Clone, Debug, Default)]
pub struct Meter {
    pub flags: u16,
    pub bands: Vec<Band>,
    pub packets_in: u64,
    pub bytes_in: u64,
    pub created_ns: u64,
    last_ns: u64,
}

#[derive(Clone, Debug, Default)]
pub struct Meters {
    /// Meter ids allowed are 1..max_meter; 0: the switch has no meters.
    pub max_meter: u32,
    pub map: BTreeMap<u32, Meter>,
}

impl Meters {
    pub fn new(max_meter: u32) -> Meters {
        Meters { max_meter, map: BTreeMap::new() }
    }

    /// Apply a meter-mod; `Err(code)` is the OFPMMFC_* code it is refused with.
    pub fn apply(&mut self, mm: &MeterMod, now: u64) -> Result<(), u16> {
        let id = mm.meter_id;
        match mm.command {
            MC_DELETE => {
                if id == M_ALL {
                    self.map.clear();
                } else {
                    self.map.remove(&id);
                }
                return Ok(());
            }
            MC_ADD | MC_MODIFY => {}
            _ => return Err(meter_mod_failed::BAD_COMMAND),
        }
        if mm.flags & MF_KBPS != 0 && mm.flags & MF_PKTPS != 0 {
            return Err(meter_mod_failed::BAD_FLAGS);
        }
        if self.max_meter == 0 || id == 0 || (id > M_MAX && id != M_SLOWPATH && id != M_CONTROLLER) {
            return Err(meter_mod_failed::INVALID_METER);
        }
        if mm.bands.len() > MAX_BANDS {
            return Err(meter_mod_failed::OUT_OF_BANDS);
        }
        match (mm.command, self.map.contains_key(&id)) {
            (MC_ADD, true) => return Err(meter_mod_failed::METER_EXISTS),
            (MC_MODIFY, false) => return Err(meter_mod_failed::UNKNOWN_METER),
            _ => {}
        }
        if id >= self.max_meter {
            return Err(meter_mod_failed::OUT_OF_METERS);
        }
        let meter = Meter::new(mm, now)?;
        let created_ns = self.map.get(&id).map_or(now, |m| m.created_ns);
        self.map.insert(id, Meter { created_ns, ..meter });
        Ok(())
    }

    pub fn exists(&self, id: u32) -> bool {
        self.map.contains_key(&id)
    }

    /// A packet of `bytes` goes through meter `id` at `now`: whether it passes. A meter that
    /// does not exist passes everything (a flow naming one is refused when installed).
    pub fn admit(&mut self, id: u32, now: u64, bytes: usize) -> Admit {
        match self.map.get_mut(&id) {
            Some(m) => m.admit(now, bytes),
            None => Admit::Pass,
        }
    }

    pub fn config(&self, id: u32) -> Vec<MeterConfig> {
        self.select(id)
            .map(|(k, m)| MeterConfig { flags: m.flags, meter_id: *k, bands: m.bands.iter().map(Band::wire).collect() })
            .collect()
    }

    /// Meter stats; `flows(id)` counts the flows naming the meter.
    pub fn stats(&self, id: u32, now: u64, flows: &dyn Fn(u32) -> u32) -> Vec<MeterStats> {
        self.select(id)
            .map(|(k, m)| {
                let age = now.saturating_sub(m.created_ns);
                MeterStats {
                    meter_id: *k,
                    flow_count: flows(*k),
                    packet_in_count: m.packets_in,
                    byte_in_count: m.bytes_in,
                    duration_sec: (age / 1_000_000_000) as u32,
                    duration_nsec: (age % 1_000_000_000) as u32,
                    bands: m.bands.iter().map(|b| (b.packets, b.bytes)).collect(),
                }
            })
            .collect()
    }

    pub fn features(&self) -> MeterFeatures {
        if self.max_meter == 0 {
            return MeterFeatures::default();
        }
        MeterFeatures {
            max_meter: self.max_meter,
            band_types: 1 << MBT_DROP | 1 << MBT_DSCP_REMARK,
            capabilities: FLAGS as u32,
            max_bands: MAX_BANDS as u8,
            max_color: 0,
        }
    }

    fn select(&self, id: u32) -> impl Iterator<Item = (&u32, &Meter)> {
        self.map.iter().filter(move |(k, _)| id == M_ALL || **k == id)
    }
}

impl Meter {
    fn new(mm: &MeterMod, now: u64) -> Result<Meter, u16> {
        if mm.flags & !FLAGS != 0 {
            return Err(meter_mod_failed::BAD_FLAGS);
        }
        let mut bands = Vec::new();
        for b in &mm.bands {
            let (rate, burst_size, remark) = match *b {
                MeterBand::Drop { rate, burst_size } => (rate, burst_size, None),
                MeterBand::DscpRemark { rate, burst_size, prec_level } => (rate, burst_size, Some(prec_level)),
                _ => return Err(meter_mod_failed::BAD_BAND),
            };
            if rate == 0 {
                return Err(meter_mod_failed::BAD_RATE);
            }
            let size = if burst_size == 0 { rate } else { burst_size };
            let tokens = if remark.is_some() { 0 } else { size as u64 * SCALE };
            bands.push(Band { rate, burst_size, remark, size, tokens, filled_ns: now, ..Default::default() });
        }
        Ok(Meter { flags: mm.flags, bands, created_ns: now, last_ns: now, ..Default::default() })
    }

    fn admit(&mut self, now: u64, bytes: usize) -> Admit {
        let dt = now.saturating_sub(self.last_ns);
        self.last_ns = self.last_ns.max(now);
        self.packets_in += 1;
        self.bytes_in += bytes as u64;
        let cost = if self.flags & MF_PKTPS != 0 { SCALE } else { bytes as u64 * 8 * 1_000_000 };
        // the band of highest rate this packet exceeds: (index, rate)
        let mut hit: Option<(usize, u32)> = None;
        for (i, b) in self.bands.iter_mut().enumerate() {
            b.refill(now, dt);
            if b.tokens >= cost {
                b.tokens -= cost;
            } else if hit.is_none_or(|(_, r)| r < b.rate) {
                hit = Some((i, b.rate));
            }
        }
        match hit {
            Some((i, _)) => {
                let b = &mut self.bands[i];
                b.packets += 1;
                b.bytes += bytes as u64;
                b.remark.map_or(Admit::Drop, Admit::Remark)
            }
            None => Admit::Pass,
        }
    }
}

impl Band {
    /// Add what `dt` ns at the band's rate brings (a drop band), or, for a DSCP-remark band, what
    /// the time from its last fill to the last whole second of `now` brings, once that second
    /// has come (CPqD fills at each new second, so a packet sees what the last one brought).
    fn refill(&mut self, now: u64, dt: u64) {
        let cap = self.size as u64 * SCALE;
        let add = match self.remark {
            None => dt,
            Some(_) => {
                let second = now - now % SECOND_NS;
                if second <= self.filled_ns {
                    return;
                }
                let since = second - self.filled_ns;
                self.filled_ns = second;
                since
            }
        };
        self.tokens = self.tokens.saturating_add(add.saturating_mul(self.rate as u64)).min(cap);
    }

    fn wire(&self) -> MeterBand {
        let (rate, burst_size) = (self.rate, self.burst_size);
        match self.remark {
            None => MeterBand::Drop { rate, burst_size },
            Some(prec_level) => MeterBand::DscpRemark { rate, burst_size, prec_level },
        }
    }
}
