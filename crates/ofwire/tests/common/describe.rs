//! A message as plain JSON in the form tools/ofvectors/osken_norm.py writes os-ken's values:
//! MACs and opaque bytes as hex, 1.0 IPv4 addresses as integers, OXM fields as
//! `[name, value_hex, mask_hex | null]` with os-ken's field names.

use ofwire::stats_reply::StatsReplyBody;
use ofwire::{Action, Body, Instruction, Match10, Message, MeterBand, Oxm, OxmMatch, Port, StatsRequestBody, Version};
use serde_json::{json, Map, Value};

pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The vector kind name of a body.
pub fn kind(body: &Body) -> String {
    let s = match body {
        Body::Hello(_) => "hello",
        Body::Error(_) => "error",
        Body::EchoRequest(_) => "echo_request",
        Body::EchoReply(_) => "echo_reply",
        Body::Experimenter(_) => "experimenter",
        Body::FeaturesRequest => "features_request",
        Body::FeaturesReply(_) => "features_reply",
        Body::GetConfigRequest => "get_config_request",
        Body::GetConfigReply(_) => "get_config_reply",
        Body::SetConfig(_) => "set_config",
        Body::PacketIn(_) => "packet_in",
        Body::FlowRemoved(_) => "flow_removed",
        Body::PortStatus(_) => "port_status",
        Body::PacketOut(_) => "packet_out",
        Body::FlowMod(_) => "flow_mod",
        Body::PortMod(_) => "port_mod",
        Body::GroupMod(_) => "group_mod",
        Body::MeterMod(_) => "meter_mod",
        Body::StatsRequest(r) => return format!("stats_request_{}", req_kind(&r.body)),
        Body::StatsReply(r) => return format!("stats_reply_{}", reply_kind(&r.body)),
        Body::BarrierRequest => "barrier_request",
        Body::BarrierReply => "barrier_reply",
        Body::RoleRequest(_) => "role_request",
        Body::RoleReply(_) => "role_reply",
        Body::GetAsyncRequest => "get_async_request",
        Body::GetAsyncReply(_) => "get_async_reply",
        Body::SetAsync(_) => "set_async",
        Body::Unknown { .. } => "unknown",
        _ => "unnamed",
    };
    s.to_string()
}

fn req_kind(b: &StatsRequestBody) -> &'static str {
    match b {
        StatsRequestBody::Desc => "desc",
        StatsRequestBody::Flow(_) => "flow",
        StatsRequestBody::Aggregate(_) => "aggregate",
        StatsRequestBody::Table => "table",
        StatsRequestBody::Port { .. } => "port",
        StatsRequestBody::Queue { .. } => "queue",
        StatsRequestBody::PortDesc => "port_desc",
        StatsRequestBody::Unknown { .. } => "unknown",
    }
}

fn reply_kind(b: &StatsReplyBody) -> &'static str {
    match b {
        StatsReplyBody::Desc(_) => "desc",
        StatsReplyBody::Flow(_) => "flow",
        StatsReplyBody::Aggregate(_) => "aggregate",
        StatsReplyBody::Table(_) => "table",
        StatsReplyBody::Port(_) => "port",
        StatsReplyBody::Queue(_) => "queue",
        StatsReplyBody::PortDesc(_) => "port_desc",
        StatsReplyBody::Unknown { .. } => "unknown",
    }
}

fn snake(debug_name: &str) -> String {
    let mut out = String::new();
    for (i, c) in debug_name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

pub fn oxm(o: &Oxm) -> Value {
    match o {
        Oxm::Basic { field, value, mask } => {
            json!([snake(&format!("{field:?}")), hex(value), mask.as_ref().map(|m| hex(m))])
        }
        Oxm::Other { class, field, payload, .. } => json!([format!("class{class:04x}.{field}"), hex(payload), null]),
    }
}

fn oxm_match(m: &OxmMatch) -> Value {
    Value::Array(m.fields.iter().map(oxm).collect())
}

fn match10(m: &Match10) -> Value {
    json!({
        "wildcards": m.wildcards, "in_port": m.in_port, "dl_src": hex(&m.dl_src), "dl_dst": hex(&m.dl_dst),
        "dl_vlan": m.dl_vlan, "dl_vlan_pcp": m.dl_vlan_pcp, "dl_type": m.dl_type, "nw_tos": m.nw_tos,
        "nw_proto": m.nw_proto, "nw_src": m.nw_src, "nw_dst": m.nw_dst, "tp_src": m.tp_src, "tp_dst": m.tp_dst,
    })
}

fn either_match(v: Version, m10: &Match10, m13: &OxmMatch) -> Value {
    match v {
        Version::V10 => match10(m10),
        Version::V13 => oxm_match(m13),
    }
}

pub fn action(a: &Action) -> Value {
    use Action::*;
    let simple = |t: &str, v: Value| json!({"type": t, "value": v});
    match a {
        Output { port, max_len } => json!({"type": "output", "port": port, "max_len": max_len}),
        Enqueue { port, queue_id } => json!({"type": "enqueue", "port": port, "queue_id": queue_id}),
        SetVlanVid(x) => simple("set_vlan_vid", json!(x)),
        SetVlanPcp(x) => simple("set_vlan_pcp", json!(x)),
        StripVlan => json!({"type": "strip_vlan"}),
        SetDlSrc(m) => simple("set_dl_src", json!(hex(m))),
        SetDlDst(m) => simple("set_dl_dst", json!(hex(m))),
        SetNwSrc(x) => simple("set_nw_src", json!(x)),
        SetNwDst(x) => simple("set_nw_dst", json!(x)),
        SetNwTos(x) => simple("set_nw_tos", json!(x)),
        SetTpSrc(x) => simple("set_tp_src", json!(x)),
        SetTpDst(x) => simple("set_tp_dst", json!(x)),
        CopyTtlOut => json!({"type": "copy_ttl_out"}),
        CopyTtlIn => json!({"type": "copy_ttl_in"}),
        SetMplsTtl(x) => simple("set_mpls_ttl", json!(x)),
        DecMplsTtl => json!({"type": "dec_mpls_ttl"}),
        PushVlan(x) => simple("push_vlan", json!(x)),
        PopVlan => json!({"type": "pop_vlan"}),
        PushMpls(x) => simple("push_mpls", json!(x)),
        PopMpls(x) => simple("pop_mpls", json!(x)),
        SetQueue(x) => simple("set_queue", json!(x)),
        Group(x) => simple("group", json!(x)),
        SetNwTtl(x) => simple("set_nw_ttl", json!(x)),
        DecNwTtl => json!({"type": "dec_nw_ttl"}),
        SetField(o) => json!({"type": "set_field", "field": oxm(o)}),
        PushPbb(x) => simple("push_pbb", json!(x)),
        PopPbb => json!({"type": "pop_pbb"}),
        Experimenter { experimenter, data } => json!({"type": "experimenter", "experimenter": experimenter, "data": hex(data)}),
        Unknown { typ, data } => json!({"type": "unknown", "code": typ, "data": hex(data)}),
    }
}

fn actions(list: &[Action]) -> Value {
    Value::Array(list.iter().map(action).collect())
}

fn instruction(i: &Instruction) -> Value {
    match i {
        Instruction::GotoTable(t) => json!({"type": "goto_table", "table_id": t}),
        Instruction::WriteMetadata { metadata, mask } => json!({"type": "write_metadata", "metadata": metadata, "mask": mask}),
        Instruction::WriteActions(a) => json!({"type": "write_actions", "actions": actions(a)}),
        Instruction::ApplyActions(a) => json!({"type": "apply_actions", "actions": actions(a)}),
        Instruction::ClearActions => json!({"type": "clear_actions"}),
        Instruction::Meter(m) => json!({"type": "meter", "meter_id": m}),
        Instruction::Experimenter { experimenter, data } => {
            json!({"type": "experimenter", "experimenter": experimenter, "data": hex(data)})
        }
        Instruction::Unknown { typ, data } => json!({"type": "unknown", "code": typ, "data": hex(data)}),
    }
}

fn port(v: Version, p: &Port) -> Value {
    let mut d = json!({
        "port_no": p.port_no, "hw_addr": hex(&p.hw_addr), "name": p.name, "config": p.config, "state": p.state,
        "curr": p.curr, "advertised": p.advertised, "supported": p.supported, "peer": p.peer,
    });
    if v == Version::V13 {
        d["curr_speed"] = json!(p.curr_speed);
        d["max_speed"] = json!(p.max_speed);
    }
    d
}

fn band(b: &MeterBand) -> Value {
    match b {
        MeterBand::Drop { rate, burst_size } => json!({"type": "drop", "rate": rate, "burst_size": burst_size}),
        MeterBand::DscpRemark { rate, burst_size, prec_level } => {
            json!({"type": "dscp_remark", "rate": rate, "burst_size": burst_size, "prec_level": prec_level})
        }
        MeterBand::Experimenter { rate, burst_size, experimenter, .. } => {
            json!({"type": "experimenter", "rate": rate, "burst_size": burst_size, "experimenter": experimenter})
        }
        MeterBand::Unknown { typ, rate, burst_size, .. } => json!({"type": "unknown", "code": typ, "rate": rate, "burst_size": burst_size}),
    }
}

/// Every field of the message, in the vectors' form.
pub fn describe(m: &Message) -> Value {
    let v = m.layout_version();
    let mut d = Map::new();
    d.insert("xid".into(), json!(m.xid));
    let body = body_fields(v, &m.body);
    if let Value::Object(fields) = body {
        d.extend(fields);
    }
    Value::Object(d)
}

fn body_fields(v: Version, body: &Body) -> Value {
    let v13 = v == Version::V13;
    match body {
        Body::Hello(h) => {
            let versions: Option<Vec<u8>> = h.version_bitmap().map(|_| (0..=255u8).filter(|&x| h.supports(x)).collect());
            json!({ "versions": versions })
        }
        Body::Error(e) => {
            let (t, c) = e.names(v);
            json!({"err_type": e.typ, "code": e.code, "data": hex(&e.data), "type_name": t, "code_name": c})
        }
        Body::EchoRequest(d) | Body::EchoReply(d) => json!({"data": hex(d)}),
        Body::Experimenter(e) => json!({"experimenter": e.experimenter, "exp_type": e.exp_type, "data": hex(&e.data)}),
        Body::FeaturesReply(f) => json!({
            "datapath_id": f.datapath_id, "n_buffers": f.n_buffers, "n_tables": f.n_tables, "capabilities": f.capabilities,
            "auxiliary_id": f.auxiliary_id, "actions": f.actions, "reserved": f.reserved,
            "ports": f.ports.iter().map(|p| port(v, p)).collect::<Vec<_>>(),
        }),
        Body::GetConfigReply(c) | Body::SetConfig(c) => json!({"flags": c.flags, "miss_send_len": c.miss_send_len}),
        Body::PacketIn(p) => json!({
            "buffer_id": p.buffer_id, "total_len": p.total_len, "reason": p.reason, "in_port": p.in_port,
            "table_id": p.table_id, "cookie": p.cookie, "match": oxm_match(&p.match_), "data": hex(&p.data),
        }),
        Body::FlowRemoved(f) => json!({
            "cookie": f.cookie, "priority": f.priority, "reason": f.reason, "table_id": f.table_id,
            "duration_sec": f.duration_sec, "duration_nsec": f.duration_nsec, "idle_timeout": f.idle_timeout,
            "hard_timeout": f.hard_timeout, "packet_count": f.packet_count, "byte_count": f.byte_count,
            "match": either_match(v, &f.match10, &f.match_),
        }),
        Body::PortStatus(p) => json!({"reason": p.reason, "port": port(v, &p.port)}),
        Body::PacketOut(p) => json!({"buffer_id": p.buffer_id, "in_port": p.in_port, "actions": actions(&p.actions), "data": hex(&p.data)}),
        Body::FlowMod(f) => {
            let mut d = json!({
                "cookie": f.cookie, "cookie_mask": f.cookie_mask, "table_id": f.table_id, "command": f.command,
                "idle_timeout": f.idle_timeout, "hard_timeout": f.hard_timeout, "priority": f.priority,
                "buffer_id": f.buffer_id, "out_port": f.out_port, "out_group": f.out_group, "flags": f.flags,
                "match": either_match(v, &f.match10, &f.match_),
            });
            if v13 {
                d["instructions"] = Value::Array(f.instructions.iter().map(instruction).collect());
            } else {
                d["actions"] = actions(&f.actions);
            }
            d
        }
        Body::PortMod(p) => {
            json!({"port_no": p.port_no, "hw_addr": hex(&p.hw_addr), "config": p.config, "mask": p.mask, "advertise": p.advertise})
        }
        Body::GroupMod(g) => json!({
            "command": g.command, "group_type": g.group_type, "group_id": g.group_id,
            "buckets": g.buckets.iter().map(|b| json!({"weight": b.weight, "watch_port": b.watch_port, "watch_group": b.watch_group, "actions": actions(&b.actions)})).collect::<Vec<_>>(),
        }),
        Body::MeterMod(m) => {
            json!({"command": m.command, "flags": m.flags, "meter_id": m.meter_id, "bands": m.bands.iter().map(band).collect::<Vec<_>>()})
        }
        Body::StatsRequest(r) => {
            let mut d = json!({"stats_flags": r.flags});
            match &r.body {
                StatsRequestBody::Flow(f) | StatsRequestBody::Aggregate(f) => {
                    d["table_id"] = json!(f.table_id);
                    d["out_port"] = json!(f.out_port);
                    d["out_group"] = json!(f.out_group);
                    d["cookie"] = json!(f.cookie);
                    d["cookie_mask"] = json!(f.cookie_mask);
                    d["match"] = either_match(v, &f.match10, &f.match_);
                }
                StatsRequestBody::Port { port_no } => d["port_no"] = json!(port_no),
                StatsRequestBody::Queue { port_no, queue_id } => {
                    d["port_no"] = json!(port_no);
                    d["queue_id"] = json!(queue_id);
                }
                _ => {}
            }
            d
        }
        Body::StatsReply(r) => json!({"stats_flags": r.flags, "body": crate::common::describe_stats::reply_body(v, &r.body)}),
        Body::RoleRequest(r) | Body::RoleReply(r) => json!({"role": r.role, "generation_id": r.generation_id}),
        Body::GetAsyncReply(a) | Body::SetAsync(a) => json!({
            "packet_in_mask": a.packet_in_mask, "port_status_mask": a.port_status_mask, "flow_removed_mask": a.flow_removed_mask,
        }),
        _ => json!({}),
    }
}

pub(crate) fn flow_stats_fields(v: Version, f: &ofwire::FlowStats) -> Value {
    let mut d = json!({
        "table_id": f.table_id, "duration_sec": f.duration_sec, "duration_nsec": f.duration_nsec, "priority": f.priority,
        "idle_timeout": f.idle_timeout, "hard_timeout": f.hard_timeout, "flags": f.flags, "cookie": f.cookie,
        "packet_count": f.packet_count, "byte_count": f.byte_count, "match": either_match(v, &f.match10, &f.match_),
    });
    match v {
        Version::V10 => d["actions"] = actions(&f.actions),
        Version::V13 => d["instructions"] = Value::Array(f.instructions.iter().map(instruction).collect()),
    }
    d
}

pub(crate) fn port_json(v: Version, p: &Port) -> Value {
    port(v, p)
}
