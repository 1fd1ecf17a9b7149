//! Byte builders for the messages the emulated switch sends.
//!
//! Every builder appends one whole message to `out` and returns nothing: the switch writes
//! straight into the engine's reused output buffer, so no reply allocates. The message length in
//! the header is patched once the body is written ([`Msg::finish`]).
//!
//! These are the switch-side bodies only (features, config, stats replies, ports). Parsing of what
//! the controller sends is in `switch.rs` and reads fixed offsets defined by OF1.0 §5 / OF1.3 §7.

use crate::consts::*;

/// An open message inside `out`: remembers where its header starts.
pub struct Msg<'a> {
    out: &'a mut Vec<u8>,
    start: usize,
}

impl<'a> Msg<'a> {
    pub fn begin(out: &'a mut Vec<u8>, version: u8, kind: Kind, xid: u32) -> Msg<'a> {
        let start = out.len();
        out.extend_from_slice(&[version, kind.code(version), 0, 0]);
        out.extend_from_slice(&xid.to_be_bytes());
        Msg { out, start }
    }
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.out.push(v);
        self
    }
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.out.extend_from_slice(&v.to_be_bytes());
        self
    }
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.out.extend_from_slice(&v.to_be_bytes());
        self
    }
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.out.extend_from_slice(&v.to_be_bytes());
        self
    }
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.out.extend_from_slice(b);
        self
    }
    pub fn zeros(&mut self, n: usize) -> &mut Self {
        self.out.resize(self.out.len() + n, 0);
        self
    }
    /// A NUL-padded fixed-width string field.
    pub fn str(&mut self, s: &str, width: usize) -> &mut Self {
        let b = &s.as_bytes()[..s.len().min(width - 1)];
        self.out.extend_from_slice(b);
        self.zeros(width - b.len())
    }
    pub fn len(&self) -> usize {
        self.out.len() - self.start
    }
    pub fn is_empty(&self) -> bool {
        false
    }
    pub fn finish(self) {
        let len = (self.out.len() - self.start) as u16;
        self.out[self.start + 2..self.start + 4].copy_from_slice(&len.to_be_bytes());
    }
}

/// HELLO; for OF1.3 (and up) with a version bitmap element (OF1.3 §7.5.1).
pub fn hello(out: &mut Vec<u8>, version: u8, bitmap: u32, xid: u32) {
    let mut m = Msg::begin(out, version, Kind::Hello, xid);
    if version >= OFP13 {
        m.u16(1).u16(8).u32(bitmap);
    }
    m.finish();
}

pub fn error(out: &mut Vec<u8>, version: u8, xid: u32, ty: u16, code: u16, offending: &[u8]) {
    let mut m = Msg::begin(out, version, Kind::Error, xid);
    m.u16(ty).u16(code).bytes(&offending[..offending.len().min(64)]);
    m.finish();
}

pub fn echo(out: &mut Vec<u8>, version: u8, kind: Kind, xid: u32, data: &[u8]) {
    let mut m = Msg::begin(out, version, kind, xid);
    m.bytes(data);
    m.finish();
}

pub fn empty(out: &mut Vec<u8>, version: u8, kind: Kind, xid: u32) {
    Msg::begin(out, version, kind, xid).finish();
}

/// A port's MAC: locally administered, derived from the datapath id and port number.
pub fn port_mac(dpid: u64, port: u32) -> [u8; 6] {
    let d = dpid.to_be_bytes();
    [0x02, d[4], d[5], d[6], d[7], port as u8]
}

const PORT_FEATURES: u32 = 0x0000_0040 | 0x0000_0800; // 1GB_FD | COPPER (same bits in both)

/// ofp_phy_port (OF1.0, 48 bytes).
pub fn port10(m: &mut Msg, dpid: u64, port: u32) {
    m.u16(port as u16).bytes(&port_mac(dpid, port)).str(&format!("s{dpid}-eth{port}"), 16);
    m.u32(0).u32(0).u32(PORT_FEATURES).u32(PORT_FEATURES).u32(PORT_FEATURES).u32(0);
}

/// ofp_port (OF1.3, 64 bytes).
pub fn port13(m: &mut Msg, dpid: u64, port: u32) {
    m.u32(port).zeros(4).bytes(&port_mac(dpid, port)).zeros(2);
    m.str(&format!("s{dpid}-eth{port}"), 16);
    m.u32(0).u32(4).u32(PORT_FEATURES).u32(PORT_FEATURES).u32(PORT_FEATURES).u32(0);
    m.u32(1_000_000).u32(1_000_000);
}

pub struct Features {
    pub dpid: u64,
    pub n_buffers: u32,
    pub n_tables: u8,
    pub ports: u32,
}

/// FEATURES_REPLY (OF1.0 §5.3.1 with ports inline; OF1.3 §7.3.1 without).
pub fn features_reply(out: &mut Vec<u8>, version: u8, xid: u32, f: &Features) {
    let mut m = Msg::begin(out, version, Kind::FeaturesReply, xid);
    m.u64(f.dpid).u32(f.n_buffers).u8(f.n_tables);
    if version == OFP10 {
        // capabilities: FLOW_STATS|TABLE_STATS|PORT_STATS; actions: OUTPUT..SET_TP_DST (0..=11)
        m.zeros(3).u32(0x7).u32(0xfff);
        for p in 1..=f.ports {
            port10(&mut m, f.dpid, p);
        }
    } else {
        m.u8(0).zeros(2).u32(0x7).u32(0);
    }
    m.finish();
}

pub fn config_reply(out: &mut Vec<u8>, version: u8, xid: u32, flags: u16, miss_send_len: u16) {
    let mut m = Msg::begin(out, version, Kind::GetConfigReply, xid);
    m.u16(flags).u16(miss_send_len);
    m.finish();
}

/// The common head of a stats (1.0) / multipart (1.3) reply; the caller appends the body.
pub fn stats_head<'a>(out: &'a mut Vec<u8>, version: u8, xid: u32, ty: u16) -> Msg<'a> {
    let mut m = Msg::begin(out, version, Kind::StatsReply, xid);
    m.u16(ty).u16(0);
    if version != OFP10 {
        m.zeros(4);
    }
    m
}

pub fn desc_body(m: &mut Msg, dpid: u64) {
    m.str("sdnbench", 256).str("emulated switch", 256);
    m.str(concat!("ofswitch ", env!("CARGO_PKG_VERSION")), 256);
    m.str(&format!("{dpid:016x}"), 32).str(&format!("emulated dpid {dpid}"), 256);
}

pub fn port_stats_body(m: &mut Msg, version: u8, port: u32) {
    if version == OFP10 {
        m.u16(port as u16).zeros(6);
    } else {
        m.u32(port).zeros(4);
    }
    m.zeros(12 * 8);
    if version != OFP10 {
        m.u32(0).u32(0);
    }
}

pub fn table_stats_body(m: &mut Msg, version: u8, table: u8, active: u32, lookups: u64) {
    if version == OFP10 {
        m.u8(table).zeros(3).str(&format!("table{table}"), 32);
        m.u32(0x003f_ffff).u32(1_000_000).u32(active).u64(lookups).u64(0);
    } else {
        m.u8(table).zeros(3).u32(active).u64(lookups).u64(0);
    }
}

pub fn role_reply(out: &mut Vec<u8>, version: u8, xid: u32, role: u32, generation: u64) {
    let mut m = Msg::begin(out, version, Kind::RoleReply, xid);
    m.u32(role).zeros(4).u64(generation);
    m.finish();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hello13_has_bitmap_and_length() {
        let mut out = vec![];
        hello(&mut out, OFP13, (1 << 1) | (1 << 4), 7);
        assert_eq!(out, [4, 0, 0, 16, 0, 0, 0, 7, 0, 1, 0, 8, 0, 0, 0, 0x12]);
    }

    #[test]
    fn features_reply_sizes() {
        let f = Features { dpid: 5, n_buffers: 256, n_tables: 1, ports: 2 };
        let mut out = vec![];
        features_reply(&mut out, OFP10, 1, &f);
        assert_eq!(out.len(), 32 + 2 * 48);
        assert_eq!(&out[8..16], &5u64.to_be_bytes());
        out.clear();
        features_reply(&mut out, OFP13, 1, &f);
        assert_eq!(out.len(), 32);
    }

    #[test]
    fn port_sizes() {
        let mut out = vec![];
        let mut m = Msg::begin(&mut out, OFP13, Kind::StatsReply, 0);
        port13(&mut m, 1, 1);
        assert_eq!(m.len(), 8 + 64);
        m.finish();
        let mut out = vec![];
        let mut m = Msg::begin(&mut out, OFP10, Kind::StatsReply, 0);
        port10(&mut m, 1, 1);
        assert_eq!(m.len(), 8 + 48);
    }
}
