//! The 1.3 table features against Open vSwitch's own: `testdata/ovs31_table_features.txt` is
//! ovs-vswitchd 3.1.0's reply (userspace datapath, a Mininet bridge, 254 tables) to an empty
//! table-features request, captured by a scripted controller: the size of each of its 20 parts,
//! the part headers and the whole records of tables 0, 1, 252 and 253. The emulated switch's
//! reply is compared with it byte for byte (the xid aside).

mod common;
use common::*;

const OSKEN_TABLE_FEATURES: [u8; 16] = [0x04, 0x12, 0x00, 0x10, 0x00, 0x00, 0x00, 0x0b, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00];

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

fn ovs(key: &str) -> String {
    let text = include_str!("../testdata/ovs31_table_features.txt");
    let line = text.lines().find(|l| l.split(' ').next() == Some(key)).unwrap_or_else(|| panic!("{key} in the capture"));
    line[key.len() + 1..].to_string()
}

/// The reply's messages, raw.
fn reply(f: impl FnOnce(&mut ofswitch::SwitchConfig)) -> Vec<Vec<u8>> {
    let (mut s, mut outs) = switch(V13, 1, 2, f);
    assert_eq!(send(&mut s, &mut outs, &OSKEN_TABLE_FEATURES), vec![]);
    let (buf, mut at, mut parts) = (&outs[0], 0, vec![]);
    while at < buf.len() {
        let n = u16::from_be_bytes([buf[at + 2], buf[at + 3]]) as usize;
        parts.push(buf[at..at + n].to_vec());
        at += n;
    }
    parts
}

/// Every record of the parts, in order.
fn records(parts: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut out = vec![];
    for p in parts {
        let mut b = &p[16..];
        while !b.is_empty() {
            let n = u16::from_be_bytes([b[0], b[1]]) as usize;
            out.push(b[..n].to_vec());
            b = &b[n..];
        }
    }
    out
}

#[test]
fn table_features_are_open_vswitchs_byte_for_byte() {
    let parts = reply(|c| c.n_tables = 254);
    let sizes: Vec<usize> = ovs("parts").split(' ').map(|n| n.parse().unwrap()).collect();
    assert_eq!(parts.iter().map(Vec::len).collect::<Vec<_>>(), sizes, "the same parts, cut where Open vSwitch cuts");
    assert_eq!(parts[0][..16], hex(&ovs("part0_head"))[..], "REPLY_MORE, xid 0x0b");
    assert_eq!(parts.last().unwrap()[..16], hex(&ovs("last_head"))[..]);
    let recs = records(&parts);
    assert_eq!(recs.len(), 254);
    for t in [0, 1, 252, 253] {
        assert_eq!(recs[t], hex(&ovs(&format!("table{t}"))), "table {t}");
    }
}

/// Without meters or groups the meter instruction and the group action are left out (what
/// Open vSwitch would have no datapath support for); a flow limit is the announced size.
#[test]
fn a_switch_without_meters_or_groups_does_not_announce_them() {
    let full = records(&reply(|c| c.n_tables = 4));
    let less = records(&reply(|c| {
        c.n_tables = 4;
        c.groups = false;
        c.max_meter = 0;
        c.max_flows = 500;
    }));
    assert_eq!(full.len(), 4);
    let t = |r: &[u8]| ofwire::table_features::TableFeatures::parse(r).unwrap().1;
    let (a, b) = (t(&full[0]), t(&less[0]));
    assert_eq!((a.max_entries, b.max_entries), (1_000_000, 500));
    let ids = |x: &ofwire::table_features::TableFeatures, p: u16| -> Vec<u16> {
        x.props.iter().find(|q| q.typ == p).unwrap().data.chunks(4).map(|c| u16::from_be_bytes([c[0], c[1]])).collect()
    };
    assert_eq!(ids(&a, 0), vec![1, 2, 3, 4, 5, 6]);
    assert_eq!(ids(&b, 0), vec![1, 2, 3, 4, 5]);
    assert!(ids(&a, 6).contains(&22) && !ids(&b, 6).contains(&22));
    assert_eq!(t(&full[3]).props.iter().find(|q| q.typ == 2).unwrap().data, Vec::<u8>::new(), "no next table from the last");
}
