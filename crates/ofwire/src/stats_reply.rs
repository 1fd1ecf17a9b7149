//! The bodies of stats/multipart replies: desc, flow, aggregate, table, port, queue and
//! port-desc entries in their 1.0 and 1.3 layouts.

use crate::action::{actions_len, emit_actions, parse_actions, Action};
use crate::bytes::{Reader, Writer};
use crate::error::{Error, Result};
use crate::instruction::{emit_instructions, instructions_len, parse_instructions, Instruction};
use crate::match10::{Match10, MATCH10_LEN};
use crate::oxm::OxmMatch;
use crate::port::{emit_ports, parse_ports, Port};
use crate::stats_kind as kind;
use crate::version::Version;

/// `ofp_desc`: NUL-padded strings (256 bytes each, serial number 32).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DescStats {
    pub mfr_desc: String,
    pub hw_desc: String,
    pub sw_desc: String,
    pub serial_num: String,
    pub dp_desc: String,
}

const DESC_LEN: usize = 4 * 256 + 32;

/// One flow entry. `match10`/`actions` are 1.0's; `flags`, `match_` and `instructions` 1.3's.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FlowStats {
    pub table_id: u8,
    pub duration_sec: u32,
    pub duration_nsec: u32,
    pub priority: u16,
    pub idle_timeout: u16,
    pub hard_timeout: u16,
    pub flags: u16,
    pub cookie: u64,
    pub packet_count: u64,
    pub byte_count: u64,
    pub match10: Match10,
    pub match_: OxmMatch,
    pub actions: Vec<Action>,
    pub instructions: Vec<Instruction>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AggregateStats {
    pub packet_count: u64,
    pub byte_count: u64,
    pub flow_count: u32,
}

/// One table. `name`, `wildcards` and `max_entries` exist in 1.0 only.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TableStats {
    pub table_id: u8,
    pub name: String,
    pub wildcards: u32,
    pub max_entries: u32,
    pub active_count: u32,
    pub lookup_count: u64,
    pub matched_count: u64,
}

/// One port's counters, in wire order: rx/tx packets, rx/tx bytes, rx/tx dropped, rx/tx
/// errors, rx frame, rx overrun, rx CRC errors, collisions. Durations are 1.3 only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PortStats {
    pub port_no: u32,
    pub counters: [u64; 12],
    pub duration_sec: u32,
    pub duration_nsec: u32,
}

/// One queue. Durations are 1.3 only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct QueueStats {
    pub port_no: u32,
    pub queue_id: u32,
    pub tx_bytes: u64,
    pub tx_packets: u64,
    pub tx_errors: u64,
    pub duration_sec: u32,
    pub duration_nsec: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatsReplyBody {
    Desc(DescStats),
    Flow(Vec<FlowStats>),
    Aggregate(AggregateStats),
    Table(Vec<TableStats>),
    Port(Vec<PortStats>),
    Queue(Vec<QueueStats>),
    PortDesc(Vec<Port>),
    Unknown { typ: u16, data: Vec<u8> },
}

/// Parses fixed-size entries filling `b`.
fn entries<T>(b: &[u8], size: usize, what: &'static str, f: impl Fn(&mut Reader) -> Result<T>) -> Result<Vec<T>> {
    if !b.len().is_multiple_of(size) {
        return Err(Error::BadLength { what, len: b.len() });
    }
    let mut r = Reader::new(b);
    let mut out = Vec::with_capacity(b.len() / size);
    while r.remaining() > 0 {
        out.push(f(&mut r)?);
    }
    Ok(out)
}

impl StatsReplyBody {
    pub fn stats_type(&self) -> u16 {
        match self {
            StatsReplyBody::Desc(_) => kind::DESC,
            StatsReplyBody::Flow(_) => kind::FLOW,
            StatsReplyBody::Aggregate(_) => kind::AGGREGATE,
            StatsReplyBody::Table(_) => kind::TABLE,
            StatsReplyBody::Port(_) => kind::PORT,
            StatsReplyBody::Queue(_) => kind::QUEUE,
            StatsReplyBody::PortDesc(_) => kind::PORT_DESC,
            StatsReplyBody::Unknown { typ, .. } => *typ,
        }
    }

    pub fn parse(v: Version, typ: u16, b: &[u8]) -> Result<StatsReplyBody> {
        Ok(match typ {
            kind::DESC => {
                let mut r = Reader::new(b);
                let d = DescStats {
                    mfr_desc: r.string(256)?,
                    hw_desc: r.string(256)?,
                    sw_desc: r.string(256)?,
                    serial_num: r.string(32)?,
                    dp_desc: r.string(256)?,
                };
                r.finish("desc stats")?;
                StatsReplyBody::Desc(d)
            }
            kind::FLOW => {
                let mut rest = b;
                let mut flows = Vec::new();
                while !rest.is_empty() {
                    let (next, f) = FlowStats::parse(v, rest)?;
                    flows.push(f);
                    rest = next;
                }
                StatsReplyBody::Flow(flows)
            }
            kind::AGGREGATE => {
                let mut r = Reader::new(b);
                let a = AggregateStats { packet_count: r.u64()?, byte_count: r.u64()?, flow_count: r.u32()? };
                r.skip(4)?;
                r.finish("aggregate stats")?;
                StatsReplyBody::Aggregate(a)
            }
            kind::TABLE => StatsReplyBody::Table(entries(b, table_len(v), "table stats", |r| parse_table(v, r))?),
            kind::PORT => StatsReplyBody::Port(entries(b, port_stats_len(v), "port stats", |r| parse_port_stats(v, r))?),
            kind::QUEUE => StatsReplyBody::Queue(entries(b, queue_len(v), "queue stats", |r| parse_queue(v, r))?),
            kind::PORT_DESC if v == Version::V13 => StatsReplyBody::PortDesc(parse_ports(v, b)?),
            _ => StatsReplyBody::Unknown { typ, data: b.to_vec() },
        })
    }

    pub fn buffer_len(&self, v: Version) -> usize {
        match self {
            StatsReplyBody::Desc(_) => DESC_LEN,
            StatsReplyBody::Flow(f) => f.iter().map(|x| x.buffer_len(v)).sum(),
            StatsReplyBody::Aggregate(_) => 24,
            StatsReplyBody::Table(t) => t.len() * table_len(v),
            StatsReplyBody::Port(p) => p.len() * port_stats_len(v),
            StatsReplyBody::Queue(q) => q.len() * queue_len(v),
            StatsReplyBody::PortDesc(p) => p.len() * Port::wire_len(v),
            StatsReplyBody::Unknown { data, .. } => data.len(),
        }
    }

    pub fn emit(&self, v: Version, buf: &mut [u8]) {
        let mut w = Writer::new(buf);
        match self {
            StatsReplyBody::Desc(d) => {
                w.string(&d.mfr_desc, 256);
                w.string(&d.hw_desc, 256);
                w.string(&d.sw_desc, 256);
                w.string(&d.serial_num, 32);
                w.string(&d.dp_desc, 256);
            }
            StatsReplyBody::Flow(flows) => {
                for f in flows {
                    f.emit(v, w.rest());
                    w.advance(f.buffer_len(v));
                }
            }
            StatsReplyBody::Aggregate(a) => {
                w.u64(a.packet_count);
                w.u64(a.byte_count);
                w.u32(a.flow_count);
                w.zeros(4);
            }
            StatsReplyBody::Table(t) => t.iter().for_each(|x| emit_table(v, x, &mut w)),
            StatsReplyBody::Port(p) => p.iter().for_each(|x| emit_port_stats(v, x, &mut w)),
            StatsReplyBody::Queue(q) => q.iter().for_each(|x| emit_queue(v, x, &mut w)),
            StatsReplyBody::PortDesc(p) => {
                emit_ports(v, p, w.rest());
            }
            StatsReplyBody::Unknown { data, .. } => w.bytes(data),
        }
    }
}

impl FlowStats {
    pub fn buffer_len(&self, v: Version) -> usize {
        match v {
            Version::V10 => 48 + MATCH10_LEN + actions_len(v, &self.actions),
            Version::V13 => 48 + self.match_.buffer_len() + instructions_len(&self.instructions),
        }
    }

    /// Parses one entry; returns the bytes after it.
    pub fn parse(v: Version, buf: &[u8]) -> Result<(&[u8], FlowStats)> {
        let mut outer = Reader::new(buf);
        let len = outer.u16()? as usize;
        if len < 4 {
            return Err(Error::BadLength { what: "flow stats length", len });
        }
        let entry = &buf[..len.min(buf.len())];
        outer.skip(len - 2)?;
        let mut r = Reader::new(&entry[2..]);
        let mut f = FlowStats { table_id: r.u8()?, ..Default::default() };
        r.skip(1)?;
        if v == Version::V10 {
            let (_, m) = Match10::parse(r.take(MATCH10_LEN)?)?;
            f.match10 = m;
        }
        f.duration_sec = r.u32()?;
        f.duration_nsec = r.u32()?;
        f.priority = r.u16()?;
        f.idle_timeout = r.u16()?;
        f.hard_timeout = r.u16()?;
        match v {
            Version::V10 => r.skip(6)?,
            Version::V13 => {
                f.flags = r.u16()?;
                r.skip(4)?;
            }
        }
        f.cookie = r.u64()?;
        f.packet_count = r.u64()?;
        f.byte_count = r.u64()?;
        match v {
            Version::V10 => f.actions = parse_actions(v, r.rest())?,
            Version::V13 => {
                let (rest, m) = OxmMatch::parse(r.rest())?;
                f.match_ = m;
                f.instructions = parse_instructions(rest)?;
            }
        }
        Ok((outer.rest(), f))
    }

    pub fn emit(&self, v: Version, buf: &mut [u8]) {
        let mut w = Writer::new(buf);
        w.u16(self.buffer_len(v) as u16);
        w.u8(self.table_id);
        w.zeros(1);
        if v == Version::V10 {
            self.match10.emit(w.rest());
            w.advance(MATCH10_LEN);
        }
        w.u32(self.duration_sec);
        w.u32(self.duration_nsec);
        w.u16(self.priority);
        w.u16(self.idle_timeout);
        w.u16(self.hard_timeout);
        match v {
            Version::V10 => w.zeros(6),
            Version::V13 => {
                w.u16(self.flags);
                w.zeros(4);
            }
        }
        w.u64(self.cookie);
        w.u64(self.packet_count);
        w.u64(self.byte_count);
        match v {
            Version::V10 => {
                emit_actions(v, &self.actions, w.rest());
            }
            Version::V13 => {
                let rest = self.match_.emit(w.rest());
                emit_instructions(&self.instructions, rest);
            }
        }
    }
}

fn table_len(v: Version) -> usize {
    if v == Version::V10 {
        64
    } else {
        24
    }
}

fn parse_table(v: Version, r: &mut Reader) -> Result<TableStats> {
    let mut t = TableStats { table_id: r.u8()?, ..Default::default() };
    r.skip(3)?;
    if v == Version::V10 {
        t.name = r.string(32)?;
        t.wildcards = r.u32()?;
        t.max_entries = r.u32()?;
    }
    t.active_count = r.u32()?;
    t.lookup_count = r.u64()?;
    t.matched_count = r.u64()?;
    Ok(t)
}

fn emit_table(v: Version, t: &TableStats, w: &mut Writer) {
    w.u8(t.table_id);
    w.zeros(3);
    if v == Version::V10 {
        w.string(&t.name, 32);
        w.u32(t.wildcards);
        w.u32(t.max_entries);
    }
    w.u32(t.active_count);
    w.u64(t.lookup_count);
    w.u64(t.matched_count);
}

fn port_stats_len(v: Version) -> usize {
    if v == Version::V10 {
        104
    } else {
        112
    }
}

fn parse_port_stats(v: Version, r: &mut Reader) -> Result<PortStats> {
    let mut p = PortStats::default();
    match v {
        Version::V10 => {
            p.port_no = r.u16()? as u32;
            r.skip(6)?;
        }
        Version::V13 => {
            p.port_no = r.u32()?;
            r.skip(4)?;
        }
    }
    for c in p.counters.iter_mut() {
        *c = r.u64()?;
    }
    if v == Version::V13 {
        p.duration_sec = r.u32()?;
        p.duration_nsec = r.u32()?;
    }
    Ok(p)
}

fn emit_port_stats(v: Version, p: &PortStats, w: &mut Writer) {
    match v {
        Version::V10 => {
            w.u16(p.port_no as u16);
            w.zeros(6);
        }
        Version::V13 => {
            w.u32(p.port_no);
            w.zeros(4);
        }
    }
    p.counters.iter().for_each(|&c| w.u64(c));
    if v == Version::V13 {
        w.u32(p.duration_sec);
        w.u32(p.duration_nsec);
    }
}

fn queue_len(v: Version) -> usize {
    if v == Version::V10 {
        32
    } else {
        40
    }
}

fn parse_queue(v: Version, r: &mut Reader) -> Result<QueueStats> {
    let mut q = QueueStats::default();
    match v {
        Version::V10 => {
            q.port_no = r.u16()? as u32;
            r.skip(2)?;
        }
        Version::V13 => q.port_no = r.u32()?,
    }
    q.queue_id = r.u32()?;
    q.tx_bytes = r.u64()?;
    q.tx_packets = r.u64()?;
    q.tx_errors = r.u64()?;
    if v == Version::V13 {
        q.duration_sec = r.u32()?;
        q.duration_nsec = r.u32()?;
    }
    Ok(q)
}

fn emit_queue(v: Version, q: &QueueStats, w: &mut Writer) {
    match v {
        Version::V10 => {
            w.u16(q.port_no as u16);
            w.zeros(2);
        }
        Version::V13 => w.u32(q.port_no),
    }
    w.u32(q.queue_id);
    w.u64(q.tx_bytes);
    w.u64(q.tx_packets);
    w.u64(q.tx_errors);
    if v == Version::V13 {
        w.u32(q.duration_sec);
        w.u32(q.duration_nsec);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oxm::Oxm;

    fn rt(v: Version, body: StatsReplyBody) {
        let mut b = vec![0xa5u8; body.buffer_len(v)];
        body.emit(v, &mut b);
        assert_eq!(StatsReplyBody::parse(v, body.stats_type(), &b).unwrap(), body, "{v:?}");
    }

    #[test]
    fn every_kind_round_trips() {
        for v in [Version::V10, Version::V13] {
            rt(
                v,
                StatsReplyBody::Desc(DescStats {
                    mfr_desc: "Nicira, Inc.".into(),
                    hw_desc: "Open vSwitch".into(),
                    sw_desc: "3.1.0".into(),
                    serial_num: "None".into(),
                    dp_desc: "s1".into(),
                }),
            );
            let mut f =
                FlowStats { table_id: 0, duration_sec: 3, priority: 1, cookie: 7, packet_count: 2, byte_count: 120, ..Default::default() };
            match v {
                Version::V10 => f.actions = vec![Action::Output { port: 1, max_len: 0 }],
                Version::V13 => {
                    f.flags = 1;
                    f.match_ = OxmMatch::new(vec![Oxm::in_port(1)]);
                    f.instructions = vec![Instruction::GotoTable(1)];
                }
            }
            rt(v, StatsReplyBody::Flow(vec![f.clone(), f]));
            rt(v, StatsReplyBody::Aggregate(AggregateStats { packet_count: 1, byte_count: 2, flow_count: 3 }));
            let mut t = TableStats { table_id: 1, active_count: 4, lookup_count: 10, matched_count: 6, ..Default::default() };
            if v == Version::V10 {
                t.name = "classifier".into();
                t.wildcards = 0x3fffff;
                t.max_entries = 1_000_000;
            }
            rt(v, StatsReplyBody::Table(vec![t]));
            let mut p = PortStats { port_no: 2, counters: core::array::from_fn(|i| i as u64 * 3), ..Default::default() };
            let mut q = QueueStats { port_no: 2, queue_id: 1, tx_bytes: 5, tx_packets: 6, tx_errors: 7, ..Default::default() };
            if v == Version::V13 {
                p.duration_sec = 9;
                q.duration_nsec = 8;
            }
            rt(v, StatsReplyBody::Port(vec![p]));
            rt(v, StatsReplyBody::Queue(vec![q, q]));
            rt(v, StatsReplyBody::Unknown { typ: 0xffff, data: vec![1, 2, 3] });
        }
        rt(Version::V13, StatsReplyBody::PortDesc(vec![Port { port_no: 1, name: "p1".into(), ..Default::default() }]));
    }

    #[test]
    fn malformed() {
        assert!(StatsReplyBody::parse(Version::V13, kind::PORT, &[0; 111]).is_err());
        // A flow entry whose length field is shorter than its fixed part.
        assert!(StatsReplyBody::parse(Version::V13, kind::FLOW, &[0, 8, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(StatsReplyBody::parse(Version::V13, kind::FLOW, &[0, 0]).is_err());
    }
}
