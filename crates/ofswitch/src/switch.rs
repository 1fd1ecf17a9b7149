//! The emulated switch: `on_message(now, msg, out) -> Event`, no I/O.
//!
//! Invariants:
//! - `msg` is exactly one OpenFlow message (its header length equals `msg.len()`); the caller
//!   frames the stream with [`crate::frame_len`].
//! - Replies are appended to `out`, never written elsewhere; the switch allocates only for the
//!   flow table and LLDP frames.
//! - A message the switch cannot parse is answered with an OpenFlow error and reported as
//!   `Err`, so the engine can end (only) this session unless it was told to be lenient.
//! - Time is passed in (`now`, nanoseconds on any monotonic clock): keep-alives are decided by
//!   [`Switch::poll`], which the engine calls whenever it wakes.

use crate::consts::*;
use crate::emit;
use crate::flow_table::{Applied, Entry, FlowTable};
use crate::frames;
use ofwire::action::parse_actions;
use ofwire::{flow_mod, packet_out, Action, AsyncConfig, Body, ErrorMsg, FlowMod, Header, Hello, Role, StatsReplyBody};
use ofwire::SwitchConfig as SwitchConfig13;

#[derive(Clone, Debug)]
pub struct SwitchConfig {
    pub dpid: u64,
    pub ports: u32,
    /// Supported versions as a hello bitmap: bit 1 = OF1.0, bit 4 = OF1.3.
    pub versions: u32,
    pub n_tables: u8,
    pub n_buffers: u32,
    /// Keep flow-mods in a flow table (off for plain load tests: it costs memory).
    pub keep_flows: bool,
    pub max_flows: usize,
    /// Send an echo request after this long without traffic from the controller (0 = never).
    pub echo_interval_ns: u64,
    /// Declare the controller dead when an echo stays unanswered this long.
    pub echo_timeout_ns: u64,
    /// (local port, neighbour dpid, neighbour port): LLDP sent out of the port comes back as a
    /// packet-in on the neighbour.
    pub links: Vec<(u32, u64, u32)>,
}

impl SwitchConfig {
    pub fn new(dpid: u64) -> SwitchConfig {
        SwitchConfig {
            dpid,
            ports: 4,
            versions: (1 << OFP10) | (1 << OFP13),
            n_tables: 1,
            n_buffers: 256,
            keep_flows: false,
            max_flows: 0,
            echo_interval_ns: 5_000_000_000,
            echo_timeout_ns: 15_000_000_000,
            links: Vec::new(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Our hello is out; waiting for the controller's.
    Hello,
    /// Version agreed; waiting for the features request.
    Features,
    /// Features reply sent: the session is up.
    Up,
}

/// What a message meant, for the engine's accounting. Replies are already in `out`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A control message, handled (and answered if it asks for an answer).
    Control(Kind),
    /// The features reply went out: the handshake is complete.
    Connected { version: u8 },
    FlowMod { buffer_id: u32, applied: Option<Applied> },
    /// `marker` is (switch, seq) when the packet-out carries one of our frames.
    PacketOut { buffer_id: u32, marker: Option<(u32, u32)>, lldp_sent: usize },
    EchoReply { xid: u32, rtt_ns: Option<u64> },
    Error { ty: u16, code: u16 },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwitchError {
    Truncated { kind: &'static str, need: usize, have: usize },
    BadLength(usize),
    NoCommonVersion { theirs: u8, bitmap: u32 },
    WrongVersion { got: u8, want: u8 },
    KeepaliveTimeout { waited_ns: u64 },
    /// ofwire rejected a message the switch had to read.
    Malformed { kind: &'static str, error: ofwire::Error },
}

impl std::fmt::Display for SwitchError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            SwitchError::Truncated { kind, need, have } => {
                write!(f, "truncated {kind}: need {need} bytes, have {have}")
            }
            SwitchError::BadLength(n) => write!(f, "bad OpenFlow length {n}"),
            SwitchError::NoCommonVersion { theirs, bitmap } => {
                write!(f, "no common OpenFlow version (controller hello {theirs:#04x}, bitmap {bitmap:#x})")
            }
            SwitchError::WrongVersion { got, want } => {
                write!(f, "message version {got:#04x} on a {want:#04x} session")
            }
            SwitchError::KeepaliveTimeout { waited_ns } => {
                write!(f, "controller did not answer an echo for {} ms", waited_ns / 1_000_000)
            }
            SwitchError::Malformed { kind, error } => write!(f, "malformed {kind}: {error}"),
        }
    }
}

impl std::error::Error for SwitchError {}

/// How many bytes the message at the start of `buf` has, once its header is there.
#[inline]
pub fn frame_len(buf: &[u8]) -> Option<Result<usize, SwitchError>> {
    match ofwire::frame_len(buf) {
        Ok(Some(n)) => Some(Ok(n)),
        Ok(None) => None,
        Err(ofwire::Error::BadLength { len, .. }) => Some(Err(SwitchError::BadLength(len))),
        Err(e) => Some(Err(codec("header", e))),
    }
}

/// A message body cut to its fixed size, when it is at least that long (a short one is left
/// whole, for ofwire to report as truncated).
fn fixed(body: &[u8], len: usize) -> &[u8] {
    &body[..len.min(body.len())]
}

/// An ofwire decoding error, named after the message it was found in.
fn codec(kind: &'static str, e: ofwire::Error) -> SwitchError {
    match e {
        ofwire::Error::Truncated { need, have } => SwitchError::Truncated { kind, need, have },
        e => SwitchError::Malformed { kind, error: e },
    }
}

const KEEPALIVE_XID: u32 = 0xffff_0000;

pub struct Switch {
    pub cfg: SwitchConfig,
    pub state: State,
    pub version: u8,
    pub flows: FlowTable,
    pub miss_send_len: u16,
    pub config_flags: u16,
    pub role: u32,
    pub generation_id: u64,
    /// LLDP frames to deliver: (neighbour dpid, neighbour port, frame). The engine drains it.
    pub link_out: Vec<(u64, u32, Vec<u8>)>,
    last_rx_ns: u64,
    echo_sent_ns: Option<u64>,
    echo_seq: u32,
    xid: u32,
}

impl Switch {
    pub fn new(cfg: SwitchConfig) -> Switch {
        let flows = FlowTable::with_capacity(cfg.max_flows);
        let version = if cfg.versions & (1 << OFP13) != 0 { OFP13 } else { OFP10 };
        Switch {
            cfg,
            state: State::Hello,
            version,
            flows,
            miss_send_len: 128,
            config_flags: 0,
            role: 0,
            generation_id: 0,
            link_out: Vec::new(),
            last_rx_ns: 0,
            echo_sent_ns: None,
            echo_seq: 0,
            xid: 1,
        }
    }

    fn next_xid(&mut self) -> u32 {
        self.xid = self.xid.wrapping_add(1) & 0x7fff_ffff;
        self.xid
    }

    /// The switch speaks first: append its hello.
    pub fn start(&mut self, now: u64, out: &mut Vec<u8>) {
        self.last_rx_ns = now;
        let xid = self.next_xid();
        emit::hello(out, self.version, self.cfg.versions, xid);
    }

    pub fn is_up(&self) -> bool {
        self.state == State::Up
    }

    /// Handle one whole message from the controller.
    pub fn on_message(&mut self, now: u64, msg: &[u8], out: &mut Vec<u8>) -> Result<Event, SwitchError> {
        let h = Header::new_checked(msg).map_err(|e| codec("header", e))?;
        self.last_rx_ns = now;
        let (ver, xid) = (h.version(), h.xid());
        let kind = Kind::from_code(ver, h.msg_type());
        if kind == Kind::Hello {
            return self.on_hello(ver, xid, h.payload(), out);
        }
        if ver != self.version || self.state == State::Hello {
            emit::error(out, self.version, xid, ET_BAD_REQUEST, BRC_BAD_VERSION, msg);
            return Err(SwitchError::WrongVersion { got: ver, want: self.version });
        }
        let v = self.version;
        let body = h.payload();
        match kind {
            Kind::FlowMod => return self.on_flow_mod(now, msg),
            Kind::PacketOut => return self.on_packet_out(msg),
            Kind::EchoRequest => emit::push(out, v, xid, Body::EchoReply(body.to_vec())),
            Kind::EchoReply => return Ok(self.on_echo_reply(now, xid)),
            Kind::FeaturesRequest => {
                let f = emit::Features {
                    dpid: self.cfg.dpid,
                    n_buffers: self.cfg.n_buffers,
                    n_tables: self.cfg.n_tables,
                    ports: self.cfg.ports,
                };
                emit::features_reply(out, v, xid, &f);
                if self.state != State::Up {
                    self.state = State::Up;
                    return Ok(Event::Connected { version: v });
                }
            }
            Kind::GetConfigRequest => {
                let c = SwitchConfig13 { flags: self.config_flags, miss_send_len: self.miss_send_len };
                emit::push(out, v, xid, Body::GetConfigReply(c));
            }
            Kind::SetConfig => {
                // lenient like a real switch: bytes after the fixed body are ignored
                let c = SwitchConfig13::parse(fixed(body, SwitchConfig13::LEN)).map_err(|e| codec("set_config", e))?;
                self.config_flags = c.flags;
                self.miss_send_len = c.miss_send_len;
            }
            Kind::BarrierRequest => emit::push(out, v, xid, Body::BarrierReply),
            Kind::StatsRequest => self.on_stats(now, xid, msg, out)?,
            Kind::RoleRequest => {
                let r = Role::parse(fixed(body, Role::LEN)).map_err(|e| codec("role_request", e))?;
                if r.role != 0 {
                    self.role = r.role;
                    self.generation_id = r.generation_id;
                }
                emit::role_reply(out, v, xid, self.role, self.generation_id);
            }
            Kind::GetAsyncRequest => {
                let a = AsyncConfig { packet_in_mask: [0x7, 0x7], port_status_mask: [0x7, 0x7], flow_removed_mask: [0xf, 0xf] };
                emit::push(out, v, xid, Body::GetAsyncReply(a));
            }
            Kind::QueueGetConfigRequest => {
                // TODO(ofwire): queue-get-config request/reply values; until then the reply (the
                // port asked about, no queues) is an Unknown body that ofwire frames.
                let port_len = if v == OFP10 { 2 } else { 4 };
                if body.len() < port_len {
                    return Err(SwitchError::Truncated { kind: "queue_get_config", need: HEADER_LEN + port_len, have: msg.len() });
                }
                let mut data = body[..port_len].to_vec();
                data.resize(8, 0);
                let msg_type = Kind::QueueGetConfigReply.code(v);
                emit::push(out, v, xid, Body::Unknown { msg_type, data });
            }
            Kind::Error => {
                let e = ErrorMsg::parse(body).map_err(|e| codec("error", e))?;
                return Ok(Event::Error { ty: e.typ, code: e.code });
            }
            Kind::SetAsync | Kind::PortMod | Kind::TableMod | Kind::GroupMod | Kind::MeterMod => {}
            Kind::Experimenter => emit::error(out, v, xid, ET_BAD_REQUEST, BRC_BAD_EXPERIMENTER, msg),
            _ => emit::error(out, v, xid, ET_BAD_REQUEST, BRC_BAD_TYPE, msg),
        }
        Ok(Event::Control(kind))
    }

    fn on_hello(&mut self, theirs: u8, xid: u32, body: &[u8], out: &mut Vec<u8>) -> Result<Event, SwitchError> {
        // A hello with elements we cannot read still negotiates, by header versions alone.
        let hello = Hello::parse(body).unwrap_or_default();
        let bitmap = hello.version_bitmap().and_then(|b| b.first().copied()).unwrap_or(0);
        let ours: Vec<u8> = [OFP10, OFP13].into_iter().filter(|v| self.cfg.versions & (1 << v) != 0).collect();
        let our_hello = if self.cfg.versions & (1 << OFP13) != 0 { OFP13 } else { OFP10 };
        let Ok(version) = ofwire::negotiate(&ours, our_hello, theirs, &hello) else {
            emit::error(out, theirs.min(self.version), xid, ET_HELLO_FAILED, HFC_INCOMPATIBLE, b"no common version");
            return Err(SwitchError::NoCommonVersion { theirs, bitmap });
        };
        self.version = version;
        if self.state == State::Hello {
            self.state = State::Features;
        }
        Ok(Event::Control(Kind::Hello))
    }

    fn on_echo_reply(&mut self, now: u64, xid: u32) -> Event {
        let rtt_ns = match self.echo_sent_ns {
            Some(t) if xid & 0xffff_0000 == KEEPALIVE_XID => {
                self.echo_sent_ns = None;
                Some(now.saturating_sub(t))
            }
            _ => None,
        };
        Event::EchoReply { xid, rtt_ns }
    }

    fn on_flow_mod(&mut self, now: u64, msg: &[u8]) -> Result<Event, SwitchError> {
        let p = flow_mod::Packet::new_checked(msg).map_err(|e| codec("flow_mod", e))?;
        let buffer_id = p.buffer_id();
        if !self.cfg.keep_flows {
            return Ok(Event::FlowMod { buffer_id, applied: None });
        }
        let v = p.version();
        let f = FlowMod::parse(v, &msg[HEADER_LEN..]).map_err(|e| codec("flow_mod", e))?;
        let e = Entry::from_flow_mod(v, &f, now);
        let applied = self.flows.apply(self.version, f.command as u8, e);
        Ok(Event::FlowMod { buffer_id, applied: Some(applied) })
    }

    fn on_packet_out(&mut self, msg: &[u8]) -> Result<Event, SwitchError> {
        let p = packet_out::Packet::new_checked(msg).map_err(|e| codec("packet_out", e))?;
        let data = p.data();
        let mut lldp_sent = 0;
        if frames::ethertype(data) == Some(ofwire::frame::ETHERTYPE_LLDP) && !self.cfg.links.is_empty() {
            // actions ofwire cannot read send the frame nowhere, as before: not a session error
            let actions = parse_actions(p.version(), p.actions()).unwrap_or_default();
            for a in &actions {
                if let Action::Output { port, .. } = a {
                    for &(p, nd, np) in &self.cfg.links {
                        if p == *port {
                            self.link_out.push((nd, np, data.to_vec()));
                            lldp_sent += 1;
                        }
                    }
                }
            }
        }
        Ok(Event::PacketOut { buffer_id: p.buffer_id(), marker: frames::marker(data), lldp_sent })
    }

    fn on_stats(&mut self, now: u64, xid: u32, msg: &[u8], out: &mut Vec<u8>) -> Result<(), SwitchError> {
        let v = self.version;
        // The request bodies are not decoded: the switch answers by type, as a lenient real
        // switch does.
        let ty = ofwire::stats::Packet::new_checked(msg).map_err(|e| codec("stats_request", e))?.stats_type();
        let (dpid, ports) = (self.cfg.dpid, self.cfg.ports);
        let body = match ty {
            ST_DESC => StatsReplyBody::Desc(emit::desc(dpid)),
            ST_FLOW | ST_AGGREGATE => {
                crate::stats::flows(self, now, ty, xid, out);
                return Ok(());
            }
            ST_TABLE => StatsReplyBody::Table(
                (0..self.cfg.n_tables)
                    .map(|t| {
                        let active = self.flows.entries.iter().filter(|e| e.table == t).count() as u32;
                        emit::table_stats(t, active, self.flows.lookups)
                    })
                    .collect(),
            ),
            ST_PORT => StatsReplyBody::Port((1..=ports).map(emit::port_stats).collect()),
            MP_PORT_DESC if v != OFP10 => StatsReplyBody::PortDesc((1..=ports).map(|p| emit::port(v, dpid, p)).collect()),
            MP_TABLE_FEATURES if v != OFP10 => StatsReplyBody::Unknown { typ: ty, data: Vec::new() },
            _ => {
                emit::error(out, v, xid, ET_BAD_REQUEST, BRC_BAD_STAT, msg);
                return Ok(());
            }
        };
        emit::stats_reply(out, v, xid, body);
        Ok(())
    }

    /// A frame arrives on `port` from a linked neighbour: append an unbuffered packet-in.
    pub fn packet_in_from_link(&mut self, port: u32, frame: &[u8], out: &mut Vec<u8>) {
        let xid = self.next_xid();
        ofwire::PacketInRef::miss(port, frame).emit_append(crate::consts::layout(self.version), xid, out);
    }

    /// Append an echo request now (capacity tests: prove the session is alive end to end).
    pub fn echo_now(&mut self, now: u64, out: &mut Vec<u8>) {
        self.echo_seq = (self.echo_seq + 1) & 0xffff;
        let xid = KEEPALIVE_XID | self.echo_seq;
        emit::push(out, self.version, xid, Body::EchoRequest(now.to_be_bytes().to_vec()));
        self.echo_sent_ns = Some(now);
    }

    /// Keep-alive: append an echo request when the controller has been quiet too long; fail when
    /// the last one went unanswered for `echo_timeout_ns`. Returns when to call again.
    pub fn poll(&mut self, now: u64, out: &mut Vec<u8>) -> Result<u64, SwitchError> {
        let c = &self.cfg;
        if c.echo_interval_ns == 0 || self.state != State::Up {
            return Ok(u64::MAX);
        }
        if let Some(sent) = self.echo_sent_ns {
            let waited = now.saturating_sub(sent);
            if waited >= c.echo_timeout_ns {
                return Err(SwitchError::KeepaliveTimeout { waited_ns: waited });
            }
            return Ok(sent + c.echo_timeout_ns);
        }
        let due = self.last_rx_ns + c.echo_interval_ns;
        if now < due {
            return Ok(due);
        }
        let timeout = c.echo_timeout_ns;
        self.echo_now(now, out);
        Ok(now + timeout)
    }
}
