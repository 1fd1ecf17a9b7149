//! Just enough of libpcap's file format and TCP to get OpenFlow byte streams out of a
//! loopback capture: classic pcap (microsecond or nanosecond, either byte order), Ethernet
//! link type, IPv4/TCP via etherparse, streams reassembled by sequence number.

use etherparse::{NetSlice, SlicedPacket, TransportSlice};
use std::collections::BTreeMap;

/// One direction of a TCP connection: (src ip, src port, dst ip, dst port).
pub type FlowKey = ([u8; 4], u16, [u8; 4], u16);

/// Per direction: the stream's first sequence number, its segments by offset, first-seen rank.
type Flow = (u32, BTreeMap<u32, Vec<u8>>, usize);

fn records(file: &[u8]) -> Vec<&[u8]> {
    assert!(file.len() >= 24, "not a pcap file");
    let magic = u32::from_le_bytes(file[0..4].try_into().unwrap());
    let le = match magic {
        0xa1b2c3d4 | 0xa1b23c4d => true,
        _ => match u32::from_be_bytes(file[0..4].try_into().unwrap()) {
            0xa1b2c3d4 | 0xa1b23c4d => false,
            m => panic!("unknown pcap magic {m:08x} (pcapng is not supported)"),
        },
    };
    let rd = |b: &[u8]| -> u32 {
        let a: [u8; 4] = b.try_into().unwrap();
        if le {
            u32::from_le_bytes(a)
        } else {
            u32::from_be_bytes(a)
        }
    };
    assert_eq!(rd(&file[20..24]), 1, "link type must be Ethernet (tcpdump -i lo gives that)");
    let mut out = Vec::new();
    let mut at = 24;
    while at + 16 <= file.len() {
        let incl = rd(&file[at + 8..at + 12]) as usize;
        let orig = rd(&file[at + 12..at + 16]) as usize;
        assert_eq!(incl, orig, "capture was truncated (snaplen)");
        out.push(&file[at + 16..at + 16 + incl]);
        at += 16 + incl;
    }
    assert_eq!(at, file.len(), "trailing bytes in pcap");
    out
}

/// The reassembled payload of every TCP direction in the capture, in first-seen order.
pub fn tcp_streams(file: &[u8]) -> Vec<(FlowKey, Vec<u8>)> {
    let mut flows: BTreeMap<FlowKey, Flow> = BTreeMap::new();
    let mut order = 0;
    for frame in records(file) {
        let p = SlicedPacket::from_ethernet(frame).expect("frame slices");
        let (Some(NetSlice::Ipv4(ip)), Some(TransportSlice::Tcp(tcp))) = (&p.net, &p.transport) else { continue };
        let key = (ip.header().source(), tcp.source_port(), ip.header().destination(), tcp.destination_port());
        let seq = tcp.sequence_number();
        let entry = flows.entry(key).or_insert_with(|| {
            order += 1;
            (if tcp.syn() { seq.wrapping_add(1) } else { seq }, BTreeMap::new(), order)
        });
        let payload = tcp.payload();
        if !payload.is_empty() {
            let off = seq.wrapping_sub(entry.0);
            entry.1.entry(off).or_insert_with(|| payload.to_vec());
        }
    }
    let mut out: Vec<(usize, FlowKey, Vec<u8>)> = flows
        .into_iter()
        .map(|(key, (_, segs, order))| {
            let mut stream = Vec::new();
            for (off, data) in segs {
                let off = off as usize;
                assert!(off <= stream.len(), "gap in TCP stream {key:?} at {off}");
                // Retransmissions overlap what we already have; keep only the new tail.
                if off + data.len() > stream.len() {
                    stream.extend_from_slice(&data[stream.len() - off..]);
                }
            }
            (order, key, stream)
        })
        .collect();
    out.sort_by_key(|x| x.0);
    out.into_iter().map(|(_, k, s)| (k, s)).collect()
}
