"""Why Faucet needs the engine's ``faucet`` traffic profile (docs/robustness.md, "Faucet"):
one hand-made OpenFlow 1.3 switch connects to Faucet, comes up, and sends packet-ins that
differ in one property at a time; what Faucet sends back to each is recorded.

The other profiles' packet-ins are table misses: cookie 0, reason NO_MATCH,
untagged frames, one buffer id per request, answered when a flow-mod or packet-out names that
buffer (or carries the frame). Faucet (1.10) drops a packet-in whose cookie is not its own
(``strict_packet_in_cookie``), whose reason is not ACTION, or whose frame carries no VLAN it
knows; and when it does learn a host it answers with flow-mods that name no buffer and no
packet-out (the frame goes on through the switch's own tables). Each of these is shown here
against the real Faucet.

    .venv/bin/python -m sdnbench.robustness.faucet_probe      # launches faucet:auto, prints a table
"""

from __future__ import annotations

import socket
import struct
import time
from typing import Optional

OFP13 = 4
FAUCET_COOKIE = 0x5ADC15C0          # Faucet's default dp cookie (1524372928)
NO_BUFFER = 0xFFFFFFFF
R_NO_MATCH, R_ACTION = 0, 1
VID = 100                           # the VLAN of faucet_config (faucet:auto)
NAMES = {0: "hello", 2: "echo_request", 5: "features_request", 9: "set_config", 10: "packet_in", 13: "packet_out",
         14: "flow_mod", 15: "group_mod", 16: "port_mod", 18: "multipart_request", 20: "barrier_request",
         24: "role_request", 28: "set_async", 29: "meter_mod"}


def msg(typ: int, body: bytes = b"", xid: int = 0) -> bytes:
    return struct.pack("!BBHI", OFP13, typ, 8 + len(body), xid) + body


def port_desc(ports) -> bytes:
    return b"".join(struct.pack("!I4x6s2x16sIIIIIIII", p, bytes([2, 0, 0, 0, 0, p]), f"port{p}".encode(),
                                0, 4, 0x2820, 0, 0, 0, 10_000_000, 10_000_000) for p in ports)   # state LIVE


def frame(src_mac: bytes, vid: Optional[int]) -> bytes:
    """A 64-byte IPv4/UDP frame from ``src_mac`` to a unicast MAC, 802.1Q-tagged when ``vid``."""
    dst = bytes([0x02, 0, 0, 0, 0xfe, 0x01])
    tag = struct.pack("!HH", 0x8100, vid) if vid is not None else b""
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 28, 1, 0, 64, 17, 0, bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
    udp = struct.pack("!HHHH", 1024, 9, 8, 0)
    f = dst + src_mac + tag + struct.pack("!H", 0x0800) + ip + udp
    return f + bytes(max(0, 64 - len(f)))


def packet_in(buffer_id: int, reason: int, cookie: int, in_port: int, data: bytes, xid: int) -> bytes:
    oxm = struct.pack("!II", 0x80000004, in_port)          # OXM in_port
    match = struct.pack("!HH", 1, 4 + len(oxm)) + oxm
    match += bytes((8 - len(match) % 8) % 8)
    body = struct.pack("!IHBBQ", buffer_id, len(data), reason, 0, cookie) + match + b"\0\0" + data
    return msg(10, body, xid)


class Switch:
    """A minimal OF1.3 switch: handshake, port description, barriers and echoes answered."""

    def __init__(self, host: str, port: int, dpid: int, ports=(1, 2, 3, 4)):
        self.s = socket.create_connection((host, port), timeout=3)
        self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.dpid, self.ports, self.buf = dpid, ports, b""
        self.s.sendall(msg(0, struct.pack("!HHI", 1, 8, 1 << OFP13)))

    def _answer(self, typ: int, xid: int, body: bytes) -> None:
        if typ == 5:
            self.s.sendall(msg(6, struct.pack("!QIBB2xII", self.dpid, 256, 254, 0, 0x4F, 0), xid))
        elif typ == 2:
            self.s.sendall(msg(3, body, xid))
        elif typ == 20:
            self.s.sendall(msg(21, b"", xid))
        elif typ == 18:
            mp = struct.unpack("!H", body[:2])[0]
            reply = port_desc(self.ports) if mp == 13 else bytes(1056) if mp == 0 else b""
            self.s.sendall(msg(19, struct.pack("!HH4x", mp, 0) + reply, xid))

    def pump(self, seconds: float) -> list:
        """Read and answer for ``seconds``; return [(type, body)] of what the controller sent."""
        got, end = [], time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            self.s.settimeout(left)
            try:
                chunk = self.s.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                got.append((-1, b""))
                break
            self.buf += chunk
            while len(self.buf) >= 8:
                _, typ, n, xid = struct.unpack("!BBHI", self.buf[:8])
                if len(self.buf) < n:
                    break
                body, self.buf = self.buf[8:n], self.buf[n:]
                got.append((typ, body))
                self._answer(typ, xid, body)
        return got

    def close(self) -> None:
        self.s.close()


VARIANTS = (
    # name, cookie, reason, vid, buffered
    ("engine's packet-in (cookie 0, NO_MATCH, untagged, buffered)", 0, R_NO_MATCH, None, True),
    ("Faucet's cookie, NO_MATCH, tagged", FAUCET_COOKIE, R_NO_MATCH, VID, True),
    ("Faucet's cookie, ACTION, untagged", FAUCET_COOKIE, R_ACTION, None, True),
    ("Faucet's cookie, ACTION, VLAN 100 (as OVS sends it), buffered", FAUCET_COOKIE, R_ACTION, VID, True),
    ("the same host again", FAUCET_COOKIE, R_ACTION, VID, True),
)


def summarize(replies: list, buffer_id: int) -> dict:
    """What came back for one packet-in: counts by type, and whether anything named its buffer."""
    counts: dict = {}
    named, tables = False, []
    for typ, body in replies:
        counts[NAMES.get(typ, str(typ))] = counts.get(NAMES.get(typ, str(typ)), 0) + 1
        if typ == 14 and len(body) >= 28:       # flow_mod: table_id at 16, buffer_id at 24
            tables.append(body[16])
            named |= struct.unpack("!I", body[24:28])[0] == buffer_id
        if typ == 13 and len(body) >= 4:        # packet_out: buffer_id first
            named |= struct.unpack("!I", body[:4])[0] == buffer_id
    return {"replies": counts, "names_the_request": named, "flow_mod_tables": tables}


def probe(host: str, port: int, dpid: int = 1, wait: float = 1.0, setup_s: float = 3.0) -> list:
    """Bring one switch up at Faucet, then send each variant (a new source MAC each, except
    "the same host again") and record Faucet's answer within ``wait`` seconds."""
    sw = Switch(host, port, dpid)
    try:
        setup = sw.pump(setup_s)
        flows = sum(1 for t, _ in setup if t == 14)
        out = [{"variant": "switch comes up", "replies": {"flow_mod": flows}, "names_the_request": False}]
        for i, (name, cookie, reason, vid, buffered) in enumerate(VARIANTS):
            mac_i = i if name != "the same host again" else i - 1
            bid = 0x100 + i if buffered else NO_BUFFER
            sw.s.sendall(packet_in(bid, reason, cookie, 1, frame(bytes([0x02, 0xaa, 0, 0, 0, 0x10 + mac_i]), vid), 0x900 + i))
            out.append(dict(variant=name, **summarize(sw.pump(wait), bid)))
        return out
    finally:
        sw.close()


def main() -> int:
    from .. import output
    from ..controllers import launch
    from ..engine.params import check, launch_spec
    with launch(launch_spec(check({"controller": "faucet:auto", "switches": 4})), of_version="1.3") as ctl:
        rows = probe(ctl.host, ctl.port)
    print(output.table(["packet-in", "Faucet sent back", "flow-mod tables", "names the request"],
                       [[r["variant"], ", ".join(f"{k} {n}" for k, n in r["replies"].items()) or "nothing",
                         ",".join(map(str, r.get("flow_mod_tables", []))) if r["variant"] != "switch comes up" else "",
                         "yes" if r["names_the_request"] else "no"] for r in rows], align="llll"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
