"""OpenFlow 1.0/1.3 messages as bytes, the few that sdnbench's Python side sends and reads itself
(the differential harness's capture, flow dumps and normalisation; the test peers, through
``sdnbench.testing.openflow``, which adds what only they need). Each message's bytes are
defined once, here or there, and checked against os-ken's (``testing/test_openflow.py``).
Stdlib only. sdnbench's own codec is ``crates/ofwire``.
"""

from __future__ import annotations

import struct
from typing import Optional

V10, V13 = 1, 4
# message type codes (OpenFlow 1.0 §5.1, 1.3 §7.1): the names are the specs'
_COMMON = ["HELLO", "ERROR", "ECHO_REQUEST", "ECHO_REPLY", None, "FEATURES_REQUEST", "FEATURES_REPLY",
           "GET_CONFIG_REQUEST", "GET_CONFIG_REPLY", "SET_CONFIG", "PACKET_IN", "FLOW_REMOVED", "PORT_STATUS",
           "PACKET_OUT", "FLOW_MOD"]
TYPES = {
    V10: {n: c for c, n in enumerate(_COMMON[:4] + ["VENDOR"] + _COMMON[5:] + [
        "PORT_MOD", "STATS_REQUEST", "STATS_REPLY", "BARRIER_REQUEST", "BARRIER_REPLY", "QUEUE_GET_CONFIG_REQUEST",
        "QUEUE_GET_CONFIG_REPLY"])},
    V13: {n: c for c, n in enumerate(_COMMON[:4] + ["EXPERIMENTER"] + _COMMON[5:] + [
        "GROUP_MOD", "PORT_MOD", "TABLE_MOD", "MULTIPART_REQUEST", "MULTIPART_REPLY", "BARRIER_REQUEST",
        "BARRIER_REPLY", "QUEUE_GET_CONFIG_REQUEST", "QUEUE_GET_CONFIG_REPLY", "ROLE_REQUEST", "ROLE_REPLY",
        "GET_ASYNC_REQUEST", "GET_ASYNC_REPLY", "SET_ASYNC", "METER_MOD"])},
}
NO_BUFFER = 0xFFFFFFFF
ANY = 0xFFFFFFFF                       # 1.3 out_port / out_group "any"
CONTROLLER = {V10: 0xFFFD, V13: 0xFFFFFFFD}
FLOOD = {V10: 0xFFFB, V13: 0xFFFFFFFB}
NONE_PORT10 = 0xFFFF
MAX_PORT = {V10: 0xFF00, V13: 0xFFFFFF00}
PORT_DESC = 13                         # 1.3 multipart type OFPMP_PORT_DESC
# 1.3 multipart types (§7.3.5) the peers ask for and answer (the 1.0 stats types: the same numbers)
MP_DESC, MP_FLOW, MP_AGGREGATE = 0, 1, 2
OFPMPF_REPLY_MORE = 1                  # a multipart (1.0: stats) reply's flag: more parts follow
ADD, DELETE = 0, 3                     # flow-mod commands
LLDP = 0x88CC
OFPFW10_ALL, OFPFW10_DL_SRC, OFPFW10_DL_DST = 0x003FFFFF, 1 << 2, 1 << 3   # 1.0 match wildcards
OFPPS_LINK_DOWN = 1            # port state: no physical link
OFPPC_PORT_DOWN = 1            # port config: administratively down

OFPTT_ALL = 0xFF                       # table id "all tables" of a flow-stats request (1.0 and 1.3)


def name_of(m: bytes) -> str:
    """The message's type name (``UNKNOWN_<code>`` for one the peers do not use)."""
    codes = TYPES.get(m[0], TYPES[V13])
    return next((n for n, c in codes.items() if c == m[1]), f"UNKNOWN_{m[1]}")


def msg(v: int, name: str, xid: int, body: bytes = b"") -> bytes:
    return struct.pack("!BBHI", v, TYPES[v][name], 8 + len(body), xid) + body


def hello(v: int, xid: int = 1, versions: Optional[list] = None) -> bytes:
    """HELLO; with ``versions``, one version-bitmap element naming them (1.3 §7.5.1)."""
    if not versions:
        return msg(v, "HELLO", xid)
    bitmap = sum(1 << x for x in versions)
    return msg(v, "HELLO", xid, struct.pack("!HHI", 1, 8, bitmap))


def echo_reply(request: bytes) -> bytes:
    """The reply to an ECHO_REQUEST: same version, xid and data."""
    return msg(request[0], "ECHO_REPLY", xid_of(request), request[8:])


def multipart_request(xid: int, kind: int, flags: int = 0, body: bytes = b"") -> bytes:
    """A 1.3 MULTIPART_REQUEST of ``kind`` (DESC, PORT_DESC, ...; ``body`` the request's own, if any)."""
    return msg(V13, "MULTIPART_REQUEST", xid, struct.pack("!HH4x", kind, flags) + body)


def match13(*oxms: bytes) -> bytes:
    """An OXM match of these fields, padded to 8 bytes."""
    body = b"".join(oxms)
    m = struct.pack("!HH", 1, 4 + len(body)) + body
    return m + bytes(-len(m) % 8)


def empty_match13() -> bytes:
    return match13()                             # OFPMT_OXM, no fields, padded to 8


def match10_all() -> bytes:
    """A 1.0 match with every field wildcarded (OFPFW_ALL)."""
    return struct.pack("!I", OFPFW10_ALL).ljust(40, b"\0")


def flow_stats_request(v: int, xid: int, table: int = OFPTT_ALL) -> bytes:
    """A request for every flow entry of ``table`` (all tables unless given): 1.0 OFPST_FLOW
    with every field wildcarded and out_port NONE; 1.3 OFPMP_FLOW with out_port and out_group
    ANY, no cookie mask and an empty match."""
    if v == V10:
        body = struct.pack("!HH", MP_FLOW, 0) + match10_all() + struct.pack("!BxH", table, NONE_PORT10)
        return msg(V10, "STATS_REQUEST", xid, body)
    return multipart_request(xid, MP_FLOW, body=struct.pack("!B3xII4xQQ", table, ANY, ANY, 0, 0) + empty_match13())


def split(buf: bytes) -> tuple:
    """(the complete messages at the front of ``buf``, the rest). A length under 8 counts as 8."""
    out = []
    while len(buf) >= 8:
        n = max(8, struct.unpack("!H", buf[2:4])[0])
        if len(buf) < n:
            break
        out.append(buf[:n])
        buf = buf[n:]
    return out, buf


def header(m: bytes) -> tuple:
    """(version, type code, length, xid)."""
    return struct.unpack("!BBHI", m[:8])


def xid_of(m: bytes) -> int:
    return struct.unpack("!I", m[4:8])[0]


def dpid_of(m: bytes) -> int:
    """The datapath id of a FEATURES_REPLY (nothing after it read)."""
    return struct.unpack("!Q", m[8:16])[0]


def more_follows(m: bytes) -> bool:
    """Does a multipart (1.0: stats) reply say more parts follow (OFPMPF_REPLY_MORE)?"""
    return bool(struct.unpack("!H", m[10:12])[0] & OFPMPF_REPLY_MORE)


def packet_out_fields(m: bytes) -> dict:
    """A PACKET_OUT's buffer_id, in_port, actions (bytes) and data."""
    if m[0] == V10:
        buffer_id, in_port, alen = struct.unpack("!IHH", m[8:16])
        head = 16
    else:
        buffer_id, in_port, alen = struct.unpack("!IIH", m[8:18])
        head = 24
    return {"buffer_id": buffer_id, "in_port": in_port, "actions": m[head:head + alen], "data": m[head + alen:]}
