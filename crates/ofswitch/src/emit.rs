//! The messages the emulated switch sends, as ofwire values.
//!
//! The switch decides *what* to answer; ofwire's `Repr` types (`Message`, `Body`, ...) decide
//! the bytes. Every builder appends one whole message to `out`, the engine's reused output
//! buffer, through [`push`]. Only the packet-in hot path bypasses these values: it writes with
//! ofwire's zero-copy `PacketInRef` (see `packet_in.rs`).

use ofwire::port::port_state;
use ofwire::{
    Body, DescStats, ErrorMsg, FeaturesReply, Hello, Message, Port, PortStats, Role, StatsReply, StatsReplyBody, TableStats, Versions,
    OFP10, OFP13,
};

/// Append `body` as one message of wire version `version`.
pub fn push(out: &mut Vec<u8>, version: u8, xid: u32, body: Body) {
    Message { version, xid, body }.emit_append(out);
}

/// HELLO; for OF1.3 (and up) with a version bitmap element (OF1.3 §7.5.1).
pub fn hello(out: &mut Vec<u8>, version: u8, versions: Versions, xid: u32) {
    let h = if version >= OFP13 { Hello::with_versions(&versions.wire().collect::<Vec<u8>>()) } else { Hello::default() };
    push(out, version, xid, Body::Hello(h));
}

/// An error carrying (at most 64 bytes of) the offending message.
pub fn error(out: &mut Vec<u8>, version: u8, xid: u32, ty: u16, code: u16, offending: &[u8]) {
    let data = offending[..offending.len().min(64)].to_vec();
    push(out, version, xid, Body::Error(ErrorMsg { typ: ty, code, data }));
}

/// A NUL-terminated fixed-width string field holds at most `width - 1` bytes: cut to that, so
/// ofwire's writer leaves the terminator.
fn cstr(s: String, width: usize) -> String {
    let mut s = s;
    s.truncate(width - 1);
    s
}

/// A port's MAC: locally administered, derived from the datapath id and port number.
pub fn port_mac(dpid: u64, port: u32) -> [u8; 6] {
    let d = dpid.to_be_bytes();
    [0x02, d[4], d[5], d[6], d[7], port as u8]
}

/// 10GB_FD | COPPER: what Open vSwitch reports as `curr` for a veth (1.0 and 1.3 number
/// COPPER differently); advertised, supported and peer 0, as OVS reports them.
fn port_features(v13: bool) -> u32 {
    0x40 | if v13 { 0x800 } else { 0x80 }
}

/// A veth's speed as Open vSwitch reports it at 1.3: 10 Gb/s now (in kb/s), max 0.
const CURR_SPEED_KBPS: u32 = 10_000_000;

/// Port `port` of switch `dpid` (ofp_phy_port in 1.0, ofp_port in 1.3), as Open vSwitch
/// describes a Mininet veth (`ovs-ofctl dump-ports-desc`): up, 10GB-FD COPPER, 10 Gb/s.
pub fn port(version: u8, dpid: u64, port: u32) -> Port {
    let v13 = version != OFP10;
    Port {
        port_no: port,
        hw_addr: port_mac(dpid, port),
        name: cstr(format!("s{dpid}-eth{port}"), 16),
        config: 0,
        state: if v13 { port_state::LIVE } else { 0 },
        curr: port_features(v13),
        advertised: 0,
        supported: 0,
        peer: 0,
        curr_speed: if v13 { CURR_SPEED_KBPS } else { 0 },
        max_speed: 0,
    }
}

/// The LOCAL port (the bridge's own interface), as Open vSwitch lists it first for a Mininet
/// bridge: named after the bridge, administratively down, no link.
pub fn local_port(version: u8, dpid: u64) -> Port {
    let local = if version == OFP10 { 0xfffe } else { 0xffff_fffe };
    Port {
        port_no: local,
        hw_addr: port_mac(dpid, 0),
        name: cstr(format!("s{dpid}"), 16),
        config: ofwire::port::port_config::PORT_DOWN,
        state: port_state::LINK_DOWN,
        ..port(version, dpid, local)
    }
}

pub struct Features {
    pub dpid: u64,
    pub n_buffers: u32,
    pub n_tables: u8,
    /// The 1.0 reply lists the ports; 1.3 ignores this.
    pub ports: Vec<Port>,
    /// Whether the switch runs groups (1.3: announced as OFPC_GROUP_STATS).
    pub groups: bool,
}

/// FEATURES_REPLY (OF1.0 §5.3.1 with ports inline; OF1.3 §7.3.1 without).
pub fn features_reply(out: &mut Vec<u8>, version: u8, xid: u32, f: &Features) {
    let v10 = version == OFP10;
    let reply = FeaturesReply {
        datapath_id: f.dpid,
        n_buffers: f.n_buffers,
        n_tables: f.n_tables,
        // FLOW_STATS|TABLE_STATS|PORT_STATS, and 1.3's GROUP_STATS (bit 3 is 1.0's STP)
        capabilities: if f.groups && !v10 { 0xf } else { 0x7 },
        // 1.0 actions: OUTPUT..SET_TP_DST (0..=11)
        actions: if v10 { 0xfff } else { 0 },
        ports: if v10 { f.ports.clone() } else { Vec::new() },
        ..Default::default()
    };
    push(out, version, xid, Body::FeaturesReply(reply));
}

/// A one-part stats (1.0) / multipart (1.3) reply.
pub fn stats_reply(out: &mut Vec<u8>, version: u8, xid: u32, body: StatsReplyBody) {
    push(out, version, xid, Body::StatsReply(StatsReply { flags: 0, body }));
}

pub fn desc(dpid: u64) -> DescStats {
    DescStats {
        mfr_desc: "sdnbench".into(),
        hw_desc: "emulated switch".into(),
        sw_desc: concat!("ofswitch ", env!("CARGO_PKG_VERSION")).into(),
        serial_num: cstr(format!("{dpid:016x}"), 32),
        dp_desc: cstr(format!("emulated dpid {dpid}"), 256),
    }
}

pub fn port_stats(port: u32) -> PortStats {
    PortStats { port_no: port, ..Default::default() }
}

pub fn table_stats(table: u8, active: u32, lookups: u64) -> TableStats {
    TableStats {
        table_id: table,
        name: cstr(format!("table{table}"), 32),
        wildcards: 0x003f_ffff,
        max_entries: 1_000_000,
        active_count: active,
        lookup_count: lookups,
        matched_count: 0,
    }
}

pub fn role_reply(out: &mut Vec<u8>, version: u8, xid: u32, role: u32, generation: u64) {
    push(out, version, xid, Body::RoleReply(Role { role, generation_id: generation }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use ofwire::version::Version;

    #[test]
    fn hello13_has_bitmap_and_length() {
        let mut out = vec![];
        hello(&mut out, OFP13, Versions::BOTH, 7);
        assert_eq!(out, [4, 0, 0, 16, 0, 0, 0, 7, 0, 1, 0, 8, 0, 0, 0, 0x12]);
        out.clear();
        hello(&mut out, OFP10, Versions::OF10, 7);
        assert_eq!(out, [1, 0, 0, 8, 0, 0, 0, 7]);
    }

    #[test]
    fn features_reply_sizes() {
        let f = Features { dpid: 5, n_buffers: 256, n_tables: 1, ports: (1..=2).map(|p| port(OFP10, 5, p)).collect(), groups: true };
        let mut out = vec![];
        features_reply(&mut out, OFP10, 1, &f);
        assert_eq!(out.len(), 32 + 2 * 48);
        assert_eq!(&out[8..16], &5u64.to_be_bytes());
        assert_eq!(&out[24..32], &[0, 0, 0, 7, 0, 0, 0x0f, 0xff], "capabilities, actions");
        out.clear();
        features_reply(&mut out, OFP13, 1, &f);
        assert_eq!(out.len(), 32);
        assert_eq!(&out[24..28], &[0, 0, 0, 0x0f], "1.3 with groups: GROUP_STATS too");
        out.clear();
        features_reply(&mut out, OFP13, 1, &Features { groups: false, ..f });
        assert_eq!(&out[24..28], &[0, 0, 0, 7], "no groups, no group stats");
    }

    /// The port layouts, byte for byte (OF1.0 §5.2.1 ofp_phy_port, OF1.3 §7.2.1 ofp_port).
    #[test]
    fn port_bytes() {
        let mut b = vec![0xa5; 64];
        port(OFP13, 0x0102_0304_0506, 3).emit(Version::V13, &mut b);
        let mut want = vec![0, 0, 0, 3, 0, 0, 0, 0, 2, 3, 4, 5, 6, 3, 0, 0];
        want.extend_from_slice(b"s1108152157446-e");
        want[31] = 0; // the name is cut to 15 bytes and NUL-terminated
                      // config 0, LIVE, curr 10GB_FD|COPPER, advertised/supported/peer 0 (as Open vSwitch)
        want.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 8, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        want.extend_from_slice(&[0, 0x98, 0x96, 0x80, 0, 0, 0, 0]); // 10 Gb/s now, max 0
        assert_eq!(b, want);
        let mut b = vec![0xa5; 48];
        port(OFP10, 1, 2).emit(Version::V10, &mut b);
        let mut want = vec![0, 2, 2, 0, 0, 0, 1, 2];
        want.extend_from_slice(b"s1-eth2\0\0\0\0\0\0\0\0\0");
        want.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xc0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(b, want);
    }
}
