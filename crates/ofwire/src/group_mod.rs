//! OFPT_GROUP_MOD (1.3 §7.3.4.2): add, modify or delete a group and its buckets.

use crate::action::{actions_len, emit_actions, parse_actions, Action};
use crate::bytes::{Reader, Writer};
use crate::error::{Error, Result};
use crate::version::Version;

#[derive(Debug, Clone, PartialEq, Eq, Default, Hash)]
pub struct Bucket {
    pub weight: u16,
    pub watch_port: u32,
    pub watch_group: u32,
    pub actions: Vec<Action>,
}

impl Bucket {
    pub fn buffer_len(&self) -> usize {
        16 + actions_len(Version::V13, &self.actions)
    }

    /// Parses one bucket; returns the bytes after it.
    pub fn parse(buf: &[u8]) -> Result<(&[u8], Bucket)> {
        let mut r = Reader::new(buf);
        let len = r.u16()? as usize;
        if len < 16 {
            return Err(Error::BadLength { what: "ofp_bucket.len", len });
        }
        let weight = r.u16()?;
        let watch_port = r.u32()?;
        let watch_group = r.u32()?;
        r.skip(4)?;
        let actions = parse_actions(Version::V13, r.take(len - 16)?)?;
        Ok((r.rest(), Bucket { weight, watch_port, watch_group, actions }))
    }

    pub fn emit<'a>(&self, buf: &'a mut [u8]) -> &'a mut [u8] {
        let n = self.buffer_len();
        let mut w = Writer::new(buf);
        w.u16(n as u16);
        w.u16(self.weight);
        w.u32(self.watch_port);
        w.u32(self.watch_group);
        w.zeros(4);
        emit_actions(Version::V13, &self.actions, w.rest());
        &mut buf[n..]
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Hash)]
pub struct GroupMod {
    pub command: u16,
    pub group_type: u8,
    pub group_id: u32,
    pub buckets: Vec<Bucket>,
}

impl GroupMod {
    pub fn parse(body: &[u8]) -> Result<GroupMod> {
        let mut r = Reader::new(body);
        let command = r.u16()?;
        let group_type = r.u8()?;
        r.skip(1)?;
        let group_id = r.u32()?;
        let mut rest = r.rest();
        let mut buckets = Vec::new();
        while !rest.is_empty() {
            let (next, b) = Bucket::parse(rest)?;
            buckets.push(b);
            rest = next;
        }
        Ok(GroupMod { command, group_type, group_id, buckets })
    }

    pub fn buffer_len(&self) -> usize {
        8 + self.buckets.iter().map(Bucket::buffer_len).sum::<usize>()
    }

    pub fn emit(&self, buf: &mut [u8]) {
        let mut w = Writer::new(buf);
        w.u16(self.command);
        w.u8(self.group_type);
        w.zeros(1);
        w.u32(self.group_id);
        let mut rest = w.rest();
        for b in &self.buckets {
            rest = b.emit(rest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_bad_bucket() {
        let g = GroupMod {
            command: 0,
            group_type: 1,
            group_id: 7,
            buckets: vec![
                Bucket {
                    weight: 1,
                    watch_port: 0xffffffff,
                    watch_group: 0xffffffff,
                    actions: vec![Action::Output { port: 1, max_len: 0 }],
                },
                Bucket { weight: 2, watch_port: 2, watch_group: 0xffffffff, actions: vec![] },
            ],
        };
        let mut b = vec![0xa5u8; g.buffer_len()];
        g.emit(&mut b);
        assert_eq!(&b[8..10], &[0, 32]);
        assert_eq!(GroupMod::parse(&b).unwrap(), g);
        b[9] = 8;
        assert!(matches!(GroupMod::parse(&b), Err(Error::BadLength { .. })));
    }
}
