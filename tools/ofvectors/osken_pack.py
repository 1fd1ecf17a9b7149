"""Bytes for the messages os-ken can decode but not encode (those a switch sends).

They are packed with os-ken's own struct formats (ofproto_v1_*.OFP_*_PACK_STR) and its
serializers for nested parts (matches, actions, instructions); the generator then decodes
them with os-ken's parser, so every expected value comes from os-ken.
"""

import struct


def message(ofp, msg_type, xid, body):
    return struct.pack(ofp.OFP_HEADER_PACK_STR, ofp.OFP_VERSION, msg_type, 8 + len(body), xid) + body


def serialized_match(m):
    buf = bytearray()
    m.serialize(buf, 0)
    return bytes(buf)


def serialized_actions(lst):
    buf = bytearray()
    for a in lst:
        a.serialize(buf, len(buf))
    return bytes(buf)


def serialized_instructions(lst):
    buf = bytearray()
    for i in lst:
        i.serialize(buf, len(buf))
    return bytes(buf)


def port(ofp, p):
    """p: dict with port_no, hw_addr (6 bytes), name (bytes), config... (and speeds in 1.3)."""
    common = [p["config"], p["state"], p["curr"], p["advertised"], p["supported"], p["peer"]]
    if ofp.OFP_VERSION == 1:
        return struct.pack(ofp.OFP_PHY_PORT_PACK_STR, p["port_no"], p["hw_addr"], p["name"], *common)
    return struct.pack(ofp.OFP_PORT_PACK_STR, p["port_no"], p["hw_addr"], p["name"], *common,
                       p["curr_speed"], p["max_speed"])


def hello_bitmap(ofp, xid, words):
    elem_len = 4 + 4 * len(words)
    elem = struct.pack("!HH", ofp.OFPHET_VERSIONBITMAP, elem_len) + b"".join(struct.pack("!I", w) for w in words)
    elem += b"\0" * ((elem_len + 7) // 8 * 8 - elem_len)
    return message(ofp, ofp.OFPT_HELLO, xid, elem)


def features_reply(ofp, xid, dpid, n_buffers, n_tables, capabilities, last, ports=()):
    if ofp.OFP_VERSION == 1:
        body = struct.pack(ofp.OFP_SWITCH_FEATURES_PACK_STR, dpid, n_buffers, n_tables, capabilities, last)
        body += b"".join(port(ofp, p) for p in ports)
    else:
        body = struct.pack(ofp.OFP_SWITCH_FEATURES_PACK_STR, dpid, n_buffers, n_tables, 1, capabilities, last)
    return message(ofp, ofp.OFPT_FEATURES_REPLY, xid, body)


def switch_config(ofp, msg_type, xid, flags, miss_send_len):
    return message(ofp, msg_type, xid, struct.pack(ofp.OFP_SWITCH_CONFIG_PACK_STR, flags, miss_send_len))


def packet_in(ofp, xid, buffer_id, total_len, in_port, reason, table_id, cookie, match, data):
    if ofp.OFP_VERSION == 1:
        body = struct.pack(ofp.OFP_PACKET_IN_PACK_STR, buffer_id, total_len, in_port, reason)
    else:
        body = struct.pack(ofp.OFP_PACKET_IN_PACK_STR, buffer_id, total_len, reason, table_id, cookie)
        body += serialized_match(match) + b"\0\0"
    return message(ofp, ofp.OFPT_PACKET_IN, xid, body + data)


def flow_removed(ofp, xid, f, match):
    if ofp.OFP_VERSION == 1:
        body = serialized_match(match) + struct.pack(
            ofp.OFP_FLOW_REMOVED_PACK_STR0, f["cookie"], f["priority"], f["reason"], f["duration_sec"],
            f["duration_nsec"], f["idle_timeout"], f["packet_count"], f["byte_count"])
    else:
        body = struct.pack(
            ofp.OFP_FLOW_REMOVED_PACK_STR0, f["cookie"], f["priority"], f["reason"], f["table_id"],
            f["duration_sec"], f["duration_nsec"], f["idle_timeout"], f["hard_timeout"],
            f["packet_count"], f["byte_count"]) + serialized_match(match)
    return message(ofp, ofp.OFPT_FLOW_REMOVED, xid, body)


def port_status(ofp, xid, reason, p):
    return message(ofp, ofp.OFPT_PORT_STATUS, xid, struct.pack("!B7x", reason) + port(ofp, p))


def stats_reply(ofp, xid, kind, flags, body):
    if ofp.OFP_VERSION == 1:
        env = struct.pack(ofp.OFP_STATS_MSG_PACK_STR, kind, flags)
        return message(ofp, ofp.OFPT_STATS_REPLY, xid, env + body)
    env = struct.pack(ofp.OFP_MULTIPART_REPLY_PACK_STR, kind, flags)
    return message(ofp, ofp.OFPT_MULTIPART_REPLY, xid, env + body)


def desc(ofp, mfr, hw, sw, serial, dp):
    fmt = ofp.OFP_DESC_STATS_PACK_STR if ofp.OFP_VERSION == 1 else ofp.OFP_DESC_PACK_STR
    return struct.pack(fmt, mfr, hw, sw, serial, dp)


def flow_stats(ofp, f, match, tail):
    """One flow-stats entry; tail is the serialized actions (1.0) or instructions (1.3)."""
    if ofp.OFP_VERSION == 1:
        m = serialized_match(match)
        fixed = struct.pack("!HBx", 0, f["table_id"]) + m + struct.pack(
            "!IIHHH6xQQQ", f["duration_sec"], f["duration_nsec"], f["priority"], f["idle_timeout"],
            f["hard_timeout"], f["cookie"], f["packet_count"], f["byte_count"])
        entry = fixed + tail
    else:
        fixed = struct.pack(ofp.OFP_FLOW_STATS_0_PACK_STR, 0, f["table_id"], f["duration_sec"], f["duration_nsec"],
                            f["priority"], f["idle_timeout"], f["hard_timeout"], f["flags"], f["cookie"],
                            f["packet_count"], f["byte_count"])
        entry = fixed + serialized_match(match) + tail
    return struct.pack("!H", len(entry)) + entry[2:]


def aggregate(ofp, packets, octets, flows):
    return struct.pack(ofp.OFP_AGGREGATE_STATS_REPLY_PACK_STR, packets, octets, flows)


def table_stats(ofp, t):
    if ofp.OFP_VERSION == 1:
        return struct.pack(ofp.OFP_TABLE_STATS_PACK_STR, t["table_id"], t["name"], t["wildcards"], t["max_entries"],
                           t["active_count"], t["lookup_count"], t["matched_count"])
    return struct.pack(ofp.OFP_TABLE_STATS_PACK_STR, t["table_id"], t["active_count"], t["lookup_count"], t["matched_count"])


def port_stats(ofp, port_no, counters, durations=(0, 0)):
    if ofp.OFP_VERSION == 1:
        return struct.pack(ofp.OFP_PORT_STATS_PACK_STR, port_no, *counters)
    return struct.pack(ofp.OFP_PORT_STATS_PACK_STR, port_no, *counters, *durations)


def queue_stats(ofp, port_no, queue_id, tx_bytes, tx_packets, tx_errors, durations=(0, 0)):
    if ofp.OFP_VERSION == 1:
        return struct.pack(ofp.OFP_QUEUE_STATS_PACK_STR, port_no, queue_id, tx_bytes, tx_packets, tx_errors)
    return struct.pack(ofp.OFP_QUEUE_STATS_PACK_STR, port_no, queue_id, tx_bytes, tx_packets, tx_errors, *durations)


def role_reply(ofp, xid, role, generation_id):
    return message(ofp, ofp.OFPT_ROLE_REPLY, xid, struct.pack(ofp.OFP_ROLE_REQUEST_PACK_STR, role, generation_id))


def get_async_reply(ofp, xid, pin, ps, fr):
    return message(ofp, ofp.OFPT_GET_ASYNC_REPLY, xid, struct.pack(ofp.OFP_ASYNC_CONFIG_PACK_STR, *pin, *ps, *fr))
