"""One OpenFlow 1.0/1.3 encoder and reader for the Python peers (the scripted controllers of the
known-answer tests, the conformance harness's scripted controllers): each message's bytes are defined here once,
and checked against os-ken's, a real implementation (``test_openflow.py`` reads the vectors in
``crates/ofwire/tests/vectors/osken_of1{0,3}.json``). Stdlib only: a peer runs anywhere.

What the product itself sends and reads is ``sdnbench/openflow.py`` (re-exported here); the rest,
which only the peers use, is here. sdnbench's own codec is ``crates/ofwire``.
"""

from __future__ import annotations

import struct
from typing import Optional

from ..openflow import (  # noqa: F401  (the shared part, re-exported for the peers)
    V10, V13, TYPES, NO_BUFFER, ANY, CONTROLLER, FLOOD, NONE_PORT10,
    MAX_PORT, PORT_DESC, MP_DESC, MP_FLOW, MP_AGGREGATE, OFPMPF_REPLY_MORE, ADD, DELETE,
    LLDP, OFPFW10_ALL, OFPFW10_DL_SRC, OFPFW10_DL_DST, OFPPS_LINK_DOWN, OFPPC_PORT_DOWN, OFPTT_ALL, name_of,
    msg, hello, echo_reply, multipart_request, match13, empty_match13, match10_all, flow_stats_request,
    split, header, xid_of, dpid_of, more_follows, packet_out_fields,
)


def set_config(v: int, xid: int, flags: int = 0, miss_send_len: int = 0xFFFF) -> bytes:
    return msg(v, "SET_CONFIG", xid, struct.pack("!HH", flags, miss_send_len))


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


def with_length(m: bytes, n: int) -> bytes:
    """``m`` with a lying length field (a malformed message, on purpose)."""
    return m[:2] + struct.pack("!H", n) + m[4:]


def buffer_id(m: bytes) -> int:
    """The buffer id of a PACKET_IN or PACKET_OUT (the same place in 1.0 and 1.3); nothing else
    read, so a truncated message past it still answers."""
    return struct.unpack("!I", m[8:12])[0]


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
