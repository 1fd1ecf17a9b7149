//! The controller state machine: handshake, requests with their send times, replies matched
//! by xid, packet-ins and errors as timed events.
//!
//! `now` is nanoseconds on the caller's clock. The caller sends every [`Action::Send`] in order
//! and reads every [`Action::Event`]; nothing is sent behind its back except echo replies,
//! which come out of `on_message` like everything else.

use std::collections::{BTreeMap, HashMap};

use ofwire::stats::REPLY_MORE;
use ofwire::{negotiate, Body, ErrorMsg, FeaturesReply, Hello, Message, PacketIn, Version};

use crate::build;

/// What a pending request was, so its reply or error can be attributed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Features,
    Echo,
    Barrier,
    Stats(build::StatsKind),
    FlowMod,
    PacketOut,
    Config,
    Other,
}

impl Kind {
    fn of(body: &Body) -> Kind {
        match body {
            Body::FeaturesRequest => Kind::Features,
            Body::EchoRequest(_) => Kind::Echo,
            Body::BarrierRequest => Kind::Barrier,
            Body::FlowMod(_) => Kind::FlowMod,
            Body::PacketOut(_) => Kind::PacketOut,
            Body::SetConfig(_) => Kind::Config,
            Body::StatsRequest(r) => match &r.body {
                ofwire::StatsRequestBody::Desc => Kind::Stats(build::StatsKind::Desc),
                ofwire::StatsRequestBody::Flow(_) => Kind::Stats(build::StatsKind::Flow),
                ofwire::StatsRequestBody::Aggregate(_) => Kind::Stats(build::StatsKind::Aggregate),
                ofwire::StatsRequestBody::Table => Kind::Stats(build::StatsKind::Table),
                ofwire::StatsRequestBody::Port { .. } => Kind::Stats(build::StatsKind::Port),
                _ => Kind::Other,
            },
            _ => Kind::Other,
        }
    }

    /// Whether the switch answers this request with a reply of its own.
    fn has_reply(self) -> bool {
        matches!(self, Kind::Features | Kind::Echo | Kind::Barrier | Kind::Stats(_))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// `start` not called yet.
    Idle,
    HelloSent,
    FeaturesSent,
    Ready,
    Failed,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// The handshake finished: version agreed, features known, set-config sent.
    Connected {
        at: u64,
        version: Version,
        features: FeaturesReply,
    },
    /// A request's reply (all parts of a multipart reply, the last one closing it).
    Reply {
        xid: u32,
        kind: Kind,
        sent_at: u64,
        replied_at: u64,
        parts: Vec<Body>,
    },
    /// An error; `kind`/`sent_at` are known when the xid is one of our pending requests.
    Error {
        xid: u32,
        at: u64,
        kind: Option<Kind>,
        sent_at: Option<u64>,
        error: ErrorMsg,
    },
    PacketIn {
        at: u64,
        xid: u32,
        packet_in: PacketIn,
    },
    /// The handshake failed (no common version or an unexpected message before it finished).
    Failed {
        at: u64,
        reason: String,
    },
    /// Anything else the switch said (port-status, flow-removed, ...).
    Other {
        at: u64,
        msg: Message,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Send(Message),
    Event(Event),
}

#[derive(Debug)]
struct Pending {
    kind: Kind,
    sent_at: u64,
    parts: Vec<Body>,
}

/// The controller side of one OpenFlow connection.
#[derive(Debug)]
pub struct Controller {
    versions: Vec<u8>,
    version: Option<Version>,
    state: State,
    next_xid: u32,
    /// Requests that get a reply, by xid.
    pending: HashMap<u32, Pending>,
    /// Requests without a reply (flow-mods, packet-outs), kept until a later barrier's reply
    /// proves the switch processed them, so that an error naming their xid can be attributed.
    unconfirmed: BTreeMap<u32, (Kind, u64)>,
}

impl Controller {
    /// A controller offering the wire `versions` (e.g. `[OFP13]` or `[OFP10, OFP13]`).
    pub fn new(versions: &[u8]) -> Controller {
        Controller {
            versions: versions.to_vec(),
            version: None,
            state: State::Idle,
            next_xid: 1,
            pending: HashMap::new(),
            unconfirmed: BTreeMap::new(),
        }
    }

    pub fn state(&self) -> State {
        self.state
    }

    /// The negotiated version (after the switch's hello).
    pub fn version(&self) -> Option<Version> {
        self.version
    }

    /// Requests still waiting for a reply.
    pub fn outstanding(&self) -> usize {
        self.pending.len()
    }

    /// Our hello, with the version bitmap.
    pub fn start(&mut self, _now: u64) -> Vec<Action> {
        self.state = State::HelloSent;
        let top = self.versions.iter().copied().max().unwrap_or(ofwire::OFP13);
        let xid = self.fresh_xid();
        vec![Action::Send(Message { version: top, xid, body: Body::Hello(Hello::with_versions(&self.versions)) })]
    }

    /// A request in the negotiated version with a fresh xid; its send time is recorded as `now`
    /// (call this just before writing it).
    pub fn request(&mut self, now: u64, body: Body) -> Message {
        let v = self.version.expect("request before the switch's hello");
        let xid = self.fresh_xid();
        let kind = Kind::of(&body);
        if kind.has_reply() {
            self.pending.insert(xid, Pending { kind, sent_at: now, parts: Vec::new() });
        } else {
            self.unconfirmed.insert(xid, (kind, now));
        }
        Message::new(v, xid, body)
    }

    /// Moves a request's recorded send time (e.g. to when its batch was actually written).
    pub fn set_sent_at(&mut self, xid: u32, now: u64) {
        if let Some(p) = self.pending.get_mut(&xid) {
            p.sent_at = now;
        } else if let Some(e) = self.unconfirmed.get_mut(&xid) {
            e.1 = now;
        }
    }

    fn fresh_xid(&mut self) -> u32 {
        let x = self.next_xid;
        self.next_xid = self.next_xid.wrapping_add(1).max(1);
        x
    }

    /// Handles one message from the switch, received at `now`.
    pub fn on_message(&mut self, now: u64, msg: Message) -> Vec<Action> {
        let mut out = Vec::new();
        match msg.body {
            Body::EchoRequest(data) => out.push(Action::Send(Message { body: Body::EchoReply(data), ..msg })),
            Body::Hello(h) => self.on_hello(now, msg.version, &h, &mut out),
            Body::FeaturesReply(f) if self.state == State::FeaturesSent => {
                self.close(now, msg.xid, Body::FeaturesReply(f.clone()), &mut Vec::new());
                self.state = State::Ready;
                out.push(Action::Send(self.request(now, build::set_config())));
                let version = self.version.expect("version set at hello");
                out.push(Action::Event(Event::Connected { at: now, version, features: f }));
            }
            Body::Error(e) => self.on_error(now, msg.xid, e, &mut out),
            _ if self.state != State::Ready => {
                let reason = format!("unexpected {:?} during the handshake", msg.body.msg_type());
                self.fail(now, reason, &mut out);
            }
            Body::PacketIn(p) => out.push(Action::Event(Event::PacketIn { at: now, xid: msg.xid, packet_in: p })),
            Body::StatsReply(r) if r.flags & REPLY_MORE != 0 => {
                if let Some(p) = self.pending.get_mut(&msg.xid) {
                    p.parts.push(Body::StatsReply(r));
                }
            }
            body @ (Body::StatsReply(_) | Body::BarrierReply | Body::EchoReply(_)) => {
                if !self.close(now, msg.xid, body.clone(), &mut out) {
                    out.push(Action::Event(Event::Other { at: now, msg: Message { body, ..msg } }));
                }
            }
            body => out.push(Action::Event(Event::Other { at: now, msg: Message { body, ..msg } })),
        }
        out
    }

    fn on_hello(&mut self, now: u64, their_version: u8, h: &Hello, out: &mut Vec<Action>) {
        if self.state != State::HelloSent {
            return;
        }
        let ours = self.versions.iter().copied().max().unwrap_or(ofwire::OFP13);
        match negotiate(&self.versions, ours, their_version, h).ok().and_then(Version::from_wire) {
            Some(v) => {
                self.version = Some(v);
                self.state = State::FeaturesSent;
                out.push(Action::Send(self.request(now, Body::FeaturesRequest)));
            }
            None => {
                let reason = format!("no common OpenFlow version (switch said 0x{their_version:02x}, we offer {:?})", self.versions);
                self.fail(now, reason, out);
            }
        }
    }

    fn on_error(&mut self, now: u64, xid: u32, error: ErrorMsg, out: &mut Vec<Action>) {
        let (kind, sent_at) = match self.pending.remove(&xid) {
            Some(p) => (Some(p.kind), Some(p.sent_at)),
            None => match self.unconfirmed.remove(&xid) {
                Some((k, t)) => (Some(k), Some(t)),
                None => (None, None),
            },
        };
        if self.state != State::Ready && self.state != State::Failed {
            self.fail(now, format!("switch sent an error during the handshake: {error}"), out);
        }
        out.push(Action::Event(Event::Error { xid, at: now, kind, sent_at, error }));
    }

    fn fail(&mut self, now: u64, reason: String, out: &mut Vec<Action>) {
        self.state = State::Failed;
        out.push(Action::Event(Event::Failed { at: now, reason }));
    }

    /// Closes request `xid` with its last part; false if it was not ours.
    fn close(&mut self, now: u64, xid: u32, last: Body, out: &mut Vec<Action>) -> bool {
        let Some(mut p) = self.pending.remove(&xid) else { return false };
        if p.kind == Kind::Barrier {
            // A barrier reply means every earlier request was processed (OpenFlow §6.2).
            self.unconfirmed = self.unconfirmed.split_off(&xid);
        }
        p.parts.push(last);
        out.push(Action::Event(Event::Reply { xid, kind: p.kind, sent_at: p.sent_at, replied_at: now, parts: p.parts }));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{FlowSpec, Next, StatsKind};
    use ofwire::{AggregateStats, StatsReply, StatsReplyBody, OFP10, OFP13};

    fn sent(actions: &[Action]) -> Vec<&Message> {
        actions.iter().filter_map(|a| if let Action::Send(m) = a { Some(m) } else { None }).collect()
    }

    fn events(actions: Vec<Action>) -> Vec<Event> {
        actions.into_iter().filter_map(|a| if let Action::Event(e) = a { Some(e) } else { None }).collect()
    }

    /// Runs the handshake against a switch speaking `switch_versions`; returns the controller.
    fn connected(ours: &[u8], switch_versions: &[u8]) -> Controller {
        let mut c = Controller::new(ours);
        let hello = c.start(0);
        assert!(matches!(sent(&hello)[0].body, Body::Hello(_)));
        let top = *switch_versions.iter().max().unwrap();
        let out = c.on_message(10, Message { version: top, xid: 1, body: Body::Hello(Hello::with_versions(switch_versions)) });
        let freq = sent(&out)[0].clone();
        assert_eq!(freq.body, Body::FeaturesRequest);
        let fr = FeaturesReply { datapath_id: 42, n_tables: 254, ..Default::default() };
        let out = c.on_message(20, Message { version: freq.version, xid: freq.xid, body: Body::FeaturesReply(fr) });
        assert!(matches!(sent(&out)[0].body, Body::SetConfig(_)));
        match &events(out)[..] {
            [Event::Connected { at: 20, features, .. }] => assert_eq!(features.datapath_id, 42),
            e => panic!("{e:?}"),
        }
        assert_eq!(c.state(), State::Ready);
        c
    }

    #[test]
    fn handshake_picks_the_highest_common_version() {
        assert_eq!(connected(&[OFP10, OFP13], &[OFP10, OFP13]).version(), Some(Version::V13));
        assert_eq!(connected(&[OFP10, OFP13], &[OFP10]).version(), Some(Version::V10));
    }

    #[test]
    fn no_common_version_fails_the_handshake() {
        let mut c = Controller::new(&[OFP13]);
        c.start(0);
        let out = c.on_message(5, Message { version: OFP10, xid: 1, body: Body::Hello(Hello::with_versions(&[OFP10])) });
        assert!(matches!(&events(out)[..], [Event::Failed { at: 5, .. }]));
        assert_eq!(c.state(), State::Failed);
    }

    #[test]
    fn echo_is_answered_with_the_same_xid_and_data() {
        let mut c = connected(&[OFP13], &[OFP13]);
        let out = c.on_message(30, Message { version: OFP13, xid: 99, body: Body::EchoRequest(vec![1, 2]) });
        let m = sent(&out)[0];
        assert_eq!((m.xid, &m.body), (99, &Body::EchoReply(vec![1, 2])));
    }

    #[test]
    fn multipart_reply_is_timed_at_its_last_part() {
        let mut c = connected(&[OFP13], &[OFP13]);
        let req = c.request(100, build::stats(Version::V13, StatsKind::Aggregate));
        let part = |flags| StatsReply { flags, body: StatsReplyBody::Aggregate(AggregateStats::default()) };
        let out = c.on_message(150, Message::new(Version::V13, req.xid, Body::StatsReply(part(REPLY_MORE))));
        assert!(out.is_empty());
        let out = c.on_message(180, Message::new(Version::V13, req.xid, Body::StatsReply(part(0))));
        match &events(out)[..] {
            [Event::Reply { kind: Kind::Stats(StatsKind::Aggregate), sent_at: 100, replied_at: 180, parts, .. }] => {
                assert_eq!(parts.len(), 2)
            }
            e => panic!("{e:?}"),
        }
        assert_eq!(c.outstanding(), 0);
    }

    #[test]
    fn errors_are_attributed_to_flow_mods_until_a_barrier_confirms_them() {
        let mut c = connected(&[OFP13], &[OFP13]);
        let spec = FlowSpec::to_dst(0, 1, [2, 0, 0, 0, 0, 1], Next::Output(2));
        let fm1 = c.request(200, build::flow_add(Version::V13, &spec).unwrap());
        let fm2 = c.request(210, build::flow_add(Version::V13, &spec).unwrap());
        let err = ErrorMsg { typ: 5, code: 1, data: vec![] };
        let out = c.on_message(220, Message::new(Version::V13, fm2.xid, Body::Error(err.clone())));
        assert!(matches!(&events(out)[..], [Event::Error { kind: Some(Kind::FlowMod), sent_at: Some(210), .. }]));
        let b = c.request(230, Body::BarrierRequest);
        let out = c.on_message(240, Message::new(Version::V13, b.xid, Body::BarrierReply));
        assert!(matches!(&events(out)[..], [Event::Reply { kind: Kind::Barrier, sent_at: 230, replied_at: 240, .. }]));
        // fm1 was confirmed by the barrier: a late error naming it is no longer attributed.
        let out = c.on_message(250, Message::new(Version::V13, fm1.xid, Body::Error(err)));
        assert!(matches!(&events(out)[..], [Event::Error { kind: None, .. }]));
    }

    #[test]
    fn packet_in_is_an_event_with_its_arrival_time() {
        let mut c = connected(&[OFP10], &[OFP10]);
        let pi = PacketIn { in_port: 3, data: vec![0; 60], ..Default::default() };
        let out = c.on_message(500, Message::new(Version::V10, 0, Body::PacketIn(pi)));
        match &events(out)[..] {
            [Event::PacketIn { at: 500, packet_in, .. }] => assert_eq!(packet_in.port(Version::V10), Some(3)),
            e => panic!("{e:?}"),
        }
    }
}
