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
use crate::emit::{self, Msg};
use crate::flow_table::{Applied, Entry, FlowTable};
use crate::frames;

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
        }
    }
}

impl std::error::Error for SwitchError {}

/// How many bytes the message at the start of `buf` has, once its header is there.
#[inline]
pub fn frame_len(buf: &[u8]) -> Option<Result<usize, SwitchError>> {
    if buf.len() < HEADER_LEN {
        return None;
    }
    let n = u16::from_be_bytes([buf[2], buf[3]]) as usize;
    Some(if n < HEADER_LEN { Err(SwitchError::BadLength(n)) } else { Ok(n) })
}

#[inline]
fn be16(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}
#[inline]
fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}
#[inline]
fn be64(b: &[u8], at: usize) -> u64 {
    u64::from_be_bytes(b[at..at + 8].try_into().unwrap())
}

fn need(kind: &'static str, msg: &[u8], n: usize) -> Result<(), SwitchError> {
    if msg.len() < n {
        return Err(SwitchError::Truncated { kind, need: n, have: msg.len() });
    }
    Ok(())
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
        need("header", msg, HEADER_LEN)?;
        self.last_rx_ns = now;
        let (ver, xid) = (msg[0], be32(msg, 4));
        let kind = Kind::from_code(ver, msg[1]);
        if kind == Kind::Hello {
            return self.on_hello(msg, out);
        }
        if ver != self.version || self.state == State::Hello {
            emit::error(out, self.version, xid, ET_BAD_REQUEST, BRC_BAD_VERSION, msg);
            return Err(SwitchError::WrongVersion { got: ver, want: self.version });
        }
        let v = self.version;
        match kind {
            Kind::FlowMod => return self.on_flow_mod(now, msg),
            Kind::PacketOut => return self.on_packet_out(msg),
            Kind::EchoRequest => emit::echo(out, v, Kind::EchoReply, xid, &msg[HEADER_LEN..]),
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
            Kind::GetConfigRequest => emit::config_reply(out, v, xid, self.config_flags, self.miss_send_len),
            Kind::SetConfig => {
                need("set_config", msg, 12)?;
                self.config_flags = be16(msg, 8);
                self.miss_send_len = be16(msg, 10);
            }
            Kind::BarrierRequest => emit::empty(out, v, Kind::BarrierReply, xid),
            Kind::StatsRequest => self.on_stats(now, msg, out)?,
            Kind::RoleRequest => {
                need("role_request", msg, 24)?;
                let (role, generation) = (be32(msg, 8), be64(msg, 16));
                if role != 0 {
                    self.role = role;
                    self.generation_id = generation;
                }
                emit::role_reply(out, v, xid, self.role, self.generation_id);
            }
            Kind::GetAsyncRequest => {
                let mut m = Msg::begin(out, v, Kind::GetAsyncReply, xid);
                m.u32(0x7).u32(0x7).u32(0x7).u32(0x7).u32(0xf).u32(0xf);
                m.finish();
            }
            Kind::QueueGetConfigRequest => {
                let mut m = Msg::begin(out, v, Kind::QueueGetConfigReply, xid);
                if v == OFP10 {
                    need("queue_get_config", msg, 10)?;
                    m.u16(be16(msg, 8)).zeros(6);
                } else {
                    need("queue_get_config", msg, 12)?;
                    m.u32(be32(msg, 8)).zeros(4);
                }
                m.finish();
            }
            Kind::Error => {
                need("error", msg, 12)?;
                return Ok(Event::Error { ty: be16(msg, 8), code: be16(msg, 10) });
            }
            Kind::SetAsync | Kind::PortMod | Kind::TableMod | Kind::GroupMod | Kind::MeterMod => {}
            Kind::Experimenter => emit::error(out, v, xid, ET_BAD_REQUEST, 3, msg),
            _ => emit::error(out, v, xid, ET_BAD_REQUEST, BRC_BAD_TYPE, msg),
        }
        Ok(Event::Control(kind))
    }

    fn on_hello(&mut self, msg: &[u8], out: &mut Vec<u8>) -> Result<Event, SwitchError> {
        let theirs = msg[0];
        let mut bitmap = 0u32;
        let mut at = HEADER_LEN;
        while at + 4 <= msg.len() {
            let (ty, len) = (be16(msg, at), be16(msg, at + 2) as usize);
            if len < 4 {
                break;
            }
            if ty == 1 && at + 8 <= msg.len() {
                bitmap = be32(msg, at + 4);
            }
            at += (len + 7) / 8 * 8;
        }
        let common = if bitmap != 0 { bitmap & self.cfg.versions } else { 0 };
        let version = if common != 0 {
            31 - common.leading_zeros() as u8
        } else {
            let ours = if self.cfg.versions & (1 << OFP13) != 0 { OFP13 } else { OFP10 };
            let v = theirs.min(ours);
            if v < 32 && self.cfg.versions & (1 << v) != 0 { v } else { 0 }
        };
        if version == 0 {
            emit::error(out, theirs.min(self.version), be32(msg, 4), ET_HELLO_FAILED, HFC_INCOMPATIBLE, b"no common version");
            return Err(SwitchError::NoCommonVersion { theirs, bitmap });
        }
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
        let v10 = self.version == OFP10;
        need("flow_mod", msg, if v10 { 72 } else { 56 })?;
        let buffer_id = if v10 { be32(msg, 64) } else { be32(msg, 32) };
        if !self.cfg.keep_flows {
            return Ok(Event::FlowMod { buffer_id, applied: None });
        }
        let (command, e) = if v10 {
            let e = Entry {
                table: 0,
                priority: be16(msg, 62),
                cookie: be64(msg, 48),
                idle_timeout: be16(msg, 58),
                hard_timeout: be16(msg, 60),
                flags: be16(msg, 70),
                r#match: msg[8..48].to_vec(),
                body: msg[72..].to_vec(),
                installed_ns: now,
            };
            (be16(msg, 56) as u8, e)
        } else {
            let mlen = be16(msg, 50) as usize;
            let mend = 48 + (mlen + 7) / 8 * 8;
            need("flow_mod match", msg, mend)?;
            let e = Entry {
                table: msg[24],
                priority: be16(msg, 30),
                cookie: be64(msg, 8),
                idle_timeout: be16(msg, 26),
                hard_timeout: be16(msg, 28),
                flags: be16(msg, 44),
                r#match: msg[48..mend].to_vec(),
                body: msg[mend..].to_vec(),
                installed_ns: now,
            };
            (msg[25], e)
        };
        let applied = self.flows.apply(self.version, command, e);
        Ok(Event::FlowMod { buffer_id, applied: Some(applied) })
    }

    fn on_packet_out(&mut self, msg: &[u8]) -> Result<Event, SwitchError> {
        let v10 = self.version == OFP10;
        let (alen_at, actions_at) = if v10 { (14, 16) } else { (16, 24) };
        need("packet_out", msg, actions_at)?;
        let buffer_id = be32(msg, 8);
        let alen = be16(msg, alen_at) as usize;
        need("packet_out actions", msg, actions_at + alen)?;
        let data = &msg[actions_at + alen..];
        let mut lldp_sent = 0;
        if frames::ethertype(data) == Some(ETH_LLDP) && !self.cfg.links.is_empty() {
            let mut at = actions_at;
            while at + 8 <= actions_at + alen {
                let (ty, len) = (be16(msg, at), be16(msg, at + 2) as usize);
                if len < 8 {
                    break;
                }
                if ty == 0 {
                    let port = if v10 { be16(msg, at + 4) as u32 } else { be32(msg, at + 4) };
                    for &(p, nd, np) in &self.cfg.links {
                        if p == port {
                            self.link_out.push((nd, np, data.to_vec()));
                            lldp_sent += 1;
                        }
                    }
                }
                at += len;
            }
        }
        Ok(Event::PacketOut { buffer_id, marker: frames::marker(data), lldp_sent })
    }

    fn on_stats(&mut self, now: u64, msg: &[u8], out: &mut Vec<u8>) -> Result<(), SwitchError> {
        let v = self.version;
        let body_at = if v == OFP10 { 12 } else { 16 };
        need("stats_request", msg, body_at)?;
        let (ty, xid) = (be16(msg, 8), be32(msg, 4));
        match ty {
            ST_DESC => {
                let mut m = emit::stats_head(out, v, xid, ty);
                emit::desc_body(&mut m, self.cfg.dpid);
                m.finish();
            }
            ST_FLOW | ST_AGGREGATE => crate::stats::flows(self, now, ty, xid, out),
            ST_TABLE => {
                let mut m = emit::stats_head(out, v, xid, ty);
                for t in 0..self.cfg.n_tables {
                    let active = self.flows.entries.iter().filter(|e| e.table == t).count() as u32;
                    emit::table_stats_body(&mut m, v, t, active, self.flows.lookups);
                }
                m.finish();
            }
            ST_PORT => {
                let mut m = emit::stats_head(out, v, xid, ty);
                for p in 1..=self.cfg.ports {
                    emit::port_stats_body(&mut m, v, p);
                }
                m.finish();
            }
            MP_PORT_DESC if v != OFP10 => {
                let mut m = emit::stats_head(out, v, xid, ty);
                for p in 1..=self.cfg.ports {
                    emit::port13(&mut m, self.cfg.dpid, p);
                }
                m.finish();
            }
            MP_TABLE_FEATURES if v != OFP10 => emit::stats_head(out, v, xid, ty).finish(),
            _ => emit::error(out, v, xid, ET_BAD_REQUEST, BRC_BAD_STAT, msg),
        }
        Ok(())
    }

    /// A frame arrives on `port` from a linked neighbour: append an unbuffered packet-in.
    pub fn packet_in_from_link(&mut self, port: u32, frame: &[u8], out: &mut Vec<u8>) {
        let xid = self.next_xid();
        crate::packet_in::emit(out, self.version, xid, NO_BUFFER, port, frame.len() as u16, frame);
    }

    /// Append an echo request now (capacity tests: prove the session is alive end to end).
    pub fn echo_now(&mut self, now: u64, out: &mut Vec<u8>) {
        self.echo_seq = (self.echo_seq + 1) & 0xffff;
        emit::echo(out, self.version, Kind::EchoRequest, KEEPALIVE_XID | self.echo_seq, &now.to_be_bytes());
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
