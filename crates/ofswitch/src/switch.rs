//! The emulated switch: `on_message_from(now, channel, msg, outs) -> Event`, no I/O.
//!
//! Invariants:
//! - `msg` is exactly one OpenFlow message (its header length equals `msg.len()`); the caller
//!   frames the stream with [`crate::frame_len`].
//! - `outs[ch]` is channel `ch`'s output buffer. Replies go to the asking channel's buffer;
//!   asynchronous messages (packet-in, flow-removed, port-status) to the buffers of the
//!   channels that should get them (see [`crate::channel`]); a channel without a buffer in
//!   `outs` is skipped. `on_message(now, msg, out)` is channel 0 with one buffer.
//! - Frames the switch transmits are appended to `tx` as (port, frame); the engine drains it.
//!   The switch knows ports, never links or hosts.
//! - A message the switch cannot parse is answered with an OpenFlow error and reported as
//!   `Err`, so the engine can end (only) this session unless it was told to be lenient.
//! - Time is passed in (`now`, nanoseconds on any monotonic clock): keep-alives are decided by
//!   [`Switch::poll`], which the engine calls whenever it wakes.

use crate::channel::Channel;
use crate::emit;
use crate::flow_table::{Applied, FlowTable};
use crate::group::Groups;
use crate::meter::Meters;
use crate::on_write::OnWrite;
use crate::ports::Ports;
use ofwire::config::role;
use ofwire::error_names::{bad_request, error_type, hello_failed};
use ofwire::SwitchConfig as SwitchConfig13;
use ofwire::{Body, ErrorMsg, Header, Hello, MsgType, Version, Versions, HEADER_LEN, OFP10, OFP13};

pub use crate::channel::State;

#[derive(Clone, Debug)]
pub struct SwitchConfig {
    pub dpid: u64,
    pub ports: u32,
    /// Supported versions (the hello bitmap; 1.0 and 1.3 by default).
    pub versions: Versions,
    /// Flow tables offered (FEATURES_REPLY, table stats, goto-table and flow-mod table ids).
    /// 254 by default, as Open vSwitch: controllers size their pipeline by it (Floodlight puts
    /// its table-miss entries in tables 0..min(4, n_tables - 1), so none at all on a switch
    /// announcing one table, and its LLDP probes are then dropped at 1.3). Tables are created
    /// on first use, so offering 254 costs nothing until a controller uses them.
    pub n_tables: u8,
    /// Buffers announced in FEATURES_REPLY by a switch that does not forward (the load
    /// generator's buffered packet-ins, as cbench's 256); a forwarding switch announces 0.
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
    /// Run packet-outs through their actions onto ports (`Switch::tx`). Off for plain load
    /// tests, where a packet-out is only accounted (as before forwarding existed).
    pub forward: bool,
    /// A group table (1.3). Without one, a group-mod ADD is refused with OUT_OF_GROUPS and
    /// group features announce no room, as Open vSwitch with no room for groups.
    pub groups: bool,
    /// Meter ids 1..max_meter (1.3); 0: no meters, a meter-mod is refused with INVALID_METER
    /// as Open vSwitch refuses it when its datapath has none.
    pub max_meter: u32,
}

impl SwitchConfig {
    pub fn new(dpid: u64) -> SwitchConfig {
        SwitchConfig {
            dpid,
            ports: 4,
            versions: Versions::BOTH,
            n_tables: 254,
            n_buffers: 256,
            keep_flows: false,
            max_flows: 0,
            echo_interval_ns: 5_000_000_000,
            echo_timeout_ns: 15_000_000_000,
            links: Vec::new(),
            forward: false,
            groups: true,
            max_meter: 1 << 18,
        }
    }
}

/// What a message meant, for the engine's accounting. Replies are already in `out`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A control message, handled (and answered if it asks for an answer).
    Control(MsgType),
    /// The features reply went out: the handshake is complete.
    Connected {
        version: u8,
    },
    FlowMod {
        buffer_id: u32,
        applied: Option<Applied>,
    },
    /// `marker` is (switch, seq) when the packet-out carries one of our frames.
    /// `lldp_sent`: frames handed to linked neighbours through the old `links` path; `sent`:
    /// frames queued on `tx` (with `forward`).
    PacketOut {
        buffer_id: u32,
        marker: Option<(u32, u32)>,
        lldp_sent: usize,
        sent: usize,
    },
    /// A request refused with an OpenFlow error (already in the output): e.g. a slave's
    /// flow-mod (IS_SLAVE), a full table, an unsupported match field.
    Refused {
        kind: MsgType,
        ty: u16,
        code: u16,
    },
    EchoReply {
        xid: u32,
        rtt_ns: Option<u64>,
    },
    Error {
        ty: u16,
        code: u16,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwitchError {
    Truncated {
        kind: &'static str,
        need: usize,
        have: usize,
    },
    BadLength(usize),
    NoCommonVersion {
        theirs: u8,
        bitmap: u32,
    },
    WrongVersion {
        got: u8,
        want: u8,
    },
    KeepaliveTimeout {
        waited_ns: u64,
    },
    /// ofwire rejected a message the switch had to read.
    Malformed {
        kind: &'static str,
        error: ofwire::Error,
    },
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
pub(crate) fn fixed(body: &[u8], len: usize) -> &[u8] {
    &body[..len.min(body.len())]
}

/// An ofwire decoding error, named after the message it was found in.
pub(crate) fn codec(kind: &'static str, e: ofwire::Error) -> SwitchError {
    match e {
        ofwire::Error::Truncated { need, have } => SwitchError::Truncated { kind, need, have },
        e => SwitchError::Malformed { kind, error: e },
    }
}

/// Counters of the forwarding side (frames, not messages). Invariant (tested):
/// `frames_in = dropped_in + looked_up`, where `looked_up` frames each end matched, missed or
/// dropped by a 1.3 table miss.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub frames_in: u64,
    /// Frames that arrived on a port that is down or does not exist.
    pub dropped_in: u64,
    pub looked_up: u64,
    pub missed: u64,
    /// 1.3 misses without a table-miss entry.
    pub dropped_miss: u64,
    /// Frames queued on `tx`.
    pub frames_out: u64,
    /// Outputs to a port that is down, to a port that does not exist, or to a reserved port
    /// not emulated (LOCAL, NORMAL, ...).
    pub dropped_out_down: u64,
    pub dropped_out_no_port: u64,
    pub dropped_out_unsupported: u64,
    /// Outputs naming the frame's own in port (only OFPP_IN_PORT sends a frame back).
    pub dropped_out_in_port: u64,
    /// Packet-in messages written (one per receiving channel) and flow-removed / port-status
    /// messages written.
    pub packet_ins: u64,
    pub flow_removed: u64,
    pub port_status: u64,
    /// Flow entries left out of flow stats replies: too big for any OpenFlow message.
    pub oversize_entries: u64,
    /// Frames forwarded in fail-open (`fail_open.rs`: fail mode standalone, no controller).
    pub fail_open_frames: u64,
}

impl crate::on_write::Zero for Counters {
    const ZERO: &'static Counters = &Counters {
        frames_in: 0,
        dropped_in: 0,
        looked_up: 0,
        missed: 0,
        dropped_miss: 0,
        frames_out: 0,
        dropped_out_down: 0,
        dropped_out_no_port: 0,
        dropped_out_unsupported: 0,
        dropped_out_in_port: 0,
        packet_ins: 0,
        flow_removed: 0,
        port_status: 0,
        oversize_entries: 0,
        fail_open_frames: 0,
    };
}

pub struct Switch {
    pub cfg: SwitchConfig,
    /// Channel 0's handshake state and version (the engine's single-controller view).
    pub state: State,
    pub version: u8,
    pub flows: FlowTable,
    pub groups: Groups,
    pub meters: Meters,
    pub ports: Ports,
    pub channels: Vec<Channel>,
    pub miss_send_len: u16,
    pub config_flags: u16,
    /// The last generation id a MASTER/SLAVE role request carried (OF1.3 §6.3.5).
    pub generation_id: Option<u64>,
    /// LLDP frames to deliver: (neighbour dpid, neighbour port, frame). The engine drains it.
    pub link_out: Vec<(u64, u32, Vec<u8>)>,
    /// Frames to transmit: (port, frame). The engine drains it.
    pub tx: Vec<(u32, Vec<u8>)>,
    /// Made on the first count: a load test's switch, which neither forwards nor raises
    /// packet-ins of its own, never counts (issue 50: a held session's bytes).
    pub counters: OnWrite<Counters>,
    pub(crate) scratch: Vec<crate::pipeline::Out>,
    /// Set while the switch forwards on its own (`fail_open.rs`).
    pub(crate) fail_open: Option<crate::fail_open::FailOpen>,
    xid: u32,
}

impl Switch {
    pub fn new(cfg: SwitchConfig) -> Switch {
        let flows = FlowTable::new(cfg.n_tables, cfg.max_flows);
        let version = cfg.versions.hello_version();
        let ports = Ports::new(cfg.ports);
        let (groups, meters) = (Groups::new(cfg.groups), Meters::new(cfg.max_meter));
        Switch {
            cfg,
            state: State::Hello,
            version,
            flows,
            groups,
            meters,
            ports,
            channels: vec![Channel::new(version)],
            miss_send_len: 128,
            config_flags: 0,
            generation_id: None,
            link_out: Vec::new(),
            tx: Vec::new(),
            counters: OnWrite::default(),
            scratch: Vec::new(),
            fail_open: None,
            xid: 1,
        }
    }

    pub(crate) fn next_xid(&mut self) -> u32 {
        self.xid = self.xid.wrapping_add(1) & 0x7fff_ffff;
        self.xid
    }

    /// Channel 0's role (compatibility; see `channels`).
    pub fn role(&self) -> u32 {
        self.channels[0].role
    }

    /// Add a controller channel (in the Hello state); returns its index.
    pub fn add_channel(&mut self) -> usize {
        let v = self.cfg.versions.hello_version();
        self.channels.push(Channel::new(v));
        self.channels.len() - 1
    }

    /// The switch speaks first on channel 0: append its hello.
    pub fn start(&mut self, now: u64, out: &mut Vec<u8>) {
        self.start_channel(now, 0, out);
    }

    /// The switch speaks first on channel `ch` (a new connection: its state starts over).
    pub fn start_channel(&mut self, now: u64, ch: usize, out: &mut Vec<u8>) {
        let v = self.cfg.versions.hello_version();
        self.channels[ch] = Channel::new(v);
        self.channels[ch].last_rx_ns = now;
        self.sync0();
        let xid = self.next_xid();
        emit::hello(out, v, self.cfg.versions, xid);
    }

    /// Mirror channel 0 into the single-controller fields.
    fn sync0(&mut self) {
        self.state = self.channels[0].state;
        self.version = self.channels[0].version;
    }

    pub fn is_up(&self) -> bool {
        self.state == State::Up
    }

    /// Channel `ch`'s connection is gone: it receives nothing (no packet-ins) until it starts
    /// over (`start_channel`). The flow table and ports stay, as Open vSwitch keeps them.
    pub fn disconnect(&mut self, ch: usize) {
        let v = self.channels[ch].version;
        self.channels[ch] = Channel::new(v);
        self.sync0();
    }

    /// Channels that receive `what` now (up, and allowed by role and async config): where the
    /// engine sends packet-ins and the like.
    pub fn async_channels(&self, what: crate::channel::Async) -> impl Iterator<Item = usize> + '_ {
        self.channels.iter().enumerate().filter(move |(_, c)| c.wants(what)).map(|(i, _)| i)
    }

    /// Handle one whole message from the controller on channel 0.
    pub fn on_message(&mut self, now: u64, msg: &[u8], out: &mut Vec<u8>) -> Result<Event, SwitchError> {
        self.on_message_from(now, 0, msg, std::slice::from_mut(out))
    }

    /// Handle one whole message from the controller on channel `ch`; `outs[ch]` must exist.
    pub fn on_message_from(&mut self, now: u64, ch: usize, msg: &[u8], outs: &mut [Vec<u8>]) -> Result<Event, SwitchError> {
        let r = self.dispatch(now, ch, msg, outs);
        self.sync0();
        r
    }

    fn dispatch(&mut self, now: u64, ch: usize, msg: &[u8], outs: &mut [Vec<u8>]) -> Result<Event, SwitchError> {
        let h = Header::new_checked(msg).map_err(|e| codec("header", e))?;
        self.channels[ch].last_rx_ns = now;
        let (ver, xid) = (h.version(), h.xid());
        let kind = MsgType::from_wire(ver, h.msg_type());
        let c = &self.channels[ch];
        let v = c.version;
        if kind == MsgType::Hello {
            return self.on_hello(ch, ver, xid, h.payload(), &mut outs[ch]);
        }
        if c.state == State::Hello {
            emit::error(&mut outs[ch], v, xid, error_type::BAD_REQUEST, bad_request::BAD_VERSION, msg);
            return Err(SwitchError::WrongVersion { got: ver, want: v });
        }
        if ver != v && !version_exempt(ver, kind) {
            // as Open vSwitch (lib/vconn.c `vconn_recv`): BAD_VERSION back, and the message is
            // dropped as if it had not arrived; the session goes on
            emit::error(&mut outs[ch], v, xid, error_type::BAD_REQUEST, bad_request::BAD_VERSION, msg);
            return Ok(Event::Refused { kind, ty: error_type::BAD_REQUEST, code: bad_request::BAD_VERSION });
        }
        if c.is_slave() && is_state_change(kind) {
            emit::error(&mut outs[ch], v, xid, error_type::BAD_REQUEST, bad_request::IS_SLAVE, msg);
            return Ok(Event::Refused { kind, ty: error_type::BAD_REQUEST, code: bad_request::IS_SLAVE });
        }
        let body = h.payload();
        match kind {
            MsgType::FlowMod => return self.on_flow_mod(now, ch, msg, outs),
            MsgType::PacketOut => return self.on_packet_out(now, ch, msg, outs),
            MsgType::PortMod => return self.on_port_mod(now, ch, msg, outs),
            MsgType::RoleRequest => return self.on_role_request(ch, xid, msg, &mut outs[ch]),
            MsgType::SetAsync | MsgType::GetAsyncRequest => return self.on_async(ch, kind, xid, body, &mut outs[ch]),
            MsgType::StatsRequest => self.on_stats(now, v, xid, msg, &mut outs[ch])?,
            MsgType::EchoReply => {
                let rtt_ns = self.channels[ch].on_echo_reply(now, xid);
                return Ok(Event::EchoReply { xid, rtt_ns });
            }
            MsgType::FeaturesRequest => return Ok(self.on_features(ch, xid, &mut outs[ch])),
            MsgType::GroupMod | MsgType::MeterMod | MsgType::TableMod => return Ok(self.on_mod(now, ch, kind, xid, msg, outs)),
            MsgType::Experimenter => return Ok(self.on_experimenter(ch, xid, msg, &mut outs[ch])),
            _ => return self.on_simple(ch, kind, xid, msg, &mut outs[ch]),
        }
        Ok(Event::Control(kind))
    }

    /// Messages answered from the channel's or switch's config alone.
    fn on_simple(&mut self, ch: usize, kind: MsgType, xid: u32, msg: &[u8], out: &mut Vec<u8>) -> Result<Event, SwitchError> {
        let v = self.channels[ch].version;
        let body = &msg[HEADER_LEN..];
        match kind {
            MsgType::EchoRequest => emit::push(out, v, xid, Body::EchoReply(body.to_vec())),
            MsgType::GetConfigRequest => {
                let c = SwitchConfig13 { flags: self.config_flags, miss_send_len: self.miss_send_len };
                emit::push(out, v, xid, Body::GetConfigReply(c));
            }
            MsgType::SetConfig => {
                // lenient like a real switch: bytes after the fixed body are ignored
                let c = SwitchConfig13::parse(fixed(body, SwitchConfig13::LEN)).map_err(|e| codec("set_config", e))?;
                self.config_flags = c.flags;
                self.miss_send_len = c.miss_send_len;
            }
            MsgType::BarrierRequest => emit::push(out, v, xid, Body::BarrierReply),
            MsgType::QueueGetConfigRequest => {
                // the port asked about, no queues; ofwire frames it as an Unknown body
                let port_len = if v == OFP10 { 2 } else { 4 };
                if body.len() < port_len {
                    return Err(SwitchError::Truncated { kind: "queue_get_config", need: HEADER_LEN + port_len, have: msg.len() });
                }
                let mut data = body[..port_len].to_vec();
                data.resize(8, 0);
                let msg_type = MsgType::QueueGetConfigReply.code(Version::layout(v));
                emit::push(out, v, xid, Body::Unknown { msg_type, data });
            }
            MsgType::Error => {
                let e = ErrorMsg::parse(body).map_err(|e| codec("error", e))?;
                return Ok(Event::Error { ty: e.typ, code: e.code });
            }
            _ => emit::error(out, v, xid, error_type::BAD_REQUEST, bad_request::BAD_TYPE, msg),
        }
        Ok(Event::Control(kind))
    }

    fn on_features(&mut self, ch: usize, xid: u32, out: &mut Vec<u8>) -> Event {
        let v = self.channels[ch].version;
        // a forwarding switch (the emulated network) lists LOCAL too, as Open vSwitch
        let ports = if v == OFP10 { self.ports.describe_all(v, self.cfg.dpid, self.cfg.forward) } else { Vec::new() };
        // a forwarding switch keeps no packet buffers (its packet-ins are unbuffered, a packet-out
        // naming a buffer sends nothing): it announces none, as Open vSwitch (2.7 on) does
        let n_buffers = if self.cfg.forward { 0 } else { self.cfg.n_buffers };
        let f = emit::Features { dpid: self.cfg.dpid, n_buffers, n_tables: self.cfg.n_tables, ports, groups: self.cfg.groups };
        emit::features_reply(out, v, xid, &f);
        let c = &mut self.channels[ch];
        if c.state != State::Up {
            c.state = State::Up;
            return Event::Connected { version: v };
        }
        Event::Control(MsgType::FeaturesRequest)
    }

    fn on_hello(&mut self, ch: usize, theirs: u8, xid: u32, body: &[u8], out: &mut Vec<u8>) -> Result<Event, SwitchError> {
        // A hello with elements we cannot read still negotiates, by header versions alone.
        let hello = Hello::parse(body).unwrap_or_default();
        let bitmap = hello.version_bitmap().and_then(|b| b.first().copied()).unwrap_or(0);
        let ours: Vec<u8> = [OFP10, OFP13].into_iter().filter(|&v| self.cfg.versions.has(v)).collect();
        let our_hello = self.cfg.versions.hello_version();
        let c = &mut self.channels[ch];
        let Ok(version) = ofwire::negotiate(&ours, our_hello, theirs, &hello) else {
            emit::error(out, theirs.min(c.version), xid, error_type::HELLO_FAILED, hello_failed::INCOMPATIBLE, b"no common version");
            return Err(SwitchError::NoCommonVersion { theirs, bitmap });
        };
        c.version = version;
        c.role = role::EQUAL;
        if c.state == State::Hello {
            c.state = State::Features;
        }
        Ok(Event::Control(MsgType::Hello))
    }

    /// A frame arrives on `port` from a linked neighbour: append an unbuffered table-miss
    /// packet-in (cookie 0, NO_MATCH; channel 0 only), with no flow table consulted: the path
    /// of a switch that keeps no flows ([`Switch::frame_from_link`] runs the tables otherwise).
    pub fn packet_in_from_link(&mut self, port: u32, frame: &[u8], out: &mut Vec<u8>) {
        let xid = self.next_xid();
        ofwire::PacketInRef::miss(port, frame).emit_append(Version::layout(self.version), xid, out);
    }

    /// Append an echo request on channel 0 now (capacity tests: prove the session is alive).
    pub fn echo_now(&mut self, now: u64, out: &mut Vec<u8>) {
        self.echo_on(now, 0, out);
    }

    /// Append an echo request on channel `ch` now.
    pub fn echo_on(&mut self, now: u64, ch: usize, out: &mut Vec<u8>) {
        let c = &mut self.channels[ch];
        let xid = c.next_echo(now);
        emit::push(out, c.version, xid, Body::EchoRequest(now.to_be_bytes().to_vec()));
    }

    /// Channel 0's keep-alive and the flow timeouts (see [`Switch::poll_channel`] and
    /// [`Switch::expire`]). Returns when to call again.
    pub fn poll(&mut self, now: u64, out: &mut Vec<u8>) -> Result<u64, SwitchError> {
        let t = self.expire(now, std::slice::from_mut(out));
        Ok(self.poll_channel(now, 0, out)?.min(t))
    }

    /// Keep-alive of channel `ch`: append an echo request when the controller has been quiet
    /// too long; fail when the last one went unanswered for `echo_timeout_ns`. Returns when to
    /// call again.
    pub fn poll_channel(&mut self, now: u64, ch: usize, out: &mut Vec<u8>) -> Result<u64, SwitchError> {
        let (interval, timeout) = (self.cfg.echo_interval_ns, self.cfg.echo_timeout_ns);
        let c = &self.channels[ch];
        if interval == 0 || c.state != State::Up {
            return Ok(u64::MAX);
        }
        if let Some(sent) = c.echo_sent_ns.filter(|&t| c.last_rx_ns <= t) {
            // as Open vSwitch's rconn (IDLE -> ACTIVE): any message after the probe proves the
            // controller alive, not only the echo reply
            let waited = now.saturating_sub(sent);
            if waited >= timeout {
                return Err(SwitchError::KeepaliveTimeout { waited_ns: waited });
            }
            return Ok(sent + timeout);
        }
        let due = c.last_rx_ns + interval;
        if now < due {
            return Ok(due);
        }
        self.echo_on(now, ch, out);
        Ok(now + timeout)
    }
}

/// Messages that change the switch's state: refused from a slave (OF1.3 §6.3.5).
/// Messages taken in another (known) version than the session's, as Open vSwitch takes them:
/// an error, an echo request or reply (their layout is the same in every version). A controller
/// answering a broken message with an error in its lowest version must not cost the session.
fn version_exempt(ver: u8, kind: MsgType) -> bool {
    ofwire::version::Version::from_wire(ver).is_some() && matches!(kind, MsgType::Error | MsgType::EchoRequest | MsgType::EchoReply)
}

fn is_state_change(k: MsgType) -> bool {
    matches!(k, MsgType::FlowMod | MsgType::PacketOut | MsgType::PortMod | MsgType::GroupMod | MsgType::MeterMod | MsgType::TableMod)
}
