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
TYPES = {
    V10: {"HELLO": 0, "ERROR": 1, "ECHO_REQUEST": 2, "ECHO_REPLY": 3, "FEATURES_REQUEST": 5,
          "FEATURES_REPLY": 6, "SET_CONFIG": 9, "PACKET_IN": 10, "PORT_STATUS": 12, "PACKET_OUT": 13,
          "FLOW_MOD": 14, "STATS_REQUEST": 16, "STATS_REPLY": 17, "BARRIER_REQUEST": 18, "BARRIER_REPLY": 19},
    V13: {"HELLO": 0, "ERROR": 1, "ECHO_REQUEST": 2, "ECHO_REPLY": 3, "FEATURES_REQUEST": 5,
          "FEATURES_REPLY": 6, "SET_CONFIG": 9, "PACKET_IN": 10, "PORT_STATUS": 12, "PACKET_OUT": 13,
          "FLOW_MOD": 14, "MULTIPART_REQUEST": 18, "MULTIPART_REPLY": 19, "BARRIER_REQUEST": 20,
          "BARRIER_REPLY": 21, "ROLE_REQUEST": 24, "ROLE_REPLY": 25},
}
NO_BUFFER = 0xFFFFFFFF
ANY = 0xFFFFFFFF                       # 1.3 out_port / out_group "any"
CONTROLLER = {V10: 0xFFFD, V13: 0xFFFFFFFD}
FLOOD = {V10: 0xFFFB, V13: 0xFFFFFFFB}
NONE_PORT10 = 0xFFFF
MAX_PORT = {V10: 0xFF00, V13: 0xFFFFFF00}
PORT_DESC = 13                         # 1.3 multipart type OFPMP_PORT_DESC
ADD, DELETE = 0, 3                     # flow-mod commands
LLDP = 0x88CC
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


def port_desc_request(xid: int) -> bytes:
    return msg(V13, "MULTIPART_REQUEST", xid, struct.pack("!HH4x", PORT_DESC, 0))


def output(v: int, port: int, max_len: int = 0xFFFF) -> bytes:
    """The OUTPUT action."""
    if v == V10:
        return struct.pack("!HHHH", 0, 8, port, max_len)
    return struct.pack("!HHIH6x", 0, 16, port, max_len)


def apply_actions(actions: bytes) -> bytes:
    return struct.pack("!HH4x", 4, 8 + len(actions)) + actions


# OXM fields of the OpenFlow basic class (1.3 §7.2.3.7) the peers match on
OXM_IN_PORT, OXM_ETH_DST, OXM_ETH_SRC, OXM_VLAN_VID = 0, 3, 4, 6
OFPVID_PRESENT = 0x1000


def oxm(field: int, value: bytes) -> bytes:
    """One OXM TLV of the basic class, no mask."""
    return struct.pack("!HBB", 0x8000, field << 1, len(value)) + value


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


OFPFW10_ALL, OFPFW10_DL_SRC, OFPFW10_DL_DST = 0x003FFFFF, 1 << 2, 1 << 3


def match10_macs(src: bytes, dst: bytes) -> bytes:
    """A 1.0 match on (dl_src, dl_dst), every other field wildcarded."""
    return struct.pack("!IH6s6s", OFPFW10_ALL & ~(OFPFW10_DL_SRC | OFPFW10_DL_DST), 0, src, dst).ljust(40, b"\0")


def role_request(xid: int, role: int, generation: int) -> bytes:
    """ROLE_REQUEST (1.3): NOCHANGE 0, EQUAL 1, MASTER 2, SLAVE 3."""
    return msg(V13, "ROLE_REQUEST", xid, struct.pack("!I4xQ", role, generation))


def match10_all() -> bytes:
    """A 1.0 match with every field wildcarded (OFPFW_ALL)."""
    return struct.pack("!I", 0x003FFFFF).ljust(40, b"\0")


def flow_mod10(xid: int, match: bytes, priority: int, actions: bytes = b"", command: int = ADD,
               buffer_id: int = NO_BUFFER, out_port: int = NONE_PORT10) -> bytes:
    body = match + struct.pack("!QHHHHIHH", 0, command, 0, 0, priority, buffer_id, out_port, 0)
    return msg(V10, "FLOW_MOD", xid, body + actions)


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


# ---- reading ----

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


def with_length(m: bytes, n: int) -> bytes:
    """``m`` with a lying length field (a malformed message, on purpose)."""
    return m[:2] + struct.pack("!H", n) + m[4:]


def xid_of(m: bytes) -> int:
    return struct.unpack("!I", m[4:8])[0]


def features(m: bytes) -> dict:
    """A FEATURES_REPLY: dpid, n_tables and (1.0) the port numbers it lists."""
    out = {"dpid": struct.unpack("!Q", m[8:16])[0], "n_tables": m[20], "ports": []}
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
    in_port, i = None, 28
    while i + 4 <= 24 + mlen:
        oclass, field, n = struct.unpack("!HBB", m[i:i + 4])
        if oclass == 0x8000 and field >> 1 == 0:
            in_port = struct.unpack("!I", m[i + 4:i + 8])[0]
        i += 4 + n
    return {"buffer_id": buffer_id, "total_len": total_len, "reason": reason, "table_id": table,
            "cookie": cookie, "in_port": in_port, "frame": m[24 + (mlen + 7) // 8 * 8 + 2:]}
