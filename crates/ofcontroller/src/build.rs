//! The message bodies a switch tester sends, for OpenFlow 1.0 and 1.3 alike: flow-mods (add,
//! delete-all, goto chains for pipelines), packet-outs, stats requests, set-config.
//!
//! One [`FlowSpec`] describes a flow in version-neutral terms; [`flow_add`] writes it as a 1.0
//! match + actions or a 1.3 OXM match + instructions. A spec a version cannot express (a goto
//! or a table other than 0 in 1.0) is refused with [`Unsupported`].

use ofwire::match10::wildcards;
use ofwire::stats::{FlowStatsRequest, StatsRequest, StatsRequestBody};
use ofwire::{Action, Body, FlowMod, Instruction, Match10, Oxm, OxmMatch, PacketOut, SwitchConfig, Version};

// The protocol's numbers, all from ofwire under the names this crate uses: OFPP_CONTROLLER and
// OFPP_ANY/OFPP_NONE (1.3 values; 1.0 keeps the low 16 bits), OFPTT_ALL, OFPG_ANY, OFPFC_ADD and
// OFPFC_DELETE, and OFPCML_NO_BUFFER (a table-miss packet-in carries the whole frame).
pub use ofwire::action::MAX_LEN_NO_BUFFER as MAX_LEN_ALL;
pub use ofwire::flow_mod::command::{ADD as FC_ADD, DELETE as FC_DELETE};
pub use ofwire::flow_mod::{GROUP_ANY, TABLE_ALL};
pub use ofwire::packet_in::NO_BUFFER;
pub use ofwire::port::ports::{ANY13 as PORT_ANY, CONTROLLER13 as PORT_CONTROLLER};

/// What a matching frame does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    Output(u32),
    Goto(u8),
    Controller,
    Drop,
}

/// A flow in version-neutral terms: matches on `in_port` and/or `eth_dst` (None = any).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlowSpec {
    pub table: u8,
    pub priority: u16,
    pub in_port: Option<u32>,
    pub eth_dst: Option<[u8; 6]>,
    pub next: Next,
    pub cookie: u64,
}

impl FlowSpec {
    /// A priority-0 match-all flow: the table-miss entry (§5.4 in 1.3).
    pub fn miss(table: u8, next: Next) -> FlowSpec {
        FlowSpec { table, priority: 0, in_port: None, eth_dst: None, next, cookie: 0 }
    }

    pub fn to_dst(table: u8, priority: u16, eth_dst: [u8; 6], next: Next) -> FlowSpec {
        FlowSpec { table, priority, in_port: None, eth_dst: Some(eth_dst), next, cookie: 0 }
    }
}

/// A spec the negotiated version cannot express.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported(pub &'static str);

impl core::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        f.write_str(self.0)
    }
}

/// A port number as `v` carries it (1.0 ports are 16 bits: OFPP_ANY becomes OFPP_NONE).
pub fn port(v: Version, p: u32) -> u32 {
    match v {
        Version::V10 => p & 0xffff,
        Version::V13 => p,
    }
}

fn output(v: Version, p: u32) -> Action {
    Action::Output { port: port(v, p), max_len: MAX_LEN_ALL }
}

fn match10(s: &FlowSpec) -> Match10 {
    let mut m = Match10::all();
    if let Some(p) = s.in_port {
        m.wildcards &= !wildcards::IN_PORT;
        m.in_port = p as u16;
    }
    if let Some(mac) = s.eth_dst {
        m.wildcards &= !wildcards::DL_DST;
        m.dl_dst = mac;
    }
    m
}

fn oxm_match(s: &FlowSpec) -> OxmMatch {
    let mut fields = Vec::new();
    if let Some(p) = s.in_port {
        fields.push(Oxm::in_port(p));
    }
    if let Some(mac) = s.eth_dst {
        fields.push(Oxm::eth_dst(mac));
    }
    OxmMatch::new(fields)
}

/// An OFPFC_ADD flow-mod for `s`.
pub fn flow_add(v: Version, s: &FlowSpec) -> Result<Body, Unsupported> {
    let mut fm = FlowMod {
        cookie: s.cookie,
        table_id: s.table,
        command: FC_ADD,
        priority: s.priority,
        buffer_id: NO_BUFFER,
        out_port: port(v, PORT_ANY),
        out_group: GROUP_ANY,
        ..FlowMod::default()
    };
    match v {
        Version::V10 => {
            if s.table != 0 {
                return Err(Unsupported("OpenFlow 1.0 has one flow table; use --of 1.3 for more"));
            }
            fm.match10 = match10(s);
            fm.out_group = 0;
            fm.actions = match s.next {
                Next::Output(p) => vec![output(v, p)],
                Next::Controller => vec![output(v, PORT_CONTROLLER)],
                Next::Drop => vec![],
                Next::Goto(_) => return Err(Unsupported("OpenFlow 1.0 has no goto-table; use --of 1.3")),
            };
        }
        Version::V13 => {
            fm.match_ = oxm_match(s);
            fm.instructions = match s.next {
                Next::Output(p) => vec![Instruction::ApplyActions(vec![output(v, p)])],
                Next::Controller => vec![Instruction::ApplyActions(vec![output(v, PORT_CONTROLLER)])],
                Next::Drop => vec![],
                Next::Goto(t) if t > s.table => vec![Instruction::GotoTable(t)],
                Next::Goto(_) => return Err(Unsupported("goto-table must go to a later table")),
            };
        }
    }
    Ok(Body::FlowMod(fm))
}

/// An OFPFC_DELETE of every flow in every table.
pub fn flow_delete_all(v: Version) -> Body {
    let mut fm = FlowMod {
        command: FC_DELETE,
        table_id: TABLE_ALL,
        buffer_id: NO_BUFFER,
        out_port: PORT_ANY,
        out_group: GROUP_ANY,
        ..FlowMod::default()
    };
    if v == Version::V10 {
        fm.match10 = Match10::all();
        fm.table_id = 0;
        fm.out_port = port(v, PORT_ANY);
        fm.out_group = 0;
    }
    Body::FlowMod(fm)
}

/// A packet-out carrying `frame` to `port` (no buffer; in_port = CONTROLLER).
pub fn packet_out(v: Version, out: u32, frame: &[u8]) -> Body {
    Body::PacketOut(PacketOut {
        buffer_id: NO_BUFFER,
        in_port: port(v, PORT_CONTROLLER),
        actions: vec![output(v, out)],
        data: frame.to_vec(),
    })
}

/// A packet-out releasing a frame the switch buffered (or, with NO_BUFFER, carrying it).
pub fn packet_out_of(v: Version, buffer_id: u32, in_port: u32, out: u32, frame: &[u8]) -> Body {
    let data = if buffer_id == NO_BUFFER { frame.to_vec() } else { Vec::new() };
    Body::PacketOut(PacketOut { buffer_id, in_port: port(v, in_port), actions: vec![output(v, out)], data })
}

/// The stats kinds a switch tester asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StatsKind {
    Desc,
    Flow,
    Aggregate,
    Table,
    Port,
}

impl StatsKind {
    pub const ALL: [StatsKind; 5] = [StatsKind::Desc, StatsKind::Flow, StatsKind::Aggregate, StatsKind::Table, StatsKind::Port];

    pub fn name(self) -> &'static str {
        match self {
            StatsKind::Desc => "desc",
            StatsKind::Flow => "flow",
            StatsKind::Aggregate => "aggregate",
            StatsKind::Table => "table",
            StatsKind::Port => "port",
        }
    }

    pub fn from_name(s: &str) -> Option<StatsKind> {
        StatsKind::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// A stats (1.0) / multipart (1.3) request for every flow, table or port.
pub fn stats(v: Version, kind: StatsKind) -> Body {
    let all_flows = FlowStatsRequest {
        table_id: TABLE_ALL,
        out_port: port(v, PORT_ANY),
        out_group: if v == Version::V10 { 0 } else { GROUP_ANY },
        match10: if v == Version::V10 { Match10::all() } else { Match10::default() },
        ..FlowStatsRequest::default()
    };
    let body = match kind {
        StatsKind::Desc => StatsRequestBody::Desc,
        StatsKind::Flow => StatsRequestBody::Flow(all_flows),
        StatsKind::Aggregate => StatsRequestBody::Aggregate(all_flows),
        StatsKind::Table => StatsRequestBody::Table,
        StatsKind::Port => StatsRequestBody::Port { port_no: port(v, PORT_ANY) },
    };
    Body::StatsRequest(StatsRequest { flags: 0, body })
}

/// Set-config asking for whole frames in packet-ins.
pub fn set_config() -> Body {
    Body::SetConfig(SwitchConfig { flags: 0, miss_send_len: MAX_LEN_ALL })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ofwire::Message;

    fn round_trip(v: Version, body: Body) -> Body {
        let bytes = Message::new(v, 7, body).to_vec();
        Message::parse(&bytes).expect("parses").body
    }

    #[test]
    fn flow_add_round_trips_in_both_versions() {
        let s = FlowSpec::to_dst(0, 100, [2, 0, 0, 0, 0, 9], Next::Output(2));
        for v in [Version::V10, Version::V13] {
            let body = flow_add(v, &s).unwrap();
            assert_eq!(round_trip(v, body.clone()), body);
        }
    }

    #[test]
    fn flow_add_10_matches_only_dl_dst() {
        let s = FlowSpec::to_dst(0, 5, [2, 0, 0, 0, 0, 1], Next::Output(3));
        let Body::FlowMod(fm) = flow_add(Version::V10, &s).unwrap() else { panic!() };
        assert_eq!(fm.match10.wildcards, wildcards::ALL & !wildcards::DL_DST);
        assert_eq!(fm.match10.dl_dst, [2, 0, 0, 0, 0, 1]);
        assert_eq!(fm.actions, vec![Action::Output { port: 3, max_len: MAX_LEN_ALL }]);
    }

    #[test]
    fn goto_and_extra_tables_are_refused_in_10() {
        assert!(flow_add(Version::V10, &FlowSpec::miss(0, Next::Goto(1))).is_err());
        assert!(flow_add(Version::V10, &FlowSpec::miss(1, Next::Drop)).is_err());
        assert!(flow_add(Version::V13, &FlowSpec::miss(2, Next::Goto(1))).is_err());
        let Body::FlowMod(fm) = flow_add(Version::V13, &FlowSpec::miss(0, Next::Goto(1))).unwrap() else { panic!() };
        assert_eq!(fm.instructions, vec![Instruction::GotoTable(1)]);
    }

    #[test]
    fn delete_all_and_stats_round_trip() {
        for v in [Version::V10, Version::V13] {
            let d = flow_delete_all(v);
            assert_eq!(round_trip(v, d.clone()), d);
            for k in StatsKind::ALL {
                let b = stats(v, k);
                assert_eq!(round_trip(v, b.clone()), b, "{k:?} {v:?}");
                assert_eq!(StatsKind::from_name(k.name()), Some(k));
            }
            let p = packet_out(v, 2, &[0xaa; 60]);
            assert_eq!(round_trip(v, p.clone()), p);
        }
    }
}
