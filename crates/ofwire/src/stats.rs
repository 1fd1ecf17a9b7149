//! Statistics: OFPT_STATS_REQUEST/REPLY (1.0 §5.3.5) and OFPT_MULTIPART_REQUEST/REPLY (1.3
//! §7.3.5) for desc, flow, aggregate, table, port, queue and (1.3) port-desc. Other kinds
//! (vendor, group, meter, table-features, ...) are kept as `Unknown` bytes.
//!
//! Envelope: `type:16, flags:16` (+ `pad[4]` in 1.3), then the kind's body. Reply entries
//! live in `stats_reply.rs`. `Packet<T>` reads a request's or reply's envelope without
//! decoding the body (after `new_checked` no accessor panics), for answering by type.

use crate::bytes::{Reader, Writer};
use crate::error::{Error, Result};
use crate::header::{Header, HEADER_LEN};
use crate::match10::{Match10, MATCH10_LEN};
use crate::msg_type::MsgType;
use crate::oxm::OxmMatch;
use crate::stats_reply::StatsReplyBody;
use crate::version::Version;

/// Stats/multipart kinds (OFPST_* / OFPMP_*), shared with the reply entries.
pub use crate::stats_kind as kind;

/// The kind (`kind::*`) of `msg`, a whole message whose header the caller has already read as
/// a stats request or reply (the first field after the header in both versions); `None` when
/// the message is shorter.
#[inline]
pub fn kind_of(msg: &[u8]) -> Option<u16> {
    msg.get(crate::header::HEADER_LEN..crate::header::HEADER_LEN + 2).map(|b| u16::from_be_bytes([b[0], b[1]]))
}

/// The flow and aggregate request. `match10` is 1.0's; `out_group`, `cookie`,
/// `cookie_mask` and `match_` are 1.3's; `out_port` is 16 bits on the 1.0 wire.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FlowStatsRequest {
    pub table_id: u8,
    pub out_port: u32,
    pub out_group: u32,
    pub cookie: u64,
    pub cookie_mask: u64,
    pub match10: Match10,
    pub match_: OxmMatch,
}

impl FlowStatsRequest {
    fn parse(v: Version, b: &[u8]) -> Result<FlowStatsRequest> {
        let mut f = FlowStatsRequest::default();
        match v {
            Version::V10 => {
                let (rest, m) = Match10::parse(b)?;
                f.match10 = m;
                let mut r = Reader::new(rest);
                f.table_id = r.u8()?;
                r.skip(1)?;
                f.out_port = r.u16()? as u32;
                r.finish("flow stats request")?;
            }
            Version::V13 => {
                let mut r = Reader::new(b);
                f.table_id = r.u8()?;
                r.skip(3)?;
                f.out_port = r.u32()?;
                f.out_group = r.u32()?;
                r.skip(4)?;
                f.cookie = r.u64()?;
                f.cookie_mask = r.u64()?;
                let (rest, m) = OxmMatch::parse(r.rest())?;
                Reader::new(rest).finish("flow stats request")?;
                f.match_ = m;
            }
        }
        Ok(f)
    }

    fn buffer_len(&self, v: Version) -> usize {
        match v {
            Version::V10 => MATCH10_LEN + 4,
            Version::V13 => 32 + self.match_.buffer_len(),
        }
    }

    fn emit(&self, v: Version, buf: &mut [u8]) {
        match v {
            Version::V10 => {
                let mut w = Writer::new(self.match10.emit(buf));
                w.u8(self.table_id);
                w.zeros(1);
                w.u16(self.out_port as u16);
            }
            Version::V13 => {
                let mut w = Writer::new(buf);
                w.u8(self.table_id);
                w.zeros(3);
                w.u32(self.out_port);
                w.u32(self.out_group);
                w.zeros(4);
                w.u64(self.cookie);
                w.u64(self.cookie_mask);
                self.match_.emit(w.rest());
            }
        }
    }
}

/// What a stats request asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatsRequestBody {
    Desc,
    Flow(FlowStatsRequest),
    Aggregate(FlowStatsRequest),
    Table,
    /// `port_no` is 16 bits on the 1.0 wire.
    Port {
        port_no: u32,
    },
    Queue {
        port_no: u32,
        queue_id: u32,
    },
    PortDesc,
    Unknown {
        typ: u16,
        data: Vec<u8>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatsRequest {
    pub flags: u16,
    pub body: StatsRequestBody,
}

/// The envelope size after the message header.
pub(crate) fn envelope_len(v: Version) -> usize {
    match v {
        Version::V10 => 4,
        Version::V13 => 8,
    }
}

/// Reads the envelope; returns (type, flags, body bytes).
pub(crate) fn parse_envelope(v: Version, b: &[u8]) -> Result<(u16, u16, &[u8])> {
    let mut r = Reader::new(b);
    let (typ, flags) = (r.u16()?, r.u16()?);
    if v == Version::V13 {
        r.skip(4)?;
    }
    Ok((typ, flags, r.rest()))
}

pub(crate) fn emit_envelope(v: Version, typ: u16, flags: u16, buf: &mut [u8]) -> &mut [u8] {
    let n = envelope_len(v);
    let mut w = Writer::new(buf);
    w.u16(typ);
    w.u16(flags);
    if v == Version::V13 {
        w.zeros(4);
    }
    &mut buf[n..]
}

/// Zero-copy view of a whole stats/multipart request or reply (header included).
#[derive(Debug, Clone)]
pub struct Packet<T: AsRef<[u8]>> {
    buffer: T,
    version: Version,
}

impl<T: AsRef<[u8]>> Packet<T> {
    /// Checks version, type (request or reply), the header length against the buffer, and
    /// that the envelope is there.
    pub fn new_checked(buffer: T) -> Result<Packet<T>> {
        let h = Header::new_checked(buffer.as_ref())?;
        h.check_len()?;
        let version = Version::from_wire(h.version()).ok_or(Error::BadVersion(h.version()))?;
        let t = h.msg_type();
        if t != MsgType::StatsRequest.code(version) && t != MsgType::StatsReply.code(version) {
            return Err(Error::BadLength { what: "stats type", len: t as usize });
        }
        let (need, have) = (HEADER_LEN + envelope_len(version), buffer.as_ref().len());
        if have < need {
            return Err(Error::Truncated { need, have });
        }
        Ok(Packet { buffer, version })
    }

    #[inline]
    pub fn version(&self) -> Version {
        self.version
    }
    /// The kind (`kind::*`).
    #[inline]
    pub fn stats_type(&self) -> u16 {
        let b = self.buffer.as_ref();
        u16::from_be_bytes([b[HEADER_LEN], b[HEADER_LEN + 1]])
    }
    #[inline]
    pub fn flags(&self) -> u16 {
        let b = self.buffer.as_ref();
        u16::from_be_bytes([b[HEADER_LEN + 2], b[HEADER_LEN + 3]])
    }
    /// The kind's body, undecoded.
    #[inline]
    pub fn body(&self) -> &[u8] {
        &self.buffer.as_ref()[HEADER_LEN + envelope_len(self.version)..]
    }
}

fn no_body(b: &[u8], body: StatsRequestBody) -> Result<StatsRequestBody> {
    match b.len() {
        0 => Ok(body),
        len => Err(Error::TrailingBytes { what: "stats request", len }),
    }
}

impl StatsRequest {
    pub fn parse(v: Version, b: &[u8]) -> Result<StatsRequest> {
        let (typ, flags, b) = parse_envelope(v, b)?;
        let mut r = Reader::new(b);
        let body = match typ {
            kind::DESC => no_body(b, StatsRequestBody::Desc)?,
            kind::FLOW => StatsRequestBody::Flow(FlowStatsRequest::parse(v, b)?),
            kind::AGGREGATE => StatsRequestBody::Aggregate(FlowStatsRequest::parse(v, b)?),
            kind::TABLE => no_body(b, StatsRequestBody::Table)?,
            kind::PORT_DESC if v == Version::V13 => no_body(b, StatsRequestBody::PortDesc)?,
            kind::PORT => {
                let port_no = match v {
                    Version::V10 => r.u16()? as u32,
                    Version::V13 => r.u32()?,
                };
                r.skip(if v == Version::V10 { 6 } else { 4 })?;
                r.finish("port stats request")?;
                StatsRequestBody::Port { port_no }
            }
            kind::QUEUE => {
                let port_no = match v {
                    Version::V10 => {
                        let p = r.u16()? as u32;
                        r.skip(2)?;
                        p
                    }
                    Version::V13 => r.u32()?,
                };
                let queue_id = r.u32()?;
                r.finish("queue stats request")?;
                StatsRequestBody::Queue { port_no, queue_id }
            }
            _ => StatsRequestBody::Unknown { typ, data: b.to_vec() },
        };
        Ok(StatsRequest { flags, body })
    }

    pub fn stats_type(&self) -> u16 {
        match &self.body {
            StatsRequestBody::Desc => kind::DESC,
            StatsRequestBody::Flow(_) => kind::FLOW,
            StatsRequestBody::Aggregate(_) => kind::AGGREGATE,
            StatsRequestBody::Table => kind::TABLE,
            StatsRequestBody::Port { .. } => kind::PORT,
            StatsRequestBody::Queue { .. } => kind::QUEUE,
            StatsRequestBody::PortDesc => kind::PORT_DESC,
            StatsRequestBody::Unknown { typ, .. } => *typ,
        }
    }

    pub fn buffer_len(&self, v: Version) -> usize {
        envelope_len(v)
            + match &self.body {
                StatsRequestBody::Desc | StatsRequestBody::Table | StatsRequestBody::PortDesc => 0,
                StatsRequestBody::Flow(f) | StatsRequestBody::Aggregate(f) => f.buffer_len(v),
                StatsRequestBody::Port { .. } | StatsRequestBody::Queue { .. } => 8,
                StatsRequestBody::Unknown { data, .. } => data.len(),
            }
    }

    pub fn emit(&self, v: Version, buf: &mut [u8]) {
        let rest = emit_envelope(v, self.stats_type(), self.flags, buf);
        let mut w = Writer::new(rest);
        match &self.body {
            StatsRequestBody::Desc | StatsRequestBody::Table | StatsRequestBody::PortDesc => {}
            StatsRequestBody::Flow(f) | StatsRequestBody::Aggregate(f) => f.emit(v, w.rest()),
            StatsRequestBody::Port { port_no } => match v {
                Version::V10 => {
                    w.u16(*port_no as u16);
                    w.zeros(6);
                }
                Version::V13 => {
                    w.u32(*port_no);
                    w.zeros(4);
                }
            },
            StatsRequestBody::Queue { port_no, queue_id } => {
                match v {
                    Version::V10 => {
                        w.u16(*port_no as u16);
                        w.zeros(2);
                    }
                    Version::V13 => w.u32(*port_no),
                }
                w.u32(*queue_id);
            }
            StatsRequestBody::Unknown { data, .. } => w.bytes(data),
        }
    }
}

/// OFPSF_REPLY_MORE (1.0) / OFPMPF_REPLY_MORE (1.3): more parts of this reply follow.
pub const REPLY_MORE: u16 = 1;

/// A stats/multipart reply; `flags` bit 0 ([`REPLY_MORE`]) says more parts follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatsReply {
    pub flags: u16,
    pub body: StatsReplyBody,
}

impl StatsReply {
    pub fn parse(v: Version, b: &[u8]) -> Result<StatsReply> {
        let (typ, flags, b) = parse_envelope(v, b)?;
        Ok(StatsReply { flags, body: StatsReplyBody::parse(v, typ, b)? })
    }

    pub fn buffer_len(&self, v: Version) -> usize {
        envelope_len(v) + self.body.buffer_len(v)
    }

    pub fn emit(&self, v: Version, buf: &mut [u8]) {
        let rest = emit_envelope(v, self.body.stats_type(), self.flags, buf);
        self.body.emit(v, rest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oxm::Oxm;

    #[test]
    fn envelope_view_reads_what_the_writer_wrote() {
        use crate::message::{Body, Message};
        let port = StatsRequest { flags: 1, body: StatsRequestBody::Port { port_no: 7 } };
        for v in [Version::V10, Version::V13] {
            let bytes = Message::new(v, 3, Body::StatsRequest(port.clone())).to_vec();
            assert_eq!((kind_of(&bytes), kind_of(&bytes[..9])), (Some(kind::PORT), None));
            let p = Packet::new_checked(&bytes[..]).unwrap();
            let body_len = bytes.len() - HEADER_LEN - envelope_len(v);
            assert_eq!((p.version(), p.stats_type(), p.flags(), p.body().len()), (v, kind::PORT, 1, body_len));
            assert_eq!(&p.body()[..2], if v == Version::V10 { &[0, 7] } else { &[0, 0] });
            let short = [v.wire(), bytes[1], 0, 10, 0, 0, 0, 3, 0, 4];
            assert_eq!(Packet::new_checked(&short[..]).unwrap_err(), Error::Truncated { need: 8 + envelope_len(v), have: 10 });
        }
        let reply = Message::new(
            Version::V13,
            4,
            Body::StatsReply(StatsReply { flags: 0, body: StatsReplyBody::Unknown { typ: kind::TABLE_FEATURES, data: vec![] } }),
        )
        .to_vec();
        assert_eq!(Packet::new_checked(&reply[..]).unwrap().stats_type(), kind::TABLE_FEATURES);
        let hello = [4u8, 0, 0, 16, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0];
        assert!(matches!(Packet::new_checked(&hello[..]), Err(Error::BadLength { what: "stats type", .. })));
    }

    #[test]
    fn requests_round_trip() {
        let flow = FlowStatsRequest { table_id: 0xff, out_port: 0xffff, match10: Match10::all(), ..Default::default() };
        let flow13 = FlowStatsRequest {
            table_id: 1,
            out_port: 0xffffffff,
            out_group: 0xffffffff,
            cookie: 5,
            cookie_mask: 0xff,
            match_: OxmMatch::new(vec![Oxm::in_port(3)]),
            ..Default::default()
        };
        for (v, f) in [(Version::V10, flow), (Version::V13, flow13)] {
            for body in [
                StatsRequestBody::Desc,
                StatsRequestBody::Flow(f.clone()),
                StatsRequestBody::Aggregate(f.clone()),
                StatsRequestBody::Table,
                StatsRequestBody::Port { port_no: 7 },
                StatsRequestBody::Queue { port_no: 1, queue_id: 0xffffffff },
                StatsRequestBody::Unknown { typ: 0xffff, data: vec![0, 0, 0x23, 0x20] },
            ] {
                let s = StatsRequest { flags: 0, body };
                let mut b = vec![0xa5u8; s.buffer_len(v)];
                s.emit(v, &mut b);
                assert_eq!(StatsRequest::parse(v, &b).unwrap(), s, "{v:?}");
            }
        }
        let pd = StatsRequest { flags: 0, body: StatsRequestBody::PortDesc };
        let mut b = vec![0u8; pd.buffer_len(Version::V13)];
        pd.emit(Version::V13, &mut b);
        assert_eq!(b, [0, 13, 0, 0, 0, 0, 0, 0]);
        assert_eq!(StatsRequest::parse(Version::V13, &b).unwrap(), pd);
        // Port-desc does not exist in 1.0: kind 13 stays unknown there.
        assert!(matches!(StatsRequest::parse(Version::V10, &[0, 13, 0, 0]).unwrap().body, StatsRequestBody::Unknown { .. }));
    }
}
