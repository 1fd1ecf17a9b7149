//! OFPT_FLOW_REMOVED: a flow entry expired or was deleted (1.0 §5.4.2, 1.3 §7.4.2).

use crate::bytes::{Reader, Writer};
use crate::error::Result;
use crate::match10::{Match10, MATCH10_LEN};
use crate::oxm::OxmMatch;
use crate::version::Version;

/// Flow-removed reasons (OFPRR_*); GROUP_DELETE is 1.3 only.
pub mod reason {
    pub const IDLE_TIMEOUT: u8 = 0;
    pub const HARD_TIMEOUT: u8 = 1;
    pub const DELETE: u8 = 2;
    pub const GROUP_DELETE: u8 = 3;
}

/// `match10` is 1.0's; `table_id`, `hard_timeout` and `match_` are 1.3's.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FlowRemoved {
    pub cookie: u64,
    pub priority: u16,
    pub reason: u8,
    pub table_id: u8,
    pub duration_sec: u32,
    pub duration_nsec: u32,
    pub idle_timeout: u16,
    pub hard_timeout: u16,
    pub packet_count: u64,
    pub byte_count: u64,
    pub match10: Match10,
    pub match_: OxmMatch,
}

impl FlowRemoved {
    pub fn parse(v: Version, body: &[u8]) -> Result<FlowRemoved> {
        let mut f = FlowRemoved::default();
        let rest = match v {
            Version::V10 => {
                let (rest, m) = Match10::parse(body)?;
                f.match10 = m;
                rest
            }
            Version::V13 => body,
        };
        let mut r = Reader::new(rest);
        f.cookie = r.u64()?;
        f.priority = r.u16()?;
        f.reason = r.u8()?;
        match v {
            Version::V10 => r.skip(1)?,
            Version::V13 => f.table_id = r.u8()?,
        }
        f.duration_sec = r.u32()?;
        f.duration_nsec = r.u32()?;
        f.idle_timeout = r.u16()?;
        match v {
            Version::V10 => r.skip(2)?,
            Version::V13 => f.hard_timeout = r.u16()?,
        }
        f.packet_count = r.u64()?;
        f.byte_count = r.u64()?;
        match v {
            Version::V10 => r.finish("flow removed")?,
            Version::V13 => {
                let (rest, m) = OxmMatch::parse(r.rest())?;
                Reader::new(rest).finish("flow removed")?;
                f.match_ = m;
            }
        }
        Ok(f)
    }

    pub fn buffer_len(&self, v: Version) -> usize {
        match v {
            Version::V10 => MATCH10_LEN + 40,
            Version::V13 => 40 + self.match_.buffer_len(),
        }
    }

    pub fn emit(&self, v: Version, buf: &mut [u8]) {
        let rest = match v {
            Version::V10 => self.match10.emit(buf),
            Version::V13 => buf,
        };
        let mut w = Writer::new(rest);
        w.u64(self.cookie);
        w.u16(self.priority);
        w.u8(self.reason);
        w.u8(if v == Version::V13 { self.table_id } else { 0 });
        w.u32(self.duration_sec);
        w.u32(self.duration_nsec);
        w.u16(self.idle_timeout);
        w.u16(if v == Version::V13 { self.hard_timeout } else { 0 });
        w.u64(self.packet_count);
        w.u64(self.byte_count);
        if v == Version::V13 {
            self.match_.emit(w.rest());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oxm::Oxm;

    #[test]
    fn both_versions_round_trip() {
        let f = FlowRemoved {
            cookie: 9,
            priority: 100,
            reason: 1,
            duration_sec: 5,
            duration_nsec: 6,
            idle_timeout: 10,
            packet_count: 3,
            byte_count: 300,
            match10: Match10 { in_port: 2, ..Match10::all() },
            ..Default::default()
        };
        let mut b = vec![0xa5u8; f.buffer_len(Version::V10)];
        f.emit(Version::V10, &mut b);
        assert_eq!(b.len(), 80);
        assert_eq!(FlowRemoved::parse(Version::V10, &b).unwrap(), f);
        let g = FlowRemoved {
            table_id: 3,
            hard_timeout: 60,
            match10: Match10::default(),
            match_: OxmMatch::new(vec![Oxm::eth_type(0x0800)]),
            ..f
        };
        let mut b = vec![0xa5u8; g.buffer_len(Version::V13)];
        g.emit(Version::V13, &mut b);
        assert_eq!(FlowRemoved::parse(Version::V13, &b).unwrap(), g);
        assert!(FlowRemoved::parse(Version::V13, &b[..b.len() - 1]).is_err());
    }
}
