//! Stats reply bodies in the vectors' JSON form (see describe.rs).

use super::describe::{flow_stats_fields, port_json};
use ofwire::stats_reply::StatsReplyBody;
use ofwire::Version;
use serde_json::{json, Value};

const PORT_COUNTERS: [&str; 12] = [
    "rx_packets",
    "tx_packets",
    "rx_bytes",
    "tx_bytes",
    "rx_dropped",
    "tx_dropped",
    "rx_errors",
    "tx_errors",
    "rx_frame_err",
    "rx_over_err",
    "rx_crc_err",
    "collisions",
];

pub fn reply_body(v: Version, b: &StatsReplyBody) -> Value {
    match b {
        StatsReplyBody::Desc(d) => {
            json!({"mfr_desc": d.mfr_desc, "hw_desc": d.hw_desc, "sw_desc": d.sw_desc, "serial_num": d.serial_num, "dp_desc": d.dp_desc})
        }
        StatsReplyBody::Flow(f) => Value::Array(f.iter().map(|x| flow_stats_fields(v, x)).collect()),
        StatsReplyBody::Aggregate(a) => json!({"packet_count": a.packet_count, "byte_count": a.byte_count, "flow_count": a.flow_count}),
        StatsReplyBody::Table(t) => Value::Array(
            t.iter()
                .map(|t| {
                    json!({
                        "table_id": t.table_id, "name": t.name, "wildcards": t.wildcards, "max_entries": t.max_entries,
                        "active_count": t.active_count, "lookup_count": t.lookup_count, "matched_count": t.matched_count,
                    })
                })
                .collect(),
        ),
        StatsReplyBody::Port(p) => Value::Array(
            p.iter()
                .map(|p| {
                    let mut d = json!({"port_no": p.port_no, "duration_sec": p.duration_sec, "duration_nsec": p.duration_nsec});
                    for (name, c) in PORT_COUNTERS.iter().zip(p.counters) {
                        d[*name] = json!(c);
                    }
                    d
                })
                .collect(),
        ),
        StatsReplyBody::Queue(q) => Value::Array(
            q.iter()
                .map(|q| {
                    json!({
                        "port_no": q.port_no, "queue_id": q.queue_id, "tx_bytes": q.tx_bytes, "tx_packets": q.tx_packets,
                        "tx_errors": q.tx_errors, "duration_sec": q.duration_sec, "duration_nsec": q.duration_nsec,
                    })
                })
                .collect(),
        ),
        StatsReplyBody::PortDesc(p) => Value::Array(p.iter().map(|p| port_json(v, p)).collect()),
        StatsReplyBody::Unknown { typ, data } => json!({"unknown": typ, "data": super::describe::hex(data)}),
    }
}
