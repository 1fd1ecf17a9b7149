//! OpenFlow 1.3 table features (OFPMP_TABLE_FEATURES, §7.3.5.5): one `ofp_table_features`
//! record per table, each with a list of properties (TLVs padded to 8 bytes, the length
//! excluding the padding). A request with an empty body asks for the tables; one with records
//! asks the switch to reconfigure them.

use crate::bytes::{pad8, Reader, Writer};
use crate::error::{Error, Result};

/// Property types (OFPTFPT_*).
pub mod prop {
    pub const INSTRUCTIONS: u16 = 0;
    pub const INSTRUCTIONS_MISS: u16 = 1;
    pub const NEXT_TABLES: u16 = 2;
    pub const NEXT_TABLES_MISS: u16 = 3;
    pub const WRITE_ACTIONS: u16 = 4;
    pub const WRITE_ACTIONS_MISS: u16 = 5;
    pub const APPLY_ACTIONS: u16 = 6;
    pub const APPLY_ACTIONS_MISS: u16 = 7;
    pub const MATCH: u16 = 8;
    pub const WILDCARDS: u16 = 10;
    pub const WRITE_SETFIELD: u16 = 12;
    pub const WRITE_SETFIELD_MISS: u16 = 13;
    pub const APPLY_SETFIELD: u16 = 14;
    pub const APPLY_SETFIELD_MISS: u16 = 15;
}

/// One property: its type and its payload (without the 4-byte header or the padding).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prop {
    pub typ: u16,
    pub data: Vec<u8>,
}

impl Prop {
    /// Instruction or action ids: (type, length 4) each.
    pub fn ids(typ: u16, ids: &[u16]) -> Prop {
        Prop { typ, data: ids.iter().flat_map(|t| [t.to_be_bytes(), 4u16.to_be_bytes()].concat()).collect() }
    }

    pub fn next_tables(typ: u16, tables: impl Iterator<Item = u8>) -> Prop {
        Prop { typ, data: tables.collect() }
    }

    /// OXM headers of basic-class fields: (field, value length, has mask).
    pub fn oxms(typ: u16, fields: &[(u8, u8, bool)]) -> Prop {
        let hdr = |&(f, len, m): &(u8, u8, bool)| {
            let len = if m { len * 2 } else { len };
            (0x8000u32 << 16 | (f as u32) << 9 | (m as u32) << 8 | len as u32).to_be_bytes()
        };
        Prop { typ, data: fields.iter().flat_map(hdr).collect() }
    }

    fn buffer_len(&self) -> usize {
        pad8(4 + self.data.len())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TableFeatures {
    pub table_id: u8,
    pub name: String,
    pub metadata_match: u64,
    pub metadata_write: u64,
    pub config: u32,
    pub max_entries: u32,
    pub props: Vec<Prop>,
}

impl TableFeatures {
    pub fn buffer_len(&self) -> usize {
        64 + self.props.iter().map(Prop::buffer_len).sum::<usize>()
    }

    pub fn parse(buf: &[u8]) -> Result<(&[u8], TableFeatures)> {
        let mut r = Reader::new(buf);
        let len = r.u16()? as usize;
        if len < 64 {
            return Err(Error::BadLength { what: "ofp_table_features.length", len });
        }
        let table_id = r.u8()?;
        r.skip(5)?;
        let name = r.string(32)?;
        let (metadata_match, metadata_write) = (r.u64()?, r.u64()?);
        let (config, max_entries) = (r.u32()?, r.u32()?);
        let mut p = Reader::new(r.take(len - 64)?);
        let mut props = Vec::new();
        while p.remaining() > 0 {
            let typ = p.u16()?;
            let plen = p.u16()? as usize;
            if plen < 4 {
                return Err(Error::BadLength { what: "table feature property length", len: plen });
            }
            let data = p.take(plen - 4)?.to_vec();
            p.skip((pad8(plen) - plen).min(p.remaining()))?;
            props.push(Prop { typ, data });
        }
        Ok((r.rest(), TableFeatures { table_id, name, metadata_match, metadata_write, config, max_entries, props }))
    }

    pub fn emit<'a>(&self, buf: &'a mut [u8]) -> &'a mut [u8] {
        let n = self.buffer_len();
        let mut w = Writer::new(&mut buf[..n]);
        w.u16(n as u16);
        w.u8(self.table_id);
        w.zeros(5);
        w.string(&self.name, 32);
        w.u64(self.metadata_match);
        w.u64(self.metadata_write);
        w.u32(self.config);
        w.u32(self.max_entries);
        for p in &self.props {
            w.u16(p.typ);
            w.u16(4 + p.data.len() as u16);
            w.bytes(&p.data);
            w.zeros(p.buffer_len() - 4 - p.data.len());
        }
        &mut buf[n..]
    }
}

pub fn to_bytes(list: &[TableFeatures]) -> Vec<u8> {
    let mut b = vec![0u8; list.iter().map(TableFeatures::buffer_len).sum()];
    let mut rest = &mut b[..];
    for t in list {
        rest = t.emit(rest);
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group_stats::parse_list;

    #[test]
    fn layout_and_round_trip() {
        let t = TableFeatures {
            table_id: 3,
            name: "table3".into(),
            max_entries: 1000,
            props: vec![
                Prop::ids(prop::INSTRUCTIONS, &[1, 4]),
                Prop::next_tables(prop::NEXT_TABLES, 4..7),
                Prop::oxms(prop::MATCH, &[(0, 4, false), (3, 6, true)]),
            ],
            ..Default::default()
        };
        let b = to_bytes(std::slice::from_ref(&t));
        // 64 + (4+8 -> 16) + (4+3 -> 8) + (4+8 -> 16)
        assert_eq!(b.len(), 104);
        assert_eq!(&b[64..80], &[0, 0, 0, 12, 0, 1, 0, 4, 0, 4, 0, 4, 0, 0, 0, 0]);
        assert_eq!(&b[80..88], &[0, 2, 0, 7, 4, 5, 6, 0]);
        assert_eq!(&b[88..96], &[0, 8, 0, 12, 0x80, 0, 0, 4]);
        assert_eq!(&b[96..100], &[0x80, 0, 7, 12]);
        assert_eq!(parse_list(&b, TableFeatures::parse).unwrap(), vec![t]);
    }
}
