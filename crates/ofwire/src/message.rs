//! A whole OpenFlow message: header fields plus a decoded body, for either version.
//!
//! `Message::parse` takes exactly one message (split a stream with `header::frame_len`).
//! Hello is decoded for any version byte, so that version negotiation can read it; every
//! other message must be 1.0 or 1.3 (`Error::BadVersion` otherwise). Message types this
//! crate does not decode become `Body::Unknown` and are written back unchanged.

use crate::config::{AsyncConfig, Role, SwitchConfig};
use crate::error::{Error, Result};
use crate::error_msg::ErrorMsg;
use crate::experimenter::Experimenter;
use crate::features::FeaturesReply;
use crate::flow_mod::FlowMod;
use crate::flow_removed::FlowRemoved;
use crate::group_mod::GroupMod;
use crate::header::{write_header, Header, HEADER_LEN};
use crate::hello::Hello;
use crate::meter_mod::MeterMod;
use crate::msg_type::MsgType;
use crate::packet_in::PacketIn;
use crate::packet_out::PacketOut;
use crate::port_mod::PortMod;
use crate::port_status::PortStatus;
use crate::stats::{StatsReply, StatsRequest};
use crate::version::Version;
use core::fmt;

/// One message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// The header's version byte (any value for hello; 0x01 or 0x04 otherwise).
    pub version: u8,
    pub xid: u32,
    pub body: Body,
}

/// The decoded body of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Body {
    Hello(Hello),
    Error(ErrorMsg),
    EchoRequest(Vec<u8>),
    EchoReply(Vec<u8>),
    Experimenter(Experimenter),
    FeaturesRequest,
    FeaturesReply(FeaturesReply),
    GetConfigRequest,
    GetConfigReply(SwitchConfig),
    SetConfig(SwitchConfig),
    PacketIn(PacketIn),
    FlowRemoved(FlowRemoved),
    PortStatus(PortStatus),
    PacketOut(PacketOut),
    FlowMod(FlowMod),
    GroupMod(GroupMod),
    PortMod(PortMod),
    MeterMod(MeterMod),
    StatsRequest(StatsRequest),
    StatsReply(StatsReply),
    BarrierRequest,
    BarrierReply,
    RoleRequest(Role),
    RoleReply(Role),
    GetAsyncRequest,
    GetAsyncReply(AsyncConfig),
    SetAsync(AsyncConfig),
    /// A message type this crate does not decode (e.g. table-mod, queue-get-config).
    Unknown {
        msg_type: u8,
        data: Vec<u8>,
    },
}

impl Body {
    /// The message kind, `None` for `Unknown`.
    pub fn msg_type(&self) -> Option<MsgType> {
        use Body::*;
        Some(match self {
            Hello(_) => MsgType::Hello,
            Error(_) => MsgType::Error,
            EchoRequest(_) => MsgType::EchoRequest,
            EchoReply(_) => MsgType::EchoReply,
            Experimenter(_) => MsgType::Experimenter,
            FeaturesRequest => MsgType::FeaturesRequest,
            FeaturesReply(_) => MsgType::FeaturesReply,
            GetConfigRequest => MsgType::GetConfigRequest,
            GetConfigReply(_) => MsgType::GetConfigReply,
            SetConfig(_) => MsgType::SetConfig,
            PacketIn(_) => MsgType::PacketIn,
            FlowRemoved(_) => MsgType::FlowRemoved,
            PortStatus(_) => MsgType::PortStatus,
            PacketOut(_) => MsgType::PacketOut,
            FlowMod(_) => MsgType::FlowMod,
            GroupMod(_) => MsgType::GroupMod,
            PortMod(_) => MsgType::PortMod,
            MeterMod(_) => MsgType::MeterMod,
            StatsRequest(_) => MsgType::StatsRequest,
            StatsReply(_) => MsgType::StatsReply,
            BarrierRequest => MsgType::BarrierRequest,
            BarrierReply => MsgType::BarrierReply,
            RoleRequest(_) => MsgType::RoleRequest,
            RoleReply(_) => MsgType::RoleReply,
            GetAsyncRequest => MsgType::GetAsyncRequest,
            GetAsyncReply(_) => MsgType::GetAsyncReply,
            SetAsync(_) => MsgType::SetAsync,
            Unknown { .. } => return None,
        })
    }

    /// Decodes the body of a message of kind `t` in version `v`.
    pub fn parse(v: Version, t: MsgType, b: &[u8]) -> Result<Body> {
        use MsgType as T;
        Ok(match t {
            T::Hello => Body::Hello(Hello::parse(b)?),
            T::Error => Body::Error(ErrorMsg::parse(b)?),
            T::EchoRequest => Body::EchoRequest(b.to_vec()),
            T::EchoReply => Body::EchoReply(b.to_vec()),
            T::Experimenter => Body::Experimenter(Experimenter::parse(v, b)?),
            T::FeaturesRequest => empty(b, Body::FeaturesRequest)?,
            T::FeaturesReply => Body::FeaturesReply(FeaturesReply::parse(v, b)?),
            T::GetConfigRequest => empty(b, Body::GetConfigRequest)?,
            T::GetConfigReply => Body::GetConfigReply(SwitchConfig::parse(b)?),
            T::SetConfig => Body::SetConfig(SwitchConfig::parse(b)?),
            T::PacketIn => Body::PacketIn(PacketIn::parse(v, b)?),
            T::FlowRemoved => Body::FlowRemoved(FlowRemoved::parse(v, b)?),
            T::PortStatus => Body::PortStatus(PortStatus::parse(v, b)?),
            T::PacketOut => Body::PacketOut(PacketOut::parse(v, b)?),
            T::FlowMod => Body::FlowMod(FlowMod::parse(v, b)?),
            T::GroupMod => Body::GroupMod(GroupMod::parse(b)?),
            T::PortMod => Body::PortMod(PortMod::parse(v, b)?),
            T::MeterMod => Body::MeterMod(MeterMod::parse(b)?),
            T::StatsRequest => Body::StatsRequest(StatsRequest::parse(v, b)?),
            T::StatsReply => Body::StatsReply(StatsReply::parse(v, b)?),
            T::BarrierRequest => empty(b, Body::BarrierRequest)?,
            T::BarrierReply => empty(b, Body::BarrierReply)?,
            T::RoleRequest => Body::RoleRequest(Role::parse(b)?),
            T::RoleReply => Body::RoleReply(Role::parse(b)?),
            T::GetAsyncRequest => empty(b, Body::GetAsyncRequest)?,
            T::GetAsyncReply => Body::GetAsyncReply(AsyncConfig::parse(b)?),
            T::SetAsync => Body::SetAsync(AsyncConfig::parse(b)?),
            T::TableMod | T::QueueGetConfigRequest | T::QueueGetConfigReply | T::Unknown(_) => {
                Body::Unknown { msg_type: t.code(v), data: b.to_vec() }
            }
        })
    }

    pub fn buffer_len(&self, v: Version) -> usize {
        use Body::*;
        match self {
            Hello(h) => h.buffer_len(),
            Error(e) => e.buffer_len(),
            EchoRequest(d) | EchoReply(d) => d.len(),
            Experimenter(e) => e.buffer_len(v),
            FeaturesRequest | GetConfigRequest | BarrierRequest | BarrierReply | GetAsyncRequest => 0,
            FeaturesReply(f) => f.buffer_len(v),
            GetConfigReply(_) | SetConfig(_) => SwitchConfig::LEN,
            PacketIn(p) => p.buffer_len(v),
            FlowRemoved(f) => f.buffer_len(v),
            PortStatus(p) => p.buffer_len(v),
            PacketOut(p) => p.buffer_len(v),
            FlowMod(f) => f.buffer_len(v),
            GroupMod(g) => g.buffer_len(),
            PortMod(p) => p.buffer_len(v),
            MeterMod(m) => m.buffer_len(),
            StatsRequest(s) => s.buffer_len(v),
            StatsReply(s) => s.buffer_len(v),
            RoleRequest(_) | RoleReply(_) => crate::config::Role::LEN,
            GetAsyncReply(_) | SetAsync(_) => crate::config::AsyncConfig::LEN,
            Unknown { data, .. } => data.len(),
        }
    }

    /// Writes the body into `buf[..buffer_len(v)]`.
    pub fn emit(&self, v: Version, buf: &mut [u8]) {
        use Body::*;
        match self {
            Hello(h) => h.emit(buf),
            Error(e) => e.emit(buf),
            EchoRequest(d) | EchoReply(d) => buf[..d.len()].copy_from_slice(d),
            Experimenter(e) => e.emit(v, buf),
            FeaturesRequest | GetConfigRequest | BarrierRequest | BarrierReply | GetAsyncRequest => {}
            FeaturesReply(f) => f.emit(v, buf),
            GetConfigReply(c) | SetConfig(c) => c.emit(buf),
            PacketIn(p) => p.emit(v, buf),
            FlowRemoved(f) => f.emit(v, buf),
            PortStatus(p) => p.emit(v, buf),
            PacketOut(p) => p.emit(v, buf),
            FlowMod(f) => f.emit(v, buf),
            GroupMod(g) => g.emit(buf),
            PortMod(p) => p.emit(v, buf),
            MeterMod(m) => m.emit(buf),
            StatsRequest(s) => s.emit(v, buf),
            StatsReply(s) => s.emit(v, buf),
            RoleRequest(r) | RoleReply(r) => r.emit(buf),
            GetAsyncReply(a) | SetAsync(a) => a.emit(buf),
            Unknown { data, .. } => buf[..data.len()].copy_from_slice(data),
        }
    }
}

fn empty(b: &[u8], body: Body) -> Result<Body> {
    if b.is_empty() {
        Ok(body)
    } else {
        Err(Error::TrailingBytes { what: "empty-bodied message", len: b.len() })
    }
}

impl Message {
    pub fn new(version: Version, xid: u32, body: Body) -> Message {
        Message { version: version.wire(), xid, body }
    }

    /// Decodes exactly one message; `buf` must be as long as its header says.
    pub fn parse(buf: &[u8]) -> Result<Message> {
        let h = Header::new_checked(buf)?;
        h.check_len()?;
        let (version, code, xid) = (h.version(), h.msg_type(), h.xid());
        let payload = h.payload();
        let v = match Version::from_wire(version) {
            Some(v) => v,
            None if code == 0 => Version::V13,
            None => return Err(Error::BadVersion(version)),
        };
        let body = match MsgType::from_code(v, code) {
            Some(t) => Body::parse(v, t, payload)?,
            None => Body::Unknown { msg_type: code, data: payload.to_vec() },
        };
        Ok(Message { version, xid, body })
    }

    /// The version whose layouts `emit` uses: 1.3 for hellos of other versions.
    pub fn layout_version(&self) -> Version {
        Version::from_wire(self.version).unwrap_or(Version::V13)
    }

    pub fn buffer_len(&self) -> usize {
        HEADER_LEN + self.body.buffer_len(self.layout_version())
    }

    /// Writes the message into `buf[..buffer_len()]`; panics if `buf` is shorter.
    /// Returns the number of bytes written.
    pub fn emit(&self, buf: &mut [u8]) -> usize {
        let v = self.layout_version();
        let len = self.buffer_len();
        let code = match &self.body {
            Body::Unknown { msg_type, .. } => *msg_type,
            b => b.msg_type().expect("known body").code(v),
        };
        write_header(buf, self.version, code, len, self.xid);
        self.body.emit(v, &mut buf[HEADER_LEN..len]);
        len
    }

    /// Appends the message to `out`.
    pub fn emit_append(&self, out: &mut Vec<u8>) {
        let start = out.len();
        out.resize(start + self.buffer_len(), 0);
        self.emit(&mut out[start..]);
    }

    pub fn to_vec(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.buffer_len());
        self.emit_append(&mut v);
        v
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "v0x{:02x} xid={} ", self.version, self.xid)?;
        match &self.body {
            Body::Hello(h) => write!(f, "{h}"),
            Body::Error(e) => write!(f, "{e}"),
            Body::PacketIn(p) => write!(f, "{p}"),
            Body::PacketOut(p) => write!(f, "{p}"),
            Body::FlowMod(m) => write!(f, "{m}"),
            Body::FeaturesReply(r) => write!(f, "{r}"),
            Body::Unknown { msg_type, data } => write!(f, "unknown type={msg_type} len={}", data.len()),
            b => write!(f, "{:?}", b.msg_type().expect("known body")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rt(m: &Message) {
        let bytes = m.to_vec();
        assert_eq!(bytes.len(), m.buffer_len());
        assert_eq!(&Message::parse(&bytes).unwrap(), m);
    }

    #[test]
    fn handshake_messages_round_trip() {
        for v in [Version::V10, Version::V13] {
            rt(&Message::new(v, 1, Body::Hello(Hello::with_versions(&[1, 4]))));
            rt(&Message::new(v, 2, Body::EchoRequest(vec![1, 2, 3])));
            rt(&Message::new(v, 3, Body::FeaturesRequest));
            rt(&Message::new(v, 4, Body::SetConfig(SwitchConfig { flags: 0, miss_send_len: 0xffff })));
            rt(&Message::new(v, 5, Body::BarrierReply));
            rt(&Message::new(v, 6, Body::Unknown { msg_type: 99, data: vec![7; 5] }));
        }
    }

    #[test]
    fn hello_of_any_version_but_nothing_else() {
        let hello6 = [6u8, 0, 0, 16, 0, 0, 0, 1, 0, 1, 0, 8, 0, 0, 0, 0x52];
        let m = Message::parse(&hello6).unwrap();
        assert_eq!(m.version, 6);
        assert_eq!(m.to_vec(), hello6);
        let echo6 = [6u8, 2, 0, 8, 0, 0, 0, 1];
        assert_eq!(Message::parse(&echo6).unwrap_err(), Error::BadVersion(6));
    }

    #[test]
    fn barrier_codes_per_version() {
        assert_eq!(Message::new(Version::V10, 0, Body::BarrierRequest).to_vec()[1], 18);
        assert_eq!(Message::new(Version::V13, 0, Body::BarrierRequest).to_vec()[1], 20);
        assert!(matches!(Message::parse(&[1, 18, 0, 9, 0, 0, 0, 0, 0]), Err(Error::TrailingBytes { .. })));
    }
}
