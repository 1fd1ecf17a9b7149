"""One OpenFlow 1.0/1.3 encoder and reader for the Python peers (the scripted controllers of the
known-answer tests and the conformance harness): each message's bytes are defined here once,
and checked against os-ken's, a real implementation (``test_openflow.py`` reads the vectors in
``crates/ofwire/tests/vectors/osken_of1{0,3}.json``). Stdlib only: a peer runs anywhere.

Only what the peers send and read is here; sdnbench's own codec is ``crates/ofwire``.
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


def set_config(v: int, xid: int, flags: int = 0, miss_send_len: int = 0xFFFF) -> bytes:
    return msg(v, "SET_CONFIG", xid, struct.pack("!HH", flags, miss_send_len))


def multipart_request(xid: int, kind: int, flags: int = 0, body: bytes = b"") -> bytes:
    """A 1.3 MULTIPART_REQUEST of ``kind`` (DESC, PORT_DESC, ...; ``body`` the request's own, if any)."""
    return msg(V13, "MULTIPART_REQUEST", xid, struct.pack("!HH4x", kind, flags) + body)


def port_desc_request(xid: int) -> bytes:
    return multipart_request(xid, PORT_DESC)


def output(v: int, port: int, max_len: int = 0xFFFF) -> bytes:
    """The OUTPUT action."""
    if v == V10:
        return struct.pack("!HHHH", 0, 8, port, max_len)
    return struct.pack("!HHIH6x", 0, 16, port, max_len)


def apply_actions(actions: bytes) -> bytes:
    return struct.pack("!HH4x", 4, 8 + len(actions)) + actions


def goto_table(table: int) -> bytes:
    return struct.pack("!HHB3x", 1, 8, table)


# OXM fields of the OpenFlow basic class (1.3 §7.2.3.7) the peers match on
OXM_IN_PORT, OXM_ETH_DST, OXM_ETH_SRC, OXM_VLAN_VID = 0, 3, 4, 6
OFPVID_PRESENT = 0x1000


def oxm(field: int, value: bytes, mask: Optional[bytes] = None) -> bytes:
    """One OXM TLV of the basic class; with ``mask``, the masked form (HM bit set, value then mask)."""
    if mask is None:
        return struct.pack("!HBB", 0x8000, field << 1, len(value)) + value
    return struct.pack("!HBB", 0x8000, field << 1 | 1, len(value) + len(mask)) + value + mask


def oxm_in_port(port: int) -> bytes:
    return oxm(OXM_IN_PORT, struct.pack("!I", port))


def oxm_vlan_vid(vid: int) -> bytes:
    """VLAN_VID of a frame tagged ``vid`` (the OFPVID_PRESENT bit set)."""
    return oxm(OXM_VLAN_VID, struct.pack("!H", OFPVID_PRESENT | vid))


def match13(*oxms: bytes) -> bytes:
    """An OXM match of these fields, padded to 8 bytes."""
    body = b"".join(oxms)
    m = struct.pack("!HH", 1, 4 + len(body)) + body
    return m + bytes(-len(m) % 8)


def empty_match13() -> bytes:
    return match13()                             # OFPMT_OXM, no fields, padded to 8


def flow_mod13(xid: int, command: int, table: int, priority: int = 0, instructions: bytes = b"",
               buffer_id: int = NO_BUFFER, out_port: int = 0, out_group: int = 0, match: bytes = b"",
               cookie: int = 0) -> bytes:
    """FLOW_MOD (1.3); ``match`` from ``match13`` (empty: match everything)."""
    body = struct.pack("!QQBBHHHIIIH2x", cookie, 0, table, command, 0, 0, priority, buffer_id, out_port, out_group, 0)
    return msg(V13, "FLOW_MOD", xid, body + (match or empty_match13()) + instructions)


def match10_in_port(port: int) -> bytes:
    """A 1.0 match on in_port alone (every other field wildcarded)."""
    return struct.pack("!IH", 0x3FFFFE, port).ljust(40, b"\0")


def match10_macs(src: bytes, dst: bytes) -> bytes:
    """A 1.0 match on (dl_src, dl_dst), every other field wildcarded."""
    return struct.pack("!IH6s6s", OFPFW10_ALL & ~(OFPFW10_DL_SRC | OFPFW10_DL_DST), 0, src, dst).ljust(40, b"\0")


ROLE_NOCHANGE, ROLE_EQUAL, ROLE_MASTER, ROLE_SLAVE = 0, 1, 2, 3   # 1.3 controller roles (OFPCR_ROLE_*)


def role_request(xid: int, role: int, generation: int) -> bytes:
    """ROLE_REQUEST (1.3) for one of the ``ROLE_*``."""
    return msg(V13, "ROLE_REQUEST", xid, struct.pack("!I4xQ", role, generation))


def match10_all() -> bytes:
    """A 1.0 match with every field wildcarded (OFPFW_ALL)."""
    return struct.pack("!I", OFPFW10_ALL).ljust(40, b"\0")


def flow_mod10(xid: int, match: bytes, priority: int, actions: bytes = b"", command: int = ADD,
               buffer_id: int = NO_BUFFER, out_port: int = NONE_PORT10) -> bytes:
    body = match + struct.pack("!QHHHHIHH", 0, command, 0, 0, priority, buffer_id, out_port, 0)
    return msg(V10, "FLOW_MOD", xid, body + actions)


def drop_flow(v: int, xid: int, buffer_id: int = NO_BUFFER, priority: int = 0x8000) -> bytes:
    """A FLOW_MOD ADD that matches everything and does nothing (drops), table 0; naming
    ``buffer_id``, it is applied to that buffered packet too (the scripted controllers' answer
    to a packet-in)."""
    if v == V10:
        return flow_mod10(xid, match10_all(), priority, buffer_id=buffer_id)
    return flow_mod13(xid, ADD, 0, priority, buffer_id=buffer_id, out_port=ANY, out_group=ANY)


OFPTT_ALL = 0xFF                       # table id "all tables" of a flow-stats request (1.0 and 1.3)


def flow_stats_request(v: int, xid: int, table: int = OFPTT_ALL) -> bytes:
    """A request for every flow entry of ``table`` (all tables unless given): 1.0 OFPST_FLOW
    with every field wildcarded and out_port NONE; 1.3 OFPMP_FLOW with out_port and out_group
    ANY, no cookie mask and an empty match."""
    if v == V10:
        body = struct.pack("!HH", MP_FLOW, 0) + match10_all() + struct.pack("!BxH", table, NONE_PORT10)
        return msg(V10, "STATS_REQUEST", xid, body)
    return multipart_request(xid, MP_FLOW, body=struct.pack("!B3xII4xQQ", table, ANY, ANY, 0, 0) + empty_match13())


def packet_out(v: int, xid: int, actions: bytes, data: bytes, in_port: Optional[int] = None,
               buffer_id: int = NO_BUFFER) -> bytes:
    """PACKET_OUT of ``data``; in_port CONTROLLER (1.3) or NONE (1.0) unless given."""
    if v == V10:
        head = struct.pack("!IHH", buffer_id, NONE_PORT10 if in_port is None else in_port, len(actions))
    else:
        head = struct.pack("!IIH6x", buffer_id, CONTROLLER[V13] if in_port is None else in_port, len(actions))
    return msg(v, "PACKET_OUT", xid, head + actions + data)


def probe_frame(dpid: int, port: int, port_bytes: int) -> bytes:
    """An LLDP-typed frame (to the nearest-bridge group) carrying (dpid, port) raw after the
    ethertype: what the scripted discovery controllers send and read back."""
    fmt = {2: "!HQH", 4: "!HQI"}[port_bytes]
    frame = bytes([0x01, 0x80, 0xC2, 0, 0, 0x0E, 2, 0, 0, 0, 0, 1]) + struct.pack(fmt, LLDP, dpid, port)
    return frame.ljust(60, b"\0")


def probed(frame: bytes, port_bytes: int) -> Optional[tuple]:
    """(dpid, port) of a ``probe_frame``, or None for any other frame."""
    if len(frame) < 22 + port_bytes or struct.unpack("!H", frame[12:14])[0] != LLDP:
        return None
    return struct.unpack({2: "!QH", 4: "!QI"}[port_bytes], frame[14:22 + port_bytes])


def features_reply13(xid: int, dpid: int, n_tables: int, n_buffers: int = 0, auxiliary_id: int = 0,
                     capabilities: int = 0) -> bytes:
    return msg(V13, "FEATURES_REPLY", xid, struct.pack("!QIBB2xII", dpid, n_buffers, n_tables, auxiliary_id,
                                                       capabilities, 0))


def error_msg(v: int, xid: int, err_type: int, code: int, data: bytes = b"") -> bytes:
    """ERROR; ``data`` is (the start of) the offending message."""
    return msg(v, "ERROR", xid, struct.pack("!HH", err_type, code) + data)


OFPET_FLOW_MOD_FAILED, OFPFMFC_TABLE_FULL = 5, 1


def multipart_reply(xid: int, kind: int, body: bytes = b"", flags: int = 0) -> bytes:
    return msg(V13, "MULTIPART_REPLY", xid, struct.pack("!HH4x", kind, flags) + body)


OFPPS_LIVE = 4                 # 1.3 port state: live for fast failover


def port13(port_no: int, hw_addr: bytes, name: str, config: int = 0, state: int = 0, curr: int = 0,
           advertised: int = 0, supported: int = 0, peer: int = 0, curr_speed: int = 0, max_speed: int = 0) -> bytes:
    """One 1.3 ``ofp_port`` (64 bytes), as a PORT_DESC reply's body lists them."""
    return struct.pack("!I4x6s2x16sIIIIIIII", port_no, hw_addr, name.encode(), config, state, curr, advertised,
                       supported, peer, curr_speed, max_speed)


def desc_body(mfr: str, hw: str, sw: str, serial: str, dp: str) -> bytes:
    """The DESC reply's body: five NUL-padded strings (256, 256, 256, 32, 256 bytes)."""
    return b"".join(t.encode().ljust(n, b"\0") for t, n in ((mfr, 256), (hw, 256), (sw, 256), (serial, 32), (dp, 256)))


def aggregate_body(packets: int, nbytes: int, flows: int) -> bytes:
    return struct.pack("!QQI4x", packets, nbytes, flows)


def packet_in10(xid: int, in_port: int, frame: bytes, buffer_id: int = NO_BUFFER, total_len: Optional[int] = None,
                reason: int = 0) -> bytes:
    """PACKET_IN (1.0); ``total_len`` the frame's length unless given."""
    head = struct.pack("!IHHBx", buffer_id, len(frame) if total_len is None else total_len, in_port, reason)
    return msg(V10, "PACKET_IN", xid, head + frame)


def packet_in13(xid: int, in_port: int, frame: bytes, buffer_id: int = NO_BUFFER, total_len: Optional[int] = None,
                reason: int = 0, table: int = 0, cookie: int = 0) -> bytes:
    """PACKET_IN (1.3) whose match is the IN_PORT alone; ``total_len`` the frame's length unless given."""
    head = struct.pack("!IHBBQ", buffer_id, len(frame) if total_len is None else total_len, reason, table, cookie)
    return msg(V13, "PACKET_IN", xid, head + match13(oxm_in_port(in_port)) + b"\0\0" + frame)


# ---- reading ----

def _oxms(m: bytes, start: int, end: int):
    """(field, value) of each OXM of the basic class in ``m[start:end]`` (a mask left off)."""
    while start + 4 <= min(end, len(m)):
        oclass, field, n = struct.unpack("!HBB", m[start:start + 4])
        if oclass == 0x8000:
            yield field >> 1, m[start + 4:start + 4 + (n // 2 if field & 1 else n)]
        start += 4 + n


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


def reads(sock):
    """The whole messages of each read from a blocking socket, one list per read (possibly
    empty), until the peer closes it or it fails; a message cut off by the end is dropped."""
    buf = b""
    while True:
        try:
            data = sock.recv(65536)
        except OSError:
            return
        if not data:
            return
        msgs, buf = split(buf + data)
        yield msgs


def header(m: bytes) -> tuple:
    """(version, type code, length, xid)."""
    return struct.unpack("!BBHI", m[:8])


def with_length(m: bytes, n: int) -> bytes:
    """``m`` with a lying length field (a malformed message, on purpose)."""
    return m[:2] + struct.pack("!H", n) + m[4:]


def xid_of(m: bytes) -> int:
    return struct.unpack("!I", m[4:8])[0]


def buffer_id(m: bytes) -> int:
    """The buffer id of a PACKET_IN or PACKET_OUT (the same place in 1.0 and 1.3); nothing else
    read, so a truncated message past it still answers."""
    return struct.unpack("!I", m[8:12])[0]


def dpid_of(m: bytes) -> int:
    """The datapath id of a FEATURES_REPLY (nothing after it read)."""
    return struct.unpack("!Q", m[8:16])[0]


def features(m: bytes) -> dict:
    """A FEATURES_REPLY: dpid, n_tables and (1.0) the port numbers it lists."""
    out = {"dpid": dpid_of(m), "n_tables": m[20], "ports": []}
    if m[0] == V10:
        out["ports"] = [p for p in (struct.unpack("!H", m[i:i + 2])[0] for i in range(32, len(m) - 47, 48))
                        if p < MAX_PORT[V10]]
    return out


def port_desc_ports(m: bytes) -> Optional[list]:
    """The port numbers of a 1.3 PORT_DESC reply (None for another multipart reply)."""
    if struct.unpack("!H", m[8:10])[0] != PORT_DESC:
        return None
    ports = (struct.unpack("!I", m[i:i + 4])[0] for i in range(16, len(m) - 63, 64))
    return [p for p in ports if p < MAX_PORT[V13]]


def error(m: bytes) -> tuple:
    """(type, code) of an ERROR."""
    return struct.unpack("!HH", m[8:12])


def port_status(m: bytes) -> tuple:
    """(port number, config, state) of a PORT_STATUS."""
    if m[0] == V10:
        return (struct.unpack("!H", m[16:18])[0],) + struct.unpack("!II", m[40:48])
    return (struct.unpack("!I", m[16:20])[0],) + struct.unpack("!II", m[48:56])


def packet_in(m: bytes) -> dict:
    """A PACKET_IN's buffer_id, total_len, reason, table_id (1.3), in_port (1.0 field; 1.3 OXM
    IN_PORT) and frame."""
    if m[0] == V10:
        buffer_id, total_len, in_port, reason = struct.unpack("!IHHB", m[8:17])
        return {"buffer_id": buffer_id, "total_len": total_len, "reason": reason, "table_id": None,
                "in_port": in_port, "frame": m[18:]}
    buffer_id, total_len, reason, table, cookie = struct.unpack("!IHBBQ", m[8:24])
    mlen = struct.unpack("!H", m[26:28])[0]
    in_port = next((struct.unpack("!I", v)[0] for f, v in _oxms(m, 28, min(24 + mlen, len(m)))
                    if f == OXM_IN_PORT and len(v) == 4), None)
    return {"buffer_id": buffer_id, "total_len": total_len, "reason": reason, "table_id": table,
            "cookie": cookie, "in_port": in_port, "frame": m[24 + (mlen + 7) // 8 * 8 + 2:]}


def multipart_type(m: bytes) -> int:
    """The multipart (1.3) or stats (1.0) type of a request or reply."""
    return struct.unpack("!H", m[8:10])[0]


def more_follows(m: bytes) -> bool:
    """Does a multipart (1.0: stats) reply say more parts follow (OFPMPF_REPLY_MORE)?"""
    return bool(struct.unpack("!H", m[10:12])[0] & OFPMPF_REPLY_MORE)


def flow_mod(m: bytes) -> dict:
    """A FLOW_MOD's command, priority, buffer_id, table_id (1.3; None for 1.0), eth_dst (the 1.3
    OXM, None if unmatched) and instructions (1.3: (type, bytes after the type/length) each)."""
    if m[0] == V10:
        command, _, _, priority, buffer_id = struct.unpack("!HHHHI", m[56:68])
        return {"command": command, "priority": priority, "buffer_id": buffer_id, "table_id": None,
                "eth_dst": None, "instructions": []}
    table, command, _, _, priority, buffer_id = struct.unpack("!BBHHHI", m[24:36])
    mlen = struct.unpack("!H", m[50:52])[0]
    eth_dst = next((v for f, v in _oxms(m, 52, 48 + mlen) if f == OXM_ETH_DST), None)
    inst, at = [], 48 + (mlen + 7) // 8 * 8
    while at + 4 <= len(m):
        itype, ilen = struct.unpack("!HH", m[at:at + 4])
        inst.append((itype, m[at + 4:at + max(ilen, 8)]))
        at += max(ilen, 8)
    return {"command": command, "priority": priority, "buffer_id": buffer_id, "table_id": table,
            "eth_dst": eth_dst, "instructions": inst}


def instruction_action(itype: int, rest: bytes) -> tuple:
    """What one 1.3 instruction does, as the scripted switch needs it: ("goto", table),
    ("out", port) of an apply-actions whose first action is OUTPUT, else ("drop",)."""
    if itype == 1:
        return ("goto", rest[0])
    if itype == 4 and len(rest) >= 12 and struct.unpack("!H", rest[4:6])[0] == 0:
        return ("out", struct.unpack("!I", rest[8:12])[0])
    return ("drop",)


def packet_out_fields(m: bytes) -> dict:
    """A PACKET_OUT's buffer_id, in_port, actions (bytes) and data."""
    if m[0] == V10:
        buffer_id, in_port, alen = struct.unpack("!IHH", m[8:16])
        head = 16
    else:
        buffer_id, in_port, alen = struct.unpack("!IIH", m[8:18])
        head = 24
    return {"buffer_id": buffer_id, "in_port": in_port, "actions": m[head:head + alen], "data": m[head + alen:]}


def actions(acts: bytes) -> list:
    """(type, port or None) of each action; the port for OUTPUT (1.0 and 1.3 layouts)."""
    out, at = [], 0
    while at + 4 <= len(acts):
        atype, alen = struct.unpack("!HH", acts[at:at + 4])
        if alen < 4:
            break
        port = None
        if atype == 0 and at + 8 <= len(acts):
            port = struct.unpack("!H", acts[at + 4:at + 6])[0] if alen == 8 else struct.unpack("!I", acts[at + 4:at + 8])[0]
        out.append((atype, port))
        at += alen
    return out
