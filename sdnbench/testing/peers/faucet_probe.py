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

    .venv/bin/python -m sdnbench.testing.peers.faucet_probe      # launches faucet:auto, prints a table
"""

from __future__ import annotations

import socket
import struct
import time
from typing import Optional

from sdnbench import output
from sdnbench.controllers import launch
from sdnbench.engine.params import check, launch_spec
from sdnbench.testing import openflow as of

FAUCET_COOKIE = 0x5ADC15C0          # Faucet's default dp cookie (1524372928)
NO_BUFFER = of.NO_BUFFER
R_NO_MATCH, R_ACTION = 0, 1
VID = 100                           # the VLAN of faucet_config (faucet:auto)
N_TABLES, N_BUFFERS, CAPABILITIES = 254, 256, 0x4F      # what the switch announces


def name(m: bytes) -> str:
    """A message's type name as the table prints it (``flow_mod``); ``closed`` for the end of the connection."""
    return of.name_of(m).lower() if m else "closed"


def frame(src_mac: bytes, vid: Optional[int]) -> bytes:
    """A 64-byte IPv4/UDP frame from ``src_mac`` to a unicast MAC, 802.1Q-tagged when ``vid``."""
    dst = bytes([0x02, 0, 0, 0, 0xfe, 0x01])
    tag = struct.pack("!HH", 0x8100, vid) if vid is not None else b""
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 28, 1, 0, 64, 17, 0, bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
    udp = struct.pack("!HHHH", 1024, 9, 8, 0)
    f = dst + src_mac + tag + struct.pack("!H", 0x0800) + ip + udp
    return f + bytes(max(0, 64 - len(f)))


def packet_in(buffer_id: int, reason: int, cookie: int, in_port: int, data: bytes, xid: int) -> bytes:
    """A 1.3 PACKET_IN from table 0 matching IN_PORT ``in_port``."""
    return of.packet_in13(xid, in_port, data, buffer_id, reason=reason, cookie=cookie)


def port_desc(ports) -> bytes:
    """The PORT_DESC body: each port up and LIVE (curr 0x2820: 1GB_FD, copper, autoneg; speeds 10,000,000 kb/s)."""
    return b"".join(of.port13(p, bytes([2, 0, 0, 0, 0, p]), f"port{p}", state=of.OFPPS_LIVE, curr=0x2820,
                              curr_speed=10_000_000, max_speed=10_000_000) for p in ports)


class Switch:
    """A minimal OF1.3 switch: handshake, port description, barriers and echoes answered
    (messages from ``sdnbench.testing.openflow``)."""

    def __init__(self, host: str, port: int, dpid: int, ports=(1, 2, 3, 4)):
        self.s = socket.create_connection((host, port), timeout=3)
        self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.dpid, self.ports, self.buf = dpid, ports, b""
        self.s.sendall(of.hello(of.V13, xid=0, versions=[of.V13]))

    def _answer(self, m: bytes) -> None:
        kind, xid = name(m), of.xid_of(m)
        if kind == "features_request":
            self.s.sendall(of.features_reply13(xid, self.dpid, N_TABLES, N_BUFFERS, capabilities=CAPABILITIES))
        elif kind == "echo_request":
            self.s.sendall(of.echo_reply(m))
        elif kind == "barrier_request":
            self.s.sendall(of.msg(of.V13, "BARRIER_REPLY", xid))
        elif kind == "multipart_request":
            mp = of.multipart_type(m)
            body = port_desc(self.ports) if mp == of.PORT_DESC else \
                of.desc_body("", "", "", "", "") if mp == of.MP_DESC else b""
            self.s.sendall(of.multipart_reply(xid, mp, body))

    def pump(self, seconds: float) -> list:
        """Read and answer for ``seconds``; return the messages the controller sent (``b""`` last
        when it closed the connection)."""
        got, end = [], time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            self.s.settimeout(left)
            try:
                chunk = self.s.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                got.append(b"")
                break
            msgs, self.buf = of.split(self.buf + chunk)
            for m in msgs:
                got.append(m)
                self._answer(m)
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
    for m in replies:
        kind = name(m)
        counts[kind] = counts.get(kind, 0) + 1
        if kind == "flow_mod" and len(m) >= 36:
            fm = of.flow_mod(m)
            tables.append(fm["table_id"])
            named |= fm["buffer_id"] == buffer_id
        if kind == "packet_out" and len(m) >= 12:
            named |= of.buffer_id(m) == buffer_id
    return {"replies": counts, "names_the_request": named, "flow_mod_tables": tables}


def probe(host: str, port: int, dpid: int = 1, wait: float = 1.0, setup_s: float = 3.0) -> list:
    """Bring one switch up at Faucet, then send each variant (a new source MAC each, except
    "the same host again") and record Faucet's answer within ``wait`` seconds."""
    sw = Switch(host, port, dpid)
    try:
        setup = sw.pump(setup_s)
        flows = sum(1 for m in setup if name(m) == "flow_mod")
        out = [{"variant": "switch comes up", "replies": {"flow_mod": flows}, "names_the_request": False}]
        for i, (variant, cookie, reason, vid, buffered) in enumerate(VARIANTS):
            mac_i = i if variant != "the same host again" else i - 1
            bid = 0x100 + i if buffered else NO_BUFFER
            sw.s.sendall(packet_in(bid, reason, cookie, 1, frame(bytes([0x02, 0xaa, 0, 0, 0, 0x10 + mac_i]), vid), 0x900 + i))
            out.append(dict(variant=variant, **summarize(sw.pump(wait), bid)))
        return out
    finally:
        sw.close()


def main() -> int:
    with launch(launch_spec(check({"controller": "faucet:auto", "switches": 4})), of_version="1.3") as ctl:
        rows = probe(ctl.host, ctl.port)
    print(output.table(["packet-in", "Faucet sent back", "flow-mod tables", "names the request"],
                       [[r["variant"], ", ".join(f"{k} {n}" for k, n in r["replies"].items()) or "nothing",
                         ",".join(map(str, r.get("flow_mod_tables", []))) if r["variant"] != "switch comes up" else "",
                         "yes" if r["names_the_request"] else "no"] for r in rows], align="llll"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
