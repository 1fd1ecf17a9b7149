"""Turn os-ken message objects into the plain JSON form the Rust vector test compares with.

Shared conventions (the Rust side, crates/ofwire/tests/common/describe.rs, builds the same):
MAC addresses and opaque bytes are lowercase hex strings, IPv4 addresses in 1.0 matches and
actions are integers, OXM fields are [name, value_hex, mask_hex_or_null] using os-ken's
field names. Only fields os-ken exposes are emitted; the Rust test checks each one.
"""

import binascii


def hexs(b):
    if isinstance(b, str):
        b = b.encode("latin-1")
    return binascii.hexlify(bytes(b)).decode()


def mac_hex(m):
    if isinstance(m, str) and ":" in m:
        return m.replace(":", "").lower()
    return hexs(m)


def name_str(n):
    if isinstance(n, bytes):
        n = n.split(b"\0", 1)[0].decode("latin-1")
    return n


def match10(m):
    return {
        "wildcards": m.wildcards, "in_port": m.in_port, "dl_src": mac_hex(m.dl_src),
        "dl_dst": mac_hex(m.dl_dst), "dl_vlan": m.dl_vlan, "dl_vlan_pcp": m.dl_vlan_pcp,
        "dl_type": m.dl_type, "nw_tos": m.nw_tos, "nw_proto": m.nw_proto,
        "nw_src": m.nw_src, "nw_dst": m.nw_dst, "tp_src": m.tp_src, "tp_dst": m.tp_dst,
    }


def oxm_list(ofp, m):
    out = []
    for name, uv in m._fields2:
        num, value, mask = ofp.oxm_from_user(name, uv)
        out.append([name, hexs(value), None if mask is None else hexs(mask)])
    return out


def match(ofp, m):
    return match10(m) if ofp.OFP_VERSION == 1 else oxm_list(ofp, m)


ACTION10 = {
    "OFPActionVlanVid": ("set_vlan_vid", "vlan_vid"), "OFPActionVlanPcp": ("set_vlan_pcp", "vlan_pcp"),
    "OFPActionSetDlSrc": ("set_dl_src", "dl_addr"), "OFPActionSetDlDst": ("set_dl_dst", "dl_addr"),
    "OFPActionSetNwSrc": ("set_nw_src", "nw_addr"), "OFPActionSetNwDst": ("set_nw_dst", "nw_addr"),
    "OFPActionSetNwTos": ("set_nw_tos", "tos"), "OFPActionSetTpSrc": ("set_tp_src", "tp"),
    "OFPActionSetTpDst": ("set_tp_dst", "tp"),
}
ACTION13 = {
    "OFPActionCopyTtlOut": "copy_ttl_out", "OFPActionCopyTtlIn": "copy_ttl_in",
    "OFPActionDecMplsTtl": "dec_mpls_ttl", "OFPActionPopVlan": "pop_vlan",
    "OFPActionDecNwTtl": "dec_nw_ttl", "OFPActionPopPbb": "pop_pbb",
}


def action(ofp, a):
    n = type(a).__name__
    if n == "OFPActionOutput":
        return {"type": "output", "port": a.port, "max_len": a.max_len}
    if n == "OFPActionStripVlan":
        return {"type": "strip_vlan"}
    if n == "OFPActionEnqueue":
        return {"type": "enqueue", "port": a.port, "queue_id": a.queue_id}
    if n in ACTION10:
        kind, attr = ACTION10[n]
        v = getattr(a, attr)
        if kind in ("set_dl_src", "set_dl_dst"):
            v = mac_hex(v)
        return {"type": kind, "value": v}
    if n in ACTION13:
        return {"type": ACTION13[n]}
    if n == "OFPActionSetMplsTtl":
        return {"type": "set_mpls_ttl", "value": a.mpls_ttl}
    if n == "OFPActionSetNwTtl":
        return {"type": "set_nw_ttl", "value": a.nw_ttl}
    if n in ("OFPActionPushVlan", "OFPActionPushMpls", "OFPActionPushPbb", "OFPActionPopMpls"):
        kind = {"OFPActionPushVlan": "push_vlan", "OFPActionPushMpls": "push_mpls",
                "OFPActionPushPbb": "push_pbb", "OFPActionPopMpls": "pop_mpls"}[n]
        return {"type": kind, "value": a.ethertype}
    if n == "OFPActionSetQueue":
        return {"type": "set_queue", "value": a.queue_id}
    if n == "OFPActionGroup":
        return {"type": "group", "value": a.group_id}
    if n == "OFPActionSetField":
        num, value, mask = ofp.oxm_from_user(a.key, a.value)
        return {"type": "set_field", "field": [a.key, hexs(value), None if mask is None else hexs(mask)]}
    if n in ("OFPActionVendor", "OFPActionExperimenterUnknown"):
        exp = getattr(a, "vendor", None)
        if exp is None:
            exp = a.experimenter
        return {"type": "experimenter", "experimenter": exp, "data": hexs(a.data or b"")}
    raise ValueError("no normalizer for action %s" % n)


def actions(ofp, lst):
    return [action(ofp, a) for a in lst]


def instruction(ofp, i):
    n = type(i).__name__
    if n == "OFPInstructionGotoTable":
        return {"type": "goto_table", "table_id": i.table_id}
    if n == "OFPInstructionWriteMetadata":
        return {"type": "write_metadata", "metadata": i.metadata, "mask": i.metadata_mask}
    if n == "OFPInstructionActions":
        kind = {ofp.OFPIT_WRITE_ACTIONS: "write_actions", ofp.OFPIT_APPLY_ACTIONS: "apply_actions",
                ofp.OFPIT_CLEAR_ACTIONS: "clear_actions"}[i.type]
        d = {"type": kind}
        if kind != "clear_actions":
            d["actions"] = actions(ofp, i.actions)
        return d
    if n == "OFPInstructionMeter":
        return {"type": "meter", "meter_id": i.meter_id}
    raise ValueError("no normalizer for instruction %s" % n)


def port(ofp, p):
    d = {"port_no": p.port_no, "hw_addr": mac_hex(p.hw_addr), "name": name_str(p.name),
         "config": p.config, "state": p.state, "curr": p.curr, "advertised": p.advertised,
         "supported": p.supported, "peer": p.peer}
    if ofp.OFP_VERSION == 4:
        d.update(curr_speed=p.curr_speed, max_speed=p.max_speed)
    return d


def flow_stats(ofp, f):
    d = {"table_id": f.table_id, "duration_sec": f.duration_sec, "duration_nsec": f.duration_nsec,
         "priority": f.priority, "idle_timeout": f.idle_timeout, "hard_timeout": f.hard_timeout,
         "cookie": f.cookie, "packet_count": f.packet_count, "byte_count": f.byte_count,
         "match": match(ofp, f.match)}
    if ofp.OFP_VERSION == 1:
        d["actions"] = actions(ofp, f.actions)
    else:
        d["flags"] = f.flags
        d["instructions"] = [instruction(ofp, i) for i in f.instructions]
    return d


PORT_COUNTERS = ["rx_packets", "tx_packets", "rx_bytes", "tx_bytes", "rx_dropped", "tx_dropped",
                 "rx_errors", "tx_errors", "rx_frame_err", "rx_over_err", "rx_crc_err", "collisions"]


def stats_body(ofp, kind, body):
    if kind == "desc":
        return {k: name_str(getattr(body, k)) for k in ("mfr_desc", "hw_desc", "sw_desc", "serial_num", "dp_desc")}
    if kind == "flow":
        return [flow_stats(ofp, f) for f in body]
    if kind == "aggregate":
        a = body[0] if isinstance(body, list) else body
        return {"packet_count": a.packet_count, "byte_count": a.byte_count, "flow_count": a.flow_count}
    if kind == "table":
        keys = ["table_id", "active_count", "lookup_count", "matched_count"]
        if ofp.OFP_VERSION == 1:
            keys += ["wildcards", "max_entries"]
        return [dict({k: getattr(t, k) for k in keys}, **({"name": name_str(t.name)} if ofp.OFP_VERSION == 1 else {})) for t in body]
    if kind == "port":
        keys = ["port_no"] + PORT_COUNTERS + (["duration_sec", "duration_nsec"] if ofp.OFP_VERSION == 4 else [])
        return [{k: getattr(p, k) for k in keys} for p in body]
    if kind == "queue":
        keys = ["port_no", "queue_id", "tx_bytes", "tx_packets", "tx_errors"] + (["duration_sec", "duration_nsec"] if ofp.OFP_VERSION == 4 else [])
        return [{k: getattr(q, k) for k in keys} for q in body]
    if kind == "port_desc":
        return [port(ofp, p) for p in body]
    raise ValueError(kind)


def expect_for(ofp, kind, msg):
    """The expected fields of a message of `kind`, read from an os-ken message object."""
    v13 = ofp.OFP_VERSION == 4
    d = {"xid": msg.xid}
    if kind == "hello":
        els = getattr(msg, "elements", None) or []
        vers = [sorted(e.versions) for e in els if hasattr(e, "versions")]
        d["versions"] = vers[0] if vers else None
    elif kind == "error":
        d.update(err_type=msg.type, code=msg.code, data=hexs(msg.data or b""))
    elif kind in ("echo_request", "echo_reply"):
        d["data"] = hexs(msg.data or b"")
    elif kind == "experimenter":
        d.update(experimenter=getattr(msg, "vendor", None) if not v13 else msg.experimenter,
                 data=hexs(msg.data or b""))
        if v13:
            d["exp_type"] = msg.exp_type
    elif kind == "features_reply":
        d.update(datapath_id=msg.datapath_id, n_buffers=msg.n_buffers, n_tables=msg.n_tables,
                 capabilities=msg.capabilities)
        if v13:
            d["auxiliary_id"] = msg.auxiliary_id
        else:
            d["actions"] = msg.actions
            d["ports"] = [port(ofp, msg.ports[k]) for k in sorted(msg.ports)]
    elif kind in ("get_config_reply", "set_config"):
        d.update(flags=msg.flags, miss_send_len=msg.miss_send_len)
    elif kind == "packet_in":
        d.update(buffer_id=msg.buffer_id, total_len=msg.total_len, reason=msg.reason, data=hexs(msg.data))
        if v13:
            d.update(table_id=msg.table_id, cookie=msg.cookie, match=match(ofp, msg.match))
        else:
            d["in_port"] = msg.in_port
    elif kind == "flow_removed":
        d.update({k: getattr(msg, k) for k in ("cookie", "priority", "reason", "duration_sec", "duration_nsec",
                                                "idle_timeout", "packet_count", "byte_count")})
        d["match"] = match(ofp, msg.match)
        if v13:
            d.update(table_id=msg.table_id, hard_timeout=msg.hard_timeout)
    elif kind == "port_status":
        d.update(reason=msg.reason, port=port(ofp, msg.desc))
    elif kind == "packet_out":
        d.update(buffer_id=msg.buffer_id, in_port=msg.in_port, actions=actions(ofp, msg.actions),
                 data=hexs(msg.data or b""))
    elif kind == "flow_mod":
        keys = ["cookie", "command", "idle_timeout", "hard_timeout", "priority", "buffer_id", "out_port", "flags"]
        if v13:
            keys += ["cookie_mask", "table_id", "out_group"]
        d.update({k: getattr(msg, k) for k in keys})
        d["match"] = match(ofp, msg.match)
        if v13:
            d["instructions"] = [instruction(ofp, i) for i in msg.instructions]
        else:
            d["actions"] = actions(ofp, msg.actions)
    elif kind == "port_mod":
        d.update(port_no=msg.port_no, hw_addr=mac_hex(msg.hw_addr), config=msg.config, mask=msg.mask,
                 advertise=msg.advertise)
    elif kind == "group_mod":
        d.update(command=msg.command, group_type=msg.type, group_id=msg.group_id,
                 buckets=[{"weight": b.weight, "watch_port": b.watch_port, "watch_group": b.watch_group,
                           "actions": actions(ofp, b.actions)} for b in msg.buckets])
    elif kind == "meter_mod":
        d.update(command=msg.command, flags=msg.flags, meter_id=msg.meter_id, bands=[band(b) for b in msg.bands])
    elif kind.startswith("stats_request_"):
        d.update(stats_flags=msg.flags)
        sub = kind[len("stats_request_"):]
        if sub in ("flow", "aggregate"):
            d.update(table_id=msg.table_id, out_port=msg.out_port, match=match(ofp, msg.match))
            if v13:
                d.update(out_group=msg.out_group, cookie=msg.cookie, cookie_mask=msg.cookie_mask)
        elif sub == "port":
            d["port_no"] = msg.port_no
        elif sub == "queue":
            d.update(port_no=msg.port_no, queue_id=msg.queue_id)
    elif kind.startswith("stats_reply_"):
        d.update(stats_flags=msg.flags, body=stats_body(ofp, kind[len("stats_reply_"):], msg.body))
    elif kind in ("role_request", "role_reply"):
        d.update(role=msg.role, generation_id=msg.generation_id)
    elif kind in ("get_async_reply", "set_async"):
        d.update(packet_in_mask=list(msg.packet_in_mask), port_status_mask=list(msg.port_status_mask),
                 flow_removed_mask=list(msg.flow_removed_mask))
    return d


def band(b):
    n = type(b).__name__
    d = {"rate": b.rate, "burst_size": b.burst_size}
    if n == "OFPMeterBandDrop":
        d["type"] = "drop"
    elif n == "OFPMeterBandDscpRemark":
        d.update(type="dscp_remark", prec_level=b.prec_level)
    else:
        d.update(type="experimenter", experimenter=b.experimenter)
    return d
